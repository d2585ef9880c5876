"""One point of Fig. 2.17 (thesis 2.1.8 "LMNN for Dimensionality Reduction", 2.1.9
"Ball Trees with LMNN preprocessing"): the 3-NN test error on MNIST after a linear
reduction to r dimensions, the job code of :mod:`harness.results.fig_2_17`.

Kinds of job (``params["method"]``):

``baseline``
    3-NN on the "raw (high dimensional) input data" (2.1.9): the 784 pixels, once
    deskewed and once not (both measured in one job; the figure's ``baseline_input``
    chooses which one is the baseline, an aggregation-only choice).
``pca``
    3-NN after projecting the (PCA-350) input on its r leading principal directions
    (fitted on the training part).
``lmnn_rec``
    LMNN (2.11) with a rectangular ``L`` of r x d (``LMNN(n_components=r)``,
    L-BFGS; non-convex, 2.1.8 item 2), then 3-NN on ``L x``.
``lmnn_sq``
    LMNN with a square d x d ``L`` (2.1.8 item 1), fitted once; then for every r of
    ``dimensions`` the 3-NN error after both readings of "project the data onto the
    r leading eigenvectors of the output matrix L" (:func:`square_reductions`).

The ball-tree speed-up on top of the thesis' figure (2.1.9: "It mostly only depends on
the dimensionality, independent of the method of reduction"), measured on each
reduction's own projected data, the same training and test digits for all three:
every ``pca``, ``lmnn_rec`` job and, per r and projection, the ``lmnn_sq`` job time the
3-NN query of scikit-learn's ball tree on their r-D training / test data
(:func:`tree_search`: Fig. 2.13's tree, leaf size and CPU-time rounds, and its count of
coordinate operations); the ``baseline`` job times the thesis' naive search in the
784 deskewed pixels (:func:`naive_search`, Fig. 2.13's baseline), so that a speed-up
is Fig. 2.13's: naive 784-D time over ball-tree r-D time.

Every LMNN and PCA point uses the input the thesis describes: deskewed MNIST, PCA to
``d = 350`` dimensions fitted on the training images (2.1.9: "pre-processed with PCA
(see Section 2.1.6)", "r x 350"). Data unavailable offline is a marked record naming
``harness fetch mnist``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import BallTree
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import knn_test_error
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.methods.lmnn import LMNN
from harness.methods.shared.lmnn_impostors import LEAF_SIZE
from harness.results.common.work.balltree_point import (
    CLOCK, WORK, cpu_timings, naive_knn, pca_rotation,
)
from harness.methods.pca_knn import pca_map
from harness.timelimit import cpu_clock

__all__ = ["KINDS", "PROJECTIONS", "BASELINE_INPUTS", "TIMING_ROUNDS", "square_reductions",
           "tree_search", "naive_search", "work", "sources"]

KINDS = ("baseline", "pca", "lmnn_rec", "lmnn_sq")
#: the two readings of LMNN (sq)'s projection (see :func:`square_reductions`)
PROJECTIONS = ("metric_eigenvectors", "pca_of_Lx")
#: the two candidate baselines: 784 deskewed pixels, 784 pixels as published
BASELINE_INPUTS = {"deskewed": True, "pixels": False}
#: interleaved CPU-time rounds of every timed search (Fig. 2.13's quick and full profiles)
TIMING_ROUNDS = 3


def _timed(name: str, search, rounds: int) -> tuple[dict, object]:
    """``search`` timed by :func:`cpu_timings` (one search, ``rounds`` rounds): its
    timing entry with ``contention``, ``clock`` and ``work_unit``, and its last output."""
    timings, outputs, contention = cpu_timings({name: search}, rounds)
    return ({**timings[name], "contention": contention, "clock": CLOCK, "work_unit": WORK},
            outputs[name])


def tree_search(Z_train: np.ndarray, Z_test: np.ndarray, k: int,
                rounds: int = TIMING_ROUNDS) -> dict:
    """Time the k-NN query of the test points in scikit-learn's ball tree of the training
    points (both already reduced to r dimensions), as Fig. 2.13 times its ``balltree``
    (leaf size ``LEAF_SIZE``, the tree built once and untimed, process CPU time, best of
    ``rounds`` rounds): ``seconds``, ``spread`` (the rounds' max / min - 1), ``work``
    (``get_n_calls()`` x r coordinate operations of one query, :data:`WORK`),
    ``build_seconds``, ``contention``."""
    train = np.ascontiguousarray(Z_train, dtype=np.float64)
    test = np.ascontiguousarray(Z_test, dtype=np.float64)
    start = cpu_clock()
    tree = BallTree(train, leaf_size=LEAF_SIZE)
    build = cpu_clock() - start
    tree.reset_n_calls()
    tree.query(test, k=k)
    work = int(tree.get_n_calls()) * train.shape[1]
    entry, _ = _timed("balltree", lambda: tree.query(test, k=k), rounds)
    return {**entry, "work": work, "build_seconds": build}


def naive_search(X_train: np.ndarray, X_test: np.ndarray, k: int,
                 rounds: int = TIMING_ROUNDS) -> dict:
    """Time the thesis' naive k-NN search in all dimensions of the inputs (rotated by
    their PCA so that the dimensions are sorted, Fig. 2.13's 784-D baseline), as
    :func:`tree_search` does; ``work``: the coordinates it sums (:data:`WORK`)."""
    mean, V = pca_rotation(np.asarray(X_train, dtype=np.float64))
    train = np.ascontiguousarray((X_train - mean) @ V)
    test = np.ascontiguousarray((X_test - mean) @ V)
    naive_knn(train[:2], test[:1], 1)  # compile outside the timing
    entry, (_, _, work) = _timed("naive", lambda: naive_knn(train, test, k), rounds)
    return {**entry, "work": int(work)}


def square_reductions(L: np.ndarray, X_train: np.ndarray, dimensions
                      ) -> dict[int, dict[str, np.ndarray]]:
    """For every r of ``dimensions``, the r x d maps of the two readings of "the data was projected onto the r
    leading eigenvectors of the output matrix L" (2.1.9) for a square ``L``.

    ``metric_eigenvectors``: with ``L = U S V^T``, ``L_r = S_r V_r^T`` (= ``U_r^T L``),
    i.e. ``x`` projected on the r leading eigenvectors of ``M = L^T L`` and scaled by
    the square roots of their eigenvalues, so that ``||L_r (x - x')||^2`` is the
    distance under the best rank-r approximation of ``M``.
    ``pca_of_Lx``: ``L_r = P_r L`` with ``P_r`` the r leading principal directions of
    the mapped training inputs ``{L x_i}`` (2.1.8: "equivalent to applying PCA after
    the transformation x -> L x"). The two agree when the mapped training inputs'
    covariance shares ``L``'s left singular vectors (e.g. whitened inputs), not in
    general. Both are computed once for the largest r (the leading r of either are
    the leading r of more).
    """
    _, s, Vt = np.linalg.svd(L, full_matrices=False)
    directions, _ = pca_map(X_train @ L.T, max(dimensions))
    return {int(r): {"metric_eigenvectors": s[:r, None] * Vt[:r], "pca_of_Lx": directions[:r] @ L}
            for r in dimensions}


def _load(params: dict, **overrides):
    cls = registry.get_dataset(params["dataset"])
    dataset = cls().load(**{**params["dataset_params"], **overrides})
    n = dataset.meta["split_protocol"]["n_train"]
    X, y = dataset.X, np.asarray(dataset.y)
    return X[:n], y[:n], X[n:], y[n:], dataset.meta


def _error_pct(parts, k: int, L=None) -> float:
    X_train, y_train, X_test, y_test = parts
    return 100.0 * knn_test_error(X_train, y_train, X_test, y_test, k, L)


def _fit_lmnn(X, y, params: dict, n_components) -> tuple[LMNN, dict]:
    model = LMNN(n_neighbors=params["n_neighbors"], n_components=n_components,
                 **params["lmnn_params"])
    wall, cpu = time.perf_counter(), cpu_clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # recorded as converged
        model.fit(X, y)
    return model, {"fit_cpu_seconds": cpu_clock() - cpu,
                   "fit_wall_seconds": time.perf_counter() - wall,
                   "n_iter": int(model.n_iter_), "converged": bool(model.converged_),
                   "loss": float(model.loss_), "n_active": int(model.n_active_)}


def _baseline(params: dict) -> dict:
    errors, sizes, naive = {}, {}, None
    for name, deskew in BASELINE_INPUTS.items():
        X_train, y_train, X_test, y_test, _ = _load(params, deskew=deskew, n_components=None)
        errors[name] = _error_pct((X_train, y_train, X_test, y_test), params["n_neighbors"])
        sizes = {"n_train": len(y_train), "n_test": len(y_test), "n_features": X_train.shape[1]}
        if deskew:  # the 784 deskewed pixels the reductions start from (Fig. 2.13's)
            naive = naive_search(X_train, X_test, params["n_neighbors"])
    return {"errors": errors, **sizes, "naive784": naive}


def _reduced(params: dict) -> dict:
    X_train, y_train, X_test, y_test, meta = _load(params)
    parts = (X_train, y_train, X_test, y_test)
    k, r = params["n_neighbors"], params.get("n_components")
    body = {"n_train": len(y_train), "n_test": len(y_test), "n_features": X_train.shape[1],
            "pca_variance_captured": meta.get("pca_variance_captured")}
    if params["method"] == "pca":
        start = cpu_clock()
        L, _ = pca_map(X_train, r)
        body["fit_cpu_seconds"] = cpu_clock() - start
        body["error_pct"] = _error_pct(parts, k, L)
        body["balltree"] = tree_search(X_train @ L.T, X_test @ L.T, k)
        return body
    model, fit = _fit_lmnn(X_train, y_train, params, r)
    body.update(fit)
    start = time.perf_counter()
    if params["method"] == "lmnn_rec":
        body["error_pct"] = _error_pct(parts, k, model.components_)
        L = model.components_
        body["eval_seconds"] = time.perf_counter() - start
        body["balltree"] = tree_search(X_train @ L.T, X_test @ L.T, k)
        return body
    body["full_error_pct"] = _error_pct(parts, k, model.components_)
    maps = square_reductions(model.components_, X_train, params["dimensions"])
    body["errors_by_dimension"] = [
        {"n_components": dim, **{name: _error_pct(parts, k, m) for name, m in by.items()}}
        for dim, by in maps.items()]
    body["eval_seconds"] = time.perf_counter() - start
    body["balltree_by_dimension"] = [
        {"n_components": dim, **{name: tree_search(X_train @ m.T, X_test @ m.T, k)
                                 for name, m in by.items()}}
        for dim, by in maps.items()]
    return body


def work(params: dict) -> dict:
    """The child's work for one point; returns the record body (module docstring).
    Data unavailable offline (or another expected failure) is a marked body."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            body = _baseline(params) if params["method"] == "baseline" else _reduced(params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        body["blas_during_run"] = blas_info()
    return {"status": "ok", "reason": "", **body}


def sources(params: dict) -> list:
    """The data set plugin the point finds by name (the LMNN and PCA code is imported
    here and counts already)."""
    return [registry.get_dataset(params["dataset"])]
