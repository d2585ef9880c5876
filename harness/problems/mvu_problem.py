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

The graph can first lose its "bad" edges, short cuts between distant parts of the
manifold (3.1.12, Fig. 3.29; :mod:`harness.problems.bad_edges`,
:func:`neighbourhood_cliques`); by default nothing is cut.

A problem object holds the graph and the data of the SDP, evaluates any candidate
``K = F F^T`` (objective, constraint violation) without forming K, and builds the
dense cvxpy model with :meth:`MVUProblem.to_cvxpy` for the general-purpose solvers.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from sklearn.neighbors import NearestNeighbors

from harness.problems.bad_edges import (BadEdgeDetection, BadEdgeRule, detect_bad_edges,
                                        neighbour_graph)
from harness.problems.link_components import link_components
from harness.problems.mvu_variants import NATIVE_VARIANTS, VARIANTS

__all__ = ["MVUProblem", "clique_edges", "clique_graph", "neighbourhood_cliques",
           "knn_edges", "VARIANTS", "NATIVE_VARIANTS", "CONNECTIVITIES"]

#: How :meth:`MVUProblem.from_points` joins the points: ``clique`` (thesis 3.1.4: each
#: point and its k nearest neighbours pairwise) or ``knn`` (only the k-nearest-
#: neighbour pairs, symmetrised: the binary connectivity C of minimum volume
#: embedding's Step 2, Shaw and Jebara 2007)
CONNECTIVITIES = ("clique", "knn")


def clique_edges(X: np.ndarray, n_neighbors: int,
                 bad_edges: BadEdgeRule | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The clique graph of thesis 3.1.4 and the squared edge lengths.

    Each point and its ``n_neighbors`` nearest neighbours form a clique; every pair
    in a clique is an edge. Edges are returned once each as ``(i, j)`` with
    ``i < j``, sorted, with ``b_e = |x_i - x_j|^2``. Memory O(n k^2); no n x n array.
    ``bad_edges``: cut the bad edges first (:func:`neighbourhood_cliques`).
    """
    edges, b, _ = clique_graph(X, n_neighbors, bad_edges)
    return edges, b


def clique_graph(X: np.ndarray, n_neighbors: int, bad_edges: BadEdgeRule | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`clique_edges` and the cliques themselves: ``(edges, b, groups)`` with
    ``groups`` of shape (n, k + 1), row i = [i, its k nearest neighbours] (with
    ``bad_edges``: only the neighbourhoods the cut left whole, see
    :func:`neighbourhood_cliques`)."""
    edges, b, groups, _ = neighbourhood_cliques(X, n_neighbors, bad_edges)
    return edges, b, groups


def _pair_keys(i: np.ndarray, j: np.ndarray, n: int) -> np.ndarray:
    return np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j)


