"""The low-rank augmented-Lagrangian method for the MVU SDP (thesis 3.1.4, 3.1.6,
3.1.11) with a certified gap: :func:`solve_lowrank`.

It never forms an n x n dense matrix, so it reaches sizes where the interior-point
method of :mod:`harness.solvers.mvu_sdp.ipm` does not fit in memory; which of the two
runs is decided by :func:`harness.solvers.mvu_sdp.native_solver.solve_native`.

The solver works on a factor ``Y`` (n x p, ``K = Y Y^T``) and edge multipliers ``w``
and combines

1. a warm start: *variational MVU* (thesis 3.1.8) for maximum trace, ``K = Q Z Q^T``
   with ``Q`` the bottom eigenvectors of the graph Laplacian and a small SDP in ``Z``;
   for minimum trace the inputs' own principal coordinates (feasible); then a few
   thousand L-BFGS steps on the quadratic penalty (cheap global progress, where
   Newton's method would crawl along very indefinite Hessians);
2. an augmented Lagrangian on ``Y`` (Burer-Monteiro) whose subproblems are solved
   *accurately* by Newton's method on the exact Hessian, factorised as a sparse
   ``LDL^T`` (the Hessian has the sparsity of the graph Laplacian with p x p blocks:
   O(m p^2) entries); its inertia says whether the Hessian is positive definite, and
   a Levenberg shift is added until it is, so that each step is a descent step;
3. an eigen-check of the dual slack ``L(s) -/+ I`` after every subproblem: the
   inertia of one sparse factorisation proves ``L(s) - I >= -eps`` on the
   complement of the ones vector; otherwise the bottom eigenvectors (LOBPCG) are
   directions of negative curvature, and become new columns of ``Y`` (rank escape);
4. the certificate at every outer iteration, logged in ``history``, so that a
   time-out still leaves a certified bound.

Why the certificate closes: the penalised subproblem
``min_K c tr K + w.r(K) + sigma/2 |r(K)|^2`` (``K`` centred and PSD; ``c = -1`` for
maximum, ``+1`` for minimum trace) is *convex* in ``K``. At its global optimum
``s = w + sigma r`` satisfies ``L(s) + c I >= 0`` on the complement of 1 and
``(L(s) + c I) K = 0``, so ``s`` (maximum trace) or ``-s`` (minimum trace) is a dual
feasible point with objective ``tr K - s.r`` (resp. ``tr K + s.r``): the gap is
``|s.r|``, which the multiplier updates drive to zero. For the ``inequality`` variant
the same holds with ``s = max(0, w + sigma r)``.

Notation as in ``shared/MVU_NOTES.md``: ``B`` the m x n incidence matrix, ``b`` the
squared edge lengths, ``r_e = |y_i - y_j|^2 - b_e``, ``L(w) = B^T diag(w) B``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from harness.problems.mvu_problem import NATIVE_VARIANTS, MVUProblem
from harness.problems.mvu_certificate import certify, trace_bound, weighted_laplacian
from harness.problems.sparse_inertia import bottom_at_least, certified_bottom
from harness.solvers.mvu_sdp.result import NativeResult, final_status, judge
from harness.timelimit import Deadline

__all__ = ["solve_lowrank"]

_DENSE_EIG_MAX = 800  # up to this n the eigen-check uses a dense eigensolver


# ---------------------------------------------------------------------------
# Sparse edge operators
# ---------------------------------------------------------------------------
class _Edges:
    """The incidence matrix of the graph, Laplacian products in O(m p), and the
    block pattern (diagonal blocks, then one block per edge and direction) of the
    Hessians."""

    def __init__(self, n: int, edges: np.ndarray):
        m = len(edges)
        rows = np.repeat(np.arange(m), 2)
        cols = edges.ravel()
        self.n, self.m = n, m
        self.edges = edges
        self.B = sp.csr_matrix((np.tile([1.0, -1.0], m), (rows, cols)), shape=(m, n))
        self.BT = self.B.T.tocsr()
        self.absBT = abs(self.BT)
        block_rows = np.concatenate([np.arange(n), edges[:, 0], edges[:, 1]])
        block_cols = np.concatenate([np.arange(n), edges[:, 1], edges[:, 0]])
        self.block_order = np.lexsort((block_cols, block_rows))
        self.block_cols = block_cols[self.block_order]
        self.block_indptr = np.concatenate(
            [[0], np.cumsum(np.bincount(block_rows, minlength=n))])

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
        return weighted_laplacian(self.n, self.edges, c)

    def block_matrix(self, diag_blocks: np.ndarray, edge_blocks: np.ndarray) -> sp.csc_matrix:
        """The symmetric np x np matrix with the given p x p blocks: ``diag_blocks``
        (n, p, p) on the diagonal and ``edge_blocks`` (m, p, p) at ``(i, j)`` and
        ``(j, i)`` of every edge (symmetric blocks)."""
        n, p = self.n, diag_blocks.shape[1]
        data = np.concatenate([diag_blocks, edge_blocks, edge_blocks])[self.block_order]
        H = sp.bsr_matrix((data, self.block_cols, self.block_indptr), shape=(n * p, n * p))
        return H.tocsr().T  # CSC of the transpose, which is H itself


def _centre(Y: np.ndarray) -> np.ndarray:
    return Y - Y.mean(axis=0)


# ---------------------------------------------------------------------------
# Warm starts
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
    with warnings.catch_warnings():  # an inaccurate warm start is still a warm start
        warnings.simplefilter("ignore")
        try:
            prob.solve(solver="CLARABEL")
        except cp.error.SolverError:
            prob.solve(solver="SCS")
    Zv = (Z.value + Z.value.T) / 2
    lam, V = np.linalg.eigh(Zv)
    keep = lam > 1e-6 * max(lam.max(), 1e-300)
    return Q @ (V[:, keep] * np.sqrt(lam[keep]))


# ---------------------------------------------------------------------------
# The augmented Lagrangian subproblem in the factor Y
# ---------------------------------------------------------------------------
class _Subproblem:
    """``phi(Y) = c |Y_c|^2 + (|s(Y)|^2 - |w|^2) / (2 sigma)`` with
    ``s = w + sigma r`` (equality) or ``max(0, w + sigma r)`` (inequality), ``c = -1``
    for maximum and ``+1`` for minimum trace.

    This is the augmented Lagrangian of the MVU SDP in the factor; its gradient is
    ``2 (L(s) + c I) Y`` on centred ``Y``, so ``s`` plays the role of the multipliers.
    """

    def __init__(self, ops: _Edges, b: np.ndarray, w: np.ndarray, sigma: float,
                 inequality: bool, p: int, c: float):
        self.ops, self.b, self.w, self.sigma = ops, b, w, sigma
        self.inequality, self.p, self.c = inequality, p, c
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
        return float(self.c * np.vdot(Yc, Yc)
                     + (self.s @ self.s - self.w @ self.w) / (2 * self.sigma))

    def grad(self, x: np.ndarray) -> np.ndarray:
        self._eval(x)
        G = 2 * (self.ops.lap(self.s, self.Y, self.D) + self.c * _centre(self.Y))
        return G.ravel()

    def hessp(self, x: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Hessian-vector product in O(m p) (centred directions)."""
        self._eval(x)
        V = v.reshape(-1, self.p)
        BV = self.ops.diff(V)
        ds = (2 * self.sigma) * np.einsum("ij,ij->i", self.D, BV)
        if self.inequality:
            ds = np.where(self.active, ds, 0.0)
        H = 2 * (self.ops.BT @ (self.s[:, None] * BV + ds[:, None] * self.D)
                 + self.c * _centre(V))
        return H.ravel()

    def hessian(self, x: np.ndarray) -> sp.csc_matrix:
        """The exact Hessian ``2 (L(s) + c I) (x) I_p + 4 sigma J^T diag(active) J``
        (``J`` the Jacobian of ``r``: row ``e`` is ``d_e`` at node ``i`` and ``-d_e``
        at ``j``) as a sparse matrix with p x p blocks.

        On centred directions it is the Hessian of ``phi``; the constant directions
        ``1 (x) v`` are eigenvectors with eigenvalue ``2 c`` (the centring term is
        left out to keep the matrix sparse), which :func:`_newton` accounts for when
        it reads the inertia.
        """
        self._eval(x)
        ops, p = self.ops, self.p
        weight = (4 * self.sigma) * self.active
        E = (weight[:, None, None] * self.D[:, :, None]) * self.D[:, None, :]
        eye = np.eye(p)
        diag = (ops.absBT @ E.reshape(ops.m, -1)).reshape(-1, p, p)
        diag += (2 * (ops.absBT @ self.s) + 2 * self.c)[:, None, None] * eye
        edge = -(E + (2 * self.s)[:, None, None] * eye)
        return ops.block_matrix(diag, edge)


