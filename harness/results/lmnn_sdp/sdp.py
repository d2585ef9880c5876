r"""LMNN's SDP (thesis 2.1.3, eq. 2.11 with slack variables) for a generic solver, the
loss over every triplet at any margin, and the plain fixed-step projected sub-gradient
method (2.1.7, eqs. 2.13-2.16).

The SDP as printed, with a margin ``c`` (the thesis: 1)::

    minimise   (1 - mu) sum_{j ~> i} tr(M C_ij) + mu sum_{j ~> i, l: y_l != y_i} xi_ijl
    subject to tr(M C_il) - tr(M C_ij) >= c - xi_ijl,  xi_ijl >= 0,  M PSD

(``C_ab = (x_a - x_b)(x_a - x_b)^T``) and, for ``trace`` given, ``tr(M) = trace``
(margin 0 needs it: without it ``M = 0`` is optimal).
"""

from __future__ import annotations


import numpy as np
from harness.timelimit import cpu_clock

__all__ = ["triplets", "loss_at_margin", "psd_factor", "solve_sdp", "fixed_step_subgradient"]


def triplets(codes: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Every triplet ``(i, j, l)``: ``j`` a target neighbour of ``i``, ``l`` of another
    class; shape (T, 3)."""
    rows = []
    for i in range(len(codes)):
        others = np.flatnonzero(codes != codes[i])
        for j in targets[i]:
            rows.append(np.column_stack([np.full(len(others), i), np.full(len(others), j),
                                         others]))
    return np.concatenate(rows).astype(np.int64)


def _sq(X, M, a, b) -> np.ndarray:
    D = X[a] - X[b]
    return np.einsum("ta,ab,tb->t", D, M, D)


def loss_at_margin(M, X, targets, triples, mu: float, margin: float = 1.0) -> dict:
    """Eq. (2.11) with margin ``margin`` at ``M``, densely over every triplet (an
    evaluation independent of :mod:`harness.methods.shared.lmnn_core`): ``loss``, ``pull``,
    ``hinges`` (per triplet) and the number of active triplets."""
    n, k = targets.shape
    anchors = np.repeat(np.arange(n), k)
    pull = float(_sq(X, M, anchors, targets.ravel()).sum())
    hinges = np.maximum(margin + _sq(X, M, triples[:, 0], triples[:, 1])
                        - _sq(X, M, triples[:, 0], triples[:, 2]), 0.0)
    return {"loss": (1.0 - mu) * pull + mu * float(hinges.sum()), "pull": pull,
            "hinges": hinges, "n_active": int((hinges > 0).sum())}


def psd_factor(M) -> tuple[np.ndarray, float]:
    """``L`` with ``L^T L`` = the PSD part of ``M`` (rows by decreasing eigenvalue), and
    ``M``'s smallest eigenvalue relative to its largest (negative: not PSD)."""
    w, V = np.linalg.eigh(0.5 * (M + M.T))
    rel = float(w[0] / max(abs(w[-1]), np.finfo(float).tiny))
    w, V = np.maximum(w, 0.0)[::-1], V[:, ::-1]
    return np.sqrt(w)[:, None] * V.T, rel


def solve_sdp(X, targets, triples, mu: float, margin: float, solver: str = "CLARABEL",
              trace: float | None = None) -> dict:
    """The SDP above by cvxpy with ``solver``; returns ``M``, the slacks ``xi``, cvxpy's
    ``value``, the solver ``status`` and the CPU seconds of construction,
    canonicalisation and solve."""
    import cvxpy as cp

    start = cpu_clock()
    n, k = targets.shape
    d = X.shape[1]
    P = X[np.repeat(np.arange(n), k)] - X[targets.ravel()]
    C = P.T @ P
    Dj = X[triples[:, 0]] - X[triples[:, 1]]
    Dl = X[triples[:, 0]] - X[triples[:, 2]]
    A = (np.einsum("ta,tb->tab", Dl, Dl) - np.einsum("ta,tb->tab", Dj, Dj)).reshape(len(triples), d * d)
    M = cp.Variable((d, d), PSD=True)
    xi = cp.Variable(len(triples), nonneg=True)
    constraints = [A @ cp.vec(M, order="C") >= margin - xi]
    if trace is not None:
        constraints.append(cp.trace(M) == trace)
    problem = cp.Problem(cp.Minimize((1.0 - mu) * cp.trace(C @ M) + mu * cp.sum(xi)),
                         constraints)
    try:
        problem.solve(solver=solver)
        status = str(problem.status)
    except cp.error.SolverError as exc:
        status = f"solver error: {exc}"
    seconds = cpu_clock() - start
    if M.value is None:
        return {"status": status, "cpu_seconds": seconds, "M": None, "xi": None,
                "value": float("nan")}
    Mv = 0.5 * (M.value + M.value.T)
    return {"status": status, "cpu_seconds": seconds, "M": Mv, "xi": np.asarray(xi.value),
            "value": float(problem.value)}


def fixed_step_subgradient(X, codes, targets, mu: float, M0, step: float,
                           iterations: int) -> dict:
    """The projected sub-gradient method with a fixed step (2.1.7, eqs. 2.14, 2.16):
    ``M <- P_PSD(M - alpha G(M))``, ``G`` the sub-gradient over every triplet,
    ``alpha = step ||M_0||_F / ||G(M_0)||_F``; returns the best iterate's ``M`` and
    loss (a sub-gradient step need not decrease the loss) and the loss curve."""
    from harness.methods.shared.lmnn_core import loss_over_all_triples

    M = np.array(M0, dtype=float)
    L, _ = psd_factor(M)
    state = loss_over_all_triples(X @ L.T, codes, targets, mu)
    G = state.grad_M(X)
    alpha = step * np.linalg.norm(M) / max(np.linalg.norm(G), np.finfo(float).tiny)
    best, best_M, curve = state.loss, M.copy(), [state.loss]
    for _ in range(iterations):
        L, _ = psd_factor(M - alpha * G)
        M = L.T @ L
        state = loss_over_all_triples(X @ L.T, codes, targets, mu)
        G = state.grad_M(X)
        curve.append(state.loss)
        if state.loss < best:
            best, best_M = state.loss, M.copy()
    return {"M": best_M, "loss": float(best), "curve": curve, "alpha": float(alpha)}
