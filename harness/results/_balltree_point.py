r"""One job of Figs. 2.13 and 2.16 (thesis 2.1.9, "Ball trees"): timings on MNIST
after PCA to ``r`` dimensions, every timing of a job in one run (so its ratios share
the machine's state), one BLAS thread, best of ``repeats``.

Fig. 2.13 (:func:`knn_work`): exact 3-NN search of the test digits among the training
digits, by

- ``naive``: the thesis' "naive method" (2.1.9): inputs rotated by PCA so that the
  dimensions are sorted by decreasing variance, each test point's distance to every
  training point summed dimension by dimension and abandoned as soon as it exceeds
  the current k-th smallest (:func:`naive_knn`, numba);
- ``brute``: scikit-learn's brute force (``NearestNeighbors(algorithm="brute")``,
  squared distances by a float64 GEMM);
- ``balltree``: scikit-learn's :class:`~sklearn.neighbors.BallTree` (the query only;
  the tree is built once, offline, as the thesis' "once set up"; its build time is
  recorded too),

in ``r`` dimensions and, as the baselines, ``naive`` and ``brute`` in the original
``d = 784`` deskewed pixels (rotated by the full PCA, which changes no distance; the
naive search needs the sorted dimensions). The 3-NN error of the reduced search
(majority vote, a tie to the smallest label) is recorded too.

Every timed search is checked against an independent reference, never against itself
(:func:`check_against`; each entry records ``reference``, the search it was compared
with, and ``exact``): its neighbours' exactly recomputed float64 distances must equal
the reference's (up to ``1e-9`` relative; ties may pick other indices, which is counted
in ``same_indices``, not an error). In ``r`` dimensions the reference is ``full``
(:func:`full_knn`, untimed): every distance summed in full, in float64, no early
termination, no GEMM, no tree -- none of the searches under test. In ``d = 784`` (the
baselines, where a full search would cost more than the timings) the two baselines
are each other's reference: ``naive`` against ``brute`` and ``brute`` against
``naive``.

Fig. 2.16 (:func:`hinge_work`): the search of all active hinge losses (thesis eq.
2.20) by :func:`methods._lmnn_impostors.impostor_pairs`, blocked GEMM screen against
ball trees (one per class), on the PCA-reduced training digits with ``k = 3``
Euclidean target neighbours and radii ``max_j d_ij + 1``, the inputs scaled so that the
mean squared target distance is ``target_distance`` x each of ``scales`` (the thesis:
"multiplying the input data with a large constant" shrinks the margin's relative
size). Both searches' output is checked identical. The same job also times 3-NN
search of the test digits by ball tree, by the naive search and by brute force in the
same ``r`` dimensions: the kNN speed-ups of ball trees the thesis compares with
(``knn_tree_gain`` over the naive search, Fig. 2.13's "extra gain";
``knn_tree_speedup`` over brute force).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit
from sklearn.neighbors import BallTree, NearestNeighbors
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import same_class_neighbors
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results._mvu_point import load_dataset
from methods._lmnn_core import target_sq_distances
from methods._lmnn_impostors import LEAF_SIZE, impostor_pairs

__all__ = ["DATASET", "K", "FULL", "naive_knn", "full_knn", "best_time", "pca_rotation",
           "exact_sq_distances", "exact_knn_check", "check_against",
           "knn_work", "hinge_work", "sources"]

DATASET = "mnist"
K = 3  # the thesis' 3-NN (Fig. 2.13) and k = 3 target neighbours (2.1.6)
_EXACT_RTOL = 1e-9
#: the name of the exhaustive reference search (:func:`full_knn`) in the records
FULL = "full"


@njit(cache=True, nogil=True)
def naive_knn(train, test, k):
    """The thesis' naive exact k-NN search (2.1.9): per test point, partial squared
    distances over the dimensions in order, abandoned once above the current k-th
    smallest. Returns ``(indices, squared distances)``, each (m, k), nearest first;
    of equal distances the lower training index is kept."""
    m, d = test.shape
    idx = np.empty((m, k), dtype=np.int64)
    dist = np.empty((m, k))
    for q in range(m):
        best_d = np.full(k, np.inf)
        best_i = np.full(k, -1, dtype=np.int64)
        for i in range(train.shape[0]):
            bound = best_d[k - 1]
            s = 0.0
            for c in range(d):
                t = train[i, c] - test[q, c]
                s += t * t
                if s > bound:
                    break
            if s < bound:
                j = k - 1
                while j > 0 and best_d[j - 1] > s:
                    best_d[j] = best_d[j - 1]
                    best_i[j] = best_i[j - 1]
                    j -= 1
                best_d[j] = s
                best_i[j] = i
        idx[q] = best_i
        dist[q] = best_d
    return idx, dist


@njit(cache=True, nogil=True)
def full_knn(train, test, k):
    """The exhaustive exact k-NN search, the reference the timed searches are checked
    against: per test point every squared distance summed over all dimensions (no early
    termination, no GEMM, no tree), then a stable sort (of equal distances the lower
    training index first). Returns ``(indices, squared distances)``, each (m, k)."""
    m, d = test.shape
    n = train.shape[0]
    idx = np.empty((m, k), dtype=np.int64)
    dist = np.empty((m, k))
    row = np.empty(n)
    for q in range(m):
        for i in range(n):
            s = 0.0
            for c in range(d):
                t = train[i, c] - test[q, c]
                s += t * t
            row[i] = s
        order = np.argsort(row, kind="mergesort")[:k]
        idx[q] = order
        dist[q] = row[order]
    return idx, dist


def best_time(fn, repeats: int):
    """``(best wall seconds over repeats, fn's last result)``."""
    best, out = np.inf, None
    for _ in range(int(repeats)):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return float(best), out


def pca_rotation(X_train: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and principal directions (columns, by decreasing variance) of the training
    inputs; the naive search needs the dimensions in this order (2.1.9)."""
    mean = X_train.mean(axis=0)
    _, V = np.linalg.eigh(np.cov(X_train - mean, rowvar=False, bias=True))
    return mean, np.ascontiguousarray(V[:, ::-1])


def exact_sq_distances(train, test, idx) -> np.ndarray:
    """The squared float64 distances of each test point to its neighbours ``idx``,
    recomputed from the coordinates (whatever the search computed)."""
    diff = train[idx] - test[:, None, :]
    return np.einsum("mkc,mkc->mk", diff, diff)


def exact_knn_check(train, test, idx, reference_sq) -> dict[str, Any]:
    """Recompute the squared distances of ``idx`` exactly; compare with the
    reference's (another search's): exact when every sorted row agrees to 1e-9."""
    sq = np.sort(exact_sq_distances(train, test, idx), axis=1)
    ref = np.sort(reference_sq, axis=1)
    err = np.abs(sq - ref) / np.maximum(np.abs(ref), np.finfo(float).tiny)
    return {"exact": bool(np.all(err <= _EXACT_RTOL)), "max_relative_error": float(err.max())}


def _split(params: dict) -> tuple[dict, tuple | None]:
    """Load MNIST (784 deskewed pixels) and its PCA; ``(body, (Xtr, ytr, Xte, yte, mean,
    V))`` or a gap body and None."""
    try:
        dataset = load_dataset(params)
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc),
                "error_type": type(exc).__name__}, None
    n_train = dataset.meta["split_protocol"]["n_train"]
    X, y = np.asarray(dataset.X, dtype=np.float64), np.asarray(dataset.y)
    body = {"status": "ok", "reason": "", "n_train": int(n_train),
            "n_test": int(len(y) - n_train), "n_features": int(X.shape[1])}
    mean, V = pca_rotation(X[:n_train])
    return body, (X[:n_train], y[:n_train], X[n_train:], y[n_train:], mean, V)


def check_against(train, test, entry: dict, reference: str, ref_idx) -> None:
    """Add to ``entry`` (a search's ``idx``) whether its neighbours are at the
    distances of the ``reference`` search's ``ref_idx`` (both recomputed exactly), the
    reference's name and the fraction of identical index sets.

    Raises
    ------
    ValueError
        ``entry`` is the reference itself (a search compared with itself cannot fail).
    """
    if entry["idx"] is ref_idx:
        raise ValueError(f"a search cannot be its own reference ({reference})")
    entry.update(exact_knn_check(train, test, entry["idx"],
                                 exact_sq_distances(train, test, ref_idx)))
    entry["reference"] = reference
    entry["same_indices"] = float(np.mean(np.all(np.sort(entry["idx"], axis=1)
                                                 == np.sort(ref_idx, axis=1), axis=1)))


def _knn_methods(train, test, repeats, with_tree=True) -> dict[str, dict]:
    """Time the naive search, scikit-learn's brute force and (optionally) the ball tree
    on one (train, test) pair; each entry's seconds, its neighbours and its check
    against an independent reference: the exhaustive :func:`full_knn` with the tree
    (the r-D searches), else each other (the 784-D baselines, naive and brute)."""
    naive_knn(train[:2], test[:1], 1)  # compile outside the timing
    seconds, (idx, _) = best_time(lambda: naive_knn(train, test, K), repeats)
    out = {"naive": {"seconds": seconds, "idx": idx}}
    nn = NearestNeighbors(n_neighbors=K, algorithm="brute").fit(train)
    seconds, (_, b_idx) = best_time(lambda: nn.kneighbors(test), repeats)
    out["brute"] = {"seconds": seconds, "idx": b_idx}
    if with_tree:
        start = time.perf_counter()
        tree = BallTree(train, leaf_size=LEAF_SIZE)
        build = time.perf_counter() - start
        seconds, (_, t_idx) = best_time(lambda: tree.query(test, k=K), repeats)
        out["balltree"] = {"seconds": seconds, "idx": t_idx, "build_seconds": build}
    if with_tree:
        full_knn(train[:2], test[:1], 1)  # compile
        ref_idx, _ = full_knn(train, test, K)
        for entry in out.values():
            check_against(train, test, entry, FULL, ref_idx)
    else:
        check_against(train, test, out["naive"], "brute", out["brute"]["idx"])
        check_against(train, test, out["brute"], "naive", out["naive"]["idx"])
    return out


def _public(entries: dict[str, dict]) -> dict[str, dict]:
    return {m: {k: v for k, v in e.items() if k != "idx"} for m, e in entries.items()}


def knn_work(params: dict) -> dict:
    """Fig. 2.13's job at ``r = params["r"]``: the 784-D baselines and the r-D searches."""
    with threadpool_limits(limits=params["blas_threads"]):
        body, split = _split(params)
        if split is None:
            return body
        Xtr, ytr, Xte, yte, mean, V = split
        r = int(params["r"])
        Rtr, Rte = (Xtr - mean) @ V, (Xte - mean) @ V  # all 784 dims, sorted
        full = _knn_methods(np.ascontiguousarray(Rtr), np.ascontiguousarray(Rte),
                            params["repeats"], with_tree=False)
        low = _knn_methods(np.ascontiguousarray(Rtr[:, :r]), np.ascontiguousarray(Rte[:, :r]),
                           params["repeats"])
        votes = ytr[low["balltree"]["idx"]]
        body.update(r=r, baseline=_public(full), reduced=_public(low),
                    references={"reduced": f"{FULL}: exhaustive float64 search in r dims",
                                "baseline": "naive and brute against each other"},
                    knn_error=float(np.mean([np.bincount(v).argmax() != t
                                             for v, t in zip(votes, yte)])),
                    blas_during_run=blas_info())
    return body


def _scaled_inputs(Z, codes, target_distance):
    """``Z`` scaled to mean squared target distance ``target_distance``; its targets."""
    targets = same_class_neighbors(Z, codes, K)
    mean = float(target_sq_distances(Z, targets).mean())
    return Z * np.sqrt(target_distance / mean), targets


def hinge_work(params: dict) -> dict:
    """Fig. 2.16's job at ``r``: blocked vs ball-tree active hinge search per scale,
    and 3-NN ball tree vs brute force in the same r dimensions."""
    with threadpool_limits(limits=params["blas_threads"]):
        body, split = _split(params)
        if split is None:
            return body
        Xtr, ytr, Xte, _, mean, V = split
        r = int(params["r"])
        Z = np.ascontiguousarray((Xtr - mean) @ V[:, :r])
        codes = np.unique(ytr, return_inverse=True)[1]
        Z1, targets = _scaled_inputs(Z, codes, params["target_distance"])
        searches = []
        for scale in params["scales"]:
            Zs = Z1 * np.sqrt(scale)
            radius = target_sq_distances(Zs, targets).max(axis=1) + 1.0
            row = {"scale": float(scale)}
            found = {}
            for method in ("blocked", "tree"):
                seconds, found[method] = best_time(
                    lambda: impostor_pairs(Zs, codes, radius, method=method), params["repeats"])
                row[f"{method}_seconds"] = seconds
            row["identical"] = all(np.array_equal(a, b)
                                   for a, b in zip(found["blocked"], found["tree"]))
            row["pairs"] = int(len(found["tree"][0]))
            row["speedup"] = row["blocked_seconds"] / row["tree_seconds"]
            searches.append(row)
        Zte = np.ascontiguousarray((Xte - mean) @ V[:, :r])
        knn = _public(_knn_methods(Z, Zte, params["repeats"]))
        body.update(r=r, searches=searches, knn=knn,
                    knn_tree_speedup=knn["brute"]["seconds"] / knn["balltree"]["seconds"],
                    knn_tree_gain=knn["naive"]["seconds"] / knn["balltree"]["seconds"],
                    blas_during_run=blas_info())
    return body


def sources(params: dict) -> list:
    """The MNIST plugin and the impostor search's module."""
    import methods._lmnn_impostors as impostors

    return [registry.get_dataset(params["dataset"]), impostors]
