"""One job of the MVU cost checks (thesis 3.1.4 line 1518, 3.1.12 line 1966).

* ``steps``: at each size, on the solver table's problem (the same data set, noise
  dimensions, k and seed), the CPU seconds of MVU's first step -- the k-NN graph with
  its neighbourhood cliques and their squared distances
  (:meth:`harness.problems.mvu_problem.MVUProblem.from_points`) -- and of its third --
  the eigendecomposition of an n x n kernel (``numpy.linalg.eigh`` of a seeded random
  symmetric matrix: LAPACK's divide and conquer deflates a low-rank matrix such as the
  input's Gram, 0.13 CPU-s at n = 1000 against the generic cost; a random matrix has
  no deflation, the most this step can cost, so the comparison is the SDP's hardest)
  -- each the median of ``repeats`` runs. The second step, the SDP,
  is the solver table's native record of the same n (read at write time).
* ``k_sweep``: at one n, for each k, the clique graph's number of constraints, its
  connectivity, and the native solver's CPU seconds (one solve; a disconnected graph is
  recorded and not solved; a solve beyond ``solver_time_limit`` is a timeout).
"""

from __future__ import annotations

import statistics

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.problems.mvu_problem import MVUProblem
from harness.results.mvu_graph_3_1_12.work import components
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import cpu_clock

__all__ = ["load_roll", "step_times", "k_sweep", "work", "sources"]


def load_roll(params: dict, n: int) -> np.ndarray:
    """The solver table's Swiss roll of n points."""
    return registry.get_dataset(params["dataset"])().load(
        n_samples=int(n), extra_noise_dims=params["extra_noise_dims"],
        extra_noise_std=params["extra_noise_std"], seed=params["seed"]).X


def _median_cpu(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = cpu_clock()
        fn()
        times.append(cpu_clock() - start)
    return float(statistics.median(times))


def step_times(params: dict) -> dict:
    """The k-NN graph's and the eigendecomposition's CPU seconds per size."""
    rows = []
    for n in params["sizes"]:
        X = load_roll(params, n)
        A = np.random.default_rng([params["seed"], int(n)]).standard_normal((int(n), int(n)))
        gram = A + A.T
        rows.append({
            "n": int(n), "k": int(params["n_neighbors"]),
            "knn_cpu_seconds": _median_cpu(
                lambda: MVUProblem.from_points(X, int(params["n_neighbors"])),
                params["repeats"]),
            "eig_cpu_seconds": _median_cpu(lambda: np.linalg.eigh(gram), params["repeats"])})
    return {"status": "ok", "reason": "", "repeats": int(params["repeats"]), "steps": rows}


def k_sweep(params: dict) -> dict:
    """The native SDP's CPU seconds against k at one n."""
    X = load_roll(params, params["n"])
    rows = []
    for k in params["ks"]:
        problem = MVUProblem.from_points(X, int(k), connectivity="clique")
        row = {"k": int(k), "constraints": int(problem.m) + 1,
               "components": components(problem.n, problem.edges)}
        if row["components"] == 1:
            start = cpu_clock()
            result = solve_mvu(problem, "native", time_limit=params["solver_time_limit"],
                               seed=params["seed"])
            info = result.info()
            row.update(status=result.status, sdp_cpu_seconds=cpu_clock() - start,
                       gap=info.get("gap"), violation=info.get("violation"))
        rows.append(row)
    return {"status": "ok", "reason": "", "n": int(params["n"]),
            "solver_time_limit": float(params["solver_time_limit"]), "sweep": rows}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        return step_times(params) if params["kind"] == "steps" else k_sweep(params)


def sources(params: dict) -> list:
    """The data set plugin the job finds by name."""
    return [registry.get_dataset(params["dataset"])]
