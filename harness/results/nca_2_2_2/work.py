"""One job of the section 2.2.2 NCA speed checks.

* ``gradient``: CPU seconds of NCA's gradient (2.34) on Gaussian data against n (at
  fixed d) and against d (at fixed n), two ways: *as written*, per point i the sum
  over pairs of ``p_ik x_ik x_ik^T`` (every pair's outer product, vectorised over k:
  n d^2 per point), and in *matrix form*, ``2 A X^T (diag(W 1 + W^T 1) - W - W^T) X``
  (:func:`harness.results.nca_local_minima.objectives.nca_gradient`); both checked
  equal, each the median of ``repeats``.
* ``diagonal``: NCA fitted by scipy's L-BFGS-B from the identity over a full matrix A
  and over a diagonal one, the same objective (2.33), tolerance and iteration cap
  (scikit-learn NCA's defaults); CPU seconds, median of ``repeats``, per data set.
* ``rectangular``: scikit-learn's NCA to r dimensions on a seeded MNIST subsample (raw
  784 pixels), then brute-force 3-NN queries of the test points in the r-D projection
  and in the input space, CPU seconds, median of ``repeats`` (the projection of the
  queries counted on the projected side).
"""

from __future__ import annotations

import numpy as np
import scipy.optimize
from sklearn.neighbors import KNeighborsClassifier, NeighborhoodComponentsAnalysis
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.results.nca_local_minima.objectives import (
    nca_gradient, nca_objective, nca_probabilities, sq_distances,
)
from harness.timelimit import cpu_clock

__all__ = ["gradient_as_written", "diagonal_gradient", "fit_nca", "work", "sources"]


def _same(y) -> np.ndarray:
    """``[y_i = y_j]`` off the diagonal."""
    y = np.asarray(y)
    S = y[:, None] == y[None, :]
    np.fill_diagonal(S, False)
    return S


def gradient_as_written(A: np.ndarray, X: np.ndarray, y) -> np.ndarray:
    """``df/dA`` of (2.34) as printed: ``2 A sum_i (p_i sum_k p_ik x_ik x_ik^T -
    sum_{j in C_i} p_ij x_ij x_ij^T)``, the pairs' outer products summed per point."""
    P = nca_probabilities(sq_distances(X @ A.T))
    S = _same(y)
    p_i = (P * S).sum(axis=1)
    total = np.zeros((X.shape[1], X.shape[1]))
    for i in range(len(X)):
        Xi = X[i] - X
        weights = p_i[i] * P[i] - S[i] * P[i]
        total += np.einsum("k,ka,kb->ab", weights, Xi, Xi)
    return 2.0 * A @ total


def diagonal_gradient(a: np.ndarray, X: np.ndarray, y) -> np.ndarray:
    """``df/da`` for ``A = diag(a)``: the diagonal of (2.34) in matrix form, in
    O(n^2 d)."""
    P = nca_probabilities(sq_distances(X * a))
    S = _same(y)
    p_i = (P * S).sum(axis=1)
    W = p_i[:, None] * P - S * P
    lap = np.diag(W.sum(axis=1) + W.sum(axis=0)) - W - W.T
    return 2.0 * a * np.einsum("ik,ik->k", X, lap @ X)


def _median_cpu(fn, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        start = cpu_clock()
        out = fn()
        times.append(cpu_clock() - start)
    return float(np.median(times)), out


def _gradient(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 222]))
    rows = []
    cases = ([("n", n, params["gradient_fixed_d"]) for n in params["gradient_n"]]
             + [("d", params["gradient_fixed_n"], d) for d in params["gradient_d"]])
    for axis, n, d in cases:
        X = rng.standard_normal((n, d))
        y = rng.integers(0, 3, n)
        A = np.eye(d) + 0.1 * rng.standard_normal((d, d))
        written, g1 = _median_cpu(lambda: gradient_as_written(A, X, y), params["repeats"])
        matrix, g2 = _median_cpu(lambda: nca_gradient(A, X, y), params["repeats"])
        rows.append({"axis": axis, "n": n, "d": d, "as_written_seconds": written,
                     "matrix_form_seconds": matrix,
                     "max_relative_difference": float(np.abs(g1 - g2).max()
                                                      / max(np.abs(g2).max(), 1e-300))})
    return {"cases": rows, "repeats": params["repeats"]}


