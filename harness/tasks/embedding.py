"""The embedding task (Table 3.2): fit a method, measure its embedding with the
three metrics of thesis 3.1.9 (eqs. 3.27-3.29)."""

from __future__ import annotations

import inspect
import time

import numpy as np

from harness.metrics import embedding_quality
from harness.plugin import Dataset, ExpectedFailure
from harness.validation import check_embedding_input
from harness.timelimit import cpu_clock

__all__ = ["MEASURES", "run_embedding", "fit_params", "BadInputError"]

MEASURES = ("local_continuity", "local_trust", "neighborhood_intersection")


class BadInputError(ExpectedFailure):
    """The data or parameters of one cell are unusable; the cell is marked, not crashed."""


def _check(dataset: Dataset, params: dict) -> None:
    """The checks every method would make, done once by the harness for any plugin,
    plus the metrics' own neighbourhood size; failures become marked records."""
    method_params = params["method_params"]
    try:
        X = check_embedding_input(dataset.X, n_neighbors=method_params.get("n_neighbors"),
                                  n_components=method_params.get("n_components", 1))
    except ValueError as exc:
        raise BadInputError(str(exc)) from exc
    if params["eval_neighbors"] >= X.shape[0]:
        raise BadInputError(
            f"eval_neighbors (l) = {params['eval_neighbors']} must be below "
            f"n_samples={X.shape[0]}"
        )


def fit_params(estimator, dataset: Dataset) -> dict:
    """The data set's side information (:meth:`harness.plugin.Dataset.fit_params`)
    that ``estimator.fit_transform`` takes by name; the rest is not passed (a method
    that does not know of an action sequence embeds X alone)."""
    offered = dataset.fit_params()
    if not offered:
        return {}
    accepted = inspect.signature(estimator.fit_transform).parameters
    return {k: v for k, v in offered.items() if k in accepted}


def run_embedding(method_cls: type, dataset: Dataset, params: dict, seed: int,
                  keep_embedding: bool = False) -> dict:
    """One run: construct the method with the cell's parameters, embed, measure.

    The method gets ``random_state=seed`` when it takes one, and NumPy's legacy global
    RNG is seeded too (some scikit-learn eigen-solvers draw start vectors from it).
    Side information of the data set (:meth:`harness.plugin.Dataset.fit_params`, e.g.
    an action sequence) goes to ``fit_transform`` as keyword arguments, those that its
    signature names (:func:`fit_params`; their names are in ``info["fit_params"]``).
    Returns ``{"measures": {...}, "fit_seconds", "fit_cpu_seconds", "info": {...}}``,
    and ``"embedding": Y`` with ``keep_embedding`` (for callers that measure more).
    ``info`` holds the method's fitted ``reconstruction_error_``,
    ``explained_variance_``, ``eigenvalues_``, ``solve_info_``, ``bad_edges_``,
    ``eigen_solver_used_`` and ``fit_note_`` (what the fit did differently, e.g. a
    fallback eigensolver; the table's notes show it) where it has them (not None).
    """
    _check(dataset, params)
    estimator = method_cls(**params["method_params"])
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=seed)
    extra = fit_params(estimator, dataset)
    np.random.seed(seed)
    wall, cpu = time.perf_counter(), cpu_clock()
    try:
        Y = estimator.fit_transform(dataset.X, **extra)
    except ExpectedFailure:
        raise
    except (ValueError, np.linalg.LinAlgError) as exc:
        raise BadInputError(f"{method_cls.name} rejected the input: {exc}") from exc
    fit_seconds, fit_cpu = time.perf_counter() - wall, cpu_clock() - cpu
    measures = embedding_quality(dataset.X, Y, n_neighbors=params["eval_neighbors"])
    info = {"output_shape": list(Y.shape)}
    if extra:
        info["fit_params"] = sorted(extra)
    for attr in ("reconstruction_error_", "explained_variance_", "eigenvalues_",
                 "solve_info_", "bad_edges_", "eigen_solver_used_", "fit_note_"):
        if getattr(estimator, attr, None) is not None:
            info[attr.rstrip("_")] = getattr(estimator, attr)
    result = {"measures": measures, "fit_seconds": fit_seconds, "fit_cpu_seconds": fit_cpu,
              "info": info}
    return {**result, "embedding": Y} if keep_embedding else result
