r"""The jobs of Fig. 2.15 (thesis 2.1.9, "Ball Trees Reviewed"), one BLAS thread, CPU
time (:func:`harness.timelimit.cpu_clock`).

- ``gaussians`` (:func:`gaussians_work`): per draw, ``n_samples`` points of two
  Gaussians (:func:`two_gaussians`), the thesis' tree (:mod:`.balltree`) with mean and
  with median split (the split seed is the draw's), scikit-learn's ``BallTree`` on the
  same points (its node data from ``get_arrays()``), ``n_queries`` fresh points of the
  same Gaussians queried ``k``-NN in each and compared with brute force; on draw 0 the
  build times (mean against median split) and the split value's time alone; the median
  split's depth at ``gaussian_depth_sizes`` (thesis: "cutting off at the median would
  guarantee a tree depth of log(n)").
- ``mnist`` (:func:`mnist_work`): MNIST (deskewed, 784 pixels) after PCA to each ``r``
  of ``dimensions``: both splits' trees (``n_split_seeds`` each), the fraction of nodes a
  ``k``-NN query visits, the sibling balls that intersect, distance evaluations and
  query CPU time, exactness against brute force; the build times at
  ``build_dimensions``; the median split's depth at ``mnist_depth_sizes``.
- ``scaling`` (:func:`scaling_work`): ``k``-NN query CPU time of scikit-learn's
  ``BallTree`` (r = ``scaling_dimension``) and of brute force (scikit-learn's, d = 784)
  against n (``scaling_sizes``), and of brute force against d (``brute_dimensions``,
  the leading PCA coordinates) at the largest n, timed side by side in interleaved
  repeats; the thesis' tree's distance evaluations per query against n.

A timed call is repeated within a repeat until it used ``min_seconds`` CPU seconds; its
time is the median over the interleaved repeats of the per-call CPU time
(:func:`median_cpu_times`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from sklearn.neighbors import BallTree, NearestNeighbors
from threadpoolctl import threadpool_limits

from harness.provenance import blas_info
from harness.results.common.work.balltree_point import _split
from harness.results.fig_2_15.balltree import (
    SPLITS, build, brute_force, depth_bound, query, sibling_overlap, split_value,
    check_invariants,
)
from harness.timelimit import cpu_clock

__all__ = ["two_gaussians", "median_cpu_times", "tree_stats", "sklearn_stats",
           "exactness", "gaussians_work", "mnist_work", "scaling_work", "work"]

CLOCK = "process CPU time, median of interleaved repeats of per-call times"
_EXACT_RTOL = 1e-9


def two_gaussians(params: dict, draw: int, n: int | None = None, stream: int = 0
                  ) -> np.ndarray:
    """``n`` (default ``n_samples``) points in 2-D, the first half from the Gaussian of
    ``gaussian_means[0]`` and standard deviation ``gaussian_stds[0]``, the second half
    from the other; seeded by ``[seed, draw, stream]`` (stream 0 the data, 1 the
    queries)."""
    n = int(params["n_samples"] if n is None else n)
    rng = np.random.default_rng([params["seed"], draw, stream])
    sizes = (n // 2, n - n // 2)
    return np.vstack([rng.normal(params["gaussian_means"][c], params["gaussian_stds"][c],
                                 (sizes[c], 2)) for c in (0, 1)])


def median_cpu_times(calls: dict[str, Callable[[], Any]], repeats: int,
                     min_seconds: float) -> dict[str, dict]:
    """Time ``calls`` (name -> callable) in ``repeats`` interleaved repeats: within a
    repeat each runs until it used ``min_seconds`` CPU seconds (at least once). Returns
    name -> ``{"seconds": median per-call CPU time, "spread": max / min - 1 of the
    repeats, "calls": calls in the last repeat, "per_repeat": each repeat's per-call
    CPU time}``."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    counts = {}
    for _ in range(int(repeats)):
        for name, fn in calls.items():
            n, c0 = 0, cpu_clock()
            while True:
                fn()
                n += 1
                used = cpu_clock() - c0
                if used >= min_seconds:
                    break
            times[name].append(used / n)
            counts[name] = n
    return {name: {"seconds": float(np.median(t)), "spread": float(max(t) / max(min(t), 1e-12) - 1),
                   "calls": int(counts[name]), "per_repeat": [float(x) for x in t]}
            for name, t in times.items()}


