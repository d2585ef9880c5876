r"""A primal-dual interior-point solver for MVU SDPs (thesis 3.1.4-3.1.6, 3.1.11).

Written for the structure of MVU rather than handed to a general conic solver
through cvxpy.

Formulation. With ``V`` (n x N) an orthonormal basis of a face of the PSD cone that
holds every feasible ``K`` -- by default the complement of the ones vector (N =
n - 1), where the centring constraint disappears and the cone has an interior
(``X`` positive definite); facial reduction (:mod:`harness.problems.facial_reduction`)
passes a smaller one -- every candidate is ``K = V X V^T``. With the incidence vectors
``a_e = e_i - e_j`` and ``u_e = V^T a_e``:

.. math::

   \min_X \langle C, X\rangle \ \text{s.t.}\ u_e^T X u_e = b_e\ (\le b_e), \ X \succeq 0;
   \qquad
   \max_y b^T y \ \text{s.t.}\ \sum_e y_e u_e u_e^T + Z = C, \ Z \succeq 0,

with ``C = -I`` for maximum trace (eq. 3.19 / 3.20) and ``C = +I`` for minimum trace
(3.1.11), and any ``C = V^T (c_0 I + P diag(a) P^T) V`` for a linear cost
(:mod:`harness.problems.linear_cost`: minimum volume embedding's SDP step over the
equality variant's feasible set); the inequality variant (3.1.6) adds a slack
``s >= 0`` per edge, whose dual forces ``y <= 0``. The certificate multipliers of
:mod:`harness.problems.mvu_certificate` are ``w = -y`` (maximum trace: ``Z =
V^T L(w) V - I``) and ``w = y`` (minimum trace and a linear cost).

Method: infeasible primal-dual path following with the HKM search direction and
Mehrotra's predictor-corrector (Helmberg, Rendl, Vanderbei, Wolkowicz 1996; Kojima,
Shindoh, Hara 1997; Monteiro 1997; as in SDPT3, Toh, Todd, Tütüncü 1999). The Schur
complement of the HKM direction is ``M_ef = (u_e^T X u_f)(u_f^T Z^{-1} u_e)``, the
elementwise product of ``B K B^T`` and ``B (V Z^{-1} V^T) B^T`` (``B`` the m x n
incidence matrix), formed by a numba kernel over its lower triangle
(:mod:`harness.solvers.mvu_sdp.schur_kernel`) and factorised in place by Cholesky.
The right-hand sides' ``A(X R Z^{-1})`` terms are read off two rows per edge
(:func:`~harness.solvers.mvu_sdp.schur_kernel.edge_traces`) instead of forming the
products: six n x n products per iteration instead of eight.

Step lengths: ``Z^{-1}`` comes from ``Z``'s Cholesky factor (``potri``); the step to
a cone's boundary from the smallest eigenvalue of ``L^{-1} dP L^{-T}`` (``sygst``
with the iterate's Cholesky factor ``L``, then Lanczos: a Ritz value, never a
shorter step than the true one, to relative accuracy 1e-2 for the predictor and
``STEP_RTOL`` for the corrector), and the corrector's step is taken only where the
new iterate's Cholesky factorisation succeeds -- that factor is the next
iteration's; an estimate that fails it is replaced by the exact step (``sygvx``).
``schur_precision="mixed"`` factorises a float32 copy (half the time and memory
traffic) and solves each Newton system to float64 accuracy by conjugate gradients
preconditioned with that factor (iterative refinement, as mixed-precision conic
solvers do); a system where that does not converge falls back to float64, as soon
as the rate of its first ``CG_RATE_AFTER`` iterations predicts more than
``CG_MAX_ITERATIONS`` (at n = 1000 the float32 factor stops preconditioning within
one iteration near the end: 150 conjugate-gradient iterations were spent before
the switch, 6 now). The float32 copy gets a rank-one floor
(``PRECONDITIONER_FLOOR``) that keeps its factorisation free of subnormal numbers.
The default basis is a Householder reflection, so ``V X V^T`` and ``V^T G V`` cost
O(n^2), not O(n^3). The start is SDPT3's, rescaled (``START_SCALES``).

What these choices were measured to gain, and what was tried and not kept:
``docs/mvu_ipm.md``.

Signed combinations of edge rank-ones. The same iteration takes constraints
``<sum_t C_rt a_t a_t^T, K> = b_r`` (or ``<=``, row by row) for a sparse m x T
matrix ``C`` over T distinct atoms ``a_t = e_i - e_j``
(:class:`~harness.solvers.mvu_sdp.edge_constraints.EdgeConstraints`; the action
respecting embedding's action rows ``<A_{i'j'} - A_ij, K> = 0``,
:mod:`harness.solvers.are_native`): ``A(X) = C (u_t^T X u_t)_t``, ``A^T(y)`` the
atoms' weighted Laplacian with weights ``C^T y``, the Schur matrix ``C E C^T`` with
``E`` the kernel's matrix of the atoms (HKM's ``M_rs = tr(A_r X A_s Z^-1)`` is
bilinear in the constraint matrices), and the right-hand sides' traces through
``C`` too. Only the inequality rows get slacks (and the dual sign constraint
``y_r <= 0``). MVU is ``C = I`` and is stored without ``C``: no extra work.

Stopping: the iteration stops as soon as the harness' own certificate of the
current iterate (:func:`harness.problems.mvu_certificate.certify`, recomputed from
the problem data) meets the tolerances; the iteration's own residuals only decide
when that check is worth its cost (from ``TRACK_FROM`` times the stopping gap on).
:func:`solve_certified` keeps the best checked iterate and returns it where the last
one certifies less, and stops after ``DIVERGING_CHECKS`` checks in a row that are
worse: on a problem without an interior the iterates pass the optimum and go on
infeasibly (noise-free Swiss roll, n = 1000, k = 4: ``docs/mvu_noise_free_k4.md``).

Cost and memory: the m x m Schur matrix dominates: ``m^2`` doubles (plus ``m^2``
floats for ``"mixed"``) and ``m^3 / 3`` flops per iteration; with ``m ~ 5.8 n``
(k = 5) that is 0.26 GB at n = 1000 and 1.05 GB at n = 2000.
:func:`schur_bytes` gives the memory a problem needs and :func:`solve_ipm` refuses a
problem above ``memory_budget``.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.linalg import blas, lapack

from harness.problems.mvu_problem import NATIVE_VARIANTS, MVUProblem
from harness.problems.linear_cost import LinearCost, certify_cost
from harness.problems.mvu_certificate import (Certificate, certify, trace_bound,
                                              weighted_laplacian)
from harness.solvers.mvu_sdp.dense_kernels import float32_plus, reflected, symmetrized
from harness.solvers.mvu_sdp.schur_kernel import (edge_traces, numba_threads_like_blas,
                                               schur_matrix)
from harness.solvers.mvu_sdp.edge_constraints import EdgeConstraints
from harness.solvers.mvu_sdp.result import (NativeResult, better_certificate, final_status,
                                       judge)
from harness.timelimit import Deadline

__all__ = ["solve_ipm", "solve_certified", "run_ipm", "IPMRun", "IPM_VARIANTS",
           "IPM_MEMORY_BUDGET", "schur_bytes", "SCHUR_PRECISIONS", "CholeskyFactor"]

IPM_VARIANTS = NATIVE_VARIANTS
#: Default memory budget of one interior-point solve (bytes): room for n = 3000 at
#: k = 5 on a 24 GiB machine running two solves at once.
IPM_MEMORY_BUDGET = 8 * 2**30
SCHUR_PRECISIONS = ("double", "mixed", "auto")
#: ``schur_precision="auto"`` factorises in float32 from this many constraints on
#: (below, float64 is cheap and the refinement would not pay).
MIXED_FROM_M = 4000
#: conjugate-gradient iterations of one mixed-precision Schur solve at most; after
#: ``CG_RATE_AFTER`` of them, a solve whose rate so far predicts more stops early and
#: the Schur matrix is factorised in float64 (measured, n = 1000: the float32 factor
#: stops preconditioning within one iteration, 6 -> 50 CG iterations per solve)
CG_MAX_ITERATIONS = 25
#: a rank-one term ``floor * max(diag M) / m * 11^T`` added to the float32 copy that
#: preconditions the mixed-precision solves: without it, the elimination of the first
#: iterations' nearly sparse Schur matrices (X and Z near multiples of the identity:
#: 99.6 % zeros) creates float32 subnormal numbers, whose arithmetic is ~10x slower:
#: spotrf of the first two Schur matrices at n = 1000 (m = 5733, 2 threads) took
#: 1.5 and 4.2 s against 0.56 s for a later one, and 0.6-0.7 s with the term. Its
#: size is below the copy's own float32 rounding, so the conjugate gradients, which
#: solve with the exact M, see at most one extra iteration.
PRECONDITIONER_FLOOR = 1e-6
CG_RATE_AFTER = 6
#: factors on SDPT3's starting multiples of the identity (X0 = xi I, Z0 = eta I).
#: SDPT3's eta ignores the scale of the multipliers (|w| in the thousands on the
#: noisy roll): the dual steps then stay below 0.2 for four iterations. Measured on
#: the noisy roll, k = 5, 1 thread (iterations to the certified 1e-3): n = 500
#: 23 -> 17, n = 1000 23 -> 18 with (0.1, 10); (1, 10) gave 18 and 19.
START_SCALES = (0.1, 10.0)
#: the certificate is checked from ``TRACK_FROM`` times the iteration's stopping gap on
#: (``check_gap``), so that the best certified iterate is known before the end game
TRACK_FROM = 4.0
#: after this many checked iterates in a row that certify less than the best one so far
#: (:func:`~harness.solvers.mvu_sdp.result.better_certificate`), the iteration stops
#: ("diverging"): on problems without an interior (noise-free rolls, k = 4) the
#: multipliers then grow without bound along an exposing direction while the primal
#: infeasibility stops falling (measured, issue 50: |w| 1e7 -> 3e8 in 5 iterations)
DIVERGING_CHECKS = 4
_STEP_FRACTION = 0.9  # fraction of the distance to the cone boundary (+ 0.09 x the
# predictor's shorter step, as SDPT3)


def schur_bytes(n: int, m: int, precision: str = "double", atoms: int | None = None
                ) -> int:
    """Peak memory of one interior-point iteration (bytes): the Schur matrix (and
    its float32 copy for ``"mixed"``) and about twenty n x n work arrays; with
    ``atoms`` (T: constraints combined from T edge rank-ones), also the atoms'
    T x T Schur matrix ``E`` and the m x T product ``C E``."""
    schur = 8 * m * m + (4 * m * m if precision == "mixed" else 0)
    combined = 0 if atoms is None else 8 * atoms * (atoms + m)
    return int(schur + combined + 20 * 8 * n * n)


def _complement_vector(n: int) -> np.ndarray:
    """``v`` of the Householder reflection ``H = I - 2 v v^T / v^T v`` that maps e_1 to
    the ones vector / sqrt(n); columns 2..n of ``H`` span the complement of 1."""
    v = np.full(n, 1.0 / np.sqrt(n))
    v[0] -= 1.0
    return v


def _complement_basis(n: int) -> np.ndarray:
    """Orthonormal ``V`` (n x n-1) with ``V^T 1 = 0`` (the Householder reflection)."""
    v = _complement_vector(n)
    H = np.eye(n) - np.outer(v, v) * (2.0 / (v @ v))
    return np.ascontiguousarray(H[:, 1:])


def _reflect(v: np.ndarray, c: float, P: np.ndarray, symmetric: bool = True) -> np.ndarray:
    """``H P H`` for ``H = I - c v v^T``, in O(n^2) (one pass,
    :func:`~harness.solvers.mvu_sdp.dense_kernels.reflected`); ``P`` symmetric unless
    ``symmetric=False``."""
    r = P @ v
    return reflected(v, c, P, r, r if symmetric else v @ P)


class _Operators:
    """``A(X) = (u_e^T X u_e)_e``, ``A^T(y) = V^T L(y) V`` and the Schur matrix, for
    the Householder complement basis (``basis=None``) or a given orthonormal one.

    With a ``combination`` ``C`` (m x T, sparse; :mod:`harness.solvers.mvu_sdp.
    edge_constraints`) the ``edges`` are the T atoms and every operator maps through
    it: ``A(X) = C (u_t^T X u_t)_t``, ``A^T(y) = V^T L(C^T y) V`` and the Schur matrix
    ``C E C^T`` with ``E`` the atoms' (:meth:`schur`); ``None`` (MVU) costs nothing
    extra."""

    def __init__(self, n: int, edges: np.ndarray, basis: np.ndarray | None = None,
                 combination: sp.csr_matrix | None = None):
        self.edges, self.i, self.j = edges, edges[:, 0], edges[:, 1]
        self.n = n
        self.C = combination
        self.CT = None if combination is None else combination.T.tocsr()
        if basis is None:
            self.v = _complement_vector(n)
            self.c = 2.0 / float(self.v @ self.v)
            self.U = None
            self.N = n - 1
        else:
            self.U = np.ascontiguousarray(basis, dtype=np.float64)
            self.N = self.U.shape[1]

    @property
    def V(self) -> np.ndarray:
        """The basis as an explicit n x N matrix."""
        return _complement_basis(self.n) if self.U is None else self.U

    def lift(self, X: np.ndarray, symmetric: bool = True) -> np.ndarray:
        """``V X V^T`` (n x n) of an N x N ``X`` (``symmetric=False``: any ``X``)."""
        if self.U is not None:
            return (self.U @ X) @ self.U.T
        P = np.zeros((self.n, self.n))
        P[1:, 1:] = X
        return _reflect(self.v, self.c, P, symmetric)

    def restrict(self, G: np.ndarray) -> np.ndarray:
        """``V^T G V`` (N x N) of a symmetric n x n ``G``."""
        if self.U is not None:
            return self.U.T @ (G @ self.U)
        return np.ascontiguousarray(_reflect(self.v, self.c, G)[1:, 1:])

    def A_product(self, P: np.ndarray, Q: np.ndarray, W: np.ndarray) -> np.ndarray:
        """``A(P Q)`` for any N x N ``P`` and symmetric ``Q``, ``W = V Q V^T``. With
        the Householder basis (``V^T V = I``: ``V P Q V^T = (V P V^T) W``) without
        the product; a given basis (e.g. a face's, scaled) forms it."""
        if self.U is not None:
            return self.A(_sym(P @ Q))
        with numba_threads_like_blas():
            return self._combine(edge_traces(self.lift(P, symmetric=False), W, self.edges))

    def lift_columns(self, F: np.ndarray) -> np.ndarray:
        """``V F`` (n x p) for N x p ``F``."""
        if self.U is not None:
            return self.U @ F
        G = np.vstack([np.zeros((1, F.shape[1])), F])
        return G - self.c * np.outer(self.v, self.v @ G)

    def restrict_columns(self, P: np.ndarray) -> np.ndarray:
        """``V^T P`` (N x p) for n x p ``P``."""
        if self.U is not None:
            return self.U.T @ P
        return (P - self.c * np.outer(self.v, self.v @ P))[1:]

    def _combine(self, atom_values: np.ndarray) -> np.ndarray:
        """The rows' values ``C v`` from the atoms' ``v`` (``v`` itself without ``C``)."""
        return atom_values if self.C is None else self.C @ atom_values

    def A(self, X: np.ndarray) -> np.ndarray:
        return self.A_lifted(self.lift(X))

    def A_lifted(self, K: np.ndarray) -> np.ndarray:
        """``A(X)`` from ``K = V X V^T``."""
        i, j = self.i, self.j
        return self._combine(K[i, i] + K[j, j] - 2.0 * K[i, j])

    def AT(self, y: np.ndarray) -> np.ndarray:
        weights = y if self.CT is None else self.CT @ y
        return self.restrict(weighted_laplacian(self.n, self.edges, weights).toarray())

    def schur(self, X: np.ndarray, Zinv: np.ndarray, W: np.ndarray | None = None
              ) -> np.ndarray:
        """The Schur matrix (m x m, symmetric); ``W``: ``lift(Zinv)`` if at hand.

        HKM: ``M_rs = tr(A_r X A_s Z^-1)`` (Helmberg et al. 1996; Kojima et
        al. 1997), for rank-one ``A_t = u_t u_t^T`` the product ``E_tu = (u_t^T X
        u_u)(u_u^T Z^-1 u_t)``; for ``A_r = sum_t C_rt A_t``, by bilinearity,
        ``M = C E C^T``."""
        W = self.lift(Zinv) if W is None else W
        with numba_threads_like_blas():
            E = schur_matrix(self.lift(X), W, self.edges)
        return E if self.C is None else _congruence(self.C, E)


def _sym(G: np.ndarray) -> np.ndarray:
    return symmetrized(G)


def _congruence(C: sp.csr_matrix, E: np.ndarray) -> np.ndarray:
    """``C E C^T`` (m x m, exactly symmetric, C-contiguous) for sparse ``C`` (m x T)
    and symmetric dense ``E``: two sparse-dense products, O(nnz(C) (T + m))."""
    CE = C @ E  # m x T
    M = np.asarray(C @ CE.T)  # C E^T C^T = C E C^T
    M += M.T
    M *= 0.5
    return np.ascontiguousarray(M)


def _max_step(P: np.ndarray, dP: np.ndarray) -> float:
    """Largest ``alpha`` with ``P + alpha dP`` PSD (``P`` PD); ``inf`` if none.

    The smallest eigenvalue of the pencil ``(dP, P)`` by LAPACK's ``sygvx`` (one
    eigenvalue; 2.5x faster than Cholesky, two triangular solves and ``eigvalsh``,
    measured at n = 1000)."""
    lam = float(sla.eigh(dP, P, eigvals_only=True, subset_by_index=[0, 0], driver="gvx",
                         check_finite=False)[0])
    return np.inf if lam >= 0 else -1.0 / lam


def _cholesky(P: np.ndarray) -> np.ndarray | None:
    """Lower Cholesky factor of the symmetric ``P`` (upper triangle zero), or ``None``
    where ``P`` is not numerically positive definite."""
    L, info = lapack.dpotrf(P, lower=1, clean=1)
    return None if info else L


def _lower_to_full(A: np.ndarray) -> np.ndarray:
    """The symmetric matrix whose lower triangle ``A`` holds."""
    return np.tril(A) + np.tril(A, -1).T


def _inverse(L: np.ndarray) -> np.ndarray:
    """``P^-1`` from the lower Cholesky factor ``L`` of ``P`` (LAPACK ``potri``: a
    third of ``inv``'s flops, and exactly symmetric)."""
    Pinv, info = lapack.dpotri(L, lower=1)
    if info:
        raise np.linalg.LinAlgError("singular Cholesky factor")
    return _lower_to_full(Pinv)


#: below this cone size the pencil's smallest eigenvalue is computed densely
PENCIL_LANCZOS_FROM = 100
#: relative accuracy of the corrector's step-length eigenvalue (the predictor's: 1e-2)
STEP_RTOL = 1e-3


def _pencil_min(L: np.ndarray, dP: np.ndarray, rtol: float) -> float:
    """About the smallest eigenvalue of the pencil ``(dP, P)``, ``L L^T = P``: of
    ``S = L^-1 dP L^-T``, formed by LAPACK's ``sygst`` (n^3 flops, level 3), by
    Lanczos (ARPACK, ``tol=rtol``; a Ritz value, so never below the smallest
    eigenvalue and within ``rtol`` of it once converged) or densely for small
    ``P`` or where Lanczos does not converge. Measured at n = 2000 (1 thread):
    ``sygst`` 0.19 s and Lanczos 0.07 s against 0.91 s for ``sygvx``."""
    S, info = lapack.dsygst(dP, L, itype=1, lower=1)
    if info:
        raise np.linalg.LinAlgError("sygst failed")
    S = np.asfortranarray(S)  # its lower triangle is S: read by symv and eigh alone
    n = len(S)
    if n >= PENCIL_LANCZOS_FROM:
        op = spla.LinearOperator((n, n), dtype=np.float64,
                                 matvec=lambda v: blas.dsymv(1.0, S, v, lower=1))
        v0 = np.random.default_rng(0).standard_normal(n)
        try:
            return float(spla.eigsh(op, k=1, which="SA", tol=rtol, ncv=min(n - 1, 24),
                                    maxiter=60, v0=v0, return_eigenvectors=False)[0])
        except spla.ArpackNoConvergence:
            pass
    return float(sla.eigh(S, lower=True, eigvals_only=True, subset_by_index=[0, 0],
                          check_finite=False)[0])


def _estimated_step(L: np.ndarray, dP: np.ndarray, rtol: float = 1e-2) -> float:
    """About the largest ``alpha`` with ``P + alpha dP`` PSD (``L`` the Cholesky
    factor of ``P``), from :func:`_pencil_min`: never shorter than the true step and
    at most ``1 + rtol`` times it (``inf``: no limit)."""
    lam = _pencil_min(L, dP, rtol)
    return np.inf if lam >= 0 else -1.0 / lam


def _max_step_lp(v: np.ndarray, dv: np.ndarray) -> float:
    neg = dv < 0
    return float(np.min(-v[neg] / dv[neg])) if neg.any() else np.inf


#: column blocks of the blocked triangular solves (:class:`CholeskyFactor`)
TRIANGULAR_BLOCK = 512


class CholeskyFactor:
    """Solves with a lower Cholesky factor ``L`` (``potrf``'s, Fortran order) by
    blocked forward and back substitution: ``trsv`` on each diagonal block (copied
    once, contiguous) and a matrix-vector product (``gemv``, multi-threaded) with
    each panel below it.

    Why not ``potrs``: for one right-hand side it ran at a fraction of the memory
    bandwidth (its triangular solves walk the factor with the stride of its leading
    dimension). Measured on a random float32 factor, 2 threads: m = 11426 203 ms
    against 26 ms for this, m = 5733 54 against 20 ms (``potrs`` takes 26 s of the
    native solver at n = 2000). The sums are ordered differently: equal to
    ``potrs`` to rounding, not bit for bit.
    """

    def __init__(self, L: np.ndarray, block: int = TRIANGULAR_BLOCK):
        self.L = L
        self.block = int(block)
        m = len(L)
        self.trsv = blas.get_blas_funcs("trsv", (L,))
        self.diagonal = [np.asfortranarray(L[s:s + self.block, s:s + self.block])
                         for s in range(0, m, self.block)]

    def solve(self, b: np.ndarray) -> np.ndarray:
        """``x`` with ``L L^T x = b`` (in ``L``'s precision)."""
        L, bs, trsv = self.L, self.block, self.trsv
        x = np.array(b, dtype=L.dtype)
        m = len(x)
        for k, s in enumerate(range(0, m, bs)):  # L y = b
            e = min(s + bs, m)
            x[s:e] = trsv(self.diagonal[k], x[s:e], lower=1)
            if e < m:
                x[e:] -= L[e:, s:e] @ x[s:e]
        for k in reversed(range(len(self.diagonal))):  # L^T x = y
            s = k * bs
            e = min(s + bs, m)
            if e < m:
                x[s:e] -= L[e:, s:e].T @ x[e:]
            x[s:e] = trsv(self.diagonal[k], x[s:e], lower=1, trans=1)
        return x


class _SchurSolver:
    """Solves ``M dy = r`` with the Schur matrix; ``build()`` returns a fresh ``M``
    (the factorisation overwrites its lower triangle).

    ``mixed``: Cholesky of a float32 copy, then conjugate gradients in float64 with
    the exact ``M``, preconditioned by that factor,
    until the residual is below ``1e-12`` of the right-hand side; if they stall (at
    most ``CG_MAX_ITERATIONS``, fewer where the rate after ``CG_RATE_AFTER`` predicts
    more; a residual below ``1e-9`` is then accepted), the float64 Cholesky is used
    from then on. A singular ``M`` (dependent constraints)
    gets a tiny diagonal lift."""

    def __init__(self, build: Callable[[], np.ndarray], mixed: bool):
        self.build = build
        self.mixed = mixed
        self.lift = 0.0
        self.cg_iterations = 0
        self.fallbacks = 0
        self.factor64 = self.factor32 = None
        M = build()
        self.scale = float(np.abs(np.diag(M)).max()) or 1.0
        if mixed:
            self.M = M
            self.factor32 = self._factor(self._preconditioner_copy, lapack.spotrf, 1e-6)
            if self.factor32 is not None:
                self.factor32 = CholeskyFactor(self.factor32)
            else:
                self.mixed = False
        if not self.mixed:
            self.M = None
            pending = [M]  # factorise M itself first, a rebuilt one after a failure
            self.factor64 = CholeskyFactor(self._factor(
                lambda: pending.pop() if pending else build(), lapack.dpotrf, 1e-14))

    def _preconditioner_copy(self) -> np.ndarray:
        """The float32 copy of ``M`` that is factorised as the preconditioner, plus
        ``PRECONDITIONER_FLOOR * scale / m`` in every entry (a rank-one term)."""
        return float32_plus(self.M, PRECONDITIONER_FLOOR * self.scale / len(self.M))

    def _factor(self, fresh, potrf, rel_lift):
        """Cholesky of ``fresh()`` (lower, in place), lifting the diagonal until it
        succeeds; ``None`` (float32) or LinAlgError (float64) after six tries."""
        double = potrf is lapack.dpotrf
        lift = 0.0
        for _ in range(6):
            A = fresh()
            if lift:
                A[np.diag_indices_from(A)] += lift
            # A is symmetric: its transpose is the Fortran-ordered array LAPACK
            # factorises in place (A itself would be copied first)
            c, info = potrf(A.T, lower=1, overwrite_a=1, clean=0)
            if info == 0:
                if double:  # the system solved is M + lift I (the preconditioner's
                    self.lift = lift  # float32 lift changes no answer)
                return c
            lift = max(10 * lift, rel_lift * self.scale)
        if double:
            raise np.linalg.LinAlgError("Schur complement is not positive definite")
        return None

    def _matvec(self, x: np.ndarray) -> np.ndarray:
        return self.M @ x + self.lift * x

    def _precond(self, v: np.ndarray) -> np.ndarray:
        return self.factor32.solve(v).astype(np.float64)

    def solve(self, r: np.ndarray) -> np.ndarray:
        if not self.mixed:
            return self.factor64.solve(r)
        x = self._precond(r)
        res = r - self._matvec(x)
        z = self._precond(res)
        p, rz = z.copy(), float(res @ z)
        norm_r = float(np.linalg.norm(r))
        target = 1e-12 * norm_r
        first = float(np.linalg.norm(res))
        for k in range(CG_MAX_ITERATIONS):
            norm_res = float(np.linalg.norm(res))
            if norm_res <= target:
                return x
            if k == CG_RATE_AFTER and norm_res > 0:
                # the rate so far: a solve that would need more than the cap stops
                # now (the float32 factor no longer preconditions well enough)
                rate = (norm_res / first) ** (1.0 / k)
                if rate >= 1.0 or k + np.log(target / norm_res) / np.log(rate) > \
                        CG_MAX_ITERATIONS:
                    break
            Ap = self._matvec(p)
            pAp = float(p @ Ap)
            if pAp <= 0:
                break
            alpha = rz / pAp
            x += alpha * p
            res -= alpha * Ap
            z = self._precond(res)
            rz_new = float(res @ z)
            p = z + (rz_new / rz) * p
            rz = rz_new
            self.cg_iterations += 1
        if np.linalg.norm(res) <= 1e-9 * norm_r:
            return x
        # the refinement stalled (M too ill-conditioned for float32): float64 from now
        self.fallbacks += 1
        self.mixed = False
        pending = [self.M]  # factorised in place (a rebuilt M after a failure)
        self.M = None
        self.factor64 = CholeskyFactor(self._factor(
            lambda: pending.pop() if pending else self.build(), lapack.dpotrf, 1e-14))
        return self.factor64.solve(r)


def _moved(P: np.ndarray, dP: np.ndarray, alpha: float, fraction: float):
    """``(alpha, P + alpha dP, its Cholesky factor)``: the step is taken where the
    new iterate's Cholesky factorisation succeeds (the proof that it is positive
    definite; the factor is the next iteration's). An ``alpha`` from an estimate
    that fails the test is replaced by ``fraction`` times the exact step
    (:func:`_max_step`, ``sygvx``), shortened until the factorisation succeeds."""
    for exact in (False, True):
        if exact:
            alpha = min(alpha, fraction * _max_step(P, dP))
        for _ in range(1 + 4 * exact):
            new = _sym(P + alpha * dP)
            factor = _cholesky(new)
            if factor is not None:
                return alpha, new, factor
            alpha *= 0.8
    raise np.linalg.LinAlgError("no step keeps the iterate positive definite")


def _slack_rows(v: np.ndarray, m: int, rows: np.ndarray) -> np.ndarray:
    """``S^T v``: the slack rows' values ``v`` placed in an m-vector of zeros."""
    out = np.zeros(m)
    out[rows] = v
    return out


def _step(ops, X, Z, y, s, zs, rp, Rd, rds, mu, ineq, mixed, verbose=False, LX=None,
          LZ=None):
    """One Mehrotra predictor-corrector step with the HKM direction. ``ineq``: the
    rows with slacks ``s`` (duals ``zs``), or None. ``LX``, ``LZ``: the Cholesky
    factors of ``X`` and ``Z`` (computed here when not given); the new iterate's are
    returned with it.

    With ``S`` the selection of the slack rows (``A(X) + S^T s = b``, ``S y + zs =
    0``), the Newton system reduces to ``(M + S^T diag(s / zs) S) dy = rp - A(T) +
    A(X Rd Z^-1) - S^T (t / zs - (s / zs) rds)``, ``t`` the slacks' complementarity
    target."""
    lp = ineq is not None
    LX = _cholesky(X) if LX is None else LX
    LZ = _cholesky(Z) if LZ is None else LZ
    if LX is None or LZ is None:
        raise np.linalg.LinAlgError("the iterate is not positive definite")
    Zinv = _inverse(LZ)

    W = ops.lift(Zinv)

    def build():
        M = ops.schur(X, Zinv, W)
        if lp:
            M.flat[ineq * (len(M) + 1)] += s / zs  # the diagonal's slack rows
        return M

    chol = _SchurSolver(build, mixed)
    A_XRdZ = ops.A_product(X @ Rd, Zinv, W)  # A(X Rd Z^-1) without the product
    n_cone = len(X) + (len(s) if lp else 0)

    def direction(A_T, dX_of, lp_target):
        """Solve for (dX, dy, dZ, ds, dzs) with the HKM direction ``dX = T - X dZ
        Z^-1`` for a target term ``T`` given by ``A_T = A(T)`` and ``dX_of(dZ)``, and
        ``lp_target`` for ``zs ds + s dzs``."""
        g0 = _slack_rows(lp_target / zs - (s / zs) * rds, len(rp), ineq) if lp else 0.0
        dy = chol.solve(rp - A_T + A_XRdZ - g0)
        dZ = Rd - ops.AT(dy)
        dX = dX_of(dZ)
        if lp:
            dzs = rds - dy[ineq]
            ds = (lp_target - s * dzs) / zs
        else:
            dzs = ds = None
        return dX, dy, dZ, ds, dzs

    def steps(dX, dZ, ds, dzs, fraction, rtol):
        """``fraction`` times the steps to the cones' boundaries (capped at 1), from
        :func:`_estimated_step` to relative accuracy ``rtol``."""
        ap, ad = _estimated_step(LX, dX, rtol), _estimated_step(LZ, dZ, rtol)
        if lp:
            ap, ad = min(ap, _max_step_lp(s, ds)), min(ad, _max_step_lp(zs, dzs))
        return min(1.0, fraction * ap), min(1.0, fraction * ad)

    # predictor (affine scaling, sigma = 0): its steps only set sigma
    A_X = ops.A(X)
    dXa, dya, dZa, dsa, dzsa = direction(-A_X, lambda dZ: _sym(-X - (X @ dZ) @ Zinv),
                                         -s * zs if lp else None)
    ap_a, ad_a = steps(dXa, dZa, dsa, dzsa, 1.0, 1e-2)
    mu_aff = (np.vdot(X + ap_a * dXa, Z + ad_a * dZa)
              + ((s + ap_a * dsa) @ (zs + ad_a * dzsa) if lp else 0.0)) / n_cone
    # SDPT3's centring: Mehrotra's exponent 3 only after long predictor steps, 1 after
    # short ones (which keeps the iterates central where short steps show they are not)
    short = min(ap_a, ad_a)
    exponent = 1.0 if short < 1.0 / np.sqrt(3.0) else max(1.0, 3.0 * short**2)
    sigma = min(1.0, (mu_aff / mu) ** exponent)
    # corrector with Mehrotra's second-order term
    # T = sigma mu Z^-1 - X - dXa dZa Z^-1, and dX = T - X dZ Z^-1 with one product
    # by Z^-1 (six n x n products per iteration instead of eight)
    second = dXa @ dZa
    A_T = sigma * mu * ops.A_lifted(W) - A_X - ops.A_product(second, Zinv, W)
    lp_target = (sigma * mu - s * zs - dsa * dzsa) if lp else None
    dX, dy, dZ, ds, dzs = direction(
        A_T, lambda dZ: _sym(sigma * mu * Zinv - X - (second + X @ dZ) @ Zinv), lp_target)
    fraction = _STEP_FRACTION + 0.09 * short
    ap, ad = steps(dX, dZ, ds, dzs, fraction, STEP_RTOL)
    ap, X, LX = _moved(X, dX, ap, fraction)
    ad, Z, LZ = _moved(Z, dZ, ad, fraction)
    if verbose:
        print(f"    predictor steps {ap_a:.2f} {ad_a:.2f} sigma {sigma:.2f} steps "
              f"{ap:.2f} {ad:.2f} cg {chol.cg_iterations} fallback {chol.fallbacks}")
    y = y + ad * dy
    if lp:
        s, zs = s + ap * ds, zs + ad * dzs
    return X, Z, y, s, zs, chol.cg_iterations, chol.fallbacks, LX, LZ


def _stalled(history, window: int = 10, factor: float = 0.9) -> bool:
    """No progress: none of the relative gap, the primal infeasibility and ``mu`` has
    fallen by ``factor`` over the last ``window`` iterations (rounding has taken
    over; in the slow middle phase of a degenerate problem one of them still falls)."""
    if len(history) <= window:
        return False
    last = history[-window - 1:]
    return all(min(h[key] for h in last[1:]) > factor * last[0][key]
               for key in ("rel_gap", "primal_infeasibility", "mu"))


@dataclasses.dataclass
class IPMRun:
    """The interior-point iterate, in the problem's units.

    Attributes
    ----------
    F : ndarray of shape (n, p)
        ``K = F F^T`` (``V X V^T``, every positive eigenvalue kept).
    w : ndarray of shape (m,)
        The certificate multipliers (``-y`` for maximum, ``y`` for minimum trace).
    status : {"converged", "accepted", "timeout", "stalled", "diverging", "max_iter"}
        Why the iteration stopped (``"accepted"``: the ``accept`` callback said so;
        ``"diverging"``: the ``give_up`` callback did).
    iterations : int
    history : list of dict
    """

    F: np.ndarray
    w: np.ndarray
    status: str
    iterations: int
    history: list


def _factor_of(ops: _Operators, X: np.ndarray, scale: float) -> np.ndarray:
    lam, Q = np.linalg.eigh(X)
    keep = lam > 1e-14 * max(float(lam[-1]), 1e-300)
    G = (Q[:, keep] * np.sqrt(lam[keep]))[:, ::-1]
    return ops.lift_columns(G) * np.sqrt(scale)


def _precision(m: int, schur_precision: str) -> str:
    """The Schur precision a solve with ``m`` constraints uses (``"auto"`` resolved)."""
    mixed = schur_precision == "mixed" or (schur_precision == "auto" and m >= MIXED_FROM_M)
    return "mixed" if mixed else "double"


def _constraints_of(problem: MVUProblem | EdgeConstraints, cost: LinearCost | None
                    ) -> EdgeConstraints:
    """The iteration's constraints: an MVU problem's edges (checked: a native variant,
    the equality variant with a ``cost``) or the given signed edge constraints."""
    if isinstance(problem, EdgeConstraints):
        if cost is not None:
            raise ValueError("a linear cost goes with an MVU problem's equality variant, "
                             "not with general edge constraints")
        return problem
    if cost is not None and problem.variant != "equality":
        raise ValueError(f"a linear cost goes with the equality variant's feasible set, "
                         f"got variant {problem.variant!r}")
    return EdgeConstraints.of_mvu(problem)


def run_ipm(problem: MVUProblem | EdgeConstraints, basis: np.ndarray | None = None, *,
            time_limit: float = 600.0, max_iter: int = 100, tol: float = 1e-8,
            accept: Callable[[np.ndarray, np.ndarray], bool] | None = None,
            check_gap: float = 5e-4, check_infeasibility: float = 1e-4,
            check_below: float | None = None, schur_precision: str = "auto",
            cost: LinearCost | None = None, verbose: bool = False,
            give_up: Callable[[], bool] | None = None,
            track_gap: float | None = None) -> IPMRun:
    """Iterate the interior-point method on ``problem`` restricted to ``basis``.

    Parameters
    ----------
    problem : MVUProblem or EdgeConstraints
        An MVU problem (variant ``equality``, ``inequality`` or ``min_trace``), or
        constraints that are signed combinations of edge rank-ones, equalities and
        inequalities row by row (:mod:`harness.solvers.mvu_sdp.edge_constraints`; e.g.
        the action respecting embedding's, :mod:`harness.solvers.are_native`).
    basis : ndarray of shape (n, N), optional
        Orthonormal columns orthogonal to the ones vector spanning a face that holds
        every feasible ``K``; default: the whole complement of the ones vector.
    time_limit, max_iter : float, int
        CPU seconds of this process (:class:`harness.timelimit.Deadline`: the
        harness' one clock, independent of the machine's load) and iterations.
    tol : float
        Stop when the iteration's own relative gap and infeasibilities are below it.
    accept : callable ``(F, w) -> bool``, optional
        Asked at every iteration whose own relative gap is below ``check_gap`` and
        primal infeasibility below ``check_infeasibility``: ``True`` stops (e.g. the
        harness' certificate meets its tolerances). The iteration's relative gap
        ``|p - d| / (1 + |p| + |d|)`` is about half the certificate's ``|p - d| /
        max(|p|, |d|)``. ``check_below`` sets both at once.
    schur_precision : {"double", "mixed", "auto"}
        Factorise the Schur matrix in float64, or in float32 with float64 refinement
        (see the module docstring); ``"auto"``: mixed from ``MIXED_FROM_M`` edges.
    cost : LinearCost, optional
        Minimise ``<C, K>`` (``C = c_0 I + P diag(a) P^T``,
        :mod:`harness.problems.linear_cost`) over the equality variant's feasible set
        instead of the trace: the iteration's ``C`` becomes ``V^T C V = c_0 I_N +
        (V^T P) diag(a) (V^T P)^T``, an N x N matrix like the iterate; the
        multipliers are ``w = y`` (as for minimum trace). Minimum volume embedding's
        Step 6 (:mod:`harness.methods.mve`).
    verbose : bool
        Print one line per iteration.
    give_up : callable ``() -> bool``, optional
        Asked after every call of ``accept``: ``True`` stops the iteration (status
        ``"diverging"``), e.g. when the last checks certify less and less.
    track_gap : float, optional
        ``accept`` is asked from this iteration relative gap on (at least
        ``check_gap``), so a caller can keep the best certified iterate.

    Returns
    -------
    IPMRun
        Its ``w`` has one multiplier per constraint row: ``-y`` (maximum trace) or
        ``y``, with the dual sign constraint ``y_r <= 0`` of the inequality rows
        enforced.
    """
    system = _constraints_of(problem, cost)
    if schur_precision not in SCHUR_PRECISIONS:
        raise ValueError(f"schur_precision must be one of {SCHUR_PRECISIONS}, got "
                         f"{schur_precision!r}")
    mixed = _precision(system.m, schur_precision) == "mixed"
    if check_below is not None:
        check_gap = check_infeasibility = check_below
    track_gap = check_gap if track_gap is None else max(track_gap, check_gap)
    t0 = time.perf_counter()  # the history's times are wall seconds
    deadline = Deadline(time_limit)
    ops = _Operators(system.n, system.atoms, basis, system.combination)
    scale = system.scale
    b = system.b / scale
    N, m = ops.N, system.m
    maximize = system.maximize and cost is None
    if cost is None:
        C = (-1.0 if maximize else 1.0) * np.eye(N)
    else:
        C = cost.restricted(ops.restrict_columns(cost.P))
    ineq = system.inequality if system.n_inequalities else None
    lp = ineq is not None
    # SDPT3's starting point, large multiples of the identity, rescaled (START_SCALES)
    xi = START_SCALES[0] * max(10.0, np.sqrt(N), N * float(np.max((1 + b) / (1 + np.sqrt(2)))))
    eta = START_SCALES[1] * max(10.0, np.sqrt(N), np.sqrt(2.0))
    X, Z, y = xi * np.eye(N), eta * np.eye(N), np.zeros(m)
    LX, LZ = np.sqrt(xi) * np.eye(N), np.sqrt(eta) * np.eye(N)
    k = system.n_inequalities
    s, zs = np.full(k, xi), np.full(k, eta)  # the slacks and their duals
    n_cone = N + k
    history, status, it = [], "max_iter", 0

    def multipliers():
        """The certificate's: ``-y`` or ``y``, after ``y_r <= 0`` on the slack rows."""
        signed = y.copy()
        if lp:
            signed[ineq] = np.minimum(signed[ineq], 0.0)
        return -signed if maximize else signed

    # numba's kernels (dense_kernels, schur_kernel) use the BLAS thread limit
    with numba_threads_like_blas():
        for it in range(1, max_iter + 1):
            rp = b - ops.A(X)
            if lp:
                rp[ineq] -= s
            Rd = _sym(C - Z - ops.AT(y))
            rds = -zs - y[ineq] if lp else None
            mu = (np.vdot(X, Z) + (s @ zs if lp else 0.0)) / n_cone
            pobj, dobj = float(np.vdot(C, X)), float(b @ y)
            rel_gap = abs(pobj - dobj) / (1 + abs(pobj) + abs(dobj))
            pinf = np.linalg.norm(rp) / (1 + np.linalg.norm(b))
            dinf = (np.linalg.norm(Rd) + (np.linalg.norm(rds) if lp else 0.0)) / (1 + np.sqrt(N))
            entry = {"time": time.perf_counter() - t0,
                     "primal": -pobj * scale if maximize else pobj * scale,
                     "dual": -dobj * scale if maximize else dobj * scale,
                     "rel_gap": rel_gap, "primal_infeasibility": pinf,
                     "dual_infeasibility": dinf, "mu": mu}
            history.append(entry)
            if verbose:
                print(f"it {it:3d} pobj {pobj:.8e} dobj {dobj:.8e} gap {rel_gap:.1e} "
                      f"pinf {pinf:.1e} dinf {dinf:.1e} mu {mu:.1e} t {entry['time']:.1f}",
                      flush=True)
            if max(rel_gap, pinf, dinf) < tol:
                status = "converged"
                break
            if accept is not None and rel_gap < track_gap and pinf < check_infeasibility:
                entry["checked"] = True
                if accept(_factor_of(ops, X, scale), multipliers()):
                    status = "accepted"
                    break
                if give_up is not None and give_up():
                    status = "diverging"
                    break
            if deadline.expired():
                status = "timeout"
                break
            if _stalled(history):
                status = "stalled"
                break
            try:
                X, Z, y, s, zs, cg, fallbacks, LX, LZ = _step(
                    ops, X, Z, y, s, zs, rp, Rd, rds, mu, ineq, mixed, verbose, LX, LZ)
            except np.linalg.LinAlgError:  # X or Z numerically singular: the end game
                status = "stalled"
                break
            entry.update(cg_iterations=cg, float64_fallbacks=fallbacks)
            if fallbacks:
                mixed = False
    return IPMRun(F=_factor_of(ops, X, scale), w=multipliers(), status=status,
                  iterations=it, history=history)


def solve_ipm(problem: MVUProblem, *, tol_gap: float = 1e-3, tol_violation: float = 1e-4,
              time_limit: float = 600.0, max_iter: int = 100, tol: float = 1e-8,
              memory_budget: float = IPM_MEMORY_BUDGET, schur_precision: str = "auto",
              cost: LinearCost | None = None, verbose: bool = False):
    """Solve an MVU SDP by the primal-dual interior-point method.

    Parameters
    ----------
    problem : MVUProblem
        Variant ``equality``, ``inequality`` or ``min_trace``.
    tol_gap, tol_violation : float
        The harness' tolerances on the recomputed certificate: the status is
        "optimal" only if its relative gap and violation are below them, and the
        iteration stops as soon as they are.
    time_limit : float
        CPU seconds of this process (:class:`harness.timelimit.Deadline`); the last
        iterate is certified on expiry.
    max_iter : int
        Interior-point iterations.
    tol : float
        The iteration also stops when its own relative gap and infeasibilities are
        below this.
    memory_budget : float
        Refuse a problem whose iteration needs more bytes (:func:`schur_bytes`).
    schur_precision : {"double", "mixed", "auto"}
        See :func:`run_ipm`.
    cost : LinearCost, optional
        Minimise ``<C, K>`` over the equality variant's feasible set (see
        :func:`run_ipm`); certified by
        :func:`harness.problems.linear_cost.certify_cost`.
    verbose : bool
        Print one line per iteration.

    Returns
    -------
    harness.solvers.mvu_sdp.result.NativeResult
        ``F`` (n x p, ``K = F F^T``), ``w`` (the certificate multipliers), status
        "optimal" / "inaccurate" / "timeout" from the recomputed certificate.
    """

    if problem.variant not in IPM_VARIANTS:
        raise ValueError(f"solve_ipm supports the variants {IPM_VARIANTS}, got "
                         f"{problem.variant!r}")
    T = trace_bound(problem)

    def judged(F, w):
        if cost is None:
            return certify(problem, F, w, T=T)
        return certify_cost(problem, cost, F, w, T=T)

    return solve_certified(problem, judged, tol_gap=tol_gap, tol_violation=tol_violation,
                           time_limit=time_limit, max_iter=max_iter, tol=tol,
                           memory_budget=memory_budget, schur_precision=schur_precision,
                           cost=cost, verbose=verbose)


def solve_certified(problem: MVUProblem | EdgeConstraints,
                    judged: Callable[[np.ndarray, np.ndarray], Certificate], *,
                    tol_gap: float = 1e-3, tol_violation: float = 1e-4,
                    time_limit: float = 600.0, max_iter: int = 100, tol: float = 1e-8,
                    memory_budget: float = IPM_MEMORY_BUDGET,
                    schur_precision: str = "auto", cost: LinearCost | None = None,
                    verbose: bool = False) -> NativeResult:
    """Run :func:`run_ipm` on ``problem``, stopping and judging by a certificate.

    Parameters
    ----------
    problem : MVUProblem or EdgeConstraints
        What :func:`run_ipm` iterates on.
    judged : callable ``(F, w) -> Certificate``
        The harness' certificate of a candidate ``K = F F^T`` with the iteration's
        multipliers ``w`` (one per constraint row), recomputed from the problem data:
        the iteration stops as soon as it meets ``tol_gap`` and ``tol_violation``,
        and the status is read from it alone (never from the iteration's residuals).
    tol_gap, tol_violation, time_limit, max_iter, tol, memory_budget,
    schur_precision, cost, verbose
        As for :func:`solve_ipm`.

    Returns
    -------
    harness.solvers.mvu_sdp.result.NativeResult
        ``details["method"] = "ipm"``.

    Raises
    ------
    ValueError
        When the iteration needs more than ``memory_budget`` bytes.
    """
    system = _constraints_of(problem, cost)
    precision = _precision(system.m, schur_precision)
    atoms = None if system.combination is None else len(system.atoms)
    need = schur_bytes(system.n, system.m, precision, atoms)
    if need > memory_budget:
        raise ValueError(f"solve_ipm needs {need / 2**30:.1f} GiB for n={system.n}, "
                         f"m={system.m} (the m x m Schur matrix), above memory_budget="
                         f"{memory_budget / 2**30:.1f} GiB; raise memory_budget or use "
                         f"the low-rank native solver")
    t0 = time.perf_counter()
    best, worse_in_a_row = [], [0]  # the best checked (certificate, F, w)

    def accept(F, w):
        certificate = judged(F, w)
        if not best or better_certificate(certificate, best[0], tol_gap, tol_violation):
            best[:] = [certificate, F, w]
            worse_in_a_row[0] = 0
        else:
            worse_in_a_row[0] += 1
        return judge(certificate, tol_gap, tol_violation)[0] == "optimal"

    def give_up():
        return worse_in_a_row[0] >= DIVERGING_CHECKS

    run = run_ipm(problem, time_limit=time_limit, max_iter=max_iter, tol=tol,
                  accept=accept, check_gap=0.5 * tol_gap, check_infeasibility=tol_violation,
                  track_gap=TRACK_FROM * 0.5 * tol_gap, give_up=give_up,
                  schur_precision=schur_precision, cost=cost, verbose=verbose)
    final, F, w, returned = judged(run.F, run.w), run.F, run.w, "last"
    if best and better_certificate(best[0], final, tol_gap, tol_violation):
        # a step that left the iterate worse than one already checked: the better one
        final, F, w, returned = best[0], best[1], best[2], "best checked"
    status = final_status(final, "timeout" if run.status == "timeout" else "inaccurate",
                          tol_gap, tol_violation)
    return NativeResult(F=F, w=w, status=status, certificate=final,
                        iterations=run.iterations, seconds=time.perf_counter() - t0,
                        history=run.history,
                        details={"method": "ipm", "schur_precision": precision,
                                 "stopped": run.status, "iterate": returned})
