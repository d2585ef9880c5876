"""Alignment error of action respecting embedding (ARE) against MVU without actions
on the moving-window data (statwiki STAT 841 F14, lecture 7; not a thesis result).

For each size n, the data set ``moving_window`` (seeded) is embedded in two
dimensions by

- ``are``: ARE with the action sequence (``harness/methods/are.py``, its default solver --
  the native interior point since it was added; Clarabel in the measurements
  below -- certified);
- ``are_no_actions``: the same SDP without actions (MVU with <= local distances);
- ``mvu``: the MVU plugin (equality constraints, native solver, certified);

and each embedding is compared with the true window positions by Procrustes analysis
after scaling (:func:`harness.metrics.alignment.alignment_error`, i.e.
:func:`scipy.spatial.procrustes`: both centred and scaled to unit
Frobenius norm, the best rotation/reflection; the disparity is the sum of squared
differences left, 0 for a perfect match up to similarity, at most 1).

Usage (from the repository root; one BLAS thread)::

    OPENBLAS_NUM_THREADS=1 python scripts/are_alignment.py 40 100 --seed 0

Measured 2026-11-26 (defaults: smoothness 8 px, noise 0.01, action_pairs "all"; k the
smallest >= 5 with a connected graph; every SDP certified optimal, gap <= 5e-4; wall
times under a load of 8-12 on 2 cores from other work), disparity ARE / ARE's SDP
without actions / MVU:

- n = 40, seed 0, k = 5 (21 positions, 183 action constraints): 0.029 / 0.132 / 0.126
- n = 100, seed 0, k = 6 (35 positions, 1186): 0.027 / 0.197 / 0.203 (ARE 516 s)
- n = 100, seed 1, k = 5 (50 positions, 1192): 0.260 / 0.477 / 0.413 (ARE 376 s)

With ``--action-pairs neighbors`` (k-NN pairs only) n = 40, seed 0 gives 0.136. With
the picture smoothed at 4 px (``--smoothness 4``, n = 100, seed 0, k = 10): 0.351 /
0.244 / 0.245. n = 150 did not finish: Clarabel held 6.9 GB and got ~10 % of a core
here; it was stopped after 39 minutes.
"""

from __future__ import annotations

import argparse
import json
import time

from scipy.sparse.csgraph import connected_components
from sklearn.neighbors import kneighbors_graph

from harness.datasets.moving_window import MovingWindow
from harness.metrics.alignment import alignment_error
from harness.methods.are import ARE
from harness.methods.mvu import MVU


def smallest_connected_k(X, start: int) -> int:
    """The smallest k >= ``start`` whose k-NN graph is connected (revisited positions
    give near-duplicate views that fill a point's neighbour list)."""
    k = start
    while connected_components(kneighbors_graph(X, k), directed=False)[0] > 1:
        k += 1
    return k


def measure(n: int, seed: int, k: int | None, action_pairs: str, time_limit: float,
            smoothness: float) -> list[dict]:
    data = MovingWindow().load(n_samples=n, seed=seed, smoothness=smoothness)
    k = smallest_connected_k(data.X, 5) if k is None else k
    rows = []
    runs = {  # the same k for all three
        "are": lambda: ARE(n_neighbors=k, action_pairs=action_pairs,
                           time_limit=time_limit).fit(data.X, actions=data.actions),
        "are_no_actions": lambda: ARE(n_neighbors=k, time_limit=time_limit).fit(data.X),
        "mvu": lambda: MVU(n_neighbors=k, time_limit=time_limit).fit(data.X),
    }
    for name, run in runs.items():
        start = time.perf_counter()
        est = run()
        info = est.solve_info_
        rows.append({"n": n, "seed": seed, "k": k, "method": name,
                     "visited": data.meta["n_positions_visited"],
                     "alignment_error": round(alignment_error(data.positions,
                                                              est.embedding_), 4),
                     "top2_share": round(float(est.eigenvalues_[:2].sum()
                                               / est.eigenvalues_.sum()), 4),
                     "status": info["status"], "gap": info.get("gap"),
                     "violation": info.get("violation"), "c": info.get("c", 0),
                     "seconds": round(time.perf_counter() - start, 1)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--k", type=int, default=None,
                        help="k of every method (default: the smallest k >= 5 whose "
                             "k-NN graph is connected)")
    parser.add_argument("--smoothness", type=float, default=8.0)
    parser.add_argument("--action-pairs", default="all")
    parser.add_argument("--time-limit", type=float, default=3600.0)
    args = parser.parse_args()
    for n in args.sizes:
        measure(n, args.seed, args.k, args.action_pairs, args.time_limit, args.smoothness)


if __name__ == "__main__":
    main()
