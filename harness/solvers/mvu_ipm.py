r"""A dense primal-dual interior-point solver for small MVU SDPs (thesis 3.1.4-3.1.6, 3.1.11).

The low-rank solver (:mod:`harness.solvers.native_mvu`) is built for large ``n``;
for a few hundred points the SDP is small enough for the textbook method, written
for the structure of MVU rather than handed to a general conic solver through cvxpy.

Formulation. With ``V`` (n x N, N = n - 1) an orthonormal basis of the complement of
the ones vector, every centred ``K`` is ``V X V^T``, so the centring constraint
disappears and the cone has an interior (``X`` positive definite). With the incidence
vectors ``a_e = e_i - e_j`` and ``u_e = V^T a_e``:

.. math::

   \min_X \langle C, X\rangle \ \text{s.t.}\ u_e^T X u_e = b_e\ (\le b_e), \ X \succeq 0;
   \qquad
   \max_y b^T y \ \text{s.t.}\ \sum_e y_e u_e u_e^T + Z = C, \ Z \succeq 0,

with ``C = -I`` for maximum trace (eq. 3.19 / 3.20) and ``C = +I`` for minimum trace
(3.1.11); the inequality variant (3.1.6) adds a slack ``s >= 0`` per edge, whose dual
forces ``y <= 0``. The certificate multipliers of
:mod:`harness.problems.mvu_certificate` are ``w = -y`` (maximum trace: ``Z =
V^T L(w) V - I``) and ``w = y`` (minimum trace).

Method: infeasible primal-dual path following with the HKM search direction and
Mehrotra's predictor-corrector (Helmberg, Rendl, Vanderbei, Wolkowicz 1996; Kojima,
Shindoh, Hara 1997; Monteiro 1997; as in SDPT3, Toh, Todd, Tütüncü 1999). The Schur
complement of the HKM direction is ``M_ef = (u_e^T X u_f)(u_f^T Z^{-1} u_e)``, the
elementwise product of ``B K B^T`` and ``B (V Z^{-1} V^T) B^T`` (``B`` the m x n
incidence matrix), formed by gathering rows and columns of two n x n matrices
(O(m^2 + m n) work, no m x N dense matrix), then factorised by Cholesky.

Cost and memory: O(n^3 + m^3) time per iteration and O(n^2 + m^2) memory; with
``m ~ 6 n`` (k = 5) that is ~0.3 s per iteration and 70 MB at n = 500 and ~3 s and
0.3 GB at n = 1000, so :func:`solve_ipm` refuses ``n > max_n`` (default 1000) and the
low-rank solver is the tool beyond. The answer is judged by the harness' own
certificate (:func:`harness.problems.mvu_certificate.certify`), never by the
iteration's own residuals.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg as sla

from harness.problems.mvu import MVUProblem
from harness.problems.mvu_certificate import certify, trace_bound, weighted_laplacian
from harness.solvers.result import final_status

__all__ = ["solve_ipm", "IPM_VARIANTS", "IPM_MAX_N"]

IPM_VARIANTS = ("equality", "inequality", "min_trace")
#: Largest n :func:`solve_ipm` accepts by default (dense n x n and m x m matrices).
IPM_MAX_N = 1000
_STEP_FRACTION = 0.95  # fraction of the distance to the cone boundary taken per step


def _complement_basis(n: int) -> np.ndarray:
    """Orthonormal ``V`` (n x n-1) with ``V^T 1 = 0`` (a Householder reflection)."""
    v = np.full(n, 1.0 / np.sqrt(n))
    v[0] -= 1.0
    H = np.eye(n) - np.outer(v, v) * (2.0 / (v @ v))  # maps e_1 to 1/sqrt(n)
    return np.ascontiguousarray(H[:, 1:])


class _Operators:
    """``A(X) = (u_e^T X u_e)_e``, ``A^T(y) = V^T L(y) V`` and the Schur matrix."""

    def __init__(self, n: int, edges: np.ndarray):
        self.V = _complement_basis(n)
        self.edges, self.i, self.j = edges, edges[:, 0], edges[:, 1]
        self.n = n

    def lift(self, X: np.ndarray) -> np.ndarray:
        """``V X V^T`` (n x n)."""
        return self.V @ X @ self.V.T

    def A(self, X: np.ndarray) -> np.ndarray:
        K = self.lift(X)
        i, j = self.i, self.j
        return K[i, i] + K[j, j] - 2.0 * K[i, j]

    def AT(self, y: np.ndarray) -> np.ndarray:
        return self.V.T @ (weighted_laplacian(self.n, self.edges, y) @ self.V)

    def edge_gram(self, K: np.ndarray) -> np.ndarray:
        """``B K B^T`` (m x m): ``(a_e^T K a_f)`` for a symmetric n x n ``K``."""
        R = K[self.i] - K[self.j]            # rows a_e^T K, m x n
        return R[:, self.i] - R[:, self.j]   # times a_f

    def schur(self, X: np.ndarray, Zinv: np.ndarray) -> np.ndarray:
        M = self.edge_gram(self.lift(X))
        M *= self.edge_gram(self.lift(Zinv))
        return M


def _sym(G: np.ndarray) -> np.ndarray:
    return 0.5 * (G + G.T)


def _max_step(P: np.ndarray, dP: np.ndarray) -> float:
    """Largest ``alpha <= 1`` / fraction with ``P + alpha dP`` PSD (``P`` PD)."""
    L = np.linalg.cholesky(P)
    W = sla.solve_triangular(L, sla.solve_triangular(L, dP, lower=True).T, lower=True)
    lam = float(np.linalg.eigvalsh(_sym(W))[0])
    return np.inf if lam >= 0 else -1.0 / lam


def _max_step_lp(v: np.ndarray, dv: np.ndarray) -> float:
    neg = dv < 0
    return float(np.min(-v[neg] / dv[neg])) if neg.any() else np.inf


class _Cholesky:
    """Cholesky of the Schur matrix with a tiny diagonal lift when it is singular
    (dependent constraints)."""

    def __init__(self, M: np.ndarray):
        lift = 0.0
        scale = float(np.abs(np.diag(M)).max()) or 1.0
        for _ in range(6):
            try:
                self.factor = sla.cho_factor(M + lift * np.eye(len(M)), lower=True,
                                             check_finite=False)
                return
            except np.linalg.LinAlgError:
                lift = max(10 * lift, 1e-14 * scale)
        raise np.linalg.LinAlgError("Schur complement is not positive definite")

    def solve(self, r: np.ndarray) -> np.ndarray:
        return sla.cho_solve(self.factor, r, check_finite=False)


def _step(ops, X, Z, y, s, zs, rp, Rd, rds, mu, lp, verbose=False):
    """One Mehrotra predictor-corrector step with the HKM direction."""
    Zinv = _sym(np.linalg.inv(Z))
    chol = _Cholesky(ops.schur(X, Zinv) + (np.diag(s / zs) if lp else 0.0))
    XRdZ = X @ Rd @ Zinv
    n_cone = len(X) + (len(s) if lp else 0)

    def direction(T, lp_target):
        """Solve for (dX, dy, dZ, ds, dzs) with HKM target term ``T`` for
        ``dX = T - X dZ Z^-1`` and ``lp_target`` for ``zs ds + s dzs``."""
        H0 = T - XRdZ
        g0 = (lp_target / zs - (s / zs) * rds) if lp else 0.0
        dy = chol.solve(rp - ops.A(_sym(H0)) - g0)
        dZ = Rd - ops.AT(dy)
        dX = _sym(T - X @ dZ @ Zinv)
        if lp:
            dzs = rds - dy
            ds = (lp_target - s * dzs) / zs
        else:
            dzs = ds = None
        return dX, dy, dZ, ds, dzs

    def steps(dX, dZ, ds, dzs):
        ap, ad = _max_step(X, dX), _max_step(Z, dZ)
        if lp:
            ap, ad = min(ap, _max_step_lp(s, ds)), min(ad, _max_step_lp(zs, dzs))
        return min(1.0, _STEP_FRACTION * ap), min(1.0, _STEP_FRACTION * ad)

    # predictor (affine scaling, sigma = 0)
    dXa, dya, dZa, dsa, dzsa = direction(-X, -s * zs if lp else None)
    ap_a, ad_a = steps(dXa, dZa, dsa, dzsa)
    mu_aff = (np.vdot(X + ap_a * dXa, Z + ad_a * dZa)
              + ((s + ap_a * dsa) @ (zs + ad_a * dzsa) if lp else 0.0)) / n_cone
    sigma = min(1.0, (mu_aff / mu) ** 3)
    # corrector with Mehrotra's second-order term
    T = sigma * mu * Zinv - X - dXa @ dZa @ Zinv
    lp_target = (sigma * mu - s * zs - dsa * dzsa) if lp else None
    dX, dy, dZ, ds, dzs = direction(T, lp_target)
    ap, ad = steps(dX, dZ, ds, dzs)
    if verbose:
        print(f"    predictor steps {ap_a:.2f} {ad_a:.2f} sigma {sigma:.2f} steps {ap:.2f} {ad:.2f}")
    X, Z, y = _sym(X + ap * dX), _sym(Z + ad * dZ), y + ad * dy
    if lp:
        s, zs = s + ap * ds, zs + ad * dzs
    return X, Z, y, s, zs


def _stalled(history, window: int = 10, factor: float = 0.9) -> bool:
    """No progress: none of the relative gap, the primal infeasibility and ``mu`` has
    fallen by ``factor`` over the last ``window`` iterations (rounding has taken
    over; in the slow middle phase of a degenerate problem one of them still falls)."""
    if len(history) <= window:
        return False
    last = history[-window - 1:]
    return all(min(h[key] for h in last[1:]) > factor * last[0][key]
               for key in ("rel_gap", "primal_infeasibility", "mu"))


def solve_ipm(problem: MVUProblem, *, tol_gap: float = 1e-3, tol_violation: float = 1e-4,
              time_limit: float = 600.0, max_iter: int = 100, tol: float = 1e-8,
              max_n: int = IPM_MAX_N, verbose: bool = False):
    """Solve a small MVU SDP by a primal-dual interior-point method.

    Parameters
    ----------
    problem : MVUProblem
        Variant ``equality``, ``inequality`` or ``min_trace``.
    tol_gap, tol_violation : float
        The harness' tolerances on the recomputed certificate: the status is
        "optimal" only if its relative gap and violation are below them.
    time_limit : float
        Wall-clock seconds; the best iterate so far is certified on expiry.
    max_iter : int
        Interior-point iterations.
    tol : float
        The iteration stops when its own relative gap and infeasibilities are below
        this (far below ``tol_gap``: the certificate is recomputed anyway).
    max_n : int
        Refuse larger problems (memory O(n^2 + m^2)).
    verbose : bool
        Print one line per iteration.

    Returns
    -------
    harness.solvers.native_mvu.NativeResult
        ``F`` (n x p, ``K = F F^T``), ``w`` (the certificate multipliers), status
        "optimal" / "inaccurate" / "timeout" from the recomputed certificate.
    """
    from harness.solvers.native_mvu import NativeResult

    if problem.variant not in IPM_VARIANTS:
        raise ValueError(f"solve_ipm supports the variants {IPM_VARIANTS}, got "
                         f"{problem.variant!r}")
    if problem.n > max_n:
        raise ValueError(f"solve_ipm is dense (O(n^2 + m^2) memory): n={problem.n} > "
                         f"max_n={max_n}; use the low-rank native solver")
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    ops = _Operators(problem.n, np.asarray(problem.edges))
    scale = float(problem.sq_lengths.mean())
    b = problem.sq_lengths / scale
    N, m = problem.n - 1, problem.m
    c_sign = -1.0 if problem.maximize else 1.0
    C = c_sign * np.eye(N)
    lp = problem.variant == "inequality"
    # SDPT3's starting point: large multiples of the identity
    xi = max(10.0, np.sqrt(N), N * float(np.max((1 + b) / (1 + np.sqrt(2)))))
    eta = max(10.0, np.sqrt(N), np.sqrt(2.0))
    X, Z, y = xi * np.eye(N), eta * np.eye(N), np.zeros(m)
    s, zs = (np.full(m, xi), np.full(m, eta)) if lp else (np.zeros(m), np.zeros(m))
    n_cone = N + (m if lp else 0)
    history, status, it = [], "inaccurate", 0
    for it in range(1, max_iter + 1):
        rp = b - ops.A(X) - (s if lp else 0.0)
        Rd = _sym(C - Z - ops.AT(y))
        rds = -zs - y if lp else None
        mu = (np.vdot(X, Z) + (s @ zs if lp else 0.0)) / n_cone
        pobj, dobj = float(np.vdot(C, X)), float(b @ y)
        rel_gap = abs(pobj - dobj) / (1 + abs(pobj) + abs(dobj))
        pinf = np.linalg.norm(rp) / (1 + np.linalg.norm(b))
        dinf = (np.linalg.norm(Rd) + (np.linalg.norm(rds) if lp else 0.0)) / (1 + np.sqrt(N))
        history.append({"time": time.perf_counter() - t0, "primal": -pobj * scale
                        if problem.maximize else pobj * scale, "dual": -dobj * scale if
                        problem.maximize else dobj * scale, "rel_gap": rel_gap,
                        "primal_infeasibility": pinf, "dual_infeasibility": dinf, "mu": mu})
        if verbose:
            print(f"it {it:3d} pobj {pobj:.8e} dobj {dobj:.8e} gap {rel_gap:.1e} "
                  f"pinf {pinf:.1e} dinf {dinf:.1e} mu {mu:.1e}", flush=True)
        if max(rel_gap, pinf, dinf) < tol:
            break
        if time.perf_counter() > deadline:
            status = "timeout"
            break
        if _stalled(history):
            break
        try:
            X, Z, y, s, zs = _step(ops, X, Z, y, s, zs, rp, Rd, rds, mu, lp, verbose)
        except np.linalg.LinAlgError:  # X or Z numerically singular: the end game
            break

    # the factor of K = V X V^T (all positive eigenvalues: the whole solution)
    lam, U = np.linalg.eigh(ops.lift(X))
    keep = lam > 1e-14 * max(float(lam[-1]), 1e-300)
    F = (U[:, keep] * np.sqrt(lam[keep]))[:, ::-1] * np.sqrt(scale)
    w = -y if problem.maximize else y
    if lp:
        w = np.maximum(w, 0.0)
    final = certify(problem, F, w, T=trace_bound(problem))
    status = final_status(final, status, tol_gap, tol_violation)
    return NativeResult(F=F, w=w, status=status, certificate=final, iterations=it,
                        seconds=time.perf_counter() - t0, history=history)
