"""The small SDP of variational MVU (thesis 3.1.8, (3.23)-(3.25)) and its two solvers.

With K = Q Z Q^T (3.25) and d_e = q_i - q_j for an edge e = (i, j), the SDP is::

    maximise (1 - omega) tr Z - omega sum_ij eta_ij (d_e^T Z d_e - D_ij)^2,  Z >= 0

(the squared penalty; the sum over ordered pairs counts each edge twice,
:data:`PAIR_COUNT`). Its data are the m x m blocks d_e d_e^T of the edges, reduced
to three small arrays: G = sum_e f_e f_e^T, c = sum_e D_e f_e and sum_e D_e^2, with
f_e = svec(d_e d_e^T) (m(m + 1)/2 entries; :func:`sdp_data`, vectorised over the
edges in chunks, no n x n matrix). Then the SDP is a convex quadratic over the
m x m PSD cone.

Solvers (``solver=``):

* ``"clarabel"``: cvxpy with Clarabel (Table 3.2's plugins; also the ``"norm"``
  penalty, the xi^2 reading of (3.23)).
* ``"native"``: :func:`harness.methods.shared.psd_qp.solve_psd_qp`, a barrier method on the
  m(m + 1)/2 coordinates with a facial polish and a recomputed duality gap
  (milliseconds at m = 10).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from harness.methods.shared.psd_qp import solve_psd_qp, svec, svec_indices
from harness.methods.shared.variational_refine import PAIR_COUNT

__all__ = ["SDP_SOLVERS", "PENALTIES", "VariationalSDP", "sdp_data", "sdp_objective",
           "solve_variational_sdp", "native_variational_sdp"]

SDP_SOLVERS = ("clarabel", "native")
PENALTIES = ("squared", "norm")
CHUNK = 8192  # edges per block of sdp_data (F is CHUNK x m(m + 1)/2 doubles: 3.6 MB at m = 10)


@dataclasses.dataclass(frozen=True)
class VariationalSDP:
    """A solved variational SDP: ``Z``, ``status`` ("optimal", "inaccurate", or a
    cvxpy status), the certified ``gap`` (native solver; None for Clarabel),
    ``objective`` (recomputed from the data) and ``newton_steps``."""

    Z: np.ndarray
    status: str
    gap: float | None
    objective: float
    newton_steps: int | None = None


def _differences(Q: np.ndarray, edges: np.ndarray) -> np.ndarray:
    return Q[edges[:, 0]] - Q[edges[:, 1]]


def sdp_data(Q: np.ndarray, edges: np.ndarray, b: np.ndarray,
             chunk: int = CHUNK) -> tuple[np.ndarray, np.ndarray, float]:
    """``(G, c, sum b^2)`` with G = sum_e f_e f_e^T, c = sum_e b_e f_e and f_e =
    svec(d_e d_e^T), so that sum_e (d_e^T Z d_e - b_e)^2 = x^T G x - 2 c^T x + sum b^2
    for x = svec(Z); accumulated over blocks of ``chunk`` edges (no n x n or
    E x m^2 array)."""
    m = Q.shape[1]
    a, c_idx, w = svec_indices(m)
    p = len(a)
    G, c = np.zeros((p, p)), np.zeros(p)
    for start in range(0, len(edges), chunk):
        d = _differences(Q, edges[start:start + chunk])
        F = d[:, a] * d[:, c_idx] * w
        G += F.T @ F
        c += F.T @ b[start:start + chunk]
    return G, c, float(b @ b)


def sdp_objective(Z: np.ndarray, Q: np.ndarray, edges: np.ndarray, b: np.ndarray,
                  omega: float) -> float:
    """(1 - omega) tr Z - omega sum_ij eta_ij (d_e^T Z d_e - D_ij)^2, recomputed."""
    d = _differences(Q, edges)
    r = np.einsum("ea,ab,eb->e", d, Z, d) - b
    return float((1 - omega) * np.trace(Z) - omega * PAIR_COUNT * (r @ r))


def native_variational_sdp(Q: np.ndarray, edges: np.ndarray, b: np.ndarray,
                           omega: float, tol: float = 1e-9) -> VariationalSDP:
    """The squared-penalty SDP by :func:`harness.methods.shared.psd_qp.solve_psd_qp`.

    Maximising (1 - omega) tr Z - 2 omega (x^T G x - 2 c^T x + sum b^2) over
    x = svec(Z) is minimising 1/2 x^T H x + g^T x with H = 4 omega G and
    g = -4 omega c - (1 - omega) svec(I).
    """
    m = Q.shape[1]
    G, c, _ = sdp_data(Q, edges, b)
    result = solve_psd_qp(2 * PAIR_COUNT * omega * G,
                          -2 * PAIR_COUNT * omega * c - (1 - omega) * svec(np.eye(m)), m,
                          tol=tol)
    return VariationalSDP(result.Z, result.status, result.gap,
                          sdp_objective(result.Z, Q, edges, b, omega), result.newton_steps)


def _edge_design(Q: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Rows vec(d_e d_e^T) with d_e = q_i - q_j: d_e^T Z d_e = row . vec(Z)."""
    d = Q[edges[:, 0]] - Q[edges[:, 1]]
    return np.einsum("ea,eb->eab", d, d).reshape(len(edges), -1)


def _clarabel_sdp(Q, edges, b, omega, penalty):
    import cvxpy as cp

    m = Q.shape[1]
    Z = cp.Variable((m, m), PSD=True)
    z = cp.vec(Z, order="C")
    A = _edge_design(Q, edges)
    # |A z - b|^2 = |R z - c|^2 + (|b|^2 - |c|^2) with A^T A = R^T R, c = R^-T A^T b:
    # an m^2-dimensional cone instead of one with a row per edge (better conditioned).
    G = A.T @ A
    R = np.linalg.cholesky(G + 1e-12 * np.trace(G) / len(G) * np.eye(len(G))).T
    c = np.linalg.solve(R.T, A.T @ b)
    const = max(float(b @ b - c @ c), 0.0)
    squared = cp.sum_squares(R @ z - c) + const
    misfit = PAIR_COUNT * squared if penalty == "squared" else \
        np.sqrt(PAIR_COUNT) * cp.norm2(cp.hstack([R @ z - c, np.sqrt(const)]))
    problem = cp.Problem(cp.Maximize((1 - omega) * cp.trace(Z) - omega * misfit))
    problem.solve(solver="CLARABEL")
    if Z.value is None:
        raise RuntimeError(f"variational SDP not solved: {problem.status}")
    return (Z.value + Z.value.T) / 2, problem.status


def solve_variational_sdp(Q, edges, b, omega, penalty="squared", solver="clarabel"):
    """The small SDP of 3.1.8 over Z (m x m); returns ``(Z, status)``.

    ``solver="clarabel"`` (cvxpy) takes either penalty; ``"native"`` the squared one
    (:func:`native_variational_sdp`, which also certifies its gap).
    """
    if penalty not in PENALTIES:
        raise ValueError(f"penalty must be 'squared' or 'norm', got {penalty!r}")
    if solver not in SDP_SOLVERS:
        raise ValueError(f"sdp solver must be one of {SDP_SOLVERS}, got {solver!r}")
    if solver == "clarabel":
        return _clarabel_sdp(Q, edges, b, omega, penalty)
    if penalty != "squared":
        raise ValueError("the native variational SDP solver takes penalty='squared' only; "
                         "use sdp_solver='clarabel' for penalty='norm'")
    result = native_variational_sdp(Q, edges, b, omega)
    return result.Z, result.status