class _ShiftedNewton:
    """Newton-PCG steps preconditioned by an exact, inertia-controlled factorisation.

    ``H + lam I`` (``H`` the exact Hessian) is factorised as ``LDL^T`` (QDLDL); if
    its inertia shows negative curvature on centred directions, ``lam`` grows
    tenfold and the factorisation is repeated. The factor is then reused as the
    preconditioner of conjugate gradients on the current Hessian for as long as CG
    converges in a few iterations (a chord-Newton method: the factorisation, not
    the Hessian product, is the expensive part), and refreshed when it does not.
    """

    max_cg = 25

    def __init__(self, sub: _Subproblem):
        self.sub = sub
        self.lam = 0.0
        self.solve = None
        self.factorisations = 0

    def _factor(self, x: np.ndarray):
        import qdldl

        H = self.sub.hessian(x)
        N, p, c = H.shape[0], self.sub.p, self.sub.c
        diag = np.abs(H.diagonal())
        floor = 1e-10 * float(diag.max())
        eye = sp.identity(N, format="csc")
        for _ in range(30):
            shift = self.lam + floor
            if abs(2 * c + shift) < 0.25:  # keep away from the constant directions
                self.lam = 0.5 - 2 * c
                continue
            self.factorisations += 1
            try:
                solver = qdldl.Solver(H + shift * eye)
                D = solver.factors()[1]
            except RuntimeError:
                D = None
            expected = p if 2 * c + shift < 0 else 0
            if D is not None and np.all(np.isfinite(D)) and int((D < 0).sum()) == expected:
                self.solve = solver.solve
                return
            self.lam = max(10 * self.lam, 1e-4 * max(1.0, float(diag.mean())))
        self.solve = None

    def direction(self, x: np.ndarray, g: np.ndarray, tol: float) -> np.ndarray:
        sub, p = self.sub, self.sub.p
        hessp = lambda v: sub.hessp(x, v) + self.lam * v  # noqa: E731
        for attempt in range(2):
            if self.solve is None or attempt:
                self._factor(x)
                if self.solve is None:
                    return -g
            precond = lambda v: _centre(self.solve(v).reshape(-1, p)).ravel()  # noqa: E731
            d, k, ok = _pcg(hessp, g, precond, tol, self.max_cg)
            if ok and g @ d < 0:
                return d
        return d if g @ d < 0 else -g

    def accepted(self, step: float):
        if step == 1.0 and self.lam > 0:
            self.lam /= 10
            self.solve = None if self.lam < 1e-12 else self.solve
            self.lam = 0.0 if self.lam < 1e-12 else self.lam
        elif step < 0.25:
            self.lam *= 3
            self.solve = None


