"""One column of the MVE fidelity table: kernel PCA, SDE (= MVU) and MVE on one data
set, the job of :mod:`harness.results.mve_fidelity`.

The work (seed ``lecture_jebara_manifold_learning_mve.txt``, "MVE Pseudocode" and "MVE
Results"): load the data set (a registered plugin, optionally a seeded subsample) or
generate a graph (:func:`small_world_graph`); build the feasible set shared by SDE
and MVE (:func:`harness.solvers.mve_solver.points_problem`: the k-NN connectivity with the
affinity kernel's distances; a graph: unit length on its edges) and the affinity
kernel A (points: :func:`~harness.solvers.mve_solver.affinity_factor`; a graph: the
commute-time kernel, :func:`~harness.solvers.mve_solver.commute_time_factor`); then

* kPCA: the fidelity ``(lambda_1 + lambda_2) / sum lambda`` of A (centred);
* SDE: MVU's maximum-trace SDP on that set (:func:`harness.solvers.mvu_sdp.solve_mvu`,
  certified), its kernel's fidelity;
* MVE: :func:`harness.solvers.mve_solver.iterate_mve` from ``init`` (K = A by default), its
  final kernel's fidelity and the per-iteration objective, SDP value, bound and gap;
  every SDP attempted is in its history with its status (a failed last one too),
  ``all_certified`` only when all of them were certified optimal; ``init: mvu``
  starts from the SDE kernel, and when SDE returned none falls back to K = A with
  ``init_used`` and ``init_fallback_reason`` in the record.

Expected failures (data unavailable offline, a disconnected graph) become the
record's status and reason; a failed or uncertified SDP is kept beside the numbers
(its status and gap), never hidden.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import DisconnectedGraphError, ExpectedFailure
from harness.provenance import blas_info
from harness.results.common.work.mvu_point import load_dataset, normalised
from harness.solvers import mve_solver as mve
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import cpu_clock

__all__ = ["GRAPHS", "METHODS", "SOLVER_BUDGET", "small_world_graph",
           "work", "sources"]

#: The graph generators a column may use instead of a data set plugin.
GRAPHS = ("small_world",)
#: The table's rows: our name -> the lecture's row label (reference CSV).
METHODS = {"kpca": "kPCA", "sde": "SDE(MVU)", "mve": "MVE"}
#: Share of the job's CPU budget the SDP solves get (MVU first, MVE the rest).
SOLVER_BUDGET = 0.9
N_SPECTRUM = 10
MAX_TRIES = 100


def small_world_graph(n: int, degree: int = 4, rewire: float = 0.1, seed: int = 0
                      ) -> tuple[np.ndarray, int]:
    """A connected Watts-Strogatz small-world graph (Nature 393, 1998): a ring of ``n``
    nodes, each joined to its ``degree / 2`` nearest on either side, each edge
    ``(i, i + s)`` rewired with probability ``rewire`` to ``(i, j)``, j uniform among
    the nodes not yet joined to i. Disconnected draws are redrawn with the next seed
    (as networkx' ``connected_watts_strogatz_graph``). Returns the edges ``(i < j)``
    and the seed of the draw kept."""
    if degree < 2 or degree % 2 or degree >= n or not 0 <= rewire <= 1:
        raise ValueError(f"small_world: need an even degree in [2, n), rewire in [0, 1]; "
                         f"got degree={degree}, n={n}, rewire={rewire}")
    for attempt in range(MAX_TRIES):
        rng = np.random.default_rng(seed + attempt)
        adj = [set() for _ in range(n)]
        for i in range(n):
            for s in range(1, degree // 2 + 1):
                adj[i].add((i + s) % n)
                adj[(i + s) % n].add(i)
        for s in range(1, degree // 2 + 1):
            for i in range(n):
                j = (i + s) % n
                if rng.uniform() >= rewire or j not in adj[i]:
                    continue
                free = np.setdiff1d(np.arange(n), [i, *adj[i]])
                if free.size:
                    k = int(rng.choice(free))
                    adj[i].discard(j), adj[j].discard(i)
                    adj[i].add(k), adj[k].add(i)
        edges = np.array(sorted({(min(i, j), max(i, j)) for i in range(n) for j in adj[i]}))
        graph = coo_matrix((np.ones(len(edges)), tuple(edges.T)), shape=(n, n))
        if connected_components(graph, directed=False)[0] == 1:
            return edges.astype(np.int64), seed + attempt
    raise ValueError(f"small_world: no connected graph in {MAX_TRIES} draws "
                     f"(n={n}, degree={degree}, rewire={rewire}); raise the degree")



def _spectrum(F: np.ndarray, d: int) -> dict:
    lam = mve.kernel_eigenvalues(F)
    return {"fidelity": mve.fidelity(lam, d), "trace": float(lam.sum()),
            "normalised_eigenvalues": normalised(lam)[:N_SPECTRUM]}


def _check_connected(problem, what: str) -> None:
    """Raise :class:`DisconnectedGraphError` when the constraint graph has several
    components (the SDPs are then unbounded: no trace bound)."""
    graph = coo_matrix((np.ones(problem.m), tuple(problem.edges.T)),
                       shape=(problem.n, problem.n))
    n_comp, labels = connected_components(graph, directed=False)
    if n_comp > 1:
        sizes = sorted(np.bincount(labels).tolist(), reverse=True)[:6]
        raise DisconnectedGraphError(f"the {what} has {n_comp} connected components "
                                     f"(largest {sizes}); raise n_neighbors")


def _inputs(params: dict):
    """``(problem, affinity factor, facts)`` for the column's data or graph."""
    if "graph" in params:
        n = params["n_samples"]
        edges, used = small_world_graph(n, **params["graph_params"], seed=params["seed"])
        facts = {"n_samples": n, "n_edges": int(len(edges)), "graph_seed": used,
                 "dataset_meta": {"source": "generated", "generator": params["graph"],
                                  "params": params["graph_params"]}}
        return mve.graph_problem(n, edges), mve.commute_time_factor(n, edges), facts
    dataset = load_dataset(params)
    X = dataset.X
    F0 = mve.affinity_factor(X, params["kernel"], params["gamma"])
    problem = mve.points_problem(X, F0, params["n_neighbors"], params["connectivity"])
    _check_connected(problem, f"{params['connectivity']} graph (k = {params['n_neighbors']}) "
                              f"of {params['dataset']}")
    facts = {"n_samples": dataset.n_samples, "n_features": int(X.shape[1]),
             "n_edges": problem.m, "dataset_meta": dataset.meta}
    return problem, F0, facts


def _sde(problem, params: dict, limit: float) -> tuple[dict, np.ndarray | None]:
    start = time.perf_counter()
    result = solve_mvu(problem, params["solver"], time_limit=limit, tol_gap=params["tol_gap"],
                       tol_violation=params["tol_violation"], seed=params["seed"])
    row = {"status": "ok" if result.F is not None else result.status,
           "reason": result.reason, "solve": result.info(),
           "seconds": time.perf_counter() - start}
    if result.F is not None:
        row.update(_spectrum(result.F, params["n_components"]))
    return row, result.F


def _mve(problem, F0, sde_F, params: dict, limit: float, sde_status: str = "") -> dict:
    start, cpu = time.perf_counter(), cpu_clock()
    d = params["n_components"]
    init, fallback = params["init"], ""
    if init == "mvu" and sde_F is not None:
        begin = sde_F  # the SDE kernel just solved: no second MVU solve
    elif init == "mvu":  # no SDE kernel: start from A, and say so
        init, begin = "affinity", F0
        fallback = (f"init mvu: the SDE solve returned no kernel ({sde_status or 'failed'}); "
                    f"MVE started from K = A instead")
    else:
        begin, _ = mve.initial_factor(
            init, F0, problem, d,
            solver=params["solver"], seed=params["seed"], time_limit=limit,
            tol_gap=params["tol_gap"], tol_violation=params["tol_violation"])
    # CPU seconds left (iterate_mve's limit is CPU time of this process)
    result = mve.iterate_mve(problem, begin, d, solver=params["solver"], eps=params["eps"],
                             max_iter=params["max_iter"], tol_gap=params["tol_gap"],
                             tol_violation=params["tol_violation"], seed=params["seed"],
                             time_limit=max(limit - (cpu_clock() - cpu), 1.0))
    row = {"status": "ok" if result.iterations else result.status, "reason": result.reason,
           "mve_status": result.status, "iterations": result.iterations,
           "sdps_attempted": result.attempted, "failed_sdps": result.failed_sdps,
           "init": init, "init_requested": params["init"], "init_used": init,
           "init_fallback_reason": fallback,
           "all_certified": result.certified, "history": result.history,
           "solve": result.solve_info, "seconds": time.perf_counter() - start,
           "cpu_seconds": cpu_clock() - cpu}
    if result.iterations:
        row.update(_spectrum(result.F, d))
    return row


def work(params: dict) -> dict:
    """The job's work in the child process; returns the record body (module doc)."""
    start = time.perf_counter()
    budget = SOLVER_BUDGET * params["time_limit_seconds"]
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            problem, F0, facts = _inputs(params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        body: dict[str, Any] = {"status": "ok", "reason": "", **facts, "methods": {}}
        body["methods"]["kpca"] = {"status": "ok", "reason": "",
                                   **_spectrum(F0, params["n_components"])}
        sde, sde_F = _sde(problem, params, budget)
        body["methods"]["sde"] = sde
        left = budget - (time.perf_counter() - start)
        body["methods"]["mve"] = _mve(problem, F0, sde_F, params, left, sde["status"])
        body["blas_during_run"] = blas_info()
    return body


def sources(params: dict) -> list:
    """The data set plugin the job finds by name (the work's own imports count
    already: :func:`harness.jobs.job_sources`)."""
    return [registry.get_dataset(params["dataset"])] if "dataset" in params else []
