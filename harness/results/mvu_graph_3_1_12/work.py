"""One job of the section 3.1.4 / 3.1.12 graph checks.

* ``counts``: the number of distinct edges (= distance constraints) of the clique graph
  of 3.1.4 (:class:`harness.problems.mvu_problem.MVUProblem`, ``connectivity="clique"``:
  each point and its k nearest neighbours pairwise) on noise-free Swiss rolls of each
  size, for each k; against the bound ``n k (k + 1) / 2`` (every one of the n cliques
  has ``k (k + 1) / 2`` pairs).
* ``k_below_3``: on one data set, the connected components of the graph for k = 1 and
  2 (the clique graph's components are the symmetrised k-NN graph's: a clique joins a
  point to its neighbours only); where one is connected, MVU's strict SDP on it by the
  native solver (status from the recomputed certificate) and its kernel's spectrum,
  the share of the largest eigenvalue of the trace ("one dimensional strings").
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.problems.mvu_problem import MVUProblem
from harness.results.common.work.mvu_point import N_SPECTRUM, normalised
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import cpu_clock_with_children

__all__ = ["components", "counts", "k_below_3", "work", "sources"]


def components(n: int, edges: np.ndarray) -> int:
    """The number of connected components of the graph on ``n`` nodes."""
    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    return int(connected_components(graph, directed=False)[0])


def counts(params: dict) -> dict:
    """The clique graph's edges per (n, k) on seeded noise-free Swiss rolls."""
    load = registry.get_dataset("swiss_roll")().load
    rows = []
    for n in params["count_n_samples"]:
        X = load(n_samples=int(n), seed=params["seed"]).X
        for k in params["count_k"]:
            m = MVUProblem.from_points(X, int(k), connectivity="clique").m
            rows.append({"n": int(n), "k": int(k), "edges": int(m),
                         "bound": int(n) * int(k) * (int(k) + 1) // 2})
    return {"status": "ok", "reason": "", "counts": rows}


def _solve(problem: MVUProblem, params: dict) -> dict:
    cpu = cpu_clock_with_children()
    result = solve_mvu(problem, "native", time_limit=params["solver_time_limit"],
                       seed=params["seed"])
    out = {"cpu_seconds": cpu_clock_with_children() - cpu, "solve": result.info(),
           "status": result.status}
    if result.F is None:
        return {**out, "reason": result.reason}
    eigenvalues = np.linalg.svd(problem.centred(result.F), compute_uv=False) ** 2
    return {**out, "top_share": float(eigenvalues[0] / eigenvalues.sum()),
            "normalised_eigenvalues": normalised(eigenvalues)[:N_SPECTRUM]}


def k_below_3(params: dict) -> dict:
    """Components at each k below 3 on one data set; MVU where connected."""
    plugin = registry.get_dataset(params["dataset"])
    try:
        data = plugin().load(**{**plugin.params, **params["dataset_params"]})
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    rows = []
    for k in params["neighbours"]:
        problem = MVUProblem.from_points(data.X, int(k), connectivity="clique",
                                         variant="equality")
        row = {"k": int(k), "edges": int(problem.m),
               "components": components(problem.n, problem.edges)}
        if row["components"] == 1:
            row["mvu"] = _solve(problem, params)
        rows.append(row)
    return {"status": "ok", "reason": "", "n_samples": data.n_samples,
            "n_features": int(data.X.shape[1]),
            "stand_in_for": data.meta.get("stand_in_for"), "graphs": rows}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        return counts(params) if params["kind"] == "counts" else k_below_3(params)


def sources(params: dict) -> list:
    """The data set plugin the job finds by name."""
    return [registry.get_dataset(params["dataset"])]
