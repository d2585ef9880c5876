"""One job of ``nca_local_minima``: one data set, every split, r and random start
(thesis 2.2.2: NCA "does suffer from these local minima"; 2.1.3: the loss (2.8) in L
"is not convex").

Per seeded 70/30 split and output dimension r, the same random matrices start
scikit-learn's ``NeighborhoodComponentsAnalysis`` and our LMNN
(:class:`harness.methods.lmnn.LMNN`, ``n_components=r``, ``init=<matrix>``); each final matrix
is scored by its method's own objective, recomputed here
(:mod:`harness.results.nca_local_minima.objectives`), and by the kNN test error (the
thesis' tie rule). On the first split, the register's side checks (see the README).
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import NearestNeighbors, NeighborhoodComponentsAnalysis
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import knn_test_error, same_class_neighbors
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results.nca_local_minima.objectives import (
    l1_to_uniform, lmnn_loss, mean_perplexity, nca_gradient, nca_objective,
    nca_probabilities, sq_distances)
from harness.tasks.classification import split_indices
from harness.methods.lmnn import LMNN
from harness.methods.pca_knn import pca_map
from harness.timelimit import cpu_clock

__all__ = ["load", "random_start", "fit_both", "midpoint_search", "l1_checks",
           "perplexity_curves", "factor_checks", "work", "sources"]

#: the perplexity reading's range of c (register: "c = 0.1..10")
PERPLEXITY_RANGE = (0.1, 10.0)
#: a mean perplexity this close to 1 is the floor float64 cannot resolve
FLOOR = 1e-9


def load(params: dict) -> tuple[np.ndarray, np.ndarray]:
    """The data set (a stratified seeded subsample of ``max_samples`` points if set)."""
    dataset = registry.get_dataset(params["dataset"])().load()
    X, y = np.asarray(dataset.X, dtype=np.float64), np.asarray(dataset.y)
    m = params.get("max_samples")
    if m and m < len(y):
        keep, _ = split_indices(y, m / len(y), params["seed"])
        X, y = X[keep], y[keep]
    return X, y


def _standardize(Xtr, Xte, on: bool):
    if not on:
        return Xtr, Xte
    mean, std = Xtr.mean(axis=0), Xtr.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    return (Xtr - mean) / std, (Xte - mean) / std


def random_start(X, targets, r: int, mean_target: float, seed) -> np.ndarray:
    """G (r x d, standard normal, seeded by ``seed``) scaled so that the mean squared
    distance of each point to its target neighbours is ``mean_target``."""
    G = np.random.default_rng(seed).standard_normal((r, X.shape[1]))
    Z = X @ G.T
    mean = float(((Z[:, None, :] - Z[targets]) ** 2).sum(axis=2).mean())
    return G * np.sqrt(mean_target / mean)


def fit_both(X, y, Xte, yte, targets, L0, params) -> tuple[dict, dict, np.ndarray, np.ndarray]:
    """NCA and LMNN from ``L0``: their records and final matrices."""
    r = L0.shape[0]
    out, finals = {}, {}
    for method in ("nca", "lmnn"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            t0 = cpu_clock()
            if method == "nca":
                est = NeighborhoodComponentsAnalysis(
                    n_components=r, init=L0.copy(), max_iter=params["nca_max_iter"],
                    tol=params["nca_tol"]).fit(X, y)
                A = est.components_
            else:
                est = LMNN(n_neighbors=params["n_neighbors"], mu=params["mu"],
                           n_components=r, init=L0.copy(), max_iter=params["lmnn_max_iter"],
                           tol=params["lmnn_tol"]).fit(X, y)
                A = est.components_
            cpu = cpu_clock() - t0
        if method == "nca":
            objective = nca_objective(A, X, y)
            grad = float(np.linalg.norm(nca_gradient(A, X, y)))
            converged = int(est.n_iter_) < params["nca_max_iter"]
        else:
            objective = lmnn_loss(A, X, y, targets, params["mu"])
            grad, converged = float("nan"), bool(est.converged_)
        out[method] = {
            "objective": objective, "solver_objective": float(getattr(est, "loss_", np.nan)),
            "test_error": 100.0 * knn_test_error(X @ A.T, y, Xte @ A.T, yte,
                                                 params["n_neighbors"]),
            "n_iter": int(est.n_iter_), "converged": bool(converged),
            "convergence_warnings": sum(issubclass(w.category, ConvergenceWarning)
                                        for w in caught),
            "grad_norm": grad, "fit_cpu_seconds": cpu}
        finals[method] = np.asarray(A, dtype=np.float64)
    return out["nca"], out["lmnn"], finals["nca"], finals["lmnn"]


def midpoint_search(X, y, targets, params) -> dict:
    """Pairs (L, -L) and random pairs (L1, L2) of square starts; the largest violation of
    midpoint convexity of (2.8), relative to max(1, the average of the ends)."""
    d, mu, best, count = X.shape[1], params["mu"], -np.inf, 0
    pairs = params["midpoint_pairs"]
    for p in range(pairs):
        L1 = random_start(X, targets, d, params["init_mean_target_distance"],
                          [params["seed"], 7, p, 1])
        L2 = -L1 if p % 2 == 0 else random_start(
            X, targets, d, params["init_mean_target_distance"], [params["seed"], 7, p, 2])
        ends = 0.5 * (lmnn_loss(L1, X, y, targets, mu) + lmnn_loss(L2, X, y, targets, mu))
        rel = (lmnn_loss(0.5 * (L1 + L2), X, y, targets, mu) - ends) / max(1.0, abs(ends))
        best = max(best, rel)
        count += rel > 1e-9
    return {"pairs": pairs, "max_violation_rel": float(best), "n_violations": int(count)}


def _scales(low: float, high: float, n: int) -> np.ndarray:
    return np.exp(np.linspace(np.log(low), np.log(high), n))


def l1_checks(X, y, targets, nca_finals, params) -> dict:
    """The L1 reading of (2.33): random A against the affine relation, and for each
    final NCA matrix the maximiser of f(c A0) against the minimiser of the L1 distance."""
    low, high = params["l1_scale_range"]
    n, d = len(y), X.shape[1]
    same = (y[:, None] == y[None, :]) & ~np.eye(n, dtype=bool)
    rng = np.random.default_rng([params["seed"], 11])
    devs = []
    for a in range(params["l1_random_matrices"]):
        G = random_start(X, targets, d, params["init_mean_target_distance"],
                         [params["seed"], 11, a])
        c = float(np.exp(rng.uniform(np.log(low), np.log(high))))
        P = nca_probabilities(sq_distances(X @ (c * G).T))
        target = 2.0 * (n - float((P * same).sum()))
        devs.append(abs(l1_to_uniform(P, y) - target) / target)
    grid = _scales(low, high, params["l1_scale_points"])
    optimiser = []
    for (r, start), A0 in nca_finals.items():
        D0 = sq_distances(X @ A0.T)
        f, l1 = [], []
        for c in grid:
            P = nca_probabilities(c * c * D0)
            f.append(float((P * same).sum()))
            l1.append(l1_to_uniform(P, y))
        optimiser.append({"r": r, "start": start, "c_f": float(grid[int(np.argmax(f))]),
                          "c_l1": float(grid[int(np.argmin(l1))])})
    return {"random_rel_dev": [float(v) for v in devs], "optimiser": optimiser}


def perplexity_curves(X, nca_finals, params) -> list[dict]:
    """Mean perplexity of ``p_i.`` under ``c A`` over :data:`PERPLEXITY_RANGE` for each
    final NCA matrix: strictly decreasing (floor steps left out and counted)?"""
    grid = _scales(*PERPLEXITY_RANGE, params["perplexity_scales"])
    out = []
    for (r, start), A in nca_finals.items():
        D0 = sq_distances(X @ A.T)
        curve = np.array([mean_perplexity(nca_probabilities(c * c * D0)) for c in grid])
        floor = (np.abs(curve[:-1] - 1) < FLOOR) & (np.abs(curve[1:] - 1) < FLOOR)
        steps = np.diff(curve)[~floor]
        out.append({"r": r, "start": start, "square": r == X.shape[1],
                    "learned": mean_perplexity(nca_probabilities(D0)),
                    "first": float(curve[0]), "last": float(curve[-1]),
                    "decreasing": bool(np.all(steps < 0)), "floor_steps": int(floor.sum()),
                    "largest_step": float(steps.max()) if len(steps) else float("nan")})
    return out


def _neighbours(Xtr, Xte, L, k) -> np.ndarray:
    nn = NearestNeighbors(n_neighbors=k).fit(Xtr @ L.T)
    return nn.kneighbors(Xte @ L.T, return_distance=False)


#: distances equal within this (relative) are a tie: their order is round-off
TIE = 1e-9


def same_up_to_ties(Xtr, Xte, L1, L2, k) -> tuple[bool, bool]:
    """``(identical, identical up to ties)``: the test points' ``k`` nearest training
    points under ``L1`` and ``L2`` as index lists, and whether each list is a valid
    ``k``-NN list under the other map (its sorted distances equal the ``k`` smallest
    within :data:`TIE`), which is what a metric defines when distances tie."""
    n1, n2 = _neighbours(Xtr, Xte, L1, k), _neighbours(Xtr, Xte, L2, k)
    valid = True
    for L, own, other in ((L1, n1, n2), (L2, n2, n1)):
        Ztr, Zte = Xtr @ L.T, Xte @ L.T
        dist = lambda idx: np.sort(((Zte[:, None, :] - Ztr[idx]) ** 2).sum(axis=2), axis=1)
        a, b = dist(own), dist(other)
        valid &= bool(np.all(np.abs(a - b) <= TIE * np.maximum(1.0, np.abs(a))))
    return bool(np.array_equal(n1, n2)), valid


def factor_checks(Xtr, Xte, matrices: dict, params) -> list[dict]:
    """For each M: the symmetric square root L1 and the Cholesky factor L2 (M = L2^T L2),
    their residuals, the orthogonality of L2 L1^-1 and the test points' neighbour lists."""
    d = Xtr.shape[1]
    rng = np.random.default_rng([params["seed"], 13])
    items = dict(matrices)
    for i in range(params["random_psd_matrices"]):
        B = rng.standard_normal((d, d))
        items[f"random {i}"] = B.T @ B
    out = []
    for source, M in items.items():
        M = 0.5 * (M + M.T)
        w, V = np.linalg.eigh(M)
        L1 = (V * np.sqrt(np.clip(w, 0.0, None))) @ V.T
        norm = np.linalg.norm(M)
        try:
            L2 = np.linalg.cholesky(M).T
        except np.linalg.LinAlgError:
            out.append({"source": source, "res_l1": float(np.linalg.norm(L1.T @ L1 - M) / norm),
                        "res_l2": float("inf"), "orth": float("inf"), "orth_roundoff": 0.0,
                        "same_neighbours": False, "same_neighbours_up_to_ties": False, "cond": float(w.max() / max(w.min(), 1e-300))})
            continue
        Q = np.linalg.solve(L1.T, L2.T).T
        strict, ties = same_up_to_ties(Xtr, Xte, L1, L2, params["n_neighbors"])
        cond = float(w.max() / w.min())
        out.append({"source": source,
                    "res_l1": float(np.linalg.norm(L1.T @ L1 - M) / norm),
                    "res_l2": float(np.linalg.norm(L2.T @ L2 - M) / norm),
                    "orth": float(np.linalg.norm(Q.T @ Q - np.eye(d)) / np.sqrt(d)),
                    # float64 round-off of the eigen square root: the smallest eigenvalue
                    # is known to u ||M||, i.e. relatively to u cond(M)
                    "orth_roundoff": float(d * np.finfo(float).eps * cond),
                    "same_neighbours": strict, "same_neighbours_up_to_ties": ties,
                    "cond": cond})
    return out