def neighbourhood_cliques(X: np.ndarray, n_neighbors: int,
                          bad_edges: BadEdgeRule | None = None
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                     BadEdgeDetection | None]:
    """The clique graph (3.1.4), optionally after cutting bad edges (3.1.12).

    Without ``bad_edges`` this is the clique graph of :func:`clique_graph` and no
    detection (``None``). With a :class:`~harness.problems.bad_edges.BadEdgeRule`, the
    bad edges of the symmetric k-nearest-neighbour graph (i ~ j if either is among the
    other's k nearest; the graph of thesis Fig. 3.29) are detected
    (:func:`~harness.problems.bad_edges.detect_bad_edges`) and cut *before* the
    neighbourhoods are joined into cliques: j leaves i's neighbourhood and i leaves
    j's, and a cut pair that two kept neighbours of some third point form is dropped
    too, so that no clique brings a cut edge back. ``groups`` then holds only the
    neighbourhoods that kept all k neighbours and no cut pair (true cliques of the
    cut graph, for facial reduction); the others still contribute their remaining
    pairs as edges.

    Returns
    -------
    edges : ndarray of shape (m, 2)
    b : ndarray of shape (m,)
    groups : ndarray of shape (c, k + 1)
    detection : BadEdgeDetection or None
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    search = NearestNeighbors(n_neighbors=n_neighbors).fit(X)
    if bad_edges is None:
        nbrs = search.kneighbors(return_distance=False)
        detection, cut_keys = None, np.zeros(0, dtype=np.int64)
    else:
        dist, nbrs = search.kneighbors()
        detection = detect_bad_edges(neighbour_graph(nbrs, dist), bad_edges)
        cut = detection.cut_edges
        cut_keys = np.sort(_pair_keys(cut[:, 0], cut[:, 1], n))
    groups = np.hstack([np.arange(n)[:, None], nbrs])  # (n, k + 1)
    a, c = np.triu_indices(n_neighbors + 1, 1)
    i, j = groups[:, a].ravel(), groups[:, c].ravel()
    keys = _pair_keys(i, j, n)
    if detection is not None:
        # a member whose edge to the centre is cut leaves the neighbourhood
        left = np.isin(_pair_keys(groups[:, 1:], groups[:, :1], n), cut_keys)
        member = np.hstack([np.ones((n, 1), bool), ~left])
        pair_cut = np.isin(keys, cut_keys).reshape(n, len(a))
        kept = member[:, a] & member[:, c] & ~pair_cut
        keys = keys[kept.ravel()]
        groups = groups[kept.all(axis=1)]
    keys = np.unique(keys)
    edges = np.column_stack([keys // n, keys % n]).astype(np.int64)
    diff = X[edges[:, 0]] - X[edges[:, 1]]
    return edges, np.einsum("ij,ij->i", diff, diff), groups.astype(np.int64), detection


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
    cliques : ndarray of shape (c, k + 1), optional
        Cliques of the graph (every pair of a row is an edge), set by
        :meth:`from_points`: the n neighbourhoods (row i = [i, its k neighbours]), or
        after a bad-edge cut the c <= n ones it left whole; facial reduction
        (:mod:`harness.problems.facial_reduction`) reads it. Not part of equality.
    bad_edges : BadEdgeDetection, optional
        What :meth:`from_points` cut (3.1.12), ``None`` if nothing was asked. Not part
        of equality.
    linked_edges : ndarray of shape (p, 2), optional
        The artificial links :meth:`from_points` added between the graph's connected
        components (3.1.12, :mod:`harness.problems.link_components`); they are also
        rows of ``edges``. ``None`` if no linking was asked. Not part of equality.
    """

    n: int
    edges: np.ndarray
    sq_lengths: np.ndarray
    variant: str = "equality"
    omega: float = 0.9
    slack_pair_count: int = 2
    cliques: np.ndarray | None = dataclasses.field(default=None, compare=False, repr=False)
    bad_edges: BadEdgeDetection | None = dataclasses.field(default=None, compare=False,
                                                           repr=False)
    linked_edges: np.ndarray | None = dataclasses.field(default=None, compare=False,
                                                        repr=False)

    def __post_init__(self):
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        if not 0 < self.omega < 1:
            raise ValueError(f"omega must lie in (0, 1), got {self.omega}")
        if self.edges.ndim != 2 or self.edges.shape[1] != 2:
            raise ValueError(f"edges must have shape (m, 2), got {self.edges.shape}")
        if len(self.edges) != len(self.sq_lengths):
            raise ValueError("edges and sq_lengths must have the same length")
        if self.cliques is not None and (
                self.cliques.ndim != 2 or len(self.cliques) > self.n
                or (self.cliques.size and not 0 <= self.cliques.min() <= self.cliques.max()
                    < self.n)):
            raise ValueError(f"cliques must have shape (c, k + 1), c <= n = {self.n}, with "
                             f"point indices in [0, n); got shape {self.cliques.shape}")

    @classmethod
    def from_points(cls, X, n_neighbors: int, bad_edges: BadEdgeRule | None = None,
                    connectivity: str = "clique", link: str | None = None,
                    link_seed: int = 0, **kwargs) -> "MVUProblem":
        """Build the clique graph of ``X`` (3.1.4; with ``bad_edges``, after cutting
        the bad edges, :func:`neighbourhood_cliques`) and the problem on it; with
        ``connectivity="knn"`` the k-nearest-neighbour pairs only (no cliques: nothing
        for facial reduction to read). With ``link`` (``"thesis"`` or ``"shortest"``,
        :func:`~harness.problems.link_components.link_components`, seeded by
        ``link_seed``) a disconnected graph gets artificial edges between its
        components (3.1.12) before the problem is built."""
        if connectivity not in CONNECTIVITIES:
            raise ValueError(f"connectivity must be one of {CONNECTIVITIES}, got "
                             f"{connectivity!r}")
        groups, detection = np.zeros((0, n_neighbors + 1), np.int64), None
        if connectivity == "knn":
            if bad_edges is not None:
                raise ValueError("bad_edges cuts edges of the clique graph; use it with "
                                 "connectivity='clique'")
            edges, b = knn_edges(X, n_neighbors)
        else:
            edges, b, groups, detection = neighbourhood_cliques(X, n_neighbors, bad_edges)
        linked = None
        if link is not None:
            X = np.asarray(X, dtype=np.float64)
            linked = link_components(X, edges, link, link_seed)
            if len(linked):
                keys = np.unique(_pair_keys(np.concatenate([edges[:, 0], linked[:, 0]]),
                                            np.concatenate([edges[:, 1], linked[:, 1]]),
                                            len(X)))
                edges = np.column_stack([keys // len(X), keys % len(X)]).astype(np.int64)
                diff = X[edges[:, 0]] - X[edges[:, 1]]
                b = np.einsum("ij,ij->i", diff, diff)
        return cls(n=len(X), edges=edges, sq_lengths=b,
                   cliques=groups if len(groups) else None, bad_edges=detection,
                   linked_edges=linked, **kwargs)

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
