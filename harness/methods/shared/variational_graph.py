"""Variational MVU from a given graph (thesis 3.1.8, sensor localisation, eq. 3.26).

Sensor localisation knows only the graph: which pairs measured their distance
(``edges``) and the measured squared distances D_ij. The basis is then the m bottom
eigenvectors of the unweighted graph Laplacian of that graph ("the computation of the
Graph Laplacian only requires a graph", 3.1.8), and the rest is the pipeline Table
3.2's plugins share (:func:`harness.methods.shared.variational_mvu.variational_mvu`), with the
choices that make it fast at n = 20000:

* the Laplacian is factorised once, L + 1e-6 I with a symmetric minimum-degree
  ordering (SuperLU, ``MMD_AT_PLUS_A``: at n = 20000 with 22 neighbours a node,
  0.2 s and half the fill of ARPACK's default COLAMD); the factor serves the
  shift-invert Lanczos of the eigenvectors and then preconditions the CG;
* the SDP's data are reduced over the edges to 55 x 55 (m = 10) and solved by the
  native barrier method (:mod:`harness.methods.shared.psd_qp`);
* CG: preconditioned nonlinear CG with exact line searches (``cg_method="pcg"``).

``init="random"`` skips the SDP and starts the CG (in the output dimensions) from
Gaussian positions of unit variance in the normalised units (the mean squared
measured distance is 1): Fig. 3.20's "baseline".
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph
from scipy.sparse.linalg import LinearOperator, splu

from harness.plugin import DisconnectedGraphError
from harness.methods.shared.variational_mvu import (
    EIGEN_SHIFT, VariationalResult, bottom_eigenvectors, laplacian, refine_embedding,
    variational_mvu,
)
from harness.methods.shared.variational_refine import top_components
from harness.methods.shared.variational_sdp import VariationalSDP
from harness.timelimit import cpu_clock

__all__ = ["INITS", "graph_laplacian", "laplacian_factor", "check_graph",
           "variational_mvu_graph"]

INITS = ("sdp", "random")
RANK_TOL = 1e-9  # the CG in the basis drops coordinates of Z below this (relative)


def check_graph(n: int, edges: np.ndarray, sq_distances: np.ndarray) -> np.ndarray:
    """The edges as an int64 (E, 2) array after checking them against ``n`` and the
    distances; raises ValueError naming the bad value, or
    :class:`DisconnectedGraphError` when the graph has several components."""
    edges = np.asarray(edges)
    if edges.ndim != 2 or edges.shape[1] != 2 or len(edges) == 0:
        raise ValueError(f"edges must be a non-empty (n_edges, 2) array, got shape {edges.shape}")
    if not np.issubdtype(edges.dtype, np.integer) or edges.min() < 0 or edges.max() >= n:
        raise ValueError(f"edges must hold node indices in [0, {n}); got values in "
                         f"[{edges.min()}, {edges.max()}]")
    if (edges[:, 0] == edges[:, 1]).any():
        raise ValueError("edges include a self-loop (i, i); drop it")
    D = np.asarray(sq_distances)
    if D.shape != (len(edges),) or not np.isfinite(D).all() or (D <= 0).any():
        raise ValueError(f"sq_distances must be {len(edges)} positive finite squared "
                         f"distances, one per edge; got shape {D.shape}")
    count, labels = csgraph.connected_components(graph_laplacian(n, edges), directed=False)
    if count > 1:
        sizes = np.sort(np.bincount(labels))[::-1][:8]
        raise DisconnectedGraphError(
            f"the measurement graph of {n} nodes has {count} connected components "
            f"(largest {', '.join(map(str, sizes))}); localise each component separately "
            f"or measure more pairs (larger radius)")
    return edges.astype(np.int64)


def graph_laplacian(n: int, edges: np.ndarray) -> sp.csc_matrix:
    """The unweighted Laplacian (3.24) of the graph with these edges (each once)."""
    i, j = edges[:, 0], edges[:, 1]
    W = sp.csr_matrix((np.ones(2 * len(edges)), (np.concatenate([i, j]),
                                                 np.concatenate([j, i]))), shape=(n, n))
    return laplacian(W).tocsc()


def laplacian_factor(L: sp.spmatrix):
    """SuperLU factor of L + 1e-6 I in symmetric mode with a minimum-degree ordering
    of A + A^T (the shift of :func:`bottom_eigenvectors`)."""
    shifted = (L + EIGEN_SHIFT * sp.eye(L.shape[0])).tocsc()
    return splu(shifted, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                options={"SymmetricMode": True})


def _random_result(n, edges, b, scale, seed, n_components, stage):
    rng = np.random.default_rng(seed)
    Y0 = rng.standard_normal((n, n_components))
    start = time.perf_counter()
    Y, it = refine_embedding(Y0, edges, b / scale, **stage)
    timings = {"cg_output": time.perf_counter() - start}
    empty = VariationalSDP(np.zeros((0, 0)), "skipped", None, float("nan"))
    start_positions = top_components(Y0, n_components) * np.sqrt(scale)
    return VariationalResult(top_components(Y, n_components) * np.sqrt(scale),
                             start_positions, start_positions, empty.Z, empty, it, timings,
                             scale)


def variational_mvu_graph(n: int, edges: np.ndarray, sq_distances: np.ndarray, *,
                          n_basis: int = 10, n_components: int = 2, omega: float = 0.9,
                          cg_omega: float = 1.0, normalize: bool = True,
                          refine: bool = True, cg_maxiter: int = 100,
                          cg_in_basis: bool = True, sdp_solver: str = "native",
                          cg_method: str = "pcg", precondition: bool = True,
                          init: str = "sdp", seed: int = 0) -> VariationalResult:
    """Variational MVU (CG) of a measured graph: positions from local distances.

    Parameters
    ----------
    n : int
        Number of nodes.
    edges : ndarray of shape (n_edges, 2)
        Each measured pair once.
    sq_distances : ndarray of shape (n_edges,)
        D_ij, the measured squared distances.
    n_basis : int, default=10
        m, bottom Laplacian eigenvectors (constant one excluded).
    omega : float, default=0.9
        The SDP's weight of the distance penalty (normalised distances), as Table
        3.2's plugins.
    cg_omega : float, default=1.0
        The CG's omega; 1 minimises the reconstruction loss (3.26) itself.
    sdp_solver : {"native", "clarabel"}
    cg_method : {"pcg", "scipy"}
    precondition : bool, default=True
        Precondition the CG with the Laplacian's factor (``cg_method="pcg"`` only).
    init : {"sdp", "random"}
        ``"random"``: no SDP; CG from Gaussian positions (the baseline of Fig. 3.20).
    seed : int
        ARPACK's start vector; the random start.

    Returns
    -------
    VariationalResult
        ``timings`` also holds ``basis`` (Laplacian, factor, eigenvectors; wall
        seconds) and ``basis_cpu`` (its CPU seconds of the process). With
        ``init="random"``, ``Y_sdp`` and ``Y_basis`` are the random start and ``sdp``
        is marked ``"skipped"``.
    """
    if init not in INITS:
        raise ValueError(f"init must be one of {INITS}, got {init!r}")
    if not 1 <= n_basis <= n - 2:
        raise ValueError(f"n_basis must be in [1, n - 2 = {n - 2}], got {n_basis}")
    edges = check_graph(n, edges, sq_distances)
    b = np.asarray(sq_distances, dtype=float)
    scale = float(b.mean()) if normalize else 1.0
    if precondition and cg_method != "pcg":
        raise ValueError("precondition=True needs cg_method='pcg' (scipy's CG takes no "
                         "preconditioner); pass precondition=False")
    start, cpu = time.perf_counter(), cpu_clock()
    L = graph_laplacian(n, edges)
    factor = laplacian_factor(L) if (precondition or init == "sdp") else None
    solve = factor.solve if precondition else None
    stage = dict(omega=cg_omega, maxiter=cg_maxiter, cg_method=cg_method, precondition=solve)
    if init == "random":
        factor_seconds, factor_cpu = time.perf_counter() - start, cpu_clock() - cpu
        result = _random_result(n, edges, b, scale, seed, n_components, stage)
        return dataclasses.replace(result, timings={"basis": factor_seconds,
                                                    "basis_cpu": factor_cpu, **result.timings})
    OPinv = LinearOperator((n, n), matvec=factor.solve, dtype=float)
    Q = bottom_eigenvectors(L, n_basis, seed, OPinv=OPinv)
    basis_seconds, basis_cpu = time.perf_counter() - start, cpu_clock() - cpu
    result = variational_mvu(Q, edges, b, n_components=n_components, omega=omega,
                             normalize=normalize, refine=refine, cg_maxiter=cg_maxiter,
                             cg_in_basis=cg_in_basis, sdp_solver=sdp_solver,
                             cg_method=cg_method, cg_omega=cg_omega, precondition=solve,
                             rank_tol=RANK_TOL)
    return dataclasses.replace(result, timings={"basis": basis_seconds, "basis_cpu": basis_cpu,
                                                **result.timings})