def _pcg(hessp, g: np.ndarray, precond, tol: float, max_iter: int):
    """Preconditioned CG for ``H d = -g``. Returns ``(d, iterations, converged)``;
    stops (not converged) at negative curvature or after ``max_iter``."""
    z = np.zeros_like(g)
    r = -g
    y = precond(r)
    d = y.copy()
    ry = r @ y
    for it in range(max_iter):
        Hd = hessp(d)
        dHd = d @ Hd
        if dHd <= 1e-14 * (d @ d):
            return (z if it else d), it + 1, False
        alpha = ry / dHd
        z = z + alpha * d
        r = r - alpha * Hd
        if np.linalg.norm(r) <= tol:
            return z, it + 1, True
        y = precond(r)
        ry_new = r @ y
        d = y + (ry_new / ry) * d
        ry = ry_new
    return z, max_iter, False


def _newton(sub: _Subproblem, x: np.ndarray, gtol: float, max_iter: int,
            deadline: Deadline):
    """Line-search Newton minimisation of ``sub`` from ``x`` until |grad| <= gtol.

    Returns ``x, |grad|, Newton iterations``.
    """
    f, g = sub.value(x), sub.grad(x)
    newton = _ShiftedNewton(sub)
    g0 = max(float(np.linalg.norm(g)), 1e-300)
    it = 0
    for it in range(1, max_iter + 1):
        gn = np.linalg.norm(g)
        if gn <= gtol or deadline.expired():
            it -= 1
            break
        forcing = max(gn * min(0.1, np.sqrt(gn / g0)), 0.3 * gtol)
        d = newton.direction(x, g, forcing)
        slope = g @ d
        step = 1.0
        for _ in range(50):
            f_new = sub.value(x + step * d)
            if f_new <= f + 1e-4 * step * slope:
                break
            step *= 0.5
        else:
            break
        newton.accepted(step)
        x = x + step * d
        f, g = f_new, sub.grad(x)
    return x, float(np.linalg.norm(g)), it