def exactness(X, Q, idx, ref_dist) -> dict:
    """Whether the neighbours ``idx`` are at the brute-force distances ``ref_dist``
    (recomputed exactly, sorted per query, relative 1e-9): ``exact``,
    ``max_relative_error``."""
    d = np.sort(np.sqrt(((X[idx] - Q[:, None, :]) ** 2).sum(axis=2)), axis=1)
    ref = np.sort(ref_dist, axis=1)
    err = np.abs(d - ref) / np.maximum(ref, np.finfo(float).tiny)
    return {"exact": bool(np.all(err <= _EXACT_RTOL)), "max_relative_error": float(err.max())}


def tree_stats(X, Q, split: str, leaf_size: int, k: int, seed, ref) -> dict:
    """One thesis tree on ``X``: its balls, depth, invariants, sibling overlap, and its
    ``k``-NN queries of ``Q`` (mean counts per query, the query call's CPU time,
    exactness and same indices against the brute-force ``ref = (idx, dist)``)."""
    tree = build(X, leaf_size, split, seed)
    c0 = cpu_clock()
    idx, _, counts = query(tree, Q, k)
    seconds = cpu_clock() - c0
    sizes = tree.end[tree.leaves] - tree.start[tree.leaves]
    return {"n_leaves": tree.n_leaves, "n_nodes": tree.n_nodes, "depth": tree.depth,
            "depth_bound": depth_bound(len(X), leaf_size), "max_leaf": int(sizes.max()),
            "invariant_errors": check_invariants(tree)[:5],
            "sibling_overlap": sibling_overlap(tree),
            "visited_fraction": float(counts["visited"].mean() / tree.n_nodes),
            "pruned_per_query": float(counts["pruned"].mean()),
            "point_evals": float(counts["point_evals"].mean()),
            "center_evals": float(counts["center_evals"].mean()),
            "distance_evals": float((counts["point_evals"] + counts["center_evals"]).mean()),
            "points_pruned_fraction": float(1 - counts["point_evals"].mean() / len(X)),
            "query_seconds": float(seconds / len(Q)),
            "same_indices": float(np.mean(np.all(np.sort(idx, 1) == np.sort(ref[0], 1), 1))),
            **exactness(X, Q, idx, ref[1])}


def sklearn_stats(X, Q, leaf_size: int, k: int, ref) -> dict:
    """scikit-learn's ``BallTree`` on ``X``: its leaves, nodes and levels (from
    ``get_arrays()``), the largest leaf, distance evaluations per query
    (``get_n_calls()``) and exactness against ``ref``."""
    tree = BallTree(X, leaf_size=leaf_size)
    _, _, node_data, _ = tree.get_arrays()
    leaf = node_data["is_leaf"].astype(bool)
    sizes = node_data["idx_end"] - node_data["idx_start"]
    tree.reset_n_calls()
    _, idx = tree.query(Q, k=k)
    return {"n_leaves": int(leaf.sum()), "n_nodes": int(len(node_data)),
            "depth": int(np.log2(len(node_data) + 1)), "max_leaf": int(sizes[leaf].max()),
            "distance_evals": float(tree.get_n_calls() / len(Q)),
            "points_pruned_fraction": float("nan"),
            **exactness(X, Q, idx, ref[1])}