def _pca_error(Xtr, ytr, Xte, yte, r, k) -> float:
    P, _ = pca_map(Xtr, r)
    mean = Xtr.mean(axis=0)
    return 100.0 * knn_test_error((Xtr - mean) @ P.T, ytr, (Xte - mean) @ P.T, yte, k)


def _side_checks(Xtr, ytr, Xte, targets, nca_finals, lmnn_finals, params) -> dict:
    d = Xtr.shape[1]
    square = {f"{m} start {s}": A.T @ A for m, finals in (("lmnn", lmnn_finals),
                                                         ("nca", nca_finals))
              for (r, s), A in finals.items() if r == d}
    curves = perplexity_curves(Xtr, nca_finals, params)
    learned = [c["learned"] for c in curves if c["square"]]
    return {"midpoint": midpoint_search(Xtr, ytr, targets, params),
            "l1": (l1_checks(Xtr, ytr, targets, nca_finals, params)
                   if params["dataset"] in params["l1_datasets"] else None),
            "perplexity": curves,
            "learned_perplexity": float(np.median(learned)) if learned else None,
            "factorisation": factor_checks(Xtr, Xte, square, params)}


def work(params: dict) -> dict:
    """The child's work for one data set; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            X, y = load(params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        _, y = np.unique(y, return_inverse=True)
        d, k = X.shape[1], params["n_neighbors"]
        bad = [r for r in params["n_components"] if r > d]
        if bad:
            return {"status": "failed", "reason": f"n_components {bad} above d = {d}"}
        fits, pca, side = [], [], {}
        for split in range(params["n_splits"]):
            tr, te = split_indices(y, params["train_fraction"], params["seed"] + split)
            Xtr, Xte = _standardize(X[tr], X[te], params["standardize"])
            ytr, yte = y[tr], y[te]
            targets = same_class_neighbors(Xtr, ytr, k)
            nca_finals, lmnn_finals = {}, {}
            for r in params["n_components"]:
                pca.append({"split": split, "r": r,
                            "test_error": _pca_error(Xtr, ytr, Xte, yte, r, k)})
                for s in range(params["n_starts"]):
                    L0 = random_start(Xtr, targets, r, params["init_mean_target_distance"],
                                      [params["seed"], split, r, s])
                    nca, lmnn, A, L = fit_both(Xtr, ytr, Xte, yte, targets, L0, params)
                    base = {"split": split, "r": r, "start": s}
                    fits += [{**base, "method": "nca", **nca}, {**base, "method": "lmnn", **lmnn}]
                    if split == 0:
                        nca_finals[(r, s)], lmnn_finals[(r, s)] = A, L
            if split == 0:
                t0 = cpu_clock()
                side = _side_checks(Xtr, ytr, Xte, targets, nca_finals, lmnn_finals, params)
                side["side_cpu_seconds"] = cpu_clock() - t0
        return {"status": "ok", "reason": "", "dataset": params["dataset"], "n_features": d,
                "n_samples": int(len(y)), "n_train": int(len(tr)), "n_test": int(len(te)),
                "fits": fits, "pca": pca, **side, "blas_during_run": blas_info()}


def sources(params: dict) -> list:
    """The data set plugin the job finds by name (so that editing it reruns the job)."""
    return [registry.get_dataset(params["dataset"])]
