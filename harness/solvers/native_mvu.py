"""A native low-rank solver for the MVU SDP (thesis 3.1.4) with a certified gap.

The solver never forms an n x n dense matrix. It works on a factor ``Y`` (n x p,
``K = Y Y^T``) and edge multipliers ``w`` and combines

1. a warm start by *variational MVU* (thesis 3.1.8): ``K = Q Z Q^T`` with ``Q`` the
   bottom eigenvectors of the graph Laplacian and a small SDP in ``Z`` (cvxpy);
2. an augmented Lagrangian on ``Y`` (Burer-Monteiro) whose subproblems are solved
   *accurately* by a trust-region Newton-CG method with Hessian-vector products in
   O(m p); the multipliers are updated only after the subproblem is solved;
3. an eigen-check of ``L(w~) - I`` on the complement of the ones vector after every
   subproblem: a negative eigenvalue means the factor is a spurious stationary
   point, and its eigenvector becomes a new column of ``Y`` (rank escape);
4. the certificate of :mod:`harness.problems.mvu_certificate` at every outer
   iteration, logged in ``history``, so a time-out still leaves a certified bound.

Why the certificate closes: the penalised subproblem
``min_K -tr K + w.r(K) + sigma/2 |r(K)|^2`` (``K`` centred and PSD) is *convex* in
``K``. At its global optimum ``w~ = w + sigma r`` satisfies ``L(w~) - I >= 0`` on the
complement of 1 and ``(L(w~) - I) K = 0``, so ``mu(w~) = 1`` and the dual bound is
``b.w~ = tr K - w~.r``: the gap is ``|w~.r|``, which the multiplier updates drive to
zero. For the ``inequality`` variant the same holds with ``w~ = max(0, w + sigma r)``.

Notation as in ``shared/MVU_NOTES.md``: ``B`` the m x n incidence matrix, ``b`` the
squared edge lengths, ``r_e = |y_i - y_j|^2 - b_e``, ``L(w) = B^T diag(w) B``.
"""

from __future__ import annotations

import dataclasses
import time
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from harness.problems.mvu import MVUProblem
from harness.problems.mvu_certificate import Certificate, certify, trace_bound

__all__ = ["NativeResult", "solve_native", "SUPPORTED_VARIANTS"]

SUPPORTED_VARIANTS = ("equality", "inequality")


@dataclasses.dataclass
class NativeResult:
    """Outcome of :func:`solve_native`.

    Attributes
    ----------
    F : ndarray of shape (n, p)
        Centred low-rank factor, ``K = F F^T``.
    w : ndarray of shape (m,)
        Edge multipliers (the dual certificate; ``w >= 0`` for ``inequality``).
    status : {"optimal", "inaccurate", "timeout"}
        "optimal" only if the recomputed certificate meets both tolerances.
    certificate : Certificate
        :func:`harness.problems.mvu_certificate.certify` of ``(F, w)``, recomputed
        at the end from the problem data.
    iterations : int
        Outer (multiplier) iterations.
    seconds : float
        Wall-clock time including the final certificate.
    history : list of dict
        One entry per outer iteration: time, value, violation, bound, gap, rank,
        sigma, mu, inner (Newton iterations).
    """

    F: np.ndarray
    w: np.ndarray
    status: str
    certificate: Certificate
    iterations: int
    seconds: float
    history: list


# ---------------------------------------------------------------------------
# Sparse edge operators
# ---------------------------------------------------------------------------
class _Edges:
    """The incidence matrix of the graph and the Laplacian products, O(m p) each."""

    def __init__(self, n: int, edges: np.ndarray):
        m = len(edges)
        rows = np.repeat(np.arange(m), 2)
        cols = edges.ravel()
        vals = np.tile([1.0, -1.0], m)
        self.n, self.m = n, m
        self.edges = edges
        self.B = sp.csr_matrix((vals, (rows, cols)), shape=(m, n))
        self.BT = self.B.T.tocsr()

    def diff(self, Y: np.ndarray) -> np.ndarray:
        """``y_i - y_j`` on every edge (m x p)."""
        return self.B @ Y

    def lap(self, c: np.ndarray, Y: np.ndarray, D: np.ndarray | None = None) -> np.ndarray:
        """``L(c) Y``; ``D = B Y`` may be passed when already known."""
        if D is None:
            D = self.B @ Y
        return self.BT @ (c[:, None] * D)

    def laplacian(self, c: np.ndarray) -> sp.csr_matrix:
        """``L(c)`` as a sparse matrix."""
        return (self.BT @ sp.diags(c) @ self.B).tocsr()