def _build_timings(X, params: dict, seed) -> dict:
    """Build CPU time of the mean and the median split on ``X`` (interleaved), and the
    split value alone on the root's projections (the thesis' heuristic's direction)."""
    rng = np.random.default_rng(seed)
    x1 = X[np.argmax(((X - X[rng.integers(len(X))]) ** 2).sum(axis=1))]
    proj = X @ (x1 - X[np.argmax(((X - x1) ** 2).sum(axis=1))])
    builds = median_cpu_times(
        {s: (lambda s=s: build(X, params["leaf_size"], s, seed)) for s in SPLITS},
        params["repeats"], params["min_seconds"])
    values = median_cpu_times({s: (lambda s=s: split_value(proj, s)) for s in SPLITS},
                              params["repeats"], params["min_seconds"])
    return {"build_mean_seconds": builds["mean"]["seconds"],
            "build_median_seconds": builds["median"]["seconds"],
            "build_ratio": builds["median"]["seconds"] / builds["mean"]["seconds"],
            "build_spread": max(b["spread"] for b in builds.values()),
            "value_mean_seconds": values["mean"]["seconds"],
            "value_median_seconds": values["median"]["seconds"],
            "value_ratio": values["median"]["seconds"] / values["mean"]["seconds"],
            "value_n": int(len(proj))}


def _depths(make: Callable[[int], np.ndarray], sizes, leaf_size: int, seed) -> list[dict]:
    out = []
    for n in sizes:
        X = make(int(n))
        out.append({"n": int(n), "bound": depth_bound(len(X), leaf_size),
                    **{f"{s}_depth": build(X, leaf_size, s, seed).depth for s in SPLITS}})
    return out


def gaussians_work(params: dict) -> dict:
    """The ``gaussians`` job (module docstring)."""
    k, leaf = params["n_neighbors"], params["leaf_size"]
    draws, figure = [], {}
    for t in range(params["n_draws"]):
        X = two_gaussians(params, t)
        Q = two_gaussians(params, t, params["n_queries"], stream=1)
        ref = brute_force(X, Q, k)
        split_seed = [params["seed"], t, 2]
        row = {"draw": t, **{s: tree_stats(X, Q, s, leaf, k, split_seed, ref) for s in SPLITS},
               "sklearn": sklearn_stats(X, Q, params["sklearn_leaf_size"], k, ref)}
        draws.append(row)
        if t == 0:
            tree = build(X, leaf, "mean", split_seed)
            figure = {"points": np.round(X, 5).tolist(),
                      "level2": tree.level_assignment(2).tolist(),
                      "level3": tree.level_assignment(3).tolist(),
                      "leaves": tree.leaf_of().tolist(),
                      "timings": _build_timings(X, params, split_seed)}
    depths = _depths(lambda n: two_gaussians(params, 0, n), params["gaussian_depth_sizes"],
                     leaf, [params["seed"], 0, 2])
    return {"draws": draws, "figure": figure, "depths": depths}


def _pca(params: dict):
    """``(body, (Rtr, Rte))``: the training and query digits rotated by the training
    PCA (all 784 coordinates, by decreasing variance), or a gap body and None."""
    body, split = _split(params)
    if split is None:
        return body, None
    Xtr, _, Xte, _, mean, V = split
    return body, (np.ascontiguousarray((Xtr - mean) @ V), np.ascontiguousarray((Xte - mean) @ V))


def mnist_work(params: dict) -> dict:
    """The ``mnist`` job (module docstring)."""
    body, data = _pca(params)
    if data is None:
        return body
    Rtr, Rte = data
    k, leaf = params["n_neighbors"], params["leaf_size"]
    rows = []
    for r in params["dimensions"]:
        Z, Zq = np.ascontiguousarray(Rtr[:, :r]), np.ascontiguousarray(Rte[:, :r])
        ref = brute_force(Z, Zq, k)
        for s in range(params["n_split_seeds"]):
            for split in SPLITS:  # interleaved: the query times are side by side
                rows.append({"r": int(r), "split_seed": s, "split": split,
                             **tree_stats(Z, Zq, split, leaf, k, [params["seed"], r, s], ref)})
    builds = [{"r": int(r), **_build_timings(np.ascontiguousarray(Rtr[:, :r]), params,
                                             [params["seed"], r, 0])}
              for r in params["build_dimensions"]]
    r = params["depth_dimension"]
    depths = _depths(lambda n: np.ascontiguousarray(Rtr[:n, :r]), params["mnist_depth_sizes"],
                     leaf, [params["seed"], r, 0])
    body.update(trees=rows, builds=builds, depths=depths)
    return body


