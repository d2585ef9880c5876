"""Facial reduction of the MVU SDP from its cliques (thesis 3.1.4, 3.1.12).

A clique C (a point and its k nearest neighbours, 3.1.4) has all its distances
fixed, hence its centred Gram ``G_C = -1/2 J D_C J``. Inputs in R^d, d < k, give
``G_C`` null vectors ``N_C`` orthogonal to 1, and every feasible K has ``K_C N_C =
0``. So ``Y = sum_C E_C N_C N_C^T E_C^T`` is PSD with ``<Y, K> = 0`` for every
feasible K, an *exposing vector* (Drusvyatskiy and Wolkowicz, "The many faces of
degeneracy in conic optimization", 2017), and a Laplacian on the clique edges, ``Y =
L(w_Y)``, ``b . w_Y = 0``. Every feasible K lies in the face ``{U Q U^T}``, U an
orthonormal basis of ``null(Y)`` orthogonal to 1: the clique reduction of Krislock
and Wolkowicz for sensor network localisation (SIAM J. Optim. 2010). Then the SDP
has no interior (interior-point methods stall), and the "lock-up" of noise-free
data (3.1.12) is this face being ``{X_c X_c^T}``. With noise a tolerance turns a
near-null space into a guess (Cheung, Drusvyatskiy, Krislock, Wolkowicz, "Noisy
Euclidean distance realization: robust facial reduction and the Pareto frontier",
2017); the full problem's certificate decides, the reduced problem's multipliers
lifted by :func:`lift_multipliers` (``shared/MVU_NOTES.md``, "Facial reduction")."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING
from typing import NamedTuple

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.sparse.linalg import eigsh, splu

from harness.problems import extended_precision as xp
from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import (
    float64_extreme, trace_bound, trace_dual_bound,
    weighted_laplacian,
)

if TYPE_CHECKING:
    from harness.timelimit import Deadline

__all__ = ["exposing_vector", "face_basis", "independent_edges", "FacialReduction",
           "reduce", "remove_cross_term", "slack_null_space", "lift_multipliers", "Lift",
           "EXTENDED_SLACK", "SLACK_NULL_TOL", "REL_TOL", "FACE_TOL",
           "DENSE_FACE_MAX", "QR_MAX_DIM", "T_GRID", "MARKED_ROUNDING",
           "EXACT_EXPOSURE", "DROPPED_IMPLIED"]

#: "Zero" eigenvalues, relative: of a clique Gram (:func:`exposing_vector`) and of
#: L(w_Y) (:func:`face_basis`); dense eigh up to DENSE_FACE_MAX points; pivoted QR
#: up to QR_MAX_DIM unknowns (:func:`independent_edges`: a face of dimension up to
#: 128; measured at 127, 8128 unknowns, 12,126 edges: 257 CPU-s, 1 thread, ~2.5 GB,
#: where the full problem has no interior and its interior point stalls);
#: t (:func:`lift_multipliers`).
REL_TOL, FACE_TOL, DENSE_FACE_MAX, QR_MAX_DIM = 1e-9, 1e-12, 4000, 128 * 129 // 2
#: Powers of two near 10^0, 10^0.5, ..., 10^14 (a power of two makes t w_Y exact).
T_GRID = 2.0 ** np.round(np.log2(10.0 ** np.arange(0.0, 14.01, 0.5)))
#: What the extended-precision lift asks of mu (1 - it) or nu (1 + it).
EXTENDED_SLACK = 1e-5
#: "Null" eigenvalues of the reduced dual slack, relative to its largest
#: (:func:`slack_null_space`).
SLACK_NULL_TOL = 1e-6
#: Largest ``eps_ext t lambda_max(Y)`` (extended-precision rounding) of a t tried.
EXTENDED_ROUNDING = 1e-4
#: Largest rounding ``eps t lambda_max(Y)`` of a marked (not certified) lift.
MARKED_ROUNDING = 1e-2
#: Largest residual of the dropped edges (relative to max b) at the kept ones'
#: least-squares solution (:func:`independent_edges`): a tenth of the default
#: violation tolerance.
DROPPED_IMPLIED = 1e-5
#: Largest ``exposure_residual`` of an exposing vector taken as exact.
EXACT_EXPOSURE = 1e-13


def _edge_index(problem: MVUProblem, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Index of edge (i, j) (either order) in ``problem.edges`` (sorted, unique)."""
    keys = problem.edges[:, 0].astype(np.int64) * problem.n + problem.edges[:, 1]
    want = np.minimum(i, j).astype(np.int64) * problem.n + np.maximum(i, j)
    pos = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
    if (keys[pos] != want).any():
        raise ValueError("a clique pair is not an edge of the problem")
    return pos


