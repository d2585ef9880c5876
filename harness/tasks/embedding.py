"""The embedding task (Table 3.2): fit a method, measure its embedding with the
three metrics of thesis 3.1.9 (eqs. 3.27-3.29)."""

from __future__ import annotations

import time

import numpy as np

from harness.metrics import embedding_quality
from harness.plugin import Dataset, ExpectedFailure

__all__ = ["MEASURES", "run_embedding", "BadInputError"]

MEASURES = ("local_continuity", "local_trust", "neighborhood_intersection")


class BadInputError(ExpectedFailure):
    """The data or parameters of one cell are unusable; the cell is marked, not crashed."""


def _check(dataset: Dataset, params: dict) -> None:
    X = dataset.X
    n = X.shape[0]
    if n < 2:
        raise BadInputError(f"data set has {n} sample(s); an embedding needs at least 2")
    bad = ~np.isfinite(X).all(axis=1)
    if bad.any():
        raise BadInputError(
            f"X contains NaN or infinity in {int(bad.sum())} of {n} rows "
            f"(first: row {int(np.flatnonzero(bad)[0])}); clean the data set"
        )
    for key in ("n_neighbors", "n_components"):
        value = params["method_params"].get(key)
        if value is not None and value >= n:
            raise BadInputError(f"{key}={value} must be below n_samples={n}")
    if params["eval_neighbors"] >= n:
        raise BadInputError(
            f"eval_neighbors (l) = {params['eval_neighbors']} must be below n_samples={n}"
        )


def run_embedding(method_cls: type, dataset: Dataset, params: dict, seed: int) -> dict:
    """One run: construct the method with the cell's parameters, embed, measure.

    The method gets ``random_state=seed`` when it takes one, and NumPy's legacy global
    RNG is seeded too (some scikit-learn eigen-solvers draw start vectors from it).
    Returns ``{"measures": {...}, "fit_seconds", "fit_cpu_seconds", "info": {...}}``.
    """
    _check(dataset, params)
    estimator = method_cls(**params["method_params"])
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=seed)
    np.random.seed(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        Y = estimator.fit_transform(dataset.X)
    except ExpectedFailure:
        raise
    except (ValueError, np.linalg.LinAlgError) as exc:
        raise BadInputError(f"{method_cls.name} rejected the input: {exc}") from exc
    fit_seconds, fit_cpu = time.perf_counter() - wall, time.process_time() - cpu
    measures = embedding_quality(dataset.X, Y, n_neighbors=params["eval_neighbors"])
    info = {"output_shape": list(Y.shape)}
    for attr in ("reconstruction_error_", "explained_variance_", "eigenvalues_",
                 "solve_info_"):
        if hasattr(estimator, attr):
            info[attr.rstrip("_")] = getattr(estimator, attr)
    return {"measures": measures, "fit_seconds": fit_seconds, "fit_cpu_seconds": fit_cpu,
            "info": info}
