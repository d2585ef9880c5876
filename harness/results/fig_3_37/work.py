"""One job of Fig. 3.37 (thesis 3.1.9, "Discussion"): the eigenvalues of Isomap's
similarity matrix or of MVU's learned kernel on one data set.

Isomap's matrix is ``-1/2 J G^2 J`` with ``G`` the shortest-path distances on the
k-nearest-neighbour graph (:func:`harness.methods.isomap.isomap_gram`, thesis 3.2.1); MVU's
is its kernel ``K = F F^T`` (:class:`harness.methods.mvu.MVU`, the SDP of 3.1.4, its solve
certified by the harness). Both are formed as dense symmetric n x n matrices and
diagonalised by the same LAPACK routine (``numpy.linalg.eigvalsh``), so that the
negative eigenvalues of the two are measured alike: Isomap's are the thesis' point,
MVU's can only be rounding (its kernel is positive semidefinite by construction).

The record keeps the :data:`N_KEPT` eigenvalues of largest magnitude (signed), the
largest and the most negative eigenvalue, the sums of the positive and of the
negative ones and the MVU solve; the figure (:mod:`harness.results.fig_3_37`) shows
the leading twenty, normalised by the largest.
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
from harness.results.fig_3_37 import METHODS
from harness.tasks.embedding import BadInputError

__all__ = ["METHODS", "N_KEPT", "leading_by_magnitude", "spectrum_summary",
           "similarity_matrix", "work", "sources"]

N_KEPT = 50  # eigenvalues of largest magnitude kept in a record


def leading_by_magnitude(eigenvalues, m: int) -> np.ndarray:
    """The ``m`` eigenvalues of largest magnitude, signed, largest magnitude first."""
    values = np.asarray(eigenvalues, dtype=float)
    return values[np.argsort(-np.abs(values), kind="stable")[:m]]


def spectrum_summary(eigenvalues) -> dict[str, Any]:
    """What Fig. 3.37 reads off a symmetric matrix' spectrum: the largest and the most
    negative eigenvalue, their ratio (``most_negative / largest``; 0 without a
    negative eigenvalue), the sums of the positive and the negative eigenvalues and the
    :data:`N_KEPT` of largest magnitude."""
    values = np.asarray(eigenvalues, dtype=float)
    largest = float(values.max())
    most_negative = float(min(values.min(), 0.0))
    return {
        "n": int(values.size), "largest": largest, "most_negative": most_negative,
        "negative_ratio": most_negative / largest if largest > 0 else float("nan"),
        "positive_sum": float(values[values > 0].sum()),
        "negative_sum": float(values[values < 0].sum()),
        "leading": leading_by_magnitude(values, N_KEPT).tolist(),
    }


def similarity_matrix(method: str, X: np.ndarray, params: dict) -> tuple[np.ndarray, dict]:
    """Isomap's ``-1/2 J G^2 J`` or MVU's ``F F^T`` on ``X`` (n x n), and the fit's
    info (MVU: its certified solve).

    Raises
    ------
    ExpectedFailure
        A disconnected k-NN graph, a failed solve, bad input (duplicate points).
    """
    cls = registry.get_method(method)
    k = params["n_neighbors"]
    if method == "isomap":
        estimator = cls(n_neighbors=k, n_components=2, path_method="D")
    else:
        estimator = cls(n_neighbors=k, n_components=2, solver=params["solver"],
                        time_limit=params["mvu_time_limit"], random_state=params["seed"])
    started = time.perf_counter()
    try:
        estimator.fit(X)
    except ExpectedFailure:
        raise
    except ValueError as exc:
        raise BadInputError(f"{method} rejected the input: {exc}") from None
    info: dict[str, Any] = {"fit_seconds": time.perf_counter() - started}
    if method == "isomap":
        return estimator.gram_matrix(), info
    solve = estimator.solve_info_
    info["solve"] = {key: solve.get(key) for key in ("status", "reason", "solver", "gap",
                                                     "violation", "value", "bound", "rank",
                                                     "method", "wall_seconds")}
    F = estimator.kernel_factor_
    return F @ F.T, info


def work(params: dict) -> dict:
    """The child's work for one (data set, method); returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, body = start_point(params, registry.get_method(params["method"]),
                                    params.get("solver"))
        if dataset is None:
            return body
        try:
            S, info = similarity_matrix(params["method"], dataset.X, params)
        except ExpectedFailure as exc:
            return {**body, "status": exc.status, "reason": str(exc),
                    "error_type": type(exc).__name__}
        started = time.perf_counter()
        eigenvalues = np.linalg.eigvalsh(S)
        body.update(info, spectrum=spectrum_summary(eigenvalues),
                    eigh_seconds=time.perf_counter() - started,
                    symmetry_error=float(np.abs(S - S.T).max()),
                    blas_during_run=blas_info())
    return body


def sources(params: dict) -> list:
    """The data set and method plugins (MVU's solver backend:
    :func:`harness.jobs.job_sources`)."""
    return [registry.get_dataset(params["dataset"]), registry.get_method(params["method"])]
