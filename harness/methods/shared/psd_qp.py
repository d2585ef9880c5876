"""A convex quadratic over a small positive semidefinite cone, solved by a barrier
method: the dedicated solver of variational MVU's SDP (thesis 3.1.8).

The problem, for a symmetric m x m matrix Z written as x = svec(Z) (the
m(m + 1)/2 upper-triangle entries, off-diagonal ones times sqrt 2, so that
<Z, W> = svec(Z) . svec(W))::

    minimise  q(x) = 1/2 x^T H x + g^T x   subject to  Z = smat(x) >= 0.

Method: the log-det barrier q(x) - mu log det Z, each centring by damped Newton
steps (backtracking keeps Z positive definite), mu divided by ``mu_factor`` until the
gap bound m mu is below ``tol`` relative to |q|. Newton's system is p x p (p = 55 at
m = 10) with the barrier's Hessian tr(U E_k U E_l), U = Z^-1, built from index
arrays, so one step costs microseconds to a millisecond.

Certificate (recomputed, not the iteration's word): S = mu Z^-1 is positive
definite, so by weak duality q* >= min_x [q(x) - <S, Z(x)>] = q(x) - <S, Z> -
1/2 rho^T H^-1 rho, with rho = H x + g - svec(S) the stationarity residual; the gap
m mu + 1/2 rho^T H^-1 rho is what :attr:`PSDQPResult.gap` reports.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

__all__ = ["PSDQPResult", "svec_indices", "svec", "smat", "lower_bound", "solve_psd_qp"]

STATUS_SLACK = 10.0  # "optimal": certified gap <= STATUS_SLACK * tol * max(1, |value|)


@dataclasses.dataclass(frozen=True)
class PSDQPResult:
    """What :func:`solve_psd_qp` found: ``Z`` (m x m, positive definite), ``value``
    q(svec Z), ``gap`` (certified upper bound on value - optimum), ``status``
    ("optimal" when gap <= tol max(1, |value|), else "inaccurate"), and the
    ``newton_steps`` taken."""

    Z: np.ndarray
    value: float
    gap: float
    status: str
    newton_steps: int


@functools.cache
def svec_indices(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row and column of each svec entry (a <= b, row-major) and its weight (1 on
    the diagonal, sqrt 2 off it)."""
    a, b = np.triu_indices(m)
    return a, b, np.where(a == b, 1.0, np.sqrt(2.0))


def svec(Z: np.ndarray) -> np.ndarray:
    """The svec coordinates of a symmetric matrix (or a stack of them, ... x m x m)."""
    a, b, w = svec_indices(Z.shape[-1])
    return Z[..., a, b] * w


def smat(x: np.ndarray, m: int) -> np.ndarray:
    """The symmetric m x m matrix of svec coordinates ``x``."""
    a, b, w = svec_indices(m)
    Z = np.zeros((m, m))
    Z[a, b] = x / w
    Z[b, a] = x / w
    return Z


def _barrier_hessian(U: np.ndarray) -> np.ndarray:
    """[tr(U E_k U E_l)]_kl for the orthonormal svec basis E_k: with E_k = s_k (e_a
    e_b^T + e_b e_a^T) (s = 1/2 on the diagonal, 1/sqrt 2 off it) the entry is
    2 s_k s_l (U_ac U_bd + U_ad U_bc) for k = (a, b), l = (c, d)."""
    a, b, w = svec_indices(len(U))
    s = w / 2.0
    return 2 * np.outer(s, s) * (U[np.ix_(a, a)] * U[np.ix_(b, b)] + U[np.ix_(a, b)] * U[np.ix_(b, a)])


def _chol(Z: np.ndarray) -> np.ndarray | None:
    try:
        return np.linalg.cholesky(Z)
    except np.linalg.LinAlgError:
        return None


def _logdet(C: np.ndarray) -> float:
    return 2.0 * float(np.log(np.diag(C)).sum())


def _backtrack(x, step, decrement, phi, barrier, m):
    """Armijo backtracking along ``step`` that keeps Z positive definite; None if
    no step of length >= 2^-40 decreases the barrier function."""
    alpha = 1.0
    while alpha > 2.0 ** -40:
        trial = x + alpha * step
        C = _chol(smat(trial, m))
        if C is not None and barrier(trial, C) <= phi - 0.25 * alpha * decrement:
            return trial
        alpha /= 2
    return None


