"""Certificates for MVU solutions, computed from the problem data alone.

The harness never trusts a solver's status. Given any candidate factor F (K = F F^T)
and any edge multipliers w, this module computes

* the primal value and the relative constraint violation of F, and
* a *dual bound* valid for every feasible K, from w, by weak duality.

Notation (``../shared/MVU_NOTES.md``): L(w) = sum_e w_e (e_i - e_j)(e_i - e_j)^T, the
weighted graph Laplacian; mu(w) and nu(w) its smallest and largest eigenvalue on the
complement of the ones vector (centred K has range there); b the squared edge
lengths; T >= tr K for every K feasible for the distance constraints (T =
sum_i g(c, i)^2 with g the shortest-path distance from a node c, edge lengths
sqrt(b_e): embedded distances never exceed path lengths, and
tr K = sum |y_i - ybar|^2 <= sum |y_i - y_c|^2).

For every feasible K (centred, PSD, <A_e, K> = b_e) we have <L(w), K> = b.w, hence:

max trace (equality; inequality with w >= 0)
    tr K <= b.w / mu            if mu > 0      (w / mu is dual feasible)
    tr K <= b.w + T max(0, 1 - mu)             (valid for every w)
min trace
    tr K >= b.w / nu            if nu > 0 and b.w > 0
    tr K >= b.w - T max(0, nu - 1)
slack (|w_e| <= 2 omega clipped)
    objective <= b.w            if mu >= 1 - omega, after scaling w when possible

mu and nu are read with a rounding margin (:func:`rounding_margin`, eps ||L(w)||):
a computed eigenvalue is that of a matrix within rounding of L(w), so the bound
never claims more than the arithmetic resolves (it matters only for huge w).

The relative gap |bound - value| / |bound| then certifies how far F is from optimal,
whatever produced F and w -- provided the value lies on the right side of the bound.
A value *beyond* the bound (above it for maximum trace) is no small gap: the bound
holds for every feasible K, so such an F is infeasible in a way its violation hides
(with multipliers in the thousands a violation r moves <L(w), K> by r.w: for the K
at hand tr K <= (b + r).w / mu, reported as ``candidate_bound``). Such a certificate
is reported as *inconsistent* (``consistent=False``, ``gap=inf``), never as a gap.
Up to ``INCONSISTENCY_SLACK`` (relative) beyond the bound is tolerated: rounding and
the violation a solve may keep move the value that much (seen: Clarabel's min-trace
optimum at n = 40 lies 1.0e-6 beyond its bound with violation 4.6e-9 and
multipliers in the thousands); it is ten times below the default gap tolerance.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh
from scipy.sparse.csgraph import dijkstra
from scipy.sparse.linalg import lobpcg

from harness.problems import extended_precision as xp
from harness.problems.mvu_problem import MVUProblem
from harness.problems.sparse_inertia import certified_bottom, certified_top

__all__ = [
    "Certificate",
    "weighted_laplacian",
    "centred_extreme_eigenvalue",
    "rounding_margin",
    "trace_bound",
    "trace_dual_bound",
    "certify",
    "float64_extreme",
    "proven_extreme",
    "INCONSISTENCY_SLACK",
    "EXTENDED_FROM",
]

DENSE_MAX = 1500
#: A value beyond the bound by more than this (relative) makes a certificate
#: inconsistent; below it, the difference is rounding or the small violation of a
#: tight solve.
INCONSISTENCY_SLACK = 1e-4
#: A float64 rounding margin above this, with an exact sum of multipliers, is
#: narrowed in extended precision (:func:`proven_extreme`).
EXTENDED_FROM = 1e-7


def weighted_laplacian(n: int, edges: np.ndarray, w: np.ndarray) -> sp.csr_matrix:
    """L(w) = sum_e w_e (e_i - e_j)(e_i - e_j)^T as a sparse n x n matrix."""
    i, j = edges[:, 0], edges[:, 1]
    off = sp.coo_matrix((-w, (i, j)), shape=(n, n))
    off = off + off.T
    deg = np.bincount(i, weights=w, minlength=n) + np.bincount(j, weights=w, minlength=n)
    return (off + sp.diags(deg)).tocsr()


def centred_extreme_eigenvalue(L: sp.spmatrix, largest: bool = False,
                               guess: np.ndarray | None = None, tol: float = 1e-9) -> float:
    """Smallest (or largest) eigenvalue of L on the complement of the ones vector.

    Dense ``eigh`` up to ``DENSE_MAX`` points; above, LOBPCG with the ones vector as
    a constraint, warm-started from ``guess`` (e.g. the embedding) when given. A
    Ritz value that has not converged lies *inside* the spectrum, which would make a
    dual bound from it invalid; so the LOBPCG estimate is then moved outwards until
    the inertia of one sparse LDL^T factorisation proves it is a bound
    (:mod:`harness.problems.sparse_inertia`): the value returned is a proven lower
    bound on the smallest (upper bound on the largest) eigenvalue.
    """
    n = L.shape[0]
    if n <= DENSE_MAX:
        ones = np.full(n, 1.0 / np.sqrt(n))
        shift = (1.0 if not largest else -1.0) * (abs(L).sum(axis=1).max() + 1.0) * 2
        A = L.toarray() + shift * np.outer(ones, ones)
        values = eigh(A, eigvals_only=True,
                      subset_by_index=[n - 1, n - 1] if largest else [0, 0])
        return float(values[0])
    rng = np.random.default_rng(0)
    k = 4
    X = rng.standard_normal((n, k))
    if guess is not None:
        X[:, : min(k, guess.shape[1])] = guess[:, :k]
    with warnings.catch_warnings():  # convergence is not needed: inertia proves the bound
        warnings.simplefilter("ignore")
        values, _ = lobpcg(L, X, Y=np.ones((n, 1)), largest=largest, tol=tol, maxiter=2000)
    if largest:
        return certified_top(L, float(values.max()))
    return certified_bottom(L, float(values.min()))


def trace_bound(problem: MVUProblem, n_centers: int = 4, seed: int = 0) -> float:
    """T >= tr K for every K meeting the distance constraints (one Dijkstra per
    centre; the smallest of ``n_centers`` random centres is returned)."""
    graph = sp.coo_matrix((np.sqrt(problem.sq_lengths),
                           (problem.edges[:, 0], problem.edges[:, 1])),
                          shape=(problem.n, problem.n)).tocsr()
    centers = np.random.default_rng(seed).choice(problem.n, min(n_centers, problem.n),
                                                 replace=False)
    g = dijkstra(graph, directed=False, indices=centers)
    if not np.isfinite(g).all():
        raise ValueError("the neighbourhood graph is disconnected: no trace bound")
    return float((g**2).sum(axis=1).min())


@dataclasses.dataclass(frozen=True)
class Certificate:
    """What a solution is worth, recomputed from the problem data.

    Attributes
    ----------
    value : float
        The objective at the candidate (centred) F.
    violation : float
        Largest constraint violation relative to max b_e.
    bound : float
        Dual bound: an upper bound on the optimum (maximisation) or a lower bound
        (minimisation); ``inf``/``-inf`` when w certifies nothing.
    gap : float
        ``|bound - value| / max(|bound|, |value|)`` (``inf`` without a bound).
    eigenvalue : float
        mu(w) (maximisation) or nu(w) (minimisation) of the multipliers used.
    consistent : bool
        False when the value lies beyond the bound by more than
        ``INCONSISTENCY_SLACK`` (then ``gap`` is ``inf``).
    candidate_bound : float
        The same bound for the candidate itself, ``(b + r).w`` in place of ``b.w``
        (r its residuals): what its own constraint values allow.
    """

    value: float
    violation: float
    bound: float
    gap: float
    eigenvalue: float
    consistent: bool = True
    candidate_bound: float = float("nan")

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @property
    def own_gap(self) -> float:
        """``|candidate_bound - value| / max(|candidate_bound|, |value|)``: the
        certified gap of the candidate for the distances it meets exactly (``b + r``,
        in which it is feasible), 0 where no candidate bound was computed (the slack
        variant). Unlike :attr:`gap`, which sets the value of an infeasible candidate
        against a bound for ``b``, it proves something: the candidate is within it of
        the optimum of a problem whose data differ from ``b`` by its residuals
        (``violation`` times ``max b``). The two part where the multipliers are huge:
        on a problem without an interior (noise-free Swiss roll, k = 4, n = 1000;
        ``harness.solvers.mvu_sdp.regression``) an interior-point iterate with violation
        5e-6 read gap 3.6e-4 while its own gap was 8.6e-2, and a later valid bound of
        the same run lay 11 % below its value."""
        own, value = self.candidate_bound, self.value
        if not np.isfinite(own):
            return 0.0 if np.isnan(own) else np.inf
        return abs(own - value) / max(abs(own), abs(value), 1e-300)

    def shortfalls(self, tol_gap: float, tol_violation: float) -> list[str]:
        """Why the certificate does not certify an optimum to ``tol_gap`` and
        ``tol_violation`` (empty: it does): an inconsistent certificate, the gap, the
        violation and the candidate's own gap (:attr:`own_gap`), each above its
        tolerance. The one rule of ``optimal`` for every backend
        (:func:`harness.solvers.mvu_sdp.result.judge`) and for ``harness verify``."""
        out = []
        if not self.consistent:
            out.append("inconsistent")
        if self.gap > tol_gap:
            out.append("gap")
        if self.violation > tol_violation:
            out.append("violation")
        if self.own_gap > tol_gap:
            out.append("own_gap")
        return out


def rounding_margin(L: sp.spmatrix) -> float:
    """``eps ||L||_inf``: how far rounding can move a computed eigenvalue of L.

    Dense ``eigh`` and the LDL^T inertia of :mod:`~harness.problems.sparse_inertia`
    are backward stable: a computed eigenvalue is exact for ``L + E``, ``|E|`` a
    modest multiple of ``eps ||L||_2 <= eps ||L||_inf``. Negligible for a solver's
    multipliers (``||L|| ~ 1e3-1e6``: 1e-13 to 1e-10); it matters for lifted facial
    reduction multipliers ``w + t w_Y`` with ``t ~ 1e12``, where it is 1e-3
    (:func:`harness.problems.facial_reduction.lift_multipliers`).
    """
    return float(np.finfo(float).eps * abs(L).sum(axis=1).max()) if L.nnz else 0.0


def trace_dual_bound(maximize: bool, bw: float, eig: float, T: float) -> float:
    """The weak-duality bound of the module docstring from ``b . w`` and mu (maximum
    trace) or nu (minimum trace) of ``L(w)``, T the trace bound."""
    if maximize:
        bound = bw + T * max(0.0, 1.0 - eig)
        return min(bound, bw / eig) if eig > 0 else bound
    bound = max(0.0, bw - T * max(0.0, eig - 1.0))
    return max(bound, bw / eig) if eig > 0 and bw > 0 else bound


def float64_extreme(problem: MVUProblem, w: np.ndarray, largest: bool = False,
                    guess: np.ndarray | None = None) -> tuple[float, float]:
    """mu (``largest``: nu) of ``L(w)`` computed in float64, and its rounding margin
    (:func:`rounding_margin`): the proven value is ``mu - margin`` (``nu + margin``)."""
    L = weighted_laplacian(problem.n, problem.edges, w)
    return centred_extreme_eigenvalue(L, largest=largest, guess=guess), rounding_margin(L)


def proven_extreme(problem: MVUProblem, w: np.ndarray, w_low: np.ndarray | None = None,
                   largest: bool = False, guess: np.ndarray | None = None) -> float:
    """mu (``largest``: nu) of ``L(w + w_low)``, proven with its rounding margin.

    ``w_low`` (the low part of an exact sum, :func:`harness.problems.
    extended_precision.exact_lift`) is added to the float64 bracket's width, and
    where it is given and the float64 margin exceeds ``EXTENDED_FROM`` the bound is
    narrowed in extended precision (:mod:`harness.problems.extended_precision`,
    dense, up to its ``EXTENDED_DENSE_MAX`` points)."""
    sign = -1.0 if largest else 1.0
    value, margin = float64_extreme(problem, w, largest=largest, guess=guess)
    if w_low is not None:
        margin += 2.0 * float(np.abs(weighted_laplacian(problem.n, problem.edges,
                                                        np.abs(w_low))).sum(axis=1).max())
    if (w_low is None or margin <= EXTENDED_FROM or not xp.AVAILABLE
            or problem.n > xp.EXTENDED_DENSE_MAX):
        return value - sign * margin
    dense = xp.dense_laplacian(problem.n, problem.edges, [w, w_low])
    return xp.certified_extreme(dense, value - margin, value + margin, largest=largest)


def _max_trace_bound(problem, w, T, guess, rhs, w_low):
    mu = proven_extreme(problem, w, w_low, guess=guess)
    bw, own = _exact_dot(problem.sq_lengths, w, w_low), _exact_dot(rhs, w, w_low)
    return trace_dual_bound(True, bw, mu, T), trace_dual_bound(True, own, mu, T), mu


def _min_trace_bound(problem, w, T, guess, rhs, w_low):
    nu = proven_extreme(problem, w, w_low, largest=True, guess=guess)
    bw, own = _exact_dot(problem.sq_lengths, w, w_low), _exact_dot(rhs, w, w_low)
    return trace_dual_bound(False, bw, nu, T), trace_dual_bound(False, own, nu, T), nu


def _exact_dot(b: np.ndarray, w: np.ndarray, w_low: np.ndarray | None) -> float:
    """``b . w`` (float64, as always), or with ``w_low`` given, ``b . (w + w_low)``
    with products and sum in extended precision: the terms of ``t w_Y`` reach 1e12
    and cancel to ~1e5, which float64 would round by ~1."""
    if w_low is None:
        return float(b @ w)
    b = b.astype(np.longdouble)
    return float(np.sum(b * w.astype(np.longdouble)) + np.sum(b * w_low.astype(np.longdouble)))


def _slack_bound(problem, w, guess):
    cap = problem.slack_pair_count * problem.omega
    w = np.clip(w, -cap, cap)
    L = weighted_laplacian(problem.n, problem.edges, w)
    mu = centred_extreme_eigenvalue(L, guess=guess) - rounding_margin(L)
    need = 1.0 - problem.omega
    if mu >= need:
        return float(problem.sq_lengths @ w), mu
    if mu > 0 and np.abs(w).max() * need / mu <= cap:
        return float(problem.sq_lengths @ w) * need / mu, mu
    return np.inf, mu


def certify(problem: MVUProblem, F: np.ndarray, w: np.ndarray,
            T: float | None = None, w_low: np.ndarray | None = None) -> Certificate:
    """Value, violation and dual bound of the candidate ``K = F F^T`` with
    multipliers ``w`` (one per edge), for any variant. See the module docstring.

    ``w_low`` (equality and min_trace): the multipliers are the exact sum ``w +
    w_low`` of two float64 vectors (lifted facial multipliers,
    :func:`harness.problems.extended_precision.exact_lift`); their eigenvalue is
    then proven in extended precision where float64 cannot resolve it
    (:func:`proven_extreme`)."""
    F = problem.centred(np.asarray(F, dtype=np.float64).reshape(problem.n, -1))
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (problem.m,):
        raise ValueError(f"w must have one entry per edge ({problem.m}), got {w.shape}")
    if w_low is not None:
        w_low = np.asarray(w_low, dtype=np.float64)
        if w_low.shape != w.shape or problem.variant not in ("equality", "min_trace"):
            raise ValueError("w_low must match w and goes with the equality and "
                             f"min_trace variants, got {w_low.shape} for {problem.variant!r}")
    value, violation = problem.objective(F), problem.violation(F)
    rhs = problem.embedded_sq_lengths(F)  # b + r: what the candidate itself meets
    if problem.variant in ("equality", "inequality", "min_trace") and T is None:
        T = trace_bound(problem)
    if problem.variant == "equality":
        bound, own, eig = _max_trace_bound(problem, w, T, F, rhs, w_low)
    elif problem.variant == "inequality":
        bound, own, eig = _max_trace_bound(problem, np.maximum(w, 0.0), T, F, rhs, None)
    elif problem.variant == "min_trace":
        bound, own, eig = _min_trace_bound(problem, w, T, F, rhs, w_low)
    else:
        bound, eig = _slack_bound(problem, w, F)
        own = np.nan
    scale = max(abs(bound), abs(value), 1e-300)
    beyond = (value - bound) if problem.maximize else (bound - value)
    consistent = not (np.isfinite(bound) and beyond > INCONSISTENCY_SLACK * scale)
    gap = abs(bound - value) / scale if np.isfinite(bound) and consistent else np.inf
    return Certificate(value=value, violation=violation, bound=float(bound), gap=float(gap),
                       eigenvalue=float(eig), consistent=bool(consistent),
                       candidate_bound=float(own))