def _centre(Y: np.ndarray) -> np.ndarray:
    return Y - Y.mean(axis=0)


# ---------------------------------------------------------------------------
# Warm start: variational MVU (thesis 3.1.8)
# ---------------------------------------------------------------------------
def _laplacian_basis(ops: _Edges, n_basis: int, seed: int) -> np.ndarray:
    """Bottom ``n_basis`` non-constant eigenvectors of the unweighted Laplacian."""
    L = ops.laplacian(np.ones(ops.m))
    n = ops.n
    k = min(n_basis + 1, n - 1)
    if n <= 400:
        vals, vecs = np.linalg.eigh(L.toarray())
        return vecs[:, 1:k]
    v0 = np.random.default_rng(seed).standard_normal(n)
    vals, vecs = spla.eigsh(L, k=k, sigma=-1e-3, which="LM", v0=v0)
    order = np.argsort(vals)
    return vecs[:, order[1:k]]


def _variational_start(ops: _Edges, b: np.ndarray, n_basis: int, seed: int) -> np.ndarray:
    """``Y0 = Q Z^(1/2)`` with ``Z`` solving max tr Z s.t. ``(QZQ^T)`` edge lengths
    ``<= b`` (a small SDP: Z is n_basis x n_basis, m linear constraints)."""
    import cvxpy as cp

    Q = _laplacian_basis(ops, n_basis, seed)
    Q = Q / np.linalg.norm(Q, axis=0)
    d = ops.diff(Q)  # (m, q): the edge constraint is d_e^T Z d_e <= b_e
    q = Q.shape[1]
    iu = np.triu_indices(q)
    coef = d[:, iu[0]] * d[:, iu[1]] * np.where(iu[0] == iu[1], 1.0, 2.0)
    Z = cp.Variable((q, q), PSD=True)
    zvec = cp.hstack([Z[a, c] for a, c in zip(*iu)])
    prob = cp.Problem(cp.Maximize(cp.trace(Z)), [coef @ zvec <= b])
    try:
        prob.solve(solver="CLARABEL")
    except cp.error.SolverError:
        prob.solve(solver="SCS")
    Zv = (Z.value + Z.value.T) / 2
    lam, V = np.linalg.eigh(Zv)
    keep = lam > 1e-8 * max(lam.max(), 1e-300)
    return Q @ (V[:, keep] * np.sqrt(lam[keep]))


# ---------------------------------------------------------------------------
# The augmented Lagrangian subproblem in the factor Y
# ---------------------------------------------------------------------------
class _Subproblem:
    """``phi(Y) = -|Y_c|^2 + (|s(Y)|^2 - |w|^2) / (2 sigma)`` with
    ``s = w + sigma r`` (equality) or ``max(0, w + sigma r)`` (inequality).

    This is the augmented Lagrangian of the (negated) MVU objective; its gradient is
    ``2 (L(s) - I) Y`` on centred ``Y``, so ``s`` plays the role of the multipliers.
    """

    def __init__(self, ops: _Edges, b: np.ndarray, w: np.ndarray, sigma: float,
                 inequality: bool, p: int):
        self.ops, self.b, self.w, self.sigma = ops, b, w, sigma
        self.inequality, self.p = inequality, p
        self._key = None

    def _eval(self, x: np.ndarray):
        if self._key is not None and np.array_equal(self._key, x):
            return
        Y = x.reshape(-1, self.p)
        D = self.ops.diff(Y)
        r = np.einsum("ij,ij->i", D, D) - self.b
        s = self.w + self.sigma * r
        active = np.ones_like(s, dtype=bool)
        if self.inequality:
            active = s > 0
            s = np.where(active, s, 0.0)
        self._key = x.copy()
        self.Y, self.D, self.r, self.s, self.active = Y, D, r, s, active

    def value(self, x: np.ndarray) -> float:
        self._eval(x)
        Yc = _centre(self.Y)
        return float(-np.vdot(Yc, Yc) + (self.s @ self.s - self.w @ self.w) / (2 * self.sigma))

    def grad(self, x: np.ndarray) -> np.ndarray:
        self._eval(x)
        G = 2 * (self.ops.lap(self.s, self.Y, self.D) - _centre(self.Y))
        return G.ravel()

    def hessp(self, x: np.ndarray, v: np.ndarray) -> np.ndarray:
        self._eval(x)
        V = v.reshape(-1, self.p)
        BV = self.ops.diff(V)
        ds = (2 * self.sigma) * np.einsum("ij,ij->i", self.D, BV)
        if self.inequality:
            ds = np.where(self.active, ds, 0.0)
        H = 2 * (self.ops.BT @ (self.s[:, None] * BV + ds[:, None] * self.D) - _centre(V))
        return H.ravel()


