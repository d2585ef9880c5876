"""One kernel PCA of one data set, measured: the job of Figs. 3.32-3.35.

A job is one (data set, kernel) pair, ``fig_3_32_35/<dataset>/<kernel>``, with the
kernels of thesis 3.1.9: ``linear`` (3.46), ``polynomial`` (3.47), ``gaussian``
(3.48) and ``mvu`` (the kernel learned by MVU, certified), each run by its method
plugin (``kpca_<kernel>``, :mod:`harness.methods.shared.kernel_pca`). The work loads the data set
(a generated size or a seeded subsample, :func:`harness.results.common.declare.profile.dataset_choice`),
fits the plugin and keeps what the figure draws and its claims read: the embedding
in ``n_components`` dimensions (2-D panels, Fig. 3.34's 3-D panel), the colouring
(roll parameter, rotation angle, digit), the first ``n_spectrum`` eigenvalues of the
centred kernel and their share of its trace, the shares of the top 1, 2, 3, the
number of eigenvalues that reach 90 % and 95 % of the trace (from the whole
spectrum), the Gaussian's width (and footnote 4's neighbourhood estimate beside it)
and the MVU solve's certificate.

Expected failures (data unavailable offline, a disconnected graph, a solver that
failed, skipped or timed out, bad input) become records with a status and a reason;
anything else is a bug and fails the job.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results.common.work.mvu_point import start_point
from harness.results.fig_3_32_35 import LEVELS
from harness.tasks.embedding import BadInputError

__all__ = ["count_to_level", "kpca_point_work", "kpca_sources", "work", "sources"]

def count_to_level(normalised: np.ndarray, level: float) -> int | None:
    """The fewest leading eigenvalues whose share of the trace reaches ``level``;
    None when the computed ones do not reach it."""
    reached = np.flatnonzero(np.cumsum(normalised) >= level - 1e-12)
    return int(reached[0]) + 1 if reached.size else None


def _fit(params: dict, dataset) -> tuple[Any, float]:
    cls = registry.get_method(params["method"])
    estimator = cls(**params["method_params"])
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=params["seed"])
    start = time.perf_counter()
    try:
        estimator.fit(dataset.X)
    except ExpectedFailure:
        raise
    except (ValueError, np.linalg.LinAlgError) as exc:
        raise BadInputError(f"{cls.name} rejected the input: {exc}") from exc
    return estimator, time.perf_counter() - start


def _spectrum(estimator, m: int) -> dict[str, Any]:
    normalised = np.asarray(estimator.normalised_eigenvalues_, dtype=float)
    out = {"kernel_trace": float(estimator.kernel_trace_),
           "eigenvalues": np.asarray(estimator.kernel_eigenvalues_[:m], dtype=float).tolist(),
           "normalised_eigenvalues": normalised[:m].tolist(),
           "n_eigenvalues_computed": int(normalised.size),
           "shares": {f"top{d}": float(normalised[:d].sum()) for d in (1, 2, 3)}}
    out["n_to_level"] = {f"{level:g}": count_to_level(normalised, level) for level in LEVELS}
    return out


def kpca_point_work(params: dict) -> dict:
    """The child's work for one (data set, kernel) point; returns the record body."""
    cls = registry.get_method(params["method"])
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, body = start_point(params, cls, params.get("solver"))
        if dataset is None:
            return body
        try:
            estimator, seconds = _fit(params, dataset)
        except ExpectedFailure as exc:
            return {**body, "status": exc.status, "reason": str(exc),
                    "error_type": type(exc).__name__}
        body.update(_spectrum(estimator, params["n_spectrum"]), fit_seconds=seconds,
                    embedding=estimator.embedding_.tolist(),
                    colour=None if dataset.y is None else np.asarray(dataset.y, float).tolist(),
                    blas_during_run=blas_info())
        if params["kernel"] == "gaussian":
            body["sigma"] = float(estimator.sigma_)
            body["sigma_auto"] = float(estimator.sigma_auto_)
        if params["kernel"] == "mvu":
            body["solve"] = estimator.solve_info_
    return body


def kpca_sources(params: dict) -> list:
    """The code a point finds by name at run time: the data set and kernel plugins
    (the MVU kernel's solver backend: :func:`harness.jobs.job_sources`)."""
    return [registry.get_dataset(params["dataset"]), registry.get_method(params["method"])]


work, sources = kpca_point_work, kpca_sources