def _per_query(timing: dict, m: int) -> dict:
    """A timing of a call over ``m`` queries, per query."""
    return {"seconds": timing["seconds"] / m, "spread": timing["spread"],
            "per_repeat": [t / m for t in timing["per_repeat"]]}


def scaling_work(params: dict) -> dict:
    """The ``scaling`` job (module docstring)."""
    body, data = _pca(params)
    if data is None:
        return body
    Rtr, Rte = data
    k, r = params["n_neighbors"], params["scaling_dimension"]
    sizes, dims = [int(n) for n in params["scaling_sizes"]], [int(d) for d in params["brute_dimensions"]]
    n_max = max(sizes)
    calls, found = {}, {}

    def keep(name, fn):
        def call():
            found[name] = fn()
        calls[name] = call

    trees = {}
    for n in sizes:
        trees[n] = BallTree(np.ascontiguousarray(Rtr[:n, :r]), leaf_size=params["sklearn_leaf_size"])
        brute = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(Rtr[:n])
        keep(f"tree_n{n}", lambda t=trees[n]: t.query(np.ascontiguousarray(Rte[:, :r]), k=k)[1])
        keep(f"brute_n{n}", lambda b=brute: b.kneighbors(Rte)[1])
    for d in dims:
        brute = NearestNeighbors(n_neighbors=k, algorithm="brute").fit(
            np.ascontiguousarray(Rtr[:n_max, :d]))
        keep(f"brute_d{d}", lambda b=brute, d=d: b.kneighbors(np.ascontiguousarray(Rte[:, :d]))[1])
    times = median_cpu_times(calls, params["query_repeats"], params["min_seconds"])
    m = len(Rte)
    rows = []
    for n in sizes:
        Z, Zq = np.ascontiguousarray(Rtr[:n, :r]), np.ascontiguousarray(Rte[:, :r])
        ref = brute_force(Z, Zq, k)
        trees[n].reset_n_calls()
        trees[n].query(Zq, k=k)
        ours = [tree_stats(Z, Zq, "mean", params["leaf_size"], k, [params["seed"], n, s], ref)
                for s in range(params["n_split_seeds"])]
        rows.append({"sweep": "n", "n": n, "d": r, "method": "balltree",
                     **_per_query(times[f"tree_n{n}"], m),
                     "sklearn_distance_evals": float(trees[n].get_n_calls() / m),
                     "thesis_tree_distance_evals": float(np.mean([o["distance_evals"] for o in ours])),
                     "exact": all(o["exact"] for o in ours)
                     and exactness(Z, Zq, found[f"tree_n{n}"], ref[1])["exact"]})
        rows.append({"sweep": "n", "n": n, "d": int(Rtr.shape[1]), "method": "brute",
                     **_per_query(times[f"brute_n{n}"], m)})
    for d in dims:
        rows.append({"sweep": "d", "n": n_max, "d": d, "method": "brute",
                     **_per_query(times[f"brute_d{d}"], m)})
    body.update(rows=rows)
    return body


_PARTS = {"gaussians": gaussians_work, "mnist": mnist_work, "scaling": scaling_work}


def work(params: dict) -> dict:
    """The child's work for one job (``params["part"]``); returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        body = {"status": "ok", "reason": ""}
        body.update(_PARTS[params["part"]](params))
        if body["status"] == "ok":
            body.update(clock=CLOCK, blas_during_run=blas_info())
        return body
