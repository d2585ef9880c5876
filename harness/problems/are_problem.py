"""The action respecting embedding SDP (Bowling, Ghodsi & Wilkinson, ICML 2005;
statwiki STAT 841 F14, lecture 7) and its certificate.

Inputs x_1..x_n in temporal order with discrete actions a_1..a_{n-1}, a_t taken
between x_t and x_{t+1}. With the clique graph E of MVU (thesis 3.1.4) and
b_e = |x_i - x_j|^2:

.. math::

   \\max\\ \\mathrm{tr}\\,K \\quad\\text{s.t.}\\quad K \\succeq 0,\\ \\ 1^T K 1 = 0,\\ \\
   \\langle A_e, K\\rangle \\le b_e\\ (e \\in E),\\ \\
   \\langle A_{(i+1)(j+1)} - A_{ij}, K\\rangle = 0\\ ((i, j) \\in P),

``A_ij = (e_i - e_j)(e_i - e_j)^T``, so ``<A_ij, K> = K_ii - 2 K_ij + K_jj``: the last
constraint says that an action is a distance-preserving map of the embedding,
``|y_{i+1} - y_{j+1}|^2 = |y_i - y_j|^2`` (lecture 7's constraint). P holds the pairs
``i < j < n - 1`` with ``a_i = a_j``: all of them (``action_pairs="all"``, the
lecture's "for all i, j, a_i = a_j") or only those that are k-nearest neighbours of
one another (``"neighbors"``, the restriction to neighbourhoods we read in the
paper, which we could not consult here). The distance constraints are inequalities
by default (``distances="inequality"``): with equalities the action constraints
can contradict them (inputs whose distances an action does not preserve exactly make
the SDP infeasible), with inequalities K = eps J (J the centring matrix) is strictly
feasible for every data set.

Certificate (the MVU one of :mod:`harness.problems.mvu_certificate` extended). For
edge multipliers w (w >= 0 for inequalities) and action multipliers v (free), the dual
matrix is again a weighted Laplacian, on the edges and the action pairs together:

.. math::

   L(w, v) = \\sum_e w_e A_e + \\sum_{(i,j) \\in P} v_{ij} (A_{(i+1)(j+1)} - A_{ij}).

For every feasible K, ``<L(w, v), K> <= b.w`` (= for equalities) since the action
terms vanish; with mu the smallest eigenvalue of L(w, v) on the complement of the
ones vector, ``mu tr K <= <L(w, v), K>``, so ``tr K <= b.w / mu`` (mu > 0) and
``tr K <= b.w + T max(0, 1 - mu)`` with the MVU trace bound T (shortest paths on E:
the action constraints only remove feasible points). The relative gap of a candidate
K = F F^T against the smaller bound, its violation (distance excess and action
residuals over max b) and the consistency check are computed as for MVU, never read
from a solver.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from sklearn.neighbors import NearestNeighbors

from harness.problems.mvu_problem import MVUProblem, clique_edges
from harness.problems.mvu_certificate import (INCONSISTENCY_SLACK, Certificate,
                                              centred_extreme_eigenvalue, rounding_margin,
                                              trace_bound, trace_dual_bound,
                                              weighted_laplacian)

__all__ = ["AREProblem", "action_constraint_pairs", "certify_are", "check_actions",
           "ACTION_PAIRS", "DISTANCES"]

ACTION_PAIRS = ("all", "neighbors")
DISTANCES = ("inequality", "equality")


def check_actions(actions, n_samples: int) -> np.ndarray:
    """Validate an action sequence for ``n_samples`` inputs; return it as an array.

    Actions are labels without semantics (any hashable values of one kind: ints,
    strings); ``actions[t]`` is the action taken between rows t and t + 1 of X, so
    there must be exactly ``n_samples - 1`` of them.

    Raises
    ------
    ValueError
        For a length other than ``n_samples - 1``, more than one dimension, or a
        missing value (None, NaN).
    """
    a = np.asarray(actions)
    if a.ndim != 1 or len(a) != n_samples - 1:
        raise ValueError(f"actions must be a 1-d sequence of n_samples - 1 = "
                         f"{n_samples - 1} labels (actions[t] taken between rows t and "
                         f"t + 1 of X), got shape {a.shape}")
    if a.dtype == object and any(x is None for x in a):
        raise ValueError("actions contain None; every step needs an action label")
    if np.issubdtype(a.dtype, np.floating) and not np.isfinite(a).all():
        raise ValueError(f"actions contain NaN or infinity (first at step "
                         f"{int(np.flatnonzero(~np.isfinite(a))[0])}); every step needs "
                         f"an action label")
    return a


def action_constraint_pairs(actions: np.ndarray, candidates: np.ndarray | None = None
                            ) -> np.ndarray:
    """The action constraints as rows ``(i, j, i + 1, j + 1)``, ``i < j < n - 1``,
    ``a_i = a_j``.

    ``candidates`` (shape (p, 2), ``i < j``): only these pairs (e.g. the k-nearest-
    neighbour pairs); None: every pair with the same action. Sorted, unique.
    """
    a = np.asarray(actions)
    if candidates is None:
        rows = []
        for label in np.unique(a):
            idx = np.flatnonzero(a == label)
            i, j = np.triu_indices(len(idx), 1)
            rows.append(np.column_stack([idx[i], idx[j]]))
        pairs = np.vstack(rows) if rows else np.zeros((0, 2), np.int64)
    else:
        pairs = np.asarray(candidates, dtype=np.int64).reshape(-1, 2)
        pairs = np.column_stack([pairs.min(axis=1), pairs.max(axis=1)])
        pairs = pairs[(pairs[:, 1] < len(a)) & (pairs[:, 0] != pairs[:, 1])]
        pairs = pairs[a[pairs[:, 0]] == a[pairs[:, 1]]]
    pairs = np.unique(pairs.astype(np.int64), axis=0).reshape(-1, 2)
    return np.column_stack([pairs, pairs + 1]).astype(np.int64)


def _sq_dist(F: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    diff = F[i] - F[j]
    return np.einsum("ij,ij->i", diff, diff)


@dataclasses.dataclass(frozen=True)
class AREProblem:
    """One ARE semidefinite program.

    Parameters
    ----------
    base : MVUProblem
        The local distance constraints (variant ``"inequality"`` or ``"equality"``).
    pairs : ndarray of shape (c, 4)
        Action constraints ``(i, j, i', j')``: ``|y_i' - y_j'|^2 = |y_i - y_j|^2``.
    """

    base: MVUProblem
    pairs: np.ndarray

    def __post_init__(self):
        if self.base.variant not in DISTANCES:
            raise ValueError(f"the distance constraints must be one of {DISTANCES}, got "
                             f"{self.base.variant!r}")
        p = self.pairs
        if p.ndim != 2 or p.shape[1] != 4 or (p.size and not 0 <= p.min() <= p.max()
                                               < self.base.n):
            raise ValueError(f"pairs must have shape (c, 4) with point indices in "
                             f"[0, {self.base.n}), got shape {p.shape}")

    @classmethod
    def from_points(cls, X, actions, n_neighbors: int, action_pairs: str = "all",
                    distances: str = "inequality") -> "AREProblem":
        """The clique graph of ``X`` (3.1.4) and the action pairs of ``actions``."""
        if action_pairs not in ACTION_PAIRS:
            raise ValueError(f"action_pairs must be one of {ACTION_PAIRS}, got "
                             f"{action_pairs!r}")
        if distances not in DISTANCES:
            raise ValueError(f"distances must be one of {DISTANCES}, got {distances!r}")
        X = np.asarray(X, dtype=np.float64)
        edges, b = clique_edges(X, n_neighbors)
        base = MVUProblem(n=len(X), edges=edges, sq_lengths=b, variant=distances)
        if actions is None:
            return cls(base=base, pairs=np.zeros((0, 4), np.int64))
        candidates = None
        if action_pairs == "neighbors":
            nbrs = NearestNeighbors(n_neighbors=n_neighbors).fit(X).kneighbors(
                return_distance=False)
            candidates = np.column_stack([np.repeat(np.arange(len(X)), n_neighbors),
                                          nbrs.ravel()])
        return cls(base=base, pairs=action_constraint_pairs(actions, candidates))

    @property
    def n(self) -> int:
        return self.base.n

    @property
    def m(self) -> int:
        return self.base.m

    @property
    def c(self) -> int:
        return len(self.pairs)

    def action_residuals(self, F: np.ndarray) -> np.ndarray:
        """``|f_i' - f_j'|^2 - |f_i - f_j|^2`` per action constraint (ask: 0)."""
        p = self.pairs
        return _sq_dist(F, p[:, 2], p[:, 3]) - _sq_dist(F, p[:, 0], p[:, 1])

    def violation(self, F: np.ndarray) -> float:
        """Largest violation of the distance and action constraints over max b_e."""
        Fc = MVUProblem.centred(F)
        action = np.abs(self.action_residuals(Fc)).max() if self.c else 0.0
        return max(self.base.violation(Fc), float(action / self.base.sq_lengths.max()))

    def objective(self, F: np.ndarray) -> float:
        """tr K at ``K = Fc Fc^T`` (Fc = centred F)."""
        return self.base.objective(F)

    def dual_laplacian(self, w: np.ndarray, v: np.ndarray):
        """L(w, v) of the module docstring, sparse n x n."""
        p = self.pairs
        edges = np.vstack([self.base.edges, p[:, 2:], p[:, :2]])
        return weighted_laplacian(self.n, edges, np.concatenate([w, v, -v]))

    def to_cvxpy(self):
        """The SDP as a cvxpy problem over a dense n x n PSD variable.

        Returns
        -------
        problem : cvxpy.Problem
        K : cvxpy.Variable of shape (n, n)
        edge_constraint : cvxpy.Constraint
            Whose dual values are the edge multipliers w.
        action_constraint : cvxpy.Constraint or None
            Whose dual values are the action multipliers v (None without pairs).
        """
        import cvxpy as cp

        K = cp.Variable((self.n, self.n), PSD=True)
        d = cp.diag(K)

        def dist(i, j):
            return d[i] + d[j] - 2 * K[i, j]

        e, b = self.base.edges, self.base.sq_lengths
        edge = (dist(e[:, 0], e[:, 1]) <= b if self.base.variant == "inequality"
                else dist(e[:, 0], e[:, 1]) == b)
        constraints = [cp.sum(K) == 0, edge]
        action = None
        if self.c:
            p = self.pairs
            action = dist(p[:, 2], p[:, 3]) - dist(p[:, 0], p[:, 1]) == 0
            constraints.append(action)
        return cp.Problem(cp.Maximize(cp.trace(K)), constraints), K, edge, action


def certify_are(problem: AREProblem, F: np.ndarray, w: np.ndarray, v: np.ndarray,
                T: float | None = None) -> Certificate:
    """Value, violation and dual bound of the candidate ``K = F F^T`` with edge
    multipliers ``w`` and action multipliers ``v`` (module docstring).

    ``w`` is clipped at 0 for inequality constraints; mu is taken as a proven lower
    bound (minus the rounding margin of :func:`~harness.problems.mvu_certificate.
    rounding_margin`). ``T`` defaults to the MVU trace bound of the edge graph.
    """
    F = MVUProblem.centred(np.asarray(F, dtype=np.float64).reshape(problem.n, -1))
    w = np.asarray(w, dtype=np.float64).ravel()
    v = np.asarray(v, dtype=np.float64).ravel()
    if w.shape != (problem.m,) or v.shape != (problem.c,):
        raise ValueError(f"w must have one entry per edge ({problem.m}) and v one per "
                         f"action constraint ({problem.c}), got {w.shape} and {v.shape}")
    if problem.base.variant == "inequality":
        w = np.maximum(w, 0.0)
    if T is None:
        T = trace_bound(problem.base)
    L = problem.dual_laplacian(w, v)
    mu = centred_extreme_eigenvalue(L, guess=F) - rounding_margin(L)
    value, violation = problem.objective(F), problem.violation(F)
    bw = float(problem.base.sq_lengths @ w)
    bound = trace_dual_bound(True, bw, mu, T)
    # what the candidate's own constraint values allow: <L(w, v), K> for this K
    own = float(problem.base.embedded_sq_lengths(F) @ w + problem.action_residuals(F) @ v)
    candidate_bound = trace_dual_bound(True, own, mu, T)
    scale = max(abs(bound), abs(value), 1e-300)
    consistent = not (np.isfinite(bound) and value - bound > INCONSISTENCY_SLACK * scale)
    gap = abs(bound - value) / scale if np.isfinite(bound) and consistent else np.inf
    return Certificate(value=value, violation=violation, bound=float(bound), gap=float(gap),
                       eigenvalue=float(mu), consistent=bool(consistent),
                       candidate_bound=float(candidate_bound))