def lower_bound(H: np.ndarray, g: np.ndarray, x: np.ndarray, m: int,
                mu: float = 0.0) -> float:
    """A lower bound on min q over the cone, by weak duality: for any S >= 0,
    min q >= q(x) - <S, Z(x)> - 1/2 rho^T H^-1 rho with rho = grad q(x) - svec(S).
    The best of the bounds from S = mu Z^-1 (the barrier's dual, when mu > 0) and
    from S = the PSD part of grad q(x) (-inf if H is singular)."""
    grad = H @ x + g
    lam, V = np.linalg.eigh(smat(grad, m))
    candidates = [svec((V * np.clip(lam, 0, None)) @ V.T)]
    if mu > 0:
        candidates.append(mu * svec(np.linalg.inv(smat(x, m))))
    value = 0.5 * x @ H @ x + g @ x
    best = -np.inf
    for S in candidates:
        rho = grad - S
        try:
            curvature = float(rho @ np.linalg.solve(H, rho))
        except np.linalg.LinAlgError:
            continue
        best = max(best, float(value - S @ x - 0.5 * max(curvature, 0.0)))
    return best


def _polished(H: np.ndarray, g: np.ndarray, x: np.ndarray, m: int) -> list[np.ndarray]:
    """Facial polish: for ranks r suggested by the eigenvalues of Z, the minimiser of
    q over {V W V^T: W symmetric r x r} (V: Z's top r eigenvectors), where that W is
    positive definite. At the right face its gradient's PSD part certifies to rounding
    (<S, Z> = 0 there)."""
    lam, V = np.linalg.eigh(smat(x, m))
    out = []
    for r in sorted({int((lam > tau * lam[-1]).sum()) for tau in (1e-9, 1e-6, 1e-3)}):
        Vr = V[:, m - r:]
        a, b, w = svec_indices(r)
        # svec(V E_k V^T) for the orthonormal basis E_k of r x r symmetric matrices
        outer = np.einsum("ia,ja->aij", Vr[:, a], Vr[:, b])
        T = svec((outer + outer.transpose(0, 2, 1)) * (w / 2)[:, None, None]).T
        try:
            coef = np.linalg.solve(T.T @ H @ T, -(T.T @ g))
        except np.linalg.LinAlgError:
            continue
        if np.linalg.eigvalsh(smat(coef, r))[0] > 0:
            out.append(T @ coef)
    return out


def solve_psd_qp(H: np.ndarray, g: np.ndarray, m: int, *, tol: float = 1e-9,
                 mu_factor: float = 10.0, max_newton: int = 500) -> PSDQPResult:
    """Minimise 1/2 x^T H x + g^T x over x = svec(Z), Z >= 0 (see the module doc).

    Parameters
    ----------
    H : ndarray of shape (p, p)
        Positive definite on the svec space (then the minimum exists).
    g : ndarray of shape (p,)
    m : int
        Z is m x m; p = m (m + 1) / 2.
    tol : float
        Relative gap at which to stop.
    """
    p = m * (m + 1) // 2
    H, g = np.asarray(H, dtype=float), np.asarray(g, dtype=float)
    if H.shape != (p, p) or g.shape != (p,):
        raise ValueError(f"H must be {p} x {p} and g of length {p} for m = {m}; got "
                         f"{H.shape} and {g.shape}")
    eye = svec(np.eye(m))
    slope, curve = float(g @ eye), float(eye @ H @ eye)
    t = -slope / curve if slope < 0 and curve > 0 else 1.0
    x = t * eye  # the best multiple of I
    q = lambda v: 0.5 * v @ H @ v + g @ v  # noqa: E731
    mu = max(abs(q(x)), abs(t)) / m
    steps = 0
    while True:
        for _ in range(50):  # centring: damped Newton on q - mu log det
            C = _chol(smat(x, m))
            U = np.linalg.inv(smat(x, m))
            grad = H @ x + g - mu * svec(U)
            step = np.linalg.solve(H + mu * _barrier_hessian(U), -grad)
            decrement = -grad @ step
            steps += 1
            if decrement <= 1e-10 * max(1.0, abs(q(x))) or steps >= max_newton:
                break
            trial = _backtrack(x, step, decrement, q(x) - mu * _logdet(C),
                               lambda v, C: q(v) - mu * _logdet(C), m)
            if trial is None:  # no decrease left in floating point
                break
            x = trial
        if m * mu <= tol * max(1.0, abs(q(x))) or steps >= max_newton:
            break
        mu /= mu_factor
    bound = lower_bound(H, g, x, m, mu)
    for polished in _polished(H, g, x, m):
        bound = max(bound, lower_bound(H, g, polished, m))
        if q(polished) < q(x):
            x = polished
    value = float(q(x))
    gap = max(value - bound, 0.0)
    status = "optimal" if gap <= STATUS_SLACK * tol * max(1.0, abs(value)) else "inaccurate"
    return PSDQPResult(smat(x, m), value, float(gap), status, steps)