def _preconditioner(sub: _Subproblem, x: np.ndarray):
    """Sparse LU of ``M = 2 L(|s|) (x) I_p + 4 sigma J^T diag(active) J + 2 I``.

    ``M`` is the subproblem Hessian with ``s`` replaced by ``|s|`` and ``-2 I`` by
    ``+2 I``: symmetric positive definite, exact in the stiff penalty term that makes
    the Hessian ill-conditioned. ``J`` (m x np) has row ``e``: ``d_e`` at node ``i``
    and ``-d_e`` at node ``j`` (``d_e = y_i - y_j``), so its size is O(m p) and its
    factor fills like a 2-D mesh (the Swiss roll graph).
    """
    sub._eval(x)
    ops, p, m = sub.ops, sub.p, sub.ops.m
    D = sub.D * np.where(sub.active, 1.0, 0.0)[:, None]
    rows = np.repeat(np.arange(m), 2 * p)
    cols = (ops.edges[:, :, None] * p + np.arange(p)).reshape(m, -1).ravel()
    J = sp.csr_matrix((np.concatenate([D, -D], axis=1).ravel(), (rows, cols)),
                      shape=(m, ops.n * p))
    M = (2 * sp.kron(ops.laplacian(np.abs(sub.s)), sp.identity(p))
         + (4 * sub.sigma) * (J.T @ J) + 2 * sp.identity(ops.n * p))
    lu = spla.splu(M.tocsc(), permc_spec="COLAMD")
    return lu.solve


def _pcg(hessp, g: np.ndarray, precond, tol: float, max_iter: int):
    """Preconditioned CG for ``H d = -g``; stops at negative curvature (returning
    the last iterate, or the preconditioned steepest descent step at the start)."""
    z = np.zeros_like(g)
    r = -g
    y = precond(r)
    d = y.copy()
    ry = r @ y
    for it in range(max_iter):
        Hd = hessp(d)
        dHd = d @ Hd
        if dHd <= 1e-14 * (d @ d):
            return (z if it else d), it + 1
        alpha = ry / dHd
        z = z + alpha * d
        r = r - alpha * Hd
        if np.linalg.norm(r) <= tol:
            return z, it + 1
        y = precond(r)
        ry_new = r @ y
        d = y + (ry_new / ry) * d
        ry = ry_new
    return z, max_iter


def _newton(sub: _Subproblem, x: np.ndarray, gtol: float, max_iter: int, deadline: float,
            refactor_every: int = 4, max_cg: int = 200):
    """Line-search Newton-PCG minimisation of ``sub`` from ``x`` to |grad| <= gtol.

    Returns ``x, |grad|, Newton iterations, CG iterations``.
    """
    f, g = sub.value(x), sub.grad(x)
    g0 = max(np.linalg.norm(g), 1e-300)
    n_cg, it, precond = 0, 0, None
    for it in range(1, max_iter + 1):
        gn = np.linalg.norm(g)
        if gn <= gtol or time.perf_counter() > deadline:
            it -= 1
            break
        if precond is None or (it - 1) % refactor_every == 0:
            precond = _preconditioner(sub, x)
        forcing = max(gn * min(0.1, np.sqrt(gn / g0)), 0.3 * gtol)
        d, k = _pcg(lambda v: sub.hessp(x, v), g, precond, forcing, max_cg)
        n_cg += k
        d = _centre(d.reshape(-1, sub.p)).ravel()
        slope = g @ d
        if slope >= 0:
            d, slope = -g, -(g @ g)
        step = 1.0
        for _ in range(40):
            f_new = sub.value(x + step * d)
            if f_new <= f + 1e-4 * step * slope:
                break
            step *= 0.5
        else:
            break
        x = x + step * d
        f, g = f_new, sub.grad(x + 0.0)
    return x, np.linalg.norm(g), it, n_cg