def fit_nca(X, y, diagonal: bool, max_iter: int, tol: float) -> dict:
    """NCA by L-BFGS-B from the identity, over A (d x d) or its diagonal a: maximise
    (2.33), i.e. minimise its negative, with scikit-learn NCA's ``tol`` and
    ``max_iter``."""
    d = X.shape[1]
    if diagonal:
        def f(a):
            return -nca_objective(np.diag(a), X, y), -diagonal_gradient(a, X, y)
        x0 = np.ones(d)
    else:
        def f(v):
            A = v.reshape(d, d)
            return -nca_objective(A, X, y), -nca_gradient(A, X, y).ravel()
        x0 = np.eye(d).ravel()
    res = scipy.optimize.minimize(f, x0, jac=True, method="L-BFGS-B",
                                  options={"maxiter": max_iter, "gtol": tol})
    return {"objective": float(-res.fun), "iterations": int(res.nit),
            "evaluations": int(res.nfev)}


def _load(name: str, params: dict):
    plugin = registry.get_dataset(name)
    data = plugin().load(**{**plugin.params, **params.get("dataset_params", {}).get(name, {})})
    X = np.asarray(data.X, dtype=np.float64)
    X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    return X, np.asarray(data.y)


def _diagonal(params) -> dict:
    rows, unavailable = [], {}
    for name in params["diagonal_datasets"]:
        try:
            X, y = _load(name, params)
        except ExpectedFailure as exc:
            unavailable[name] = str(exc)[:300]
            continue
        n = params["diagonal_n_samples"]
        if n and len(X) > n:
            pick = np.random.default_rng(params["seed"]).choice(len(X), n, replace=False)
            X, y = X[pick], y[pick]
        found = {}
        for kind, diagonal in (("full", False), ("diagonal", True)):
            seconds, fit = _median_cpu(lambda: fit_nca(X, y, diagonal, params["max_iter"],
                                                       params["tol"]), params["repeats"])
            found[kind] = {"seconds": seconds, **fit}
        rows.append({"dataset": name, "n": int(len(X)), "d": int(X.shape[1]), **found})
    return {"cases": rows, "unavailable": unavailable, "repeats": params["repeats"]}


def _rectangular(params) -> dict:
    plugin = registry.get_dataset("mnist")
    try:
        data = plugin().load(**{**plugin.params, "n_components": None,
                                "n_train": params["rect_n_train"], "n_test": params["rect_n_test"]})
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    n_tr = data.meta["split_protocol"]["n_train"]
    Xtr, ytr = data.X[:n_tr], data.y[:n_tr]
    Xte = data.X[n_tr:]
    nca = NeighborhoodComponentsAnalysis(n_components=params["rect_dimension"],
                                         max_iter=params["max_iter"], tol=params["tol"],
                                         random_state=params["seed"]).fit(Xtr, ytr)
    Ztr = nca.transform(Xtr)
    k = params["rect_neighbors"]

    def query(train, test):
        return KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(train, ytr).predict(test)

    full, _ = _median_cpu(lambda: query(Xtr, Xte), params["repeats"])
    projected, _ = _median_cpu(lambda: query(Ztr, nca.transform(Xte)), params["repeats"])
    return {"status": "ok", "reason": "", "n_train": int(n_tr), "n_test": int(len(Xte)),
            "d": int(Xtr.shape[1]), "r": params["rect_dimension"], "k": k,
            "input_seconds": full, "projected_seconds": projected,
            "nca_iterations": int(nca.n_iter_), "repeats": params["repeats"]}


GROUPS = {"gradient": _gradient, "diagonal": _diagonal, "rectangular": _rectangular}


def work(params: dict) -> dict:
    """The child's work for one group; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        start = cpu_clock()
        body = GROUPS[params["group"]](params)
    return {"status": "ok", "reason": "", **body, "group_cpu_seconds": cpu_clock() - start}


def sources(params: dict) -> list:
    """The data set plugins the job finds by name."""
    names = {"diagonal": params["diagonal_datasets"], "rectangular": ["mnist"]}
    return [registry.get_dataset(n) for n in names.get(params["group"], [])]
