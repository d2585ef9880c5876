"""Native solver of the out-of-sample SDP (thesis 3.1.10), for many points at once.

With the top-left block of S equal to I (``harness.problems.out_of_sample``), the SDP
is the convex program in z = (y, s) in R^(r+1)

    minimise  sum_i |res_i(z)| + s,   res_i = a_i + s - 2 y_i^T y,   s.t. s >= |y|^2.

We solve it with a log-barrier method (Boyd & Vandenberghe 11.3) on the epigraph
form (t_i >= +-res_i), eliminating each t_i in closed form: for barrier weight tau,

    psi(res) = min_t  tau t - log(t^2 - res^2) = (1 + q) - log(2 (1 + q) / tau^2),
    q = sqrt(1 + tau^2 res^2),  psi' = tau w,  w = tau res / (1 + q),
    psi'' = tau^2 / (q (1 + q)),

so each Newton step is an (r+1) x (r+1) system. The multipliers w lie in (-1, 1)
and are the dual variables of the problem's dual (see the problem module); at every
returned point the harness recomputes the primal objective and the dual bound D(w)
and reports their gap, so nothing rests on this solver's word. Points are batched:
every array carries a leading axis of m points, each point has its own barrier
weight, step and stopping test, so a point's answer does not depend on the others
in its batch.

Each point is first scaled so that its mean squared distance is 1 (the problem is
homogeneous: y -> c y, d -> c^2 d, s -> c^2 s, objective -> c^2 objective).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from harness.problems.out_of_sample import dual_bound
from harness.solvers._out_of_sample_kernel import barrier_path

__all__ = ["ENGINES", "OutOfSampleSolution", "solve_out_of_sample"]

ENGINES = ("numba", "numpy")

ALPHA, BETA = 0.01, 0.5  # backtracking line search (Armijo fraction, step shrink)
PRECISION_LIMIT = 1e14  # tau * objective beyond which doubles carry no more digits
QUADRATIC = 0.25  # Newton decrement^2 below which full steps are taken
CENTERED = 1e-10  # half the squared Newton decrement below which a point is centred


@dataclasses.dataclass
class OutOfSampleSolution:
    """The native solver's answer for m points, with the recomputed certificate.

    Attributes
    ----------
    y : ndarray of shape (m, r)
        The new points' coordinates y_t.
    s : ndarray of shape (m,)
    w : ndarray of shape (m, k)
        Dual multipliers (in (-1, 1)).
    objective, bound, gap, violation : ndarray of shape (m,)
        Recomputed primal objective, dual bound D(w), relative gap
        (objective - bound) / max(objective, mean d_i) and max(0, |y|^2 - s).
    newton_steps : ndarray of shape (m,)
    status : ndarray of str, shape (m,)
        ``optimal`` where the recomputed gap is below ``tol_gap``, else
        ``inaccurate``.
    """

    y: np.ndarray
    s: np.ndarray
    w: np.ndarray
    objective: np.ndarray
    bound: np.ndarray
    gap: np.ndarray
    violation: np.ndarray
    newton_steps: np.ndarray
    status: np.ndarray


def _barrier(B, a, y, s, tau):
    """Barrier value F, gradient and Hessian at (y, s); rows of inf where s <= |y|^2."""
    res = a + s[:, None] - 2.0 * np.einsum("mkr,mr->mk", B, y)
    g0 = s - np.einsum("mr,mr->m", y, y)
    u = tau[:, None] * res
    q = np.sqrt(1.0 + u * u)
    with np.errstate(divide="ignore", invalid="ignore"):
        F = tau * s + ((1.0 + q) - np.log(2.0 * (1.0 + q) / tau[:, None] ** 2)).sum(1) \
            - np.log(g0)
    F = np.where(g0 > 0, F, np.inf)
    return F, res, g0, q


def _newton_step(B, y, g0, res, q, tau):
    m, k, r = B.shape
    d1 = tau[:, None] ** 2 * res / (1.0 + q)  # psi'
    d2 = tau[:, None] ** 2 / (q * (1.0 + q))  # psi''
    C = np.concatenate([-2.0 * B, np.ones((m, k, 1))], axis=2)  # d res / d (y, s)
    grad = np.einsum("mk,mka->ma", d1, C)
    dg = np.concatenate([-2.0 * y, np.ones((m, 1))], axis=1)  # d g0 / d (y, s)
    grad[:, r] += tau
    grad -= dg / g0[:, None]
    H = np.einsum("mk,mka,mkb->mab", d2, C, C)
    H += np.einsum("ma,mb->mab", dg, dg) / (g0 ** 2)[:, None, None]
    H[:, np.arange(r), np.arange(r)] += (2.0 / g0)[:, None]
    step = -np.linalg.solve(H, grad[:, :, None])[:, :, 0]
    return step, grad


def _barrier_path_numpy(B, a, norm, y, s, tau, tol, mu, max_newton, alpha, beta,
                        precision_limit, quadratic_limit, centered):
    """The batched NumPy barrier path: the reference for
    :func:`harness.solvers._out_of_sample_kernel.barrier_path` (same arguments and
    returns); every point carries its own weight, step and stopping test."""
    m, k, r = B.shape
    y, s, tau = y.copy(), s.copy(), tau.copy()
    steps = np.zeros(m, dtype=np.int64)
    active = np.ones(m, dtype=bool)
    best_gap = np.full(m, np.inf)
    best_y, best_s, best_w = y.copy(), s.copy(), np.zeros((m, k))
    while active.any():
        idx = np.flatnonzero(active)
        Bi, ai, yi, si, ti = B[idx], a[idx], y[idx], s[idx], tau[idx]
        F, res, g0, q = _barrier(Bi, ai, yi, si, ti)
        step, grad = _newton_step(Bi, yi, g0, res, q, ti)
        slope = np.einsum("ma,ma->m", grad, step)
        t = np.ones(len(idx))
        stalled = np.zeros(len(idx), dtype=bool)
        move = -slope / 2 > centered
        # near the centre (Newton decrement^2 < QUADRATIC) a full step is safe and
        # converges quadratically (self-concordance, B & V 9.6); only feasibility is
        # checked there, since F (~ tau * objective) has too few digits for Armijo
        quadratic = -slope < quadratic_limit
        for _ in range(40):  # backtracking, all moving points at once
            ty, ts = yi + t[:, None] * step[:, :-1], si + t * step[:, -1]
            Fn = _barrier(Bi, ai, ty, ts, ti)[0]
            accept = np.where(quadratic, np.isfinite(Fn), Fn <= F + alpha * t * slope)
            bad = move & ~stalled & ~accept
            if not bad.any():
                break
            t[bad] *= beta
            stalled |= bad & (t < 1e-10)
        stalled |= move & (t < 1e-8)  # no descent left in floating point
        t[~move | stalled] = 0.0
        y[idx] = yi + t[:, None] * step[:, :-1]
        s[idx] = si + t * step[:, -1]
        steps[idx] += 1
        centred = ~move | stalled
        if centred.any():  # stop on the recomputed certificate, not on tau alone
            c = np.flatnonzero(centred)
            w = ti[c, None] * res[c] / (1.0 + q[c])
            value = np.abs(res[c]).sum(1) + si[c]
            gap = (value - dual_bound(Bi[c], ai[c], w, value)) / np.maximum(value, norm[idx[c]])
            previous = best_gap[idx[c]]
            better = gap < previous
            keep = idx[c[better]]
            best_gap[keep], best_y[keep], best_s[keep] = gap[better], y[keep], s[keep]
            best_w[keep] = w[better]
            plateau = np.isfinite(previous) & (gap > 0.5 * previous)  # rounding floor
            done = (gap <= tol) | stalled[c] | plateau | (ti[c] * value > precision_limit)
            tau[idx[c[~done]]] *= mu
            active[idx[c[done]]] = False
        active &= steps < max_newton
    return y, s, tau, steps, best_gap, best_y, best_s, best_w


def solve_out_of_sample(anchors, sq_dists, *, tol: float = 1e-7, tol_gap: float = 1e-4,
                        mu: float = 200.0, max_newton: int = 200,
                        engine: str = "numba") -> OutOfSampleSolution:
    """Solve the out-of-sample SDP (top-left block I) for m points at once.

    Parameters
    ----------
    anchors : ndarray of shape (m, k, r)
        Embedding coordinates of each new point's k neighbours.
    sq_dists : ndarray of shape (m, k)
        Squared input distances to those neighbours.
    tol : float, default 1e-7
        Recomputed relative gap at which a centred point stops; otherwise the barrier
        weight grows, until no descent is left in floating point. Each point returns
        its centred iterate with the smallest recomputed gap.
    tol_gap : float, default 1e-4
        Recomputed relative gap (objective - D(w)) / max(objective, mean d_i) below
        which a point is ``optimal``.
    mu : float, default 200
        Factor by which the barrier weight grows between centring steps.
    max_newton : int, default 200
        Newton steps per point at most; a point still above ``tol`` then is
        ``inaccurate`` with its certified gap.
    engine : {"numba", "numpy"}, default "numba"
        The same iteration as compiled scalar loops, point after point
        (:mod:`harness.solvers._out_of_sample_kernel`), or batched in NumPy (the
        reference). Either way the certificate is recomputed here with
        :func:`harness.problems.out_of_sample.dual_bound`.

    Returns
    -------
    OutOfSampleSolution
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    anchors = np.asarray(anchors, dtype=np.float64)
    sq_dists = np.asarray(sq_dists, dtype=np.float64)
    if anchors.ndim != 3 or sq_dists.shape != anchors.shape[:2]:
        raise ValueError(f"anchors must be (m, k, r) and sq_dists (m, k); got "
                         f"{anchors.shape} and {sq_dists.shape}")
    m, k, r = anchors.shape
    spread = ((anchors - anchors.mean(1, keepdims=True)) ** 2).sum(2).mean(1)
    scale = np.maximum.reduce([sq_dists.mean(1), spread, np.full(m, 1e-300)])
    B = anchors / np.sqrt(scale)[:, None, None]
    a = np.einsum("mkr,mkr->mk", B, B) - sq_dists / scale[:, None]
    y = B.mean(1)
    s = np.einsum("mr,mr->m", y, y) + 1.0
    n_ineq = 2 * k + 1
    start = np.abs(a + s[:, None] - 2.0 * np.einsum("mkr,mr->mk", B, y)).sum(1) + s
    tau = n_ineq / np.maximum(start, 1e-3)
    norm = np.maximum(sq_dists.mean(1) / scale, 1e-300)  # the gap's floor, scaled
    path = barrier_path if engine == "numba" else _barrier_path_numpy
    y, s, tau, steps, best_gap, best_y, best_s, best_w = path(
        B, a, norm, y, s, tau, tol, mu, max_newton, ALPHA, BETA, PRECISION_LIMIT,
        QUADRATIC, CENTERED)
    F, res, g0, q = _barrier(B, a, y, s, tau)
    w = tau[:, None] * res / (1.0 + q)
    never = ~np.isfinite(best_gap)  # stopped by max_newton before any centring
    best_y[never], best_s[never], best_w[never] = y[never], s[never], w[never]
    y, s, w = best_y, best_s, best_w
    res = a + s[:, None] - 2.0 * np.einsum("mkr,mr->mk", B, y)
    objective = (np.abs(res).sum(1) + s) * scale
    bound = dual_bound(B, a, w, objective / scale) * scale
    gap = (objective - bound) / np.maximum.reduce(
        [np.abs(objective), sq_dists.mean(1), np.full(m, 1e-300)])
    y_out, s_out = y * np.sqrt(scale)[:, None], s * scale
    violation = np.maximum(0.0, np.einsum("mr,mr->m", y_out, y_out) - s_out)
    status = np.where(gap <= tol_gap, "optimal", "inaccurate")
    return OutOfSampleSolution(y=y_out, s=s_out, w=w, objective=objective, bound=bound,
                               gap=gap, violation=violation, newton_steps=steps,
                               status=status)
