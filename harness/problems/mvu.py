"""The maximum variance unfolding SDP (thesis 3.1.4) and its variants.

Given inputs x_1..x_n and the *clique* neighbourhood graph of 3.1.4 (each input and
its k nearest neighbours form a clique of k + 1 points, so that distances *and
angles* are preserved; duplicate edges removed), with b_e = |x_i - x_j|^2 on each
edge e = (i, j):

``equality`` (3.1.4)
    maximise tr K  s.t.  K >= 0,  sum_ij K_ij = 0,  K_ii + K_jj - 2 K_ij = b_e.
``inequality`` (3.1.6)
    the same with K_ii + K_jj - 2 K_ij <= b_e.
``slack`` (3.1.6)
    maximise (1 - omega) tr K - omega sum_ij eta_ij |xi_ij|
    s.t. K_ii + K_jj - 2 K_ij = b_e + xi_e. The thesis' sum runs over ordered pairs
    (i, j) with eta_ij = 1, so each edge's |xi_e| counts twice; we keep that literal
    reading (``slack_pair_count = 2``).
``min_trace`` (3.1.11)
    minimise tr K under the equality constraints.

A problem object holds the graph and the data of the SDP, evaluates any candidate
``K = F F^T`` (objective, constraint violation) without forming K, and builds the
dense cvxpy model with :meth:`MVUProblem.to_cvxpy` for the general-purpose solvers.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from sklearn.neighbors import NearestNeighbors

__all__ = ["MVUProblem", "clique_edges", "clique_graph", "knn_edges", "VARIANTS",
           "NATIVE_VARIANTS", "CONNECTIVITIES"]

VARIANTS = ("equality", "inequality", "slack", "min_trace")
#: The variants the native solvers (interior point and low rank) handle: every one
#: but the slack variant, whose O(m) slack variables only the cvxpy backends model
NATIVE_VARIANTS = ("equality", "inequality", "min_trace")
#: How :meth:`MVUProblem.from_points` joins the points: ``clique`` (thesis 3.1.4: each
#: point and its k nearest neighbours pairwise) or ``knn`` (only the k-nearest-
#: neighbour pairs, symmetrised: the binary connectivity C of minimum volume
#: embedding's Step 2, Shaw and Jebara 2007)
CONNECTIVITIES = ("clique", "knn")


def clique_edges(X: np.ndarray, n_neighbors: int) -> tuple[np.ndarray, np.ndarray]:
    """The clique graph of thesis 3.1.4 and the squared edge lengths.

    Each point and its ``n_neighbors`` nearest neighbours form a clique; every pair
    in a clique is an edge. Edges are returned once each as ``(i, j)`` with
    ``i < j``, sorted, with ``b_e = |x_i - x_j|^2``. Memory O(n k^2); no n x n array.
    """
    edges, b, _ = clique_graph(X, n_neighbors)
    return edges, b


def clique_graph(X: np.ndarray, n_neighbors: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`clique_edges` and the cliques themselves: ``(edges, b, groups)`` with
    ``groups`` of shape (n, k + 1), row i = [i, its k nearest neighbours]."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    nbrs = NearestNeighbors(n_neighbors=n_neighbors).fit(X).kneighbors(return_distance=False)
    groups = np.hstack([np.arange(n)[:, None], nbrs])  # (n, k + 1)
    a, c = np.triu_indices(n_neighbors + 1, 1)
    i, j = groups[:, a].ravel(), groups[:, c].ravel()
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    keys = np.unique(lo.astype(np.int64) * n + hi)
    edges = np.column_stack([keys // n, keys % n]).astype(np.int64)
    diff = X[edges[:, 0]] - X[edges[:, 1]]
    return edges, np.einsum("ij,ij->i", diff, diff), groups.astype(np.int64)


def knn_edges(X: np.ndarray, n_neighbors: int) -> tuple[np.ndarray, np.ndarray]:
    """The symmetrised k-nearest-neighbour graph: ``(i, j)`` is an edge if either is
    among the other's ``n_neighbors`` nearest neighbours. Edges once each as ``(i, j)``
    with ``i < j``, sorted, with ``b_e = |x_i - x_j|^2``."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    nbrs = NearestNeighbors(n_neighbors=n_neighbors).fit(X).kneighbors(return_distance=False)
    i, j = np.repeat(np.arange(n), n_neighbors), nbrs.ravel()
    keys = np.unique(np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j))
    edges = np.column_stack([keys // n, keys % n]).astype(np.int64)
    diff = X[edges[:, 0]] - X[edges[:, 1]]
    return edges, np.einsum("ij,ij->i", diff, diff)


@dataclasses.dataclass(frozen=True)
class MVUProblem:
    """One MVU semidefinite program over a fixed edge set.

    Parameters
    ----------
    n : int
        Number of points.
    edges : ndarray of shape (m, 2)
        Unique edges ``(i, j)``, ``i < j``.
    sq_lengths : ndarray of shape (m,)
        ``b_e``, the squared input distances.
    variant : {"equality", "inequality", "slack", "min_trace"}
    omega : float
        Slack weight of the ``slack`` variant, in (0, 1).
    cliques : ndarray of shape (n, k + 1), optional
        The neighbourhoods the edges came from (row i = [i, its k neighbours]), set
        by :meth:`from_points`; facial reduction
        (:mod:`harness.problems.facial_reduction`) reads it. Not part of equality.
    """

    n: int
    edges: np.ndarray
    sq_lengths: np.ndarray
    variant: str = "equality"
    omega: float = 0.9
    slack_pair_count: int = 2
    cliques: np.ndarray | None = dataclasses.field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        if not 0 < self.omega < 1:
            raise ValueError(f"omega must lie in (0, 1), got {self.omega}")
        if self.edges.ndim != 2 or self.edges.shape[1] != 2:
            raise ValueError(f"edges must have shape (m, 2), got {self.edges.shape}")
        if len(self.edges) != len(self.sq_lengths):
            raise ValueError("edges and sq_lengths must have the same length")
        if self.cliques is not None and (self.cliques.ndim != 2
                                         or len(self.cliques) != self.n):
            raise ValueError(f"cliques must have shape (n, k + 1), got {self.cliques.shape}")

    @classmethod
    def from_points(cls, X, n_neighbors: int, connectivity: str = "clique",
                    **kwargs) -> "MVUProblem":
        """Build the clique graph of ``X`` (3.1.4) and the problem on it; with
        ``connectivity="knn"`` the k-nearest-neighbour pairs only (no cliques: nothing
        for facial reduction to read)."""
        if connectivity not in CONNECTIVITIES:
            raise ValueError(f"connectivity must be one of {CONNECTIVITIES}, got "
                             f"{connectivity!r}")
        if connectivity == "knn":
            edges, b = knn_edges(X, n_neighbors)
            return cls(n=len(X), edges=edges, sq_lengths=b, **kwargs)
        edges, b, groups = clique_graph(X, n_neighbors)
        return cls(n=len(X), edges=edges, sq_lengths=b, cliques=groups, **kwargs)

    @property
    def m(self) -> int:
        return len(self.edges)

    @property
    def maximize(self) -> bool:
        return self.variant != "min_trace"

    # ---- evaluating a candidate K = F F^T without forming K ----------------
    @staticmethod
    def centred(F: np.ndarray) -> np.ndarray:
        """F with its column means removed: K = F F^T satisfies sum K = 0."""
        F = np.asarray(F, dtype=np.float64)
        return F - F.mean(axis=0)

    def embedded_sq_lengths(self, F: np.ndarray) -> np.ndarray:
        """|f_i - f_j|^2 on every edge."""
        diff = F[self.edges[:, 0]] - F[self.edges[:, 1]]
        return np.einsum("ij,ij->i", diff, diff)

    def residuals(self, F: np.ndarray) -> np.ndarray:
        """``|f_i - f_j|^2 - b_e``; the constraint asks for = 0 (<= 0 for inequality)."""
        return self.embedded_sq_lengths(F) - self.sq_lengths

    def violation(self, F: np.ndarray) -> float:
        """Largest constraint violation relative to the largest ``b_e``.

        The centring constraint is met by construction (``F`` is centred first);
        the slack variant has no hard distance constraint (0).
        """
        if self.variant == "slack":
            return 0.0
        r = self.residuals(self.centred(F))
        if self.variant == "inequality":
            r = np.maximum(r, 0.0)
        return float(np.abs(r).max() / self.sq_lengths.max())

    def objective(self, F: np.ndarray) -> float:
        """The SDP objective at ``K = Fc Fc^T`` (Fc = centred F)."""
        Fc = self.centred(F)
        trace = float(np.einsum("ij,ij->", Fc, Fc))
        if self.variant != "slack":
            return trace
        penalty = self.slack_pair_count * np.abs(self.residuals(Fc)).sum()
        return (1 - self.omega) * trace - self.omega * float(penalty)

    # ---- the dense cvxpy model ---------------------------------------------
    def to_cvxpy(self):
        """The SDP as a cvxpy problem over a dense n x n PSD variable.

        Returns
        -------
        problem : cvxpy.Problem
        K : cvxpy.Variable of shape (n, n)
        edge_constraint : cvxpy.Constraint
            The m distance constraints, whose dual values are the multipliers w.
        """
        import cvxpy as cp

        K = cp.Variable((self.n, self.n), PSD=True)
        i, j = self.edges[:, 0], self.edges[:, 1]
        d = cp.diag(K)
        dist = d[i] + d[j] - 2 * K[i, j]
        constraints = [cp.sum(K) == 0]
        if self.variant == "inequality":
            edge = dist <= self.sq_lengths
        elif self.variant == "slack":
            xi = cp.Variable(self.m)
            edge = dist == self.sq_lengths + xi
        else:
            edge = dist == self.sq_lengths
        constraints.append(edge)
        if self.variant == "min_trace":
            objective = cp.Minimize(cp.trace(K))
        elif self.variant == "slack":
            objective = cp.Maximize((1 - self.omega) * cp.trace(K)
                                    - self.omega * self.slack_pair_count * cp.norm1(xi))
        else:
            objective = cp.Maximize(cp.trace(K))
        return cp.Problem(objective, constraints), K, edge
