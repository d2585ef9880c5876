r"""A linear objective ``<C, K>`` over the MVU feasible set, ``C`` identity plus low
rank, and its certificate (minimum volume embedding, Shaw and Jebara 2007).

MVU's SDPs (:mod:`harness.problems.mvu_problem`) optimise the trace. Minimum volume
embedding (MVE; seed ``lecture_jebara_manifold_learning_mve.txt``, "MVE
Optimization: Spectral SDP" and "MVE Pseudocode", Step 6) solves, over the *same*
feasible set (K PSD, centred, ``K_ii + K_jj - 2 K_ij = b_e`` on the edges),

.. math::

   \min_K \ \langle C, K \rangle, \qquad C = c_0 I + P \,\mathrm{diag}(a)\, P^T,

with ``P`` (n x r) orthonormal columns; for MVE ``c_0 = 1``, ``P`` the top ``d``
eigenvectors of the current kernel and ``a = -2``: ``C = I - 2 P P^T = -sum_{i<=d}
v_i v_i^T + sum_{i>d} v_i v_i^T`` on the centred subspace (:func:`mve_cost`).
:class:`LinearCost` holds ``(c_0, P, a)`` and never forms the n x n matrix unless
asked (:meth:`LinearCost.dense`).

Certificate (weak duality, as :mod:`harness.problems.mvu_certificate` for the trace).
For every feasible K and any multipliers ``w``, ``<L(w), K> = b.w``, so

.. math::

   \langle C, K\rangle = b.w + \langle C - L(w), K\rangle
   \ \ge\ b.w + \min(0, \lambda)\, T,

with ``lambda`` the smallest eigenvalue of ``C - L(w)`` on the complement of the
ones vector (centred K has its range there) and ``T >= tr K`` the trace bound of
:func:`harness.problems.mvu_certificate.trace_bound`. When ``lambda >= 0`` the
multipliers are dual feasible (``C - L(w) + nu 1 1^T`` PSD for a large ``nu``) and
the bound is ``b.w``. ``lambda`` is computed by a dense symmetric eigensolver (n up
to :data:`DENSE_MAX`) and lowered by its rounding margin. :func:`certify_cost`
returns the :class:`~harness.problems.mvu_certificate.Certificate` of the MVU code:
value, violation, bound, relative gap, consistency (a value below the lower bound by
more than ``INCONSISTENCY_SLACK`` is an inconsistent certificate, never a gap).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.linalg import eigh

from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import (
    INCONSISTENCY_SLACK, Certificate, rounding_margin, trace_bound, weighted_laplacian,
)

__all__ = ["LinearCost", "mve_cost", "spectral_objective", "certify_cost", "DENSE_MAX",
           "cost_dual_bound", "centred_cost_eigenvalue"]

#: Largest n whose certificate eigenvalue is computed (dense ``eigh``, O(n^3)).
DENSE_MAX = 2500


@dataclasses.dataclass(frozen=True)
class LinearCost:
    """``C = identity * I + P diag(coeffs) P^T`` (symmetric n x n, never formed).

    Parameters
    ----------
    identity : float
        ``c_0``.
    P : ndarray of shape (n, r)
        Columns orthogonal to the ones vector (they are projected onto its
        complement by :func:`mve_cost`).
    coeffs : ndarray of shape (r,)
    """

    identity: float
    P: np.ndarray
    coeffs: np.ndarray

    def __post_init__(self):
        if self.P.ndim != 2 or self.coeffs.shape != (self.P.shape[1],):
            raise ValueError(f"P must be (n, r) and coeffs (r,), got {self.P.shape} and "
                             f"{self.coeffs.shape}")

    @property
    def n(self) -> int:
        return self.P.shape[0]

    def value(self, F: np.ndarray) -> float:
        """``<C, F F^T> = c_0 |F|^2 + sum_k a_k |P_k^T F|^2`` (F as given: centre it
        first for the centred K)."""
        G = self.P.T @ F
        return float(self.identity * np.einsum("ij,ij->", F, F)
                     + np.einsum("k,kj,kj->", self.coeffs, G, G))

    def restricted(self, VtP: np.ndarray) -> np.ndarray:
        """``V^T C V = c_0 I_N + (V^T P) diag(a) (V^T P)^T`` for orthonormal ``V``
        (n x N), given ``V^T P`` (N x r): an N x N matrix, the size of the interior
        point's iterate."""
        out = (VtP * self.coeffs) @ VtP.T
        out[np.diag_indices_from(out)] += self.identity
        return out

    def dense(self) -> np.ndarray:
        """The n x n matrix ``C`` (for cvxpy and the certificate's dense eigenvalue)."""
        return self.restricted(self.P)

    def norm_bound(self) -> float:
        """An upper bound on ``||C||_2``: ``|c_0| + max |a_k|``."""
        return abs(self.identity) + (float(np.abs(self.coeffs).max()) if self.coeffs.size else 0.0)


def _centred_orthonormal(P: np.ndarray) -> np.ndarray:
    """``P`` projected onto the complement of the ones vector, re-orthonormalised."""
    Pc = P - P.mean(axis=0)
    Q, R = np.linalg.qr(Pc)
    keep = np.abs(np.diag(R)) > 1e-10 * max(1.0, float(np.abs(np.diag(R)).max(initial=0.0)))
    return Q[:, keep]


