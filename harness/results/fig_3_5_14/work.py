"""The jobs of Figs. 3.5 and 3.14 (thesis 3.1.5, 3.1.6): one MVU point each, certified.

* Strict and slack points (``connectivity: clique``) are MVU points of
  :func:`harness.results.common.work.mvu_point.mvu_point_work` (the clique graph of 3.1.4,
  ``MVU(variant="equality" | "slack", omega=...)``; the solver's status is the one the
  harness recomputes from the certificate), with the 2-D embedding, the roll
  parameter t (the colouring of the thesis' panels) and the variance ratio of the
  roll's generating unrolled coordinates (:func:`unrolled_variance_ratio`) added.
* k-NN-only points (``connectivity: knn``, the last relaxation of 3.1.6: "only
  preserving distances to k-nearest neighbors as opposed to preserving distances and
  angles") solve the strict SDP on the k-NN graph and, side by side in the same
  process, on the clique graph (:class:`harness.problems.mvu_problem.MVUProblem`,
  :func:`harness.solvers.mvu_sdp.solve_mvu`, whose status comes from the certificate
  recomputed from the problem data), each timed in CPU seconds.
* ``graph_counts`` counts the edges (= distance constraints) of the clique and of the
  k-NN graph of each roll for the listed k.
"""

from __future__ import annotations


import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from threadpoolctl import threadpool_limits

from harness.datasets.swiss_roll import spiral_arc_length
from harness import registry
from harness.plugin import ExpectedFailure
from harness.problems.mvu_problem import MVUProblem
from harness.provenance import blas_info
from harness.results.common.work.mvu_point import (
    N_SPECTRUM, load_dataset, mvu_point_work, mvu_sources, normalised,
)
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import cpu_clock_with_children

__all__ = ["work", "sources", "unrolled_variance_ratio", "roll_extra", "graph_counts",
           "knn_point", "relative_rms_violation", "CONNECTIVITIES"]

#: the graphs a k-NN-only point solves side by side, the k-NN one first
CONNECTIVITIES = ("knn", "clique")
#: decimals of the embedding kept in a record (for the figure only)
EMBEDDING_DECIMALS = 4


def unrolled_variance_ratio(X, t) -> float:
    """Variance of the roll's unrolled length coordinate over that of its width.

    The roll's points are ``(t cos t, h, t sin t)`` (:mod:`harness.datasets.swiss_roll`); unrolled,
    a point sits at (arc length of the spiral up to t, h). Returns ``var(s) / var(h)``
    with ``s = spiral_arc_length(t)`` and ``h = X[:, 1]`` (exact for a roll without
    noise on its three coordinates, as both rolls here are).
    """
    s = spiral_arc_length(np.asarray(t, dtype=float))
    h = np.asarray(X, dtype=float)[:, 1]
    return float(np.var(s) / np.var(h))


def relative_rms_violation(Y, edges, sq_lengths) -> float:
    """How far an embedding ``Y`` is from preserving the graph's squared distances:
    ``sqrt(sum_e (|y_i - y_j|^2 - D_e)^2) / sqrt(sum_e D_e^2)`` over the edges ``e =
    (i, j)`` with squared input lengths ``D_e`` (0 for an isometry on the graph)."""
    Y = np.asarray(Y, dtype=float)
    diff = Y[edges[:, 0]] - Y[edges[:, 1]]
    residual = np.einsum("ij,ij->i", diff, diff) - sq_lengths
    return float(np.sqrt(residual @ residual) / np.sqrt(sq_lengths @ sq_lengths))


def roll_extra(dataset, result, n_neighbors: int) -> dict:
    """What a figure point adds to its MVU record: the 2-D embedding (rounded), the roll
    parameter t, the ground-truth variance ratio, and the relative RMS violation of the
    clique graph's distances by the whole embedding the point kept (its
    ``n_components`` leading dimensions; the normalised eigenvalues say what they
    leave out)."""
    Y = np.asarray(result["embedding"], dtype=float)
    problem = MVUProblem.from_points(dataset.X, n_neighbors)
    return {"embedding": np.round(Y[:, :2], EMBEDDING_DECIMALS).tolist(),
            "roll_parameter": np.round(np.asarray(dataset.y, float), 6).tolist(),
            "unrolled_variance_ratio": unrolled_variance_ratio(dataset.X, dataset.y),
            "violation_dimensions": int(Y.shape[1]),
            "relative_rms_violation": relative_rms_violation(Y, problem.edges,
                                                             problem.sq_lengths)}


def _connected(n: int, edges: np.ndarray) -> bool:
    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    return connected_components(graph, directed=False)[0] == 1


def graph_counts(params: dict) -> dict:
    """Edges of the clique graph (3.1.4) and of the k-NN graph per roll and k."""
    rows = []
    load = registry.get_dataset(params["dataset"])().load
    for data, data_params in params["data_params"].items():
        X = load(**{**data_params, "n_samples": params["n_samples"]}).X
        for k in params["n_neighbors"]:
            m = {c: MVUProblem.from_points(X, int(k), connectivity=c).m
                 for c in ("clique", "knn")}
            rows.append({"data": data, "k": int(k), "n_samples": params["n_samples"],
                         "clique_edges": m["clique"], "knn_edges": m["knn"]})
    return {"status": "ok", "reason": "", "counts": rows}


def _solve(X, params: dict, connectivity: str) -> dict:
    problem = MVUProblem.from_points(X, params["method_params"]["n_neighbors"],
                                     connectivity=connectivity, variant="equality")
    if not _connected(problem.n, problem.edges):
        return {"status": "failed", "reason": f"the {connectivity} graph is disconnected",
                "m": problem.m}
    cpu = cpu_clock_with_children()
    result = solve_mvu(problem, params["solver"],
                       time_limit=params["method_params"]["time_limit"] / 2,
                       seed=params["seed"])
    cpu = cpu_clock_with_children() - cpu
    out = {"m": problem.m, "cpu_seconds": cpu, "solve": result.info()}
    if result.F is None:
        return {**out, "status": result.status, "reason": result.reason}
    eigenvalues = np.linalg.svd(problem.centred(result.F), compute_uv=False) ** 2
    return {**out, "status": "ok", "reason": "",
            "eigenvalues": eigenvalues[:N_SPECTRUM].tolist(),
            "normalised_eigenvalues": normalised(eigenvalues)[:N_SPECTRUM]}


def knn_point(params: dict) -> dict:
    """Strict MVU on the k-NN graph and on the clique graph of the same points, side by
    side (each with half the point's solver budget)."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            dataset = load_dataset(params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        solves = {c: _solve(dataset.X, params, c) for c in CONNECTIVITIES}
    return {"status": "ok", "reason": "", "n_samples": dataset.n_samples,
            "n_features": int(dataset.X.shape[1]), "dataset_meta": dataset.meta,
            "solves": solves, "blas_during_run": blas_info()}


def work(params: dict) -> dict:
    """One job: ``graph_counts``, a k-NN-only point or an MVU figure point."""
    if params["kind"] == "graph_counts":
        return graph_counts(params)
    if params["connectivity"] == "knn":
        return knn_point(params)
    k = params["method_params"]["n_neighbors"]
    return mvu_point_work(params, extra=lambda dataset, result: roll_extra(dataset, result, k))


def sources(params: dict) -> list:
    """The plugins a job finds by name (the data set; for MVU points the MVU plugin and
    the solver backend's module)."""
    if params["kind"] == "graph_counts":
        return [registry.get_dataset(params["dataset"])]
    return mvu_sources(params)