# ---------------------------------------------------------------------------
# Eigen-check: bottom of L(s) - I on the complement of the ones vector
# ---------------------------------------------------------------------------
def _bottom_eigs(ops: _Edges, s: np.ndarray, guess: np.ndarray, n_extra: int = 3,
                 tol: float = 1e-8, seed: int = 0, maxiter: int = 500):
    """Smallest eigenpairs of ``L(s)`` orthogonal to the ones vector.

    LOBPCG with the ones vector as a constraint, warm-started with ``guess`` (the
    factor: at the optimum its columns span the eigenvalue-1 eigenspace) plus
    ``n_extra`` random vectors, preconditioned by a sparse LU of ``L(|s|) + I``
    (symmetric positive definite). Returns ascending eigenvalues and vectors.
    """
    n = ops.n
    L = ops.laplacian(s)
    rng = np.random.default_rng(seed)
    guess = guess[:, : max(1, min(guess.shape[1], n // 5 - 1 - n_extra))]
    X = np.hstack([guess, rng.standard_normal((n, n_extra))])
    U, S, _ = np.linalg.svd(_centre(X), full_matrices=False)
    X = U[:, S > 1e-8 * S[0]]
    lu = spla.splu((ops.laplacian(np.abs(s)) + sp.identity(n)).tocsc())
    M = spla.LinearOperator((n, n), matvec=lu.solve, matmat=lu.solve, dtype=np.float64)
    with warnings.catch_warnings():  # a non-converged block still bounds mu: the
        warnings.simplefilter("ignore")  # final certificate is recomputed anyway
        vals, vecs = spla.lobpcg(L, X, M=M, Y=np.ones((n, 1)) / np.sqrt(n), largest=False,
                                 tol=tol, maxiter=maxiter)
    order = np.argsort(vals)
    return vals[order], vecs[:, order]


def _escape_step(sub: _Subproblem, x: np.ndarray, v: np.ndarray, lam: float) -> np.ndarray:
    """New column ``alpha v`` along a negative-curvature eigenvector (``lam < 1``).

    Along ``t = alpha^2`` the subproblem is a convex piecewise quadratic with slope
    ``lam - 1`` at 0; we take the minimiser of the equality model and halve it until
    ``phi`` decreases.
    """
    sub._eval(x)
    q = sub.ops.diff(v[:, None])[:, 0] ** 2
    t = (1.0 - lam) / (sub.sigma * max(q @ q, 1e-300))
    f0 = sub.value(x)
    Y = x.reshape(-1, sub.p)
    for _ in range(30):
        Y_new = np.hstack([Y, np.sqrt(t) * v[:, None]])
        trial = _Subproblem(sub.ops, sub.b, sub.w, sub.sigma, sub.inequality, sub.p + 1)
        if trial.value(Y_new.ravel()) < f0:
            return Y_new
        t *= 0.5
    return None


def _trim(Y: np.ndarray, keep_extra: int = 1, rel: float = 1e-7) -> np.ndarray:
    """Rotate ``Y`` to its principal axes and drop numerically zero columns, keeping
    ``keep_extra`` small ones (rank deficiency is what makes a second-order point of
    the factored subproblem globally optimal)."""
    U, S, Vt = np.linalg.svd(Y, full_matrices=False)
    big = int((S > rel * S[0]).sum())
    k = min(len(S), big + keep_extra)
    return U[:, :k] * S[:k]


def _restore(ops: _Edges, b: np.ndarray, Y: np.ndarray, inequality: bool,
             steps: int = 3, tol: float = 1e-7) -> np.ndarray:
    """Feasibility restoration: Gauss-Newton steps ``min |dY|`` s.t.
    ``J dY = -r`` (least squares by LSQR), then for ``inequality`` the exact scaling
    ``Y * min(1, min_e sqrt(b_e / |y_i - y_j|^2))``. The dual bound does not depend on
    ``Y``, so a restored factor pairs with the multipliers of any iterate."""
    n, p = Y.shape
    m = ops.m
    rows = np.repeat(np.arange(m), 2 * p)
    cols = (ops.edges[:, :, None] * p + np.arange(p)).reshape(m, -1).ravel()
    Y = Y.copy()
    for _ in range(steps):
        D = ops.diff(Y)
        r = np.einsum("ij,ij->i", D, D) - b
        if inequality:
            r = np.maximum(r, 0.0)
        if np.abs(r).max() <= tol * b.max():
            break
        J = sp.csr_matrix((2 * np.concatenate([D, -D], axis=1).ravel(), (rows, cols)),
                          shape=(m, n * p))
        dY = spla.lsqr(J, -r, atol=1e-12, btol=1e-12, iter_lim=300)[0]
        Y = _centre(Y + dY.reshape(n, p))
    if inequality:
        d2 = np.einsum("ij,ij->i", *(2 * [ops.diff(Y)]))
        ratio = np.where(d2 > 0, b / np.maximum(d2, 1e-300), np.inf)
        Y = Y * min(1.0, float(np.sqrt(ratio.min())))
    return Y


def _stationary_multipliers(ops: _Edges, Y: np.ndarray, damp: float = 1e-3) -> np.ndarray:
    """Least-squares ``w`` with ``L(w) Y = Y`` (the stationarity / complementary
    slackness condition, linear in ``w``; sparse, n p equations in m unknowns)."""
    n, p = Y.shape
    D = ops.diff(Y)
    m = ops.m
    rows = (ops.edges[:, :, None] * p + np.arange(p)).reshape(m, -1).ravel()
    cols = np.repeat(np.arange(m), 2 * p)
    A = sp.csr_matrix((np.concatenate([D, -D], axis=1).ravel(), (rows, cols)),
                      shape=(n * p, m))
    scale = spla.norm(A) / np.sqrt(m)
    return spla.lsqr(A, _centre(Y).ravel(), damp=damp * scale, atol=1e-10, btol=1e-10,
                     iter_lim=2000)[0]


def _certify_scaled(b: np.ndarray, Y: np.ndarray, s: np.ndarray, mu: float, T: float,
                    r: np.ndarray, inequality: bool) -> dict:
    """The certificate of ``(Y, s)`` from already computed pieces (scaled units)."""
    value = float(np.vdot(Y, Y))
    viol = np.maximum(r, 0.0) if inequality else np.abs(r)
    bw = float(b @ s)
    bound = bw + T * max(0.0, 1.0 - mu)
    if mu > 0:
        bound = min(bound, bw / mu)
    gap = abs(bound - value) / max(abs(bound), abs(value), 1e-300)
    return {"value": value, "violation": float(viol.max() / b.max()), "bound": bound,
            "gap": gap, "mu": mu}


def solve_native(problem: MVUProblem, *, rank: int | None = None, tol_gap: float = 1e-3,
                 tol_violation: float = 1e-4, time_limit: float = 600.0, seed: int = 0,
                 verbose: bool = False, n_basis: int = 10, sigma0: float = 30.0,
                 max_outer: int = 60) -> NativeResult:
    """Solve the MVU SDP natively with a certified optimality gap.

    Parameters
    ----------
    problem : MVUProblem
        Variant ``equality`` or ``inequality``.
    rank : int, optional
        Initial number of columns of the factor; default: the rank of the
        variational warm start plus one. Columns are added by the eigen-check.
    tol_gap, tol_violation : float
        Targets for the relative gap and the relative constraint violation of the
        certificate; the solver stops when both are met.
    time_limit : float
        Wall-clock seconds; on expiry the best certified iterate is returned with
        status "timeout".
    seed : int
        Seed of the random vectors in the eigensolver and the Laplacian basis.
    verbose : bool
        Print one line per outer iteration.
    n_basis : int
        Number of Laplacian eigenvectors of the variational warm start.
    sigma0 : float
        Initial penalty parameter, relative to the median magnitude of the
        least-squares multipliers of the warm start (``b`` scaled to mean 1).
    max_outer : int
        Maximum number of outer iterations.

    Returns
    -------
    NativeResult
    """
    if problem.variant not in SUPPORTED_VARIANTS:
        raise ValueError(f"solve_native supports the variants {SUPPORTED_VARIANTS}, "
                         f"got {problem.variant!r}")
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    inequality = problem.variant == "inequality"
    ops = _Edges(problem.n, np.asarray(problem.edges))
    scale = float(problem.sq_lengths.mean())
    b = problem.sq_lengths / scale
    T = trace_bound(problem) / scale

    Y = _centre(_variational_start(ops, b, n_basis, seed))
    p = Y.shape[1] + 1 if rank is None else rank
    if p > Y.shape[1]:
        Y = np.hstack([Y, np.zeros((len(Y), p - Y.shape[1]))])
    Y = Y[:, :p]
    w = _stationary_multipliers(ops, Y)
    sigma = sigma0 * max(float(np.median(np.abs(w))), 1.0)
    history, best_dual, best_primal, r_prev = [], None, None, np.inf
    guess = Y
    status = "inaccurate"
    it = 0
    for it in range(1, max_outer + 1):
        sub = _Subproblem(ops, b, w, sigma, inequality, Y.shape[1])
        gtol = 1e-7 * max(np.linalg.norm(Y), 1.0)
        x, gn, n_newton, n_cg = _newton(sub, Y.ravel(), gtol, 100, deadline)
        Y = _centre(x.reshape(-1, sub.p))
        sub._eval(Y.ravel())
        s, r = sub.s.copy(), sub.r.copy()
        try:
            vals, vecs = _bottom_eigs(ops, s, _trim(Y, 0) if Y.any() else guess, seed=seed)
        except (ValueError, np.linalg.LinAlgError, RuntimeError):
            vals, vecs = np.array([-np.inf]), np.zeros((problem.n, 1))  # no certificate
        mu = float(vals[0])
        cert = _certify_scaled(b, Y, s, mu, T, r, inequality)
        if best_dual is None or cert["bound"] < best_dual[0]:
            best_dual = (cert["bound"], s.copy())
        Yr = _restore(ops, b, Y, inequality)
        Dr = ops.diff(Yr)
        rr = np.einsum("ij,ij->i", Dr, Dr) - b
        viol_r = float((np.maximum(rr, 0) if inequality else np.abs(rr)).max() / b.max())
        cand = {"value": float(np.vdot(Yr, Yr)), "violation": viol_r}
        if best_primal is None or _better_primal(cand, best_primal[0], tol_violation):
            best_primal = (cand, Yr)
        pv, bd = best_primal[0]["value"], best_dual[0]
        entry = {"time": time.perf_counter() - t0, "value": pv * scale,
                 "violation": best_primal[0]["violation"], "bound": bd * scale,
                 "gap": abs(bd - pv) / max(abs(bd), abs(pv), 1e-300), "rank": Y.shape[1],
                 "mu": mu, "iterate_gap": cert["gap"], "iterate_violation": cert["violation"],
                 "sigma": sigma, "inner": n_newton, "cg": n_cg, "grad": gn}
        history.append(entry)
        if verbose:
            print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in entry.items()), flush=True)
        if entry["gap"] <= tol_gap and entry["violation"] <= tol_violation:
            status = "optimal"
            break
        if time.perf_counter() > deadline:
            status = "timeout"
            break
        neg = np.isfinite(vals) & (vals < 1.0 - 1e-6)
        if neg.any():  # spurious stationary point: raise the rank, same multipliers
            escaped = False
            for lam, v in zip(vals[neg][:2], vecs[:, neg][:, :2].T):
                sub = _Subproblem(ops, b, w, sigma, inequality, Y.shape[1])
                Y_new = _escape_step(sub, Y.ravel(), _centre(v[:, None])[:, 0], float(lam))
                if Y_new is not None:
                    Y, escaped = Y_new, True
            if escaped:
                continue
        Y = _trim(Y)
        rn = np.linalg.norm(np.maximum(r, -w / sigma) if inequality else r)
        w = s
        if rn > 0.25 * r_prev and gn <= gtol:  # solved, yet slow: stiffen the penalty
            sigma *= 4.0
        r_prev = rn
    Y, s = best_primal[1], best_dual[1]
    F = Y * np.sqrt(scale)
    final = certify(problem, F, s, T=T * scale)
    if final.gap <= tol_gap and final.violation <= tol_violation:
        status = "optimal"
    elif status == "optimal":
        status = "inaccurate"
    return NativeResult(F=F, w=s, status=status, certificate=final, iterations=it,
                        seconds=time.perf_counter() - t0, history=history)


def _better_primal(cand: dict, other: dict, tol_violation: float) -> bool:
    """Prefer factors feasible to tolerance, then the larger value (else the smaller
    violation)."""
    ok, ok_other = cand["violation"] <= tol_violation, other["violation"] <= tol_violation
    if ok != ok_other:
        return ok
    if ok:
        return cand["value"] > other["value"]
    return cand["violation"] < other["violation"]
