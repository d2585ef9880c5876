"""One job of the mu sweep (thesis 2.1.3, eq. 2.8; 2.1.6).

``kind == "sweep"``: Table 2.1's classification cell (:func:`harness.results.common.
grid.work`, PCA-LMNN with the job's mu) whose runs first make the data set's splits
random (:func:`sweep_run`): a data set with a pre-defined split (MNIST) is pooled, and
a ``pool_size`` draws a seeded stratified subsample per run; then
:func:`harness.tasks.classification.run_classification` splits 70/30 on the run's
seed and measures the kNN and energy (2.12) test errors.

``kind == "collapse"``: LMNN (:class:`harness.methods.lmnn.LMNN`) with mu = 0, the pull term
(2.5) alone, on all points of the data set: ``||M||_F`` of the start ``L0^T L0``
(:func:`harness.methods.shared.lmnn_solvers.initial_L`, the fit's own start) and of the end, and the
same fit with mu = 0.5 for contrast.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results.common.work.grid import sources as grid_sources
from harness.results.common.work.grid import work as grid_work
from harness.tasks.classification import run_classification, split_indices

__all__ = ["POOL_SEED_OFFSET", "random_splits", "sweep_run", "collapse", "work", "sources"]

#: the subsample of run r is drawn with seed ``seed + r + POOL_SEED_OFFSET`` (its split
#: with ``seed + r``), so that the two draws differ
POOL_SEED_OFFSET = 1_000_003


def random_splits(dataset, pool_size: int | None, seed: int):
    """``dataset`` without a pre-defined split (its parts pooled) and, with
    ``pool_size``, a seeded stratified subsample of that many points."""
    meta = {**dataset.meta, "split_protocol": None}
    X, y = dataset.X, np.asarray(dataset.y)
    if pool_size is not None and pool_size < len(y):
        keep, _ = split_indices(y, pool_size / len(y), seed + POOL_SEED_OFFSET)
        X, y = X[keep], y[keep]
    return dataclasses.replace(dataset, X=X, y=y, meta=meta)


def sweep_run(method_cls: type, dataset, params: dict, seed: int) -> dict:
    """One run: :func:`random_splits`, then Table 2.1's classification run."""
    pooled = random_splits(dataset, params.get("pool_size"), seed)
    return run_classification(method_cls, pooled, params, seed)


def _norm_M(L: np.ndarray) -> float:
    return float(np.linalg.norm(L.T @ L))


def collapse(params: dict) -> dict:
    """LMNN with mu = 0 and mu = 0.5 on the whole data set: ``||M||_F`` before and
    after (the record body)."""
    from harness.methods.shared.lmnn_solvers import initial_L
    from harness.methods.lmnn import LMNN

    with threadpool_limits(limits=params["blas_threads"]):
        try:
            data = registry.get_dataset(params["dataset"])().load(**params["dataset_params"])
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        X, y = data.X, np.asarray(data.y)
        fits = {}
        for mu in (0.0, 0.5):
            est = LMNN(**params["method_params"], mu=mu).fit(X, y)
            fits[mu] = est
        start = initial_L(X, fits[0.0].target_neighbors_, X.shape[1], "pca")
        pull = fits[0.0]
        return {"status": "ok", "reason": "", "n_samples": int(len(y)),
                "norm_initial": _norm_M(start), "norm_final": float(np.linalg.norm(pull.metric_)),
                "norm_final_mu_half": float(np.linalg.norm(fits[0.5].metric_)),
                "loss_curve": pull.loss_curve_.tolist(), "n_iter": pull.n_iter_,
                "converged": pull.converged_, "blas_during_run": blas_info()}


def work(params: dict) -> dict:
    """The child's work for one job (see the module docstring)."""
    if params["kind"] == "collapse":
        return collapse(params)
    return grid_work(params, run=sweep_run)


def sources(params: dict) -> list:
    """The plugins the job finds by name (the method and the data set)."""
    return grid_sources(params)