def mve_cost(F: np.ndarray, d: int, seed: int = 0) -> LinearCost:
    """MVE's Step 5 for ``K = F F^T`` (F centred): ``C = I - 2 V_d V_d^T`` with
    ``V_d`` its top ``d`` eigenvectors (largest eigenvalues first).

    If K has rank below ``d`` (e.g. ``K = 0``) the missing directions are filled with
    seeded random unit vectors orthogonal to 1 and to the range of K: every choice
    is a valid variational bound (any orthonormal U gives ``tr(K (I - 2 U U^T)) >=
    -g(K)``), and a seed keeps it reproducible.
    """
    F = np.asarray(F, dtype=np.float64)
    n = F.shape[0]
    if not 1 <= d <= n - 1:
        raise ValueError(f"d must lie in [1, n - 1] = [1, {n - 1}], got {d}")
    U, s, _ = np.linalg.svd(F, full_matrices=False)
    U = U[:, s > 1e-12 * max(float(s.max(initial=0.0)), 1e-300)][:, :d]
    P = _centred_orthonormal(U) if U.shape[1] else np.zeros((n, 0))
    if P.shape[1] < d:
        rng = np.random.default_rng(seed)
        extra = rng.standard_normal((n, d - P.shape[1]))
        P = np.hstack([P, _centred_orthonormal(extra - P @ (P.T @ extra))])
    return LinearCost(1.0, P[:, :d], np.full(d, -2.0))


def spectral_objective(eigenvalues: np.ndarray, d: int) -> float:
    """MVE's objective ``sum_{i<=d} lambda_i - sum_{i>d} lambda_i`` (eigenvalues in
    any order; the d largest count positively)."""
    lam = np.sort(np.asarray(eigenvalues, dtype=np.float64))[::-1]
    return float(lam[:d].sum() - lam[d:].sum())


def centred_cost_eigenvalue(problem: MVUProblem, cost: LinearCost, w: np.ndarray) -> float:
    """Smallest eigenvalue of ``C - L(w)`` on the complement of the ones vector,
    lowered by its rounding margin (a proven lower bound).

    Raises
    ------
    ValueError
        For more than :data:`DENSE_MAX` points (dense eigensolver only).
    """
    n = problem.n
    if n > DENSE_MAX:
        raise ValueError(f"the linear-cost certificate uses a dense eigensolver, up to "
                         f"n = {DENSE_MAX}; got n = {n}")
    L = weighted_laplacian(n, problem.edges, w)
    S = cost.dense() - L.toarray()
    ones = np.full(n, 1.0 / np.sqrt(n))
    # push the ones direction to the top: the smallest eigenvalue is then on its complement
    shift = 2.0 * (np.abs(S).sum(axis=1).max() + 1.0)
    value = float(eigh(S + shift * np.outer(ones, ones), eigvals_only=True,
                       subset_by_index=[0, 0])[0])
    margin = rounding_margin(L) + np.finfo(float).eps * n * cost.norm_bound()
    return value - margin


def cost_dual_bound(bw: float, eig: float, T: float) -> float:
    """The lower bound ``b.w + min(0, lambda) T`` of the module docstring."""
    return bw + min(0.0, eig) * T


def certify_cost(problem: MVUProblem, cost: LinearCost, F: np.ndarray, w: np.ndarray,
                 T: float | None = None) -> Certificate:
    """Value, violation and dual bound of the candidate ``K = F F^T`` for ``min <C, K>``
    over the equality-constrained MVU feasible set, from the problem data alone.

    Parameters
    ----------
    problem : MVUProblem
        Its edges and ``b`` define the feasible set (the variant is not used).
    cost : LinearCost
    F : ndarray of shape (n, p)
        Centred here (``K = Fc Fc^T``).
    w : ndarray of shape (m,)
        Edge multipliers (any sign).
    T : float, optional
        Trace bound (:func:`~harness.problems.mvu_certificate.trace_bound`).

    Returns
    -------
    Certificate
        ``bound`` is a lower bound on the optimum; ``eigenvalue`` the lambda used.
    """
    if cost.n != problem.n:
        raise ValueError(f"the cost is for n = {cost.n} points, the problem has {problem.n}")
    F = problem.centred(np.asarray(F, dtype=np.float64).reshape(problem.n, -1))
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (problem.m,):
        raise ValueError(f"w must have one entry per edge ({problem.m}), got {w.shape}")
    T = trace_bound(problem) if T is None else T
    value = cost.value(F)
    r = problem.residuals(F)
    violation = float(np.abs(r).max() / problem.sq_lengths.max())
    eig = centred_cost_eigenvalue(problem, cost, w)
    bound = cost_dual_bound(float(problem.sq_lengths @ w), eig, T)
    own = cost_dual_bound(float((problem.sq_lengths + r) @ w), eig, T)
    scale = max(abs(bound), abs(value), 1e-300)
    consistent = not (bound - value > INCONSISTENCY_SLACK * scale)
    gap = abs(value - bound) / scale if consistent else np.inf
    return Certificate(value=value, violation=violation, bound=float(bound),
                       gap=float(gap), eigenvalue=float(eig), consistent=bool(consistent),
                       candidate_bound=float(own))