def exposing_vector(problem: MVUProblem, rel_tol: float = REL_TOL
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The exposing vector ``w_Y`` (``Y = L(w_Y)``) from the clique Grams.

    Parameters
    ----------
    problem : MVUProblem
        With ``cliques`` (:meth:`MVUProblem.from_points` sets them).
    rel_tol : float
        An eigenvalue of ``G_C`` is zero when at most ``rel_tol`` times the largest
        of that ``G_C``. ``G_C`` takes a few flops per entry from b: rounding moves
        its eigenvalues by ~1e-15 of the largest. A genuine small eigenvalue is
        ``(sigma / r)^2`` relative, ``sigma`` the spread off the clique's affine hull
        and r its radius (curvature: ``(r / R)^2``, R the radius of curvature; noise:
        its variance over r^2). 1e-9 calls a direction null only if the clique is
        flat to ~3e-5 of its size, six orders above rounding.

    Returns
    -------
    w_Y : ndarray of shape (m,)
    nulls : ndarray of shape (n,)
        Null vectors (orthogonal to 1) per clique.
    """
    if problem.cliques is None:
        raise ValueError("the problem has no cliques (build it with from_points)")
    groups = np.asarray(problem.cliques)
    n_c, size = groups.shape
    a, c = np.triu_indices(size, 1)
    idx = _edge_index(problem, groups[:, a], groups[:, c])  # (n_c, pairs)
    D = np.zeros((n_c, size, size))
    D[:, a, c] = D[:, c, a] = problem.sq_lengths[idx]
    J = np.eye(size) - 1.0 / size
    G = -0.25 * (J @ D @ J + np.swapaxes(J @ D @ J, 1, 2))
    # the ones direction moved above the spectrum: never a null vector (batched eigh)
    shift = 2.0 * np.trace(G, axis1=1, axis2=2) + 1e-300
    lam, V = np.linalg.eigh(G + shift[:, None, None] / size)
    null = lam[:, :-1] <= rel_tol * lam[:, -2:-1]  # lam[:, -1]: the ones direction
    Vn = V[:, :, :-1] * null[:, None, :]
    P = Vn @ np.swapaxes(Vn, 1, 2)  # sum of N N^T per clique
    w_Y = np.bincount(idx.ravel(), weights=-P[:, a, c].ravel(), minlength=problem.m)
    return w_Y, null.sum(axis=1)


def _largest(L: sp.spmatrix) -> float:
    """Largest eigenvalue of the PSD Laplacian L (Lanczos, deterministic start)."""
    return float(eigsh(L, k=1, which="LA", return_eigenvectors=False, tol=1e-6,
                       v0=np.random.default_rng(0).standard_normal(L.shape[0]))[0])


def _orth_complement(V: np.ndarray) -> np.ndarray:
    """Orthonormal basis of span(V) with the ones direction projected out."""
    Q, s, _ = np.linalg.svd(V - V.mean(axis=0), full_matrices=False)
    return Q[:, s > 1e-8 * max(s.max(initial=0.0), 1e-300)]


def face_basis(problem: MVUProblem, w_Y: np.ndarray, rel_tol: float = FACE_TOL,
               dense_max: int = DENSE_FACE_MAX) -> np.ndarray:
    """Orthonormal U (n x d_f, ``U^T 1 = 0``) spanning the eigenvectors of ``L(w_Y)``
    on the complement of 1 with eigenvalue at most ``rel_tol`` times the largest.

    Tolerance: on the noise-free Swiss roll (n = 1000) the null vectors of Y have
    eigenvalues <= 6e-16 of the largest, the next 1e-11 (k = 5), 3e-10 (k = 6),
    8e-10 (k = 7), 2e-9 (k = 8): weakly rigid directions. In the face they remove
    the reduced problem's interior (measured: the interior-point method stalls at
    k = 6, 7 with 1e-9); outside it they need a larger t in
    :func:`lift_multipliers`. Hence 1e-12, above rounding only.

    Dense ``scipy.linalg.eigh`` (the eigenvalues below the threshold only) up to
    ``dense_max`` points (4000: 128 MB), then two steps of inverse iteration (one
    sparse LU of ``L + 1e-12 |L| I``: eigh's vectors are only accurate to
    ``eps |L| / gap``, 5e-8 here); above, 30 steps of subspace iteration with that
    LU on a block of k = 8, 16, ... vectors until a Ritz value above the threshold
    appears (``RuntimeError`` past k = 2000).
    The face always holds the centred inputs (their Gram is feasible).
    """
    n = problem.n
    if not np.any(w_Y):  # the whole complement
        return _orth_complement(np.eye(n)[:, :-1])
    L = weighted_laplacian(n, problem.edges, w_Y)
    top = _largest(L)
    thr = rel_tol * top
    lu = splu(sp.csc_matrix(L + (1e-12 * top) * sp.identity(n)))
    if n <= dense_max:
        A = L.toarray() + 2.0 * top / n  # the ones direction moved above the spectrum
        U = sla.eigh(A, subset_by_value=(-np.inf, thr), driver="evr")[1]
        for _ in range(2):
            U = _orth_complement(lu.solve(_orth_complement(U)))
        return U
    k, rng = 8, np.random.default_rng(0)
    while k <= min(2000, n - 2):  # subspace iteration with the same LU, Rayleigh-Ritz
        U = _orth_complement(rng.standard_normal((n, k)))
        for _ in range(30):
            U = _orth_complement(lu.solve(U))
        lam, Z = np.linalg.eigh(U.T @ (L @ U))
        if (lam > thr).any():
            return _orth_complement(U @ Z[:, lam <= thr])
        k *= 2
    raise RuntimeError(f"face_basis: over {k // 2} eigenvalues of L(w_Y) below {thr:.3g}")


def independent_edges(problem: MVUProblem, U: np.ndarray, rel_tol: float = 1e-5,
                      max_dim: int = QR_MAX_DIM, implied: float = DROPPED_IMPLIED
                      ) -> tuple[np.ndarray, float]:
    """A maximal linearly independent subset of the reduced constraints.

    ``u_e^T Q u_e = b_e`` is linear in ``svec(Q)`` (d (d + 1) / 2 unknowns). Pivoted
    QR of the transposed coefficient matrix (rows normalised) keeps the pivots with
    ``|R_ii| > rel_tol |R_00|``: U is accurate to ~1e-7, so dependencies show as
    pivots ~1e-7 (measured 2e-7, 3e-7 at k = 5, n = 1000; the next 6e-4). The
    dropped edges must be implied: ``max |A_drop q - b_drop| / max b`` at the
    least-squares q of the kept must be at most ``implied``; otherwise the tolerance
    goes down by tens (to 1e-10) and the smallest residual wins. Measured, n = 2000,
    k = 5 (d = 17): the pivots fall gradually from 1e-3 to 1e-12 (no rank gap), the
    residual is 1.3e-3 at 1e-5 (the face's solution then violates the full problem
    by 1.4e-4) and 2.8e-6 at 1e-7 (4e-5); the 3.1.5 roll (p = 8), n = 1000, k = 9
    (d = 127): 2788 of 12,126 edges kept, residual 4.4e-7 at 1e-5. Returns the kept
    edges and that residual.
    Above ``max_dim`` unknowns every edge is kept (residual NaN).
    """
    if (d := U.shape[1]) * (d + 1) // 2 > max_dim:
        return np.arange(problem.m), float("nan")
    u = U[problem.edges[:, 0]] - U[problem.edges[:, 1]]
    a, c = np.triu_indices(d)
    A = u[:, a] * u[:, c] * np.where(a == c, 1.0, np.sqrt(2.0))  # rows svec(u_e u_e^T)
    norms = np.maximum(np.linalg.norm(A, axis=1), 1e-300)
    R, piv = sla.qr((A / norms[:, None]).T, mode="r", pivoting=True)
    diag = np.abs(np.diag(R))
    best = None
    for tol in rel_tol * 10.0 ** -np.arange(0, max(1, int(np.log10(rel_tol / 1e-10)) + 1)):
        rank = int((diag > tol * diag[0]).sum()) if len(diag) else 0
        kept = np.sort(piv[:rank])
        dropped = np.setdiff1d(np.arange(problem.m), kept)
        if len(dropped) == 0 or rank == 0:
            return kept, 0.0
        q = np.linalg.lstsq(A[kept], problem.sq_lengths[kept], rcond=None)[0]
        res = float(np.abs(A[dropped] @ q - problem.sq_lengths[dropped]).max()
                    / problem.sq_lengths.max())
        if best is None or res < best[1]:
            best = (kept, res)
        if res <= implied:
            break
    return best


@dataclasses.dataclass
class FacialReduction:
    """The face ``{U Q U^T}`` holding every feasible K, and what found it.

    Attributes
    ----------
    U : ndarray of shape (n, d_f) or None
        Orthonormal, ``U^T 1 = 0``, ``d_f = face_dim``; None if ``d_f = n - 1``.
    w_Y : ndarray of shape (m,)
        The exposing vector, ``L(w_Y) U = 0``; ``y_top`` the largest eigenvalue of
        ``L(w_Y)``; ``clique_nulls`` null vectors per clique (min, median, max, count).
    kept, dropped_residual : ndarray of int, float
        :func:`independent_edges`; ``seconds`` the time :func:`reduce` took.
    exposure_residual : float
        ``|b . w_Y| / (|b| . |w_Y|)``. ``b . w_Y = <Y, K>`` for every feasible K is
        the sum of the eigenvalues the cliques' Grams called null: ~1e-17 when they
        are null (inputs of dimension below k, measured on the Swiss roll, also with
        noise in its three coordinates), ~``rel_tol`` when the tolerance called a
        small eigenvalue null (e.g. tiny noise in further dimensions).
    """

    U: np.ndarray | None
    w_Y: np.ndarray
    kept: np.ndarray
    face_dim: int
    dropped_residual: float
    clique_nulls: dict
    seconds: float
    y_top: float = 0.0
    exposure_residual: float = float("nan")

    @property
    def exact(self) -> bool:
        """Whether ``b . w_Y = 0`` to rounding (:data:`EXACT_EXPOSURE`): then every
        feasible K lies in the face and the full problem has no interior."""
        return bool(self.exposure_residual <= EXACT_EXPOSURE)


def reduce(problem: MVUProblem, rel_tol: float = REL_TOL,
           face_tol: float = FACE_TOL) -> FacialReduction:
    """:func:`exposing_vector`, :func:`face_basis`, :func:`independent_edges`
    (nothing reduced when the problem has no cliques)."""
    t0 = time.perf_counter()
    if problem.cliques is None:
        w_Y, nulls = np.zeros(problem.m), np.zeros(1, dtype=int)
    else:
        w_Y, nulls = exposing_vector(problem, rel_tol)
    U = face_basis(problem, w_Y, face_tol) if np.any(w_Y) else None
    if U is None or U.shape[1] == problem.n - 1:
        U, kept, res = None, np.arange(problem.m), 0.0
    else:
        kept, res = independent_edges(problem, U)
    top = _largest(weighted_laplacian(problem.n, problem.edges, w_Y)) if np.any(w_Y) else 0.
    scale = float(np.abs(problem.sq_lengths) @ np.abs(w_Y))
    return FacialReduction(
        U=U, w_Y=w_Y, kept=kept, face_dim=problem.n - 1 if U is None else U.shape[1],
        exposure_residual=abs(float(problem.sq_lengths @ w_Y)) / scale if scale else np.nan,
        dropped_residual=res, seconds=time.perf_counter() - t0, y_top=top,
        clique_nulls={"min": int(nulls.min()), "median": float(np.median(nulls)),
                      "max": int(nulls.max()), "with_nulls": int((nulls > 0).sum())})


def slack_null_space(problem: MVUProblem, reduction: FacialReduction, w: np.ndarray,
                     null_tol: float = SLACK_NULL_TOL) -> np.ndarray:
    """Orthonormal ``V = U Z`` (n x r): the eigenvectors of the reduced dual slack
    ``S = +/-(U^T L(w) U - I)`` (+ for maximum, - for minimum trace) with eigenvalue
    at most ``null_tol`` times its largest magnitude, where complementary slackness
    (``S Q = 0``) puts the range of an optimal ``K = U Q U^T``."""
    U = reduction.U
    sign = 1.0 if problem.maximize else -1.0
    S = sign * (U.T @ (weighted_laplacian(problem.n, problem.edges, w) @ U)
                - np.eye(U.shape[1]))
    lam, Z = np.linalg.eigh(0.5 * (S + S.T))
    return U @ Z[:, lam <= null_tol * max(np.abs(lam).max(initial=0.0), 1e-300)]


def remove_cross_term(problem: MVUProblem, reduction: FacialReduction, w: np.ndarray,
                      F: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """``w + dw`` with ``L(w + dw) V = V V^T L(w) V``: the block of ``L(w)`` between V
    and the rest removed. V: with a candidate F, the null space of the reduced dual
    slack (:func:`slack_null_space`), or, if that is empty, range(F F^T); without F,
    the face basis U.

    At an optimum ``K = V S V^T`` the slack ``L(w) - I`` vanishes on V, so ``L(w) +
    t Y - I`` is PSD for some t only if that block is zero (Schur complement;
    measured: otherwise no t certifies the noise-free roll); ``b . dw = <L(dw), K> =
    0``. A direction of range(F) where the slack is *positive* must stay out of V:
    the min-norm dw also moves the face block off V, and a block with a positive
    slack needs no removal (t Y dominates its cross term). Measured, noise-free roll,
    n = 600, k = 5 (face 7): F's singular values 1, 0.86, 0.82, 4.3e-4, ...; the
    slack's eigenvalues 3e-10, 5e-10, 1e-9, then 1.7e-3; V = range(F) (4
    directions) left the face block with eigenvalue -3.1e-2 and a gap of 2.1e-2 at
    every t, V = the slack's null space (3) a gap of 2e-7. With a candidate F the
    rest of the face block is also kept: ``W^T L(dw) W = 0`` for W the face's
    complement of V (d_f - r more equations; measured: without them the min-norm dw
    left that block with eigenvalues down to -966 at n = 400, k = 5).
    ``dw -> L(dw) V`` is the transposed rigidity matrix of the framework V:
    min-norm dw by the normal equations (sparse LU of ``M M^T + 1e-12 max(diag) I``,
    three refinement steps), exact when V is infinitesimally rigid. Returns w + dw
    and the relative residual.
    """
    V = reduction.U
    if F is not None:
        V = slack_null_space(problem, reduction, w)
        if V.shape[1] == 0:  # range of K: eigenvalues above 1e-7 of the largest
            V, sv, _ = np.linalg.svd(F - F.mean(axis=0), full_matrices=False)
            V = V[:, (sv > 0) & (sv**2 > 1e-7 * sv[0] ** 2)]
    if V.shape[1] == 0:
        return w, 0.0
    (n, d), (i, j), e = V.shape, problem.edges.T, np.arange(problem.m)
    rows = np.concatenate([i[:, None] * d + np.arange(d), j[:, None] * d + np.arange(d)])
    M = sp.csr_matrix((np.concatenate([V[i] - V[j], V[j] - V[i]]).ravel(),
                       (rows.ravel(), np.repeat(np.concatenate([e, e]), d))),
                      shape=(n * d, problem.m))
    LV = weighted_laplacian(n, problem.edges, w) @ V
    r = (V @ (V.T @ LV) - LV).ravel()
    A = (M @ M.T).tocsc()
    lu = splu((A + 1e-12 * float(A.diagonal().max()) * sp.identity(n * d)).tocsc())

    def min_norm(rhs):  # M^T y with M M^T y = rhs, three refinement steps
        y = lu.solve(rhs)
        for _ in range(3):
            y += lu.solve(rhs - A @ y)
        return M.T @ y

    dw = min_norm(r)
    res = float(np.linalg.norm(M @ dw - r) / max(np.linalg.norm(r), 1e-300))
    if F is not None and reduction.U is not None and reduction.U.shape[1] > d:
        # keep the face block off V: W^T L(dw) W = 0 (W the face's rest), by a
        # correction in the null space of M (it leaves L(dw) V alone)
        W = reduction.U - V @ (V.T @ reduction.U)
        W = np.linalg.svd(W, full_matrices=False)[0][:, :reduction.U.shape[1] - d]
        a, c = np.triu_indices(W.shape[1])
        u = W[i] - W[j]
        G = (u[:, a] * u[:, c]).T  # svec rows: G dw = svec(W^T L(dw) W)
        N = G.T - np.column_stack([min_norm(M @ g) for g in G])  # G's rows off range(M^T)
        alpha = np.linalg.lstsq(G @ N, -(G @ dw), rcond=None)[0]
        dw = dw + N @ alpha
    return w + dw, res


class Lift(NamedTuple):
    """Lifted multipliers: the exact sum ``w + w_low`` (``w_low`` None: ``w`` alone)
    for the full problem, and the t of ``w_base +/- t w_Y``."""

    w: np.ndarray
    t: float
    w_low: np.ndarray | None = None


def lift_multipliers(problem: MVUProblem, reduction: FacialReduction, w: np.ndarray,
                     F: np.ndarray | None = None, slack: float = 1e-6,
                     max_rounding: float = 1e-5, T: float | None = None,
                     max_marked_rounding: float = MARKED_ROUNDING,
                     extended: bool = True, extended_slack: float = EXTENDED_SLACK,
                     deadline: Deadline | None = None) -> Lift:
    """Multipliers of the full problem from the reduced one's w (full length, zero
    off the kept edges) and the candidate F.

    :func:`remove_cross_term`, then maximum trace: ``w + t w_Y`` with the smallest t
    of ``T_GRID`` giving ``mu >= 1 - slack`` (``float64_extreme``);
    minimum trace: ``w - t w_Y`` with ``nu <= 1 + slack``. mu is nondecreasing in t
    (Y is PSD) but computed in float64 with an error ~``eps t lambda_max(Y)``
    (measured: mu falls by 4e-5 from t = 1e9 to 1e10 at lambda_max(Y) = 17, reads
    1.00002 at 1e11), so only t with ``eps t lambda_max(Y) <= max_rounding`` are
    tried in float64: integer exponents, then the half step below.

    Weakly rigid directions (``L(w_Y)`` with eigenvalues ~1e-11 of its largest: the
    dual is not attained) need ``t ~ 1e12`` (measured on the noise-free roll, n =
    1000, k = 5, maximum trace). Then, with ``extended`` (and
    :data:`harness.problems.extended_precision.AVAILABLE`, n up to its
    ``EXTENDED_DENSE_MAX``), the larger t of the grid are tried in extended
    precision on the exact sum ``w +/- t w_Y`` (``Lift.w_low`` its low part,
    :func:`~harness.problems.extended_precision.exact_lift`): the first with
    ``mu >= 1 - extended_slack`` (resp. ``nu <= 1 + extended_slack``) is returned.
    A t whose float64 reading is farther from that than twice its rounding margin is
    not tried (measured: the stalled face of n = 2000, k = 5 reads mu = -1e5), nor
    any after ``deadline`` (a :class:`harness.timelimit.Deadline`: CPU seconds; one
    test costs n^3 / 3 extended-precision flops: 1.2 s at n = 1000, 10 s at n =
    2000).

    Without a working t, the t of the grid with the best dual bound (the
    certificate's formula with the trace bound ``T``) among those with ``eps t
    lambda_max(Y) <= max_marked_rounding`` is returned in float64: a certificate
    whose gap the caller reports (marked, not called optimal, unless it meets the
    tolerance). Every t of ``T_GRID`` is a power of two.
    """
    w, _ = remove_cross_term(problem, reduction, np.asarray(w, dtype=np.float64), F)
    sign = 1.0 if problem.maximize else -1.0
    eigenvalues = {}

    margins = {}

    def eig(i):  # as certify reads it in float64
        if i not in eigenvalues:
            value, margins[i] = float64_extreme(problem, w + sign * T_GRID[i] * reduction.w_Y,
                                                largest=not problem.maximize)
            eigenvalues[i] = value - sign * margins[i]
        return eigenvalues[i]

    def at(i):  # >= 0 when the bound holds
        return (eig(i) - (1.0 - slack) if problem.maximize
                else (1.0 + slack) - eig(i))

    eps_top = np.finfo(float).eps * max(reduction.y_top, 1e-300)
    usable = max(1, int(np.searchsorted(T_GRID, max_rounding / eps_top, side="right")))
    first = next((i for i in [*range(0, usable, 2), usable - 1] if at(i) >= 0), None)
    if first is not None:
        i = first - 1 if first % 2 == 0 and first > 0 and at(first - 1) >= 0 else first
        return Lift(w + sign * T_GRID[i] * reduction.w_Y, float(T_GRID[i]))
    if (extended and xp.AVAILABLE and problem.n <= xp.EXTENDED_DENSE_MAX
            and usable < len(T_GRID)):
        target = 1.0 - sign * extended_slack

        def proven(i):
            if sign * (target - eig(i)) > 2.0 * margins[i]:  # float64 already refutes it
                return None
            if deadline is not None and deadline.expired():
                return None
            high, low = xp.exact_lift(w, sign * T_GRID[i], reduction.w_Y)
            dense = xp.dense_laplacian(problem.n, problem.edges, [high, low])
            ok = xp.centred_extreme_at(dense, target, largest=not problem.maximize)
            return Lift(high, float(T_GRID[i]), low) if ok else None

        cap = int(np.searchsorted(T_GRID, EXTENDED_ROUNDING / (xp.EXTENDED_EPS * max(
            reduction.y_top, 1e-300)), side="right"))
        start = usable + (usable % 2)  # integer exponents, then the half step below
        for i in range(start, min(cap, len(T_GRID)), 2):
            if (lift := proven(i)) is not None:
                below = proven(i - 1) if i - 1 >= usable else None
                return lift if below is None else below
    T = trace_bound(problem) if T is None else T
    marked = max(usable, int(np.searchsorted(T_GRID, max_marked_rounding / eps_top,
                                             side="right")))

    def bound(i):  # the certificate's bound, smaller is better
        bw = float(problem.sq_lengths @ (w + sign * T_GRID[i] * reduction.w_Y))
        return sign * trace_dual_bound(problem.maximize, bw, eig(i), T)

    i = min(range(marked), key=bound)
    return Lift(w + sign * T_GRID[i] * reduction.w_Y, float(T_GRID[i]))