# ---------------------------------------------------------------------------
# Eigen-check: bottom of L(s) on the complement of the ones vector
# ---------------------------------------------------------------------------
def _bottom_eigs(ops: _Edges, s: np.ndarray, guess: np.ndarray, n_extra: int = 8,
                 tol: float = 1e-8, seed: int = 0, maxiter: int = 500):
    """Smallest eigenpairs of ``L(s)`` orthogonal to the ones vector.

    LOBPCG with the ones vector as a constraint, warm-started with ``guess`` (the
    factor: at the optimum its columns span the bottom eigenspace) plus ``n_extra``
    random vectors, preconditioned by a sparse LU of ``L(|s|) + I`` (symmetric
    positive definite). Returns ascending eigenvalues and vectors.
    """
    n = ops.n
    L = ops.laplacian(s)
    if n <= _DENSE_EIG_MAX:  # small: a dense partial eigh is cheaper and never fails
        import scipy.linalg as sla

        dense = L.toarray()
        dense += (abs(float(dense.diagonal().max())) + 1.0) * 4.0 / n  # lift 1 to the top
        k = min(n - 1, guess.shape[1] + n_extra)
        vals, vecs = sla.eigh(dense, subset_by_index=[0, k - 1])
        return vals, vecs
    rng = np.random.default_rng(seed)
    guess = guess[:, : max(1, min(guess.shape[1], n // 5 - 1 - n_extra))]
    X = np.hstack([guess, rng.standard_normal((n, n_extra))])
    U, S, _ = np.linalg.svd(_centre(X), full_matrices=False)
    X = U[:, S > 1e-8 * S[0]]
    lu = spla.splu((ops.laplacian(np.abs(s)) + sp.identity(n)).tocsc(),
                   permc_spec="MMD_AT_PLUS_A")
    M = spla.LinearOperator((n, n), matvec=lu.solve, matmat=lu.solve, dtype=np.float64)
    with warnings.catch_warnings():  # a non-converged block is only used for escape
        warnings.simplefilter("ignore")  # directions; bounds come from the inertia
        vals, vecs = spla.lobpcg(L, X, M=M, Y=np.ones((n, 1)) / np.sqrt(n), largest=False,
                                 tol=tol, maxiter=maxiter)
    order = np.argsort(vals)
    return vals[order], vecs[:, order]


def _dual_slack_check(ops: _Edges, s: np.ndarray, Y: np.ndarray, c: float, seed: int,
                      rel_eps: float = 1e-7):
    """Is ``L(s) + c I >= 0`` on the complement of 1?

    Returns ``(t, vals, vecs)``: ``t`` a *proven* lower bound on the smallest
    eigenvalue of ``L(s)`` on the complement of 1 (Sylvester inertia of one sparse
    factorisation), and, when ``L(s) + c I`` has negative curvature, the offending
    eigenpairs (LOBPCG) for the rank escape (else empty arrays).
    """
    L = ops.laplacian(s)
    target = -c  # the eigenvalue the optimal dual slack has on range(K)
    t = target - rel_eps * max(1.0, abs(target))
    if bottom_at_least(L, t):
        return t, np.empty(0), np.empty((ops.n, 0))
    try:
        vals, vecs = _bottom_eigs(ops, s, Y if Y.any() else
                                  np.random.default_rng(seed).standard_normal((ops.n, 2)),
                                  seed=seed)
    except (ValueError, np.linalg.LinAlgError, RuntimeError):
        return -np.inf, np.empty(0), np.empty((ops.n, 0))
    t = certified_bottom(L, float(vals[0]))
    neg = vals < target - 1e-6 * max(1.0, abs(target))
    return t, vals[neg], vecs[:, neg]


def _escape_step(sub: _Subproblem, x: np.ndarray, v: np.ndarray, lam: float) -> np.ndarray:
    """New column ``alpha v`` along a negative-curvature eigenvector (``lam + c < 0``).

    Along ``t = alpha^2`` the subproblem is a convex piecewise quadratic with slope
    ``lam + c`` at 0; we take the minimiser of the equality model and halve it until
    ``phi`` decreases.
    """
    sub._eval(x)
    q = sub.ops.diff(v[:, None])[:, 0] ** 2
    t = -(lam + sub.c) / (sub.sigma * max(q @ q, 1e-300))
    f0 = sub.value(x)
    Y = x.reshape(-1, sub.p)
    trial = _Subproblem(sub.ops, sub.b, sub.w, sub.sigma, sub.inequality, sub.p + 1, sub.c)
    for _ in range(30):
        Y_new = np.hstack([Y, np.sqrt(t) * v[:, None]])
        if trial.value(Y_new.ravel()) < f0:
            return Y_new
        t *= 0.5
    return None


def _escape(ops, b, w, sigma, inequality, c, Y, neg_vals, neg_vecs, max_new: int = 8):
    """Add one column per negative-curvature eigenvector of the dual slack (at most
    ``max_new``), each by :func:`_escape_step`. Returns ``(Y, escaped)``."""
    escaped = False
    for lam, v in zip(neg_vals[:max_new], neg_vecs[:, :max_new].T):
        sub = _Subproblem(ops, b, w, sigma, inequality, Y.shape[1], c)
        Y_new = _escape_step(sub, Y.ravel(), _centre(v[:, None])[:, 0], float(lam))
        if Y_new is not None:
            Y, escaped = Y_new, True
    return Y, escaped


def _trim(Y: np.ndarray, rel: float = 1e-6) -> np.ndarray:
    """Rotate ``Y`` to its principal axes and drop numerically zero columns."""
    U, S, _ = np.linalg.svd(Y, full_matrices=False)
    keep = max(1, int((S > rel * S[0]).sum()))
    return U[:, :keep] * S[:keep]


def _restore(ops: _Edges, b: np.ndarray, Y: np.ndarray, inequality: bool,
             steps: int = 6, tol: float = 1e-9) -> np.ndarray:
    """Feasibility restoration: damped Gauss-Newton steps ``min |dY|`` s.t.
    ``J dY = -r`` (:func:`_min_norm_step`), halved until the largest violation
    decreases; then for ``inequality`` the exact scaling
    ``Y * min(1, min_e sqrt(b_e / |y_i - y_j|^2))``. The dual bound does not depend on
    ``Y``, so a restored factor pairs with the multipliers of any iterate."""
    n, p = Y.shape
    m = ops.m
    rows = np.repeat(np.arange(m), 2 * p)
    cols = (ops.edges[:, :, None] * p + np.arange(p)).reshape(m, -1).ravel()

    def residual(Z):
        D = ops.diff(Z)
        r = np.einsum("ij,ij->i", D, D) - b
        return D, (np.maximum(r, 0.0) if inequality else r)

    Y = Y.copy()
    D, r = residual(Y)
    for _ in range(steps):
        if np.abs(r).max() <= tol * b.max():
            break
        J = sp.csr_matrix((2 * np.concatenate([D, -D], axis=1).ravel(), (rows, cols)),
                          shape=(m, n * p))
        dY = _min_norm_step(J, r).reshape(n, p)
        for _ in range(12):
            Y_new = _centre(Y + dY)
            D_new, r_new = residual(Y_new)
            if np.abs(r_new).max() < np.abs(r).max():
                break
            dY *= 0.5
        else:
            break
        Y, D, r = Y_new, D_new, r_new
    if inequality:
        d2 = np.einsum("ij,ij->i", D, D)
        ratio = np.where(d2 > 0, b / np.maximum(d2, 1e-300), np.inf)
        Y = Y * min(1.0, float(np.sqrt(ratio.min())))
    return Y


def _min_norm_step(J: sp.csr_matrix, r: np.ndarray, rel_reg: float = 1e-12) -> np.ndarray:
    """The minimum-norm solution of ``J d = -r``: ``d = J^T z`` with
    ``(J J^T + eps I) z = -r``, by a sparse LDL^T of the m x m matrix ``J J^T`` (the
    pattern of edges that share a node), the tiny ``eps`` guarding rank deficiency."""
    import qdldl

    JJt = (J @ J.T).tocsc()
    eps = rel_reg * max(float(JJt.diagonal().max()), 1e-300)
    for _ in range(8):
        try:
            z = qdldl.Solver(JJt + eps * sp.identity(JJt.shape[0], format="csc")).solve(-r)
        except RuntimeError:
            z = None
        if z is not None and np.all(np.isfinite(z)):
            return J.T @ z
        eps *= 100
    return spla.lsqr(J, -r, atol=1e-12, btol=1e-12, iter_lim=300)[0]


def _stationary_multipliers(ops: _Edges, Y: np.ndarray, c: float,
                            damp: float = 1e-3) -> np.ndarray:
    """Least-squares ``w`` with ``L(w) Y = -c Y`` (the stationarity / complementary
    slackness condition, linear in ``w``; sparse, n p equations in m unknowns)."""
    n, p = Y.shape
    D = ops.diff(Y)
    m = ops.m
    rows = (ops.edges[:, :, None] * p + np.arange(p)).reshape(m, -1).ravel()
    cols = np.repeat(np.arange(m), 2 * p)
    A = sp.csr_matrix((np.concatenate([D, -D], axis=1).ravel(), (rows, cols)),
                      shape=(n * p, m))
    scale = spla.norm(A) / np.sqrt(m)
    return spla.lsqr(A, -c * _centre(Y).ravel(), damp=damp * scale, atol=1e-10,
                     btol=1e-10, iter_lim=2000)[0]


def _dual_bound(b: np.ndarray, s: np.ndarray, t: float, T: float, maximize: bool) -> float:
    """Bound from multipliers ``s`` whose Laplacian has smallest eigenvalue ``>= t`` on
    the complement of 1 (see :mod:`harness.problems.mvu_certificate`)."""
    bs = float(b @ s)
    if maximize:  # w = s, mu(w) >= t
        bound = bs + T * max(0.0, 1.0 - t)
        return min(bound, bs / t) if t > 0 else bound
    # minimum trace: w = -s, nu(w) <= -t
    bw, nu = -bs, -t
    bound = max(0.0, bw - T * max(0.0, nu - 1.0))
    return max(bound, bw / nu) if nu > 0 and bw > 0 else bound


def _better_primal(cand: dict, other: dict, tol_violation: float, bound: float) -> bool:
    """Prefer factors feasible to tolerance, then the one whose value is closer to the
    best dual bound (else the smaller violation).

    Closeness, not the better value: a factor that is feasible only to tolerance can
    beat the optimum by exploiting the slack, and would then be certified with a
    larger gap than an honest one."""
    ok, ok_other = cand["violation"] <= tol_violation, other["violation"] <= tol_violation
    if ok != ok_other:
        return ok
    if ok:
        return abs(cand["value"] - bound) < abs(other["value"] - bound)
    return cand["violation"] < other["violation"]


def _penalty_start(ops, b, Y, sigma, inequality, c, extra_columns, seed, deadline,
                   max_iter: int = 3000):
    """First subproblem by L-BFGS: the quadratic penalty ``c |Y|^2 + sigma/2 |r|^2``
    (no multipliers) from ``Y`` plus ``extra_columns`` small random columns.

    Newton's method is poor far from a minimiser (the Hessian there is very
    indefinite); L-BFGS makes the global progress cheaply, and ``sigma r`` at its
    end is the first multiplier estimate."""
    from scipy.optimize import minimize

    rng = np.random.default_rng(seed)
    size = 1e-2 * np.sqrt(np.vdot(Y, Y) / Y.size)
    Y = np.hstack([Y, size * rng.standard_normal((len(Y), extra_columns))])
    sub = _Subproblem(ops, b, np.zeros(ops.m), sigma, inequality, Y.shape[1], c)

    def fun(x):
        if deadline.expired():
            raise TimeoutError
        return sub.value(x), sub.grad(x)

    best = [Y.ravel()]
    try:
        res = minimize(fun, Y.ravel(), jac=True, method="L-BFGS-B", callback=best.append,
                       options={"maxiter": max_iter, "gtol": 1e-12, "ftol": 1e-15,
                                "maxcor": 20})
        x = res.x
    except TimeoutError:
        x = best[-1]
    sub._eval(x)
    return _trim(_centre(x.reshape(len(Y), -1))), sub.s.copy()


def _initial_factor(ops, b, problem_n, init, n_basis, seed, maximize):
    if init is not None:
        Y = _centre(np.asarray(init, dtype=np.float64).reshape(problem_n, -1))
        return _trim(Y)
    if not maximize:
        raise ValueError("minimum trace needs init= (e.g. the inputs' principal "
                         "coordinates, which are feasible); got none")
    return _centre(_variational_start(ops, b, n_basis, seed))


def solve_lowrank(problem: MVUProblem, *, rank: int | None = None, tol_gap: float = 1e-3,
                  tol_violation: float = 1e-4, time_limit: float = 600.0, seed: int = 0,
                  verbose: bool = False, n_basis: int = 10, sigma0: float = 30.0,
                  max_outer: int = 60, init: np.ndarray | None = None,
                  extra_columns: int = 4, max_inner: int = 200,
                  segment: int = 40) -> NativeResult:
    """Solve the MVU SDP by the low-rank augmented Lagrangian, with a certified gap.

    :func:`harness.solvers.mvu_sdp.native_solver.solve_native` calls it for ``method="lowrank"``,
    for problems whose interior-point iteration does not fit the memory budget, and
    when the interior-point method stalls short of the tolerances.

    Parameters
    ----------
    problem : MVUProblem
        Variant ``equality``, ``inequality`` or ``min_trace``.
    rank : int, optional
        Initial number of columns of the factor; default: the rank of the warm start.
        Columns are added by the eigen-check.
    tol_gap, tol_violation : float
        Targets for the relative gap and the relative constraint violation of the
        certificate; the solver stops when both are met.
    time_limit : float
        CPU seconds of this process (:class:`harness.timelimit.Deadline`); on expiry
        the best certified iterate is returned with status "timeout".
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
    init : ndarray of shape (n, q), optional
        Initial factor (e.g. the inputs, centred: they meet every constraint).
        Required for ``min_trace``; for maximum trace the default is the variational
        MVU warm start.
    extra_columns : int
        Small random columns added to the warm start before the first (penalty)
        subproblem, so that it can use more dimensions than the warm start has.
    max_inner : int
        Newton iterations per augmented Lagrangian subproblem.
    segment : int
        Newton iterations between two eigen-checks of the dual slack. A subproblem
        that has not converged after a segment is checked for negative curvature
        (and escaped from) and continued, with the same multipliers: multipliers are
        only updated after an accurate solve that passed the check (HALLaR's rule).

    Returns
    -------
    NativeResult
        With ``details == {"method": "lowrank"}`` and one ``history`` entry per outer
        iteration.

    Raises
    ------
    ValueError
        For a variant other than ``equality``, ``inequality`` and ``min_trace``, and
        for ``min_trace`` without ``init``.
    """
    if problem.variant not in NATIVE_VARIANTS:
        raise ValueError(f"solve_lowrank supports the variants {NATIVE_VARIANTS}, "
                         f"got {problem.variant!r}")
    t0 = time.perf_counter()  # the history's times are wall seconds
    deadline = Deadline(time_limit)
    inequality = problem.variant == "inequality"
    maximize = problem.maximize
    c = -1.0 if maximize else 1.0
    ops = _Edges(problem.n, np.asarray(problem.edges))
    scale = float(problem.sq_lengths.mean())
    b = problem.sq_lengths / scale
    T = trace_bound(problem) / scale

    init_scaled = None if init is None else np.asarray(init, float) / np.sqrt(scale)
    Y = _initial_factor(ops, b, problem.n, init_scaled, n_basis, seed, maximize)
    if rank is not None:
        Y = np.hstack([Y, np.zeros((len(Y), max(0, rank - Y.shape[1])))])[:, :rank]
    w = _stationary_multipliers(ops, Y, c)
    sigma = sigma0 * max(float(np.median(np.abs(w))), 1.0)
    Y, w = _penalty_start(ops, b, Y, sigma, inequality, c, extra_columns, seed, deadline)
    _, neg_vals, neg_vecs = _dual_slack_check(ops, w, Y, c, seed)
    Y, _ = _escape(ops, b, np.zeros(ops.m), sigma, inequality, c, Y, neg_vals, neg_vecs)
    history, best_dual, best_primal, r_prev = [], None, None, np.inf
    inner_used = 0
    status = "inaccurate"
    it = 0
    for it in range(1, max_outer + 1):
        sub = _Subproblem(ops, b, w, sigma, inequality, Y.shape[1], c)
        gtol = 1e-8 * max(np.linalg.norm(Y), 1.0) * max(1.0, np.sqrt(sigma))
        x, gn, n_newton = _newton(sub, Y.ravel(), gtol, min(segment, max_inner), deadline)
        Y = _centre(x.reshape(-1, sub.p))
        sub._eval(Y.ravel())
        s, r = sub.s.copy(), sub.r.copy()
        t_proven, neg_vals, neg_vecs = _dual_slack_check(ops, s, Y, c, seed)
        bound = _dual_bound(b, s, t_proven, T, maximize)
        if best_dual is None or (bound < best_dual[0] if maximize else bound > best_dual[0]):
            best_dual = (bound, s.copy() if maximize else -s)
        Yr = _restore(ops, b, Y, inequality)
        Dr = ops.diff(Yr)
        rr = np.einsum("ij,ij->i", Dr, Dr) - b
        viol_r = float((np.maximum(rr, 0) if inequality else np.abs(rr)).max() / b.max())
        cand = {"value": float(np.vdot(Yr, Yr)), "violation": viol_r}
        if best_primal is None or _better_primal(cand, best_primal[0], tol_violation, best_dual[0]):
            best_primal = (cand, Yr)
        pv, bd = best_primal[0]["value"], best_dual[0]
        viol_it = (np.maximum(r, 0) if inequality else np.abs(r)).max() / b.max()
        entry = {"time": time.perf_counter() - t0, "value": pv * scale,
                 "violation": best_primal[0]["violation"], "bound": bd * scale,
                 "gap": abs(bd - pv) / max(abs(bd), abs(pv), 1e-300), "rank": Y.shape[1],
                 "mu": t_proven, "iterate_violation": float(viol_it),
                 "sigma": sigma, "inner": n_newton, "grad": gn}
        history.append(entry)
        if verbose:
            print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in entry.items()), flush=True)
        if (entry["gap"] <= tol_gap and entry["violation"] <= tol_violation
                and judge(certify(problem, best_primal[1] * np.sqrt(scale), best_dual[1],
                                  T=T * scale), tol_gap, tol_violation)[0] == "optimal"):
            # the harness' own rule (its own gap too: a factor feasible only to
            # tolerance is optimal only for the distances it meets)
            status = "optimal"
            break
        if deadline.expired():
            status = "timeout"
            break
        Y, escaped = _escape(ops, b, w, sigma, inequality, c, Y, neg_vals, neg_vecs)
        if escaped:  # spurious stationary point: raise the rank, same multipliers
            inner_used = 0
            continue
        inner_used += n_newton
        if gn > gtol and inner_used < max_inner:
            continue  # HALLaR's rule: update multipliers only after an accurate solve
        inner_used = 0
        Y = _trim(Y)
        rn = np.linalg.norm(np.maximum(r, -w / sigma) if inequality else r)
        w = s
        if rn > 0.25 * r_prev:  # slow progress: stiffen the penalty
            sigma *= 5.0
        r_prev = rn
    Y, w_cert = best_primal[1], best_dual[1]
    F = Y * np.sqrt(scale)
    final = certify(problem, F, w_cert, T=T * scale)
    status = final_status(final, status, tol_gap, tol_violation)
    return NativeResult(F=F, w=w_cert, status=status, certificate=final, iterations=it,
                        details={"method": "lowrank"},
                        seconds=time.perf_counter() - t0, history=history)
