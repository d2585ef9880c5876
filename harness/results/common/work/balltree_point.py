r"""One job of Figs. 2.13 and 2.16 (thesis 2.1.9, "Ball trees"): timings on MNIST
after PCA to ``r`` dimensions, every timing of a job in one run, one BLAS thread.

**How a search is timed** (:func:`cpu_timings`), so that a ratio does not move with
the machine's load: the clock is the process' CPU time (every search runs in this
thread: one BLAS and one OpenMP thread, numba without ``parallel``), not the wall
clock, which counts the time other processes held the CPU (measured: under two
competing processes the wall times of these searches grew 2.4x, unevenly between
searches, their CPU times 7-35 %). The searches of one comparison are timed in
interleaved rounds (naive, brute, tree, naive, brute, tree, ...), so that a change of
the machine's state falls on all of them; in each round a search runs as many times as
it takes to use ``min_seconds`` CPU seconds, and its time is the best round's per-call
CPU time. Each entry records ``seconds`` (that CPU time), ``wall_seconds`` (the best
round's per-call wall time), ``calls`` and ``spread`` (the rounds' CPU times, max /
min - 1); the job records ``contention``, its timed sections' wall / CPU time (1 when
the job had a core to itself). The results that read these jobs declare ``EXCLUSIVE``:
the workflow runs them with every core reserved, so no other job of the run competes.

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
2.20) by :func:`harness.methods.shared.lmnn_impostors.impostor_pairs`, blocked GEMM screen against
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
from harness.results.common.declare.balltree_profile import DATASET
from harness.results.common.work.mvu_point import load_dataset
from harness.timelimit import cpu_clock
from harness.methods.shared.lmnn_core import target_sq_distances
from harness.methods.shared.lmnn_impostors import LEAF_SIZE, tree_candidates, impostor_pairs

__all__ = ["DATASET", "K", "FULL", "naive_knn", "full_knn", "cpu_timings", "pca_rotation",
           "exact_sq_distances", "exact_knn_check", "check_against", "WORK",
           "search_work", "knn_work", "hinge_work", "sources"]

K = 3  # the thesis' 3-NN (Fig. 2.13) and k = 3 target neighbours (2.1.6)
_EXACT_RTOL = 1e-9
#: the name of the exhaustive reference search (:func:`full_knn`) in the records
FULL = "full"
#: CPU seconds a search runs per timing round (several calls when one is shorter)
MIN_SECONDS = 0.2
#: what every ``seconds`` of these jobs measures (recorded as ``clock``)
CLOCK = "process CPU time, best of interleaved rounds"
#: what every ``work`` of these jobs counts (recorded as ``work_unit``)
WORK = ("coordinate operations: one squared coordinate difference of a distance (naive "
        "search: only the coordinates summed before abandoning; ball tree: every point "
        "and node-centroid distance scikit-learn evaluates, BallTree.get_n_calls(), "
        "times r) or one multiply-add of the GEMM (brute force, blocked search: every "
        "pair times r)")
_WALL_FACTOR = 20.0


@njit(cache=True, nogil=True)
def naive_knn(train, test, k):
    """The thesis' naive exact k-NN search (2.1.9): per test point, partial squared
    distances over the dimensions in order, abandoned once above the current k-th
    smallest. Returns ``(indices, squared distances, coordinates)``: the first two (m, k),
    nearest first, of equal distances the lower training index kept; ``coordinates`` the
    number of squared coordinate differences summed (the search's work, :data:`WORK`)."""
    m, d = test.shape
    idx = np.empty((m, k), dtype=np.int64)
    dist = np.empty((m, k))
    coordinates = 0
    for q in range(m):
        best_d = np.full(k, np.inf)
        best_i = np.full(k, -1, dtype=np.int64)
        for i in range(train.shape[0]):
            bound = best_d[k - 1]
            s = 0.0
            used = d
            for c in range(d):
                t = train[i, c] - test[q, c]
                s += t * t
                if s > bound:
                    used = c + 1
                    break
            coordinates += used
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
    return idx, dist, coordinates


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


def cpu_timings(searches: dict, rounds: int, min_seconds: float = MIN_SECONDS
                ) -> tuple[dict[str, dict], dict[str, Any], float]:
    """Time ``searches`` (name -> callable) in ``rounds`` interleaved rounds by CPU time.

    In each round every search runs, in the given order, until it has used
    ``min_seconds`` CPU seconds (at least once; or until ``20 min_seconds`` of wall time
    passed, for a call that waits rather than computes); its per-call CPU and wall
    times are that round's totals over its calls.

    Returns
    -------
    timings : dict
        name -> ``{"seconds": best per-call CPU time, "wall_seconds": best per-call wall
        time, "calls": calls per round (of the last), "spread": max / min - 1 of the
        rounds' CPU times}``.
    outputs : dict
        name -> the search's last return value.
    contention : float
        Wall / CPU time of all calls: 1 when the process had a core to itself.
    """
    if rounds < 1:
        raise ValueError(f"rounds = {rounds}: give at least 1")
    cpu = {name: [] for name in searches}
    wall = {name: [] for name in searches}
    calls, outputs = {}, {}
    total_cpu = total_wall = 0.0
    for _ in range(int(rounds)):
        for name, fn in searches.items():
            n, c0, w0 = 0, cpu_clock(), time.perf_counter()
            while True:
                outputs[name] = fn()
                n += 1
                used, elapsed = cpu_clock() - c0, time.perf_counter() - w0
                if used >= min_seconds or elapsed >= _WALL_FACTOR * min_seconds:
                    break
            total_cpu, total_wall = total_cpu + used, total_wall + elapsed
            cpu[name].append(used / n)
            wall[name].append(elapsed / n)
            calls[name] = n
    timings = {name: {"seconds": float(min(cpu[name])), "wall_seconds": float(min(wall[name])),
                      "calls": int(calls[name]),
                      "spread": float(max(cpu[name]) / max(min(cpu[name]), 1e-12) - 1.0)}
               for name in searches}
    return timings, outputs, float(total_wall / max(total_cpu, 1e-12))


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


def _knn_methods(train, test, repeats, with_tree=True) -> tuple[dict[str, dict], float]:
    """Time the naive search, scikit-learn's brute force and (optionally) the ball tree
    on one (train, test) pair in interleaved rounds (:func:`cpu_timings`); each entry's
    timings, its work (:data:`WORK`, counted in one untimed call), its neighbours and
    its check against an independent reference: the
    exhaustive :func:`full_knn` with the tree (the r-D searches), else each other (the
    784-D baselines, naive and brute). Returns ``(entries, contention)``."""
    naive_knn(train[:2], test[:1], 1)  # compile outside the timing
    nn = NearestNeighbors(n_neighbors=K, algorithm="brute").fit(train)
    searches = {"naive": lambda: naive_knn(train, test, K)[0],
                "brute": lambda: nn.kneighbors(test)[1]}
    m, n, d = len(test), len(train), train.shape[1]
    work = {"naive": int(naive_knn(train, test, K)[2]), "brute": m * n * d}
    build = None
    if with_tree:
        start = cpu_clock()
        tree = BallTree(train, leaf_size=LEAF_SIZE)
        build = cpu_clock() - start
        searches["balltree"] = lambda: tree.query(test, k=K)[1]
        tree.reset_n_calls()
        tree.query(test, k=K)
        work["balltree"] = int(tree.get_n_calls()) * d
    timings, found, contention = cpu_timings(searches, repeats)
    out = {name: {**timings[name], "work": work[name], "idx": found[name]}
           for name in searches}
    if with_tree:
        out["balltree"]["build_seconds"] = build
        full_knn(train[:2], test[:1], 1)  # compile
        ref_idx, _ = full_knn(train, test, K)
        for entry in out.values():
            check_against(train, test, entry, FULL, ref_idx)
    else:
        check_against(train, test, out["naive"], "brute", out["brute"]["idx"])
        check_against(train, test, out["brute"], "naive", out["naive"]["idx"])
    return out, contention


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
        full, busy_full = _knn_methods(np.ascontiguousarray(Rtr), np.ascontiguousarray(Rte),
                                       params["repeats"], with_tree=False)
        low, busy_low = _knn_methods(np.ascontiguousarray(Rtr[:, :r]),
                                     np.ascontiguousarray(Rte[:, :r]), params["repeats"])
        votes = ytr[low["balltree"]["idx"]]
        body.update(r=r, baseline=_public(full), reduced=_public(low),
                    references={"reduced": f"{FULL}: exhaustive float64 search in r dims",
                                "baseline": "naive and brute against each other"},
                    knn_error=float(np.mean([np.bincount(v).argmax() != t
                                             for v, t in zip(votes, yte)])),
                    clock=CLOCK, contention=max(busy_full, busy_low),
                    blas_during_run=blas_info())
    return body


def _scaled_inputs(Z, codes, target_distance):
    """``Z`` scaled to mean squared target distance ``target_distance``; its targets."""
    targets = same_class_neighbors(Z, codes, K)
    mean = float(target_sq_distances(Z, targets).mean())
    return Z * np.sqrt(target_distance / mean), targets


def search_work(Z, codes, radius) -> dict[str, int]:
    """The work (:data:`WORK`) of the two active-hinge searches on ``Z``: the blocked
    search's GEMM evaluates every pair of points of different classes (``r`` multiply-adds
    each); the ball trees (one per class, built and queried as
    :func:`harness.methods.shared.lmnn_impostors.impostor_pairs` does) evaluate ``get_n_calls()``
    point and node distances of ``r`` coordinates. Deterministic: the same on every
    machine and under any load."""
    sizes = np.bincount(codes).astype(np.int64)
    cross_pairs = (int(sizes.sum()) ** 2 - int((sizes ** 2).sum())) // 2
    trees: list = []
    tree_candidates(Z, codes, radius, trees=trees)
    r = int(Z.shape[1])
    return {"blocked_work": cross_pairs * r,
            "tree_work": sum(int(t.get_n_calls()) for t in trees) * r}


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
        searches, busy = [], []
        for scale in params["scales"]:
            Zs = Z1 * np.sqrt(scale)
            radius = target_sq_distances(Zs, targets).max(axis=1) + 1.0
            timings, found, contention = cpu_timings(
                {method: (lambda m=method: impostor_pairs(Zs, codes, radius, method=m))
                 for method in ("blocked", "tree")}, params["repeats"])
            busy.append(contention)
            row = {"scale": float(scale)}
            for method, entry in timings.items():
                row[f"{method}_seconds"] = entry["seconds"]
                row[f"{method}_wall_seconds"] = entry["wall_seconds"]
                row[f"{method}_spread"] = entry["spread"]
            row["identical"] = all(np.array_equal(a, b)
                                   for a, b in zip(found["blocked"], found["tree"]))
            row["pairs"] = int(len(found["tree"][0]))
            row["speedup"] = row["blocked_seconds"] / row["tree_seconds"]
            row.update(search_work(Zs, codes, radius))
            row["work_speedup"] = row["blocked_work"] / row["tree_work"]
            searches.append(row)
        Zte = np.ascontiguousarray((Xte - mean) @ V[:, :r])
        entries, contention = _knn_methods(Z, Zte, params["repeats"])
        knn = _public(entries)
        body.update(r=r, searches=searches, knn=knn,
                    knn_tree_speedup=knn["brute"]["seconds"] / knn["balltree"]["seconds"],
                    knn_tree_gain=knn["naive"]["seconds"] / knn["balltree"]["seconds"],
                    knn_tree_work_speedup=knn["brute"]["work"] / knn["balltree"]["work"],
                    knn_tree_work_gain=knn["naive"]["work"] / knn["balltree"]["work"],
                    work_unit=WORK,
                    clock=CLOCK, contention=max(busy + [contention]),
                    blas_during_run=blas_info())
    return body


def sources(params: dict) -> list:
    """The MNIST plugin and the impostor search's module."""
    import harness.methods.shared.lmnn_impostors as impostors

    return [registry.get_dataset(params["dataset"]), impostors]
