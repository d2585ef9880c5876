"""Detecting and cutting "bad" edges of a neighbourhood graph (thesis 3.1.12, Fig. 3.29).

"What if two distant layers of the manifold are accidentally connected by a link?
[...] One approach to tackle this problem is to detect and cut bad edges. This can be
achieved by performing a random walk along the graph with transition probability to
get from x_i to x_j of p_ij = eta_ij exp(-|x_i - x_j| / sigma). Let q_ij^t be the
probability to get from x_i to x_j in less than t + 1 steps. Bad edges tend to have two
identifying features. 1. they are long and 2. there are only few short alternative
routes that connect the two nodes. [...] The right image in Figure 3.29 was generated
with t = 7 and sigma = 1. The "bad" edges were automatically detected as outliers of
the distribution of q_ij^t + q_ji^t and cut." (thesis 3.1.12)

What is computed (:func:`detect_bad_edges`), with the choices the thesis leaves open
(each a field of :class:`BadEdgeRule`):

``transition`` (``"row"``)
    ``"row"``: the walk's transition matrix is ``P_ij = p_ij / sum_l p_il`` (p row-
    normalised, so that "random walk" and "probability" hold literally; computed as
    ``exp(-(d_ij - min_l d_il) / sigma)`` normalised, the same numbers without
    underflow for small sigma). ``"raw"``: ``P = p`` as written (rows need not sum to
    one; q is then a weighted count of paths, not a probability).
``passage`` (``"first"``)
    ``"first"``: q_ij^t is the probability that the walk started at i reaches j for the
    first time within t steps (the literal "get from x_i to x_j in less than t + 1
    steps"), exactly, by the first-passage recursion ``h_s = P[:, j] + P_(-j) h_(s-1)``
    (``P_(-j)`` is P with column j zeroed, ``h_0 = 0``, ``q_ij = h_t(i)``).
    ``"visits"``: ``q_ij = sum_{s=1..t} (P^s)_ij``, the expected number of visits to j
    within t steps (it counts returns to j again).
``fence`` (1.5)
    The outlier rule: an edge is cut when ``log(q_ij + q_ji)`` lies below the lower
    Tukey fence ``Q1 - fence * (Q3 - Q1)`` of that distribution over the graph's edges
    (Q1, Q3 its quartiles; logarithms because q spans orders of magnitude). Only the
    low side: a bad edge has a *low* traverse probability (Fig. 3.29's caption).
``walk_sigma`` (1.0)
    In the data's units (the thesis' Swiss roll, ours: its scale, see
    :mod:`harness.datasets.swiss_roll`).

Cost: every node is a target once, in blocks of ``block`` targets: the recursion is
``walk_steps`` sparse products of P with an n x block dense matrix, O(t m n) time for m
edges and O(n block) memory; no n x n matrix. Measured (noisy roll, k = 7, t = 7, 1
thread; ``benchmarks/bench_bad_edges.py``): n = 600 (2500 edges) 0.04 s, n = 2000 0.5
s, n = 5000 3.5 s.

Where it is used: :func:`harness.problems.mvu_problem.neighbourhood_cliques` (the MVU clique
graph: cut edges leave the neighbourhoods before they are joined into cliques, and no
clique brings a cut edge back) and ``harness.methods.shared.manifold.knn_graph`` (the symmetric
k-nearest-neighbour graph of the spectral methods).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import scipy.sparse as sp

from harness.problems.bad_edge_rule import PASSAGES, TRANSITIONS, BadEdgeRule

__all__ = ["BadEdgeRule", "BadEdgeDetection", "TRANSITIONS", "PASSAGES", "BLOCK",
           "neighbour_graph", "transition_matrix", "passage_probabilities",
           "lower_fence", "detect_bad_edges", "cut_bad_edges", "without_edges"]

#: Targets per block of the passage recursion (memory n x BLOCK floats).
BLOCK = 256


@dataclasses.dataclass(frozen=True)
class BadEdgeDetection:
    """The outcome of :func:`detect_bad_edges` on one graph.

    Attributes
    ----------
    edges : ndarray of shape (m, 2)
        The graph's edges ``(i, j)``, ``i < j``, sorted.
    lengths : ndarray of shape (m,)
        ``|x_i - x_j|`` (the graph's data).
    q_ij, q_ji : ndarray of shape (m,)
        q^t in both directions.
    threshold : float
        The lower fence of ``log(q_ij + q_ji)``.
    cut : ndarray of shape (m,), bool
        ``log(q_ij + q_ji) < threshold``.
    rule : BadEdgeRule
    """

    edges: np.ndarray
    lengths: np.ndarray
    q_ij: np.ndarray
    q_ji: np.ndarray
    threshold: float
    cut: np.ndarray
    rule: BadEdgeRule

    @property
    def score(self) -> np.ndarray:
        """``q_ij + q_ji`` per edge."""
        return self.q_ij + self.q_ji

    @property
    def cut_edges(self) -> np.ndarray:
        """The cut edges, shape (c, 2), ``i < j``."""
        return self.edges[self.cut]

    def summary(self) -> dict:
        """Plain numbers for a record: the rule, edge and cut counts, the fence."""
        log = np.log(self.score)
        q1, q3 = np.percentile(log, [25, 75]) if log.size else (math.nan, math.nan)
        return {"rule": self.rule.as_dict(), "n_edges": int(len(self.edges)),
                "n_cut": int(self.cut.sum()), "log_score_q1": float(q1),
                "log_score_q3": float(q3), "log_threshold": float(self.threshold),
                "cut_edges": self.cut_edges.tolist()}


def neighbour_graph(neighbours: np.ndarray, distances: np.ndarray) -> sp.csr_matrix:
    """The symmetric k-nearest-neighbour graph from neighbour lists: i ~ j when either
    is among the other's k nearest (row i of ``neighbours``, ``distances``: i's k
    nearest and their distances); sparse CSR with the edge lengths as data."""
    n, k = neighbours.shape
    rows = np.repeat(np.arange(n), k)
    directed = sp.csr_matrix((distances.ravel().astype(np.float64), (rows, neighbours.ravel())),
                             shape=(n, n))
    return directed.maximum(directed.T).tocsr()


def _upper_edges(graph: sp.spmatrix) -> tuple[np.ndarray, np.ndarray]:
    upper = sp.triu(graph, k=1).tocsr()
    upper.sort_indices()
    coo = upper.tocoo()
    return np.column_stack([coo.row, coo.col]).astype(np.int64), coo.data.astype(np.float64)


def _check_graph(graph) -> sp.csr_matrix:
    if not sp.issparse(graph) or graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
        raise ValueError(f"graph must be a square scipy sparse matrix, got {type(graph).__name__}"
                         f" of shape {getattr(graph, 'shape', '?')}")
    graph = sp.csr_matrix(graph, dtype=np.float64)
    if not np.isfinite(graph.data).all() or (graph.data < 0).any():
        raise ValueError("graph's data must be finite, non-negative edge lengths")
    if graph.nnz and abs(graph - graph.T).max() > 0:
        raise ValueError("graph must be symmetric (an undirected neighbourhood graph); "
                         "symmetrise it, e.g. graph.maximum(graph.T)")
    return graph


def transition_matrix(graph: sp.spmatrix, walk_sigma: float, transition: str = "row"
                      ) -> sp.csr_matrix:
    """P of the walk: ``p_ij = exp(-d_ij / sigma)`` on the edges, row-normalised for
    ``"row"`` (shifted by each row's shortest edge first: the same P, no underflow).

    Raises
    ------
    ValueError
        A node without edges (``"row"``) or, for ``"raw"``, weights that underflow to 0.
    """
    graph = _check_graph(graph)
    lengths = graph.data
    if transition == "row":
        counts = np.diff(graph.indptr)
        if (counts == 0).any():
            raise ValueError(f"node {int(np.flatnonzero(counts == 0)[0])} has no edge: a "
                             f"random walk cannot leave it; drop isolated points first")
        row_min = np.minimum.reduceat(lengths, graph.indptr[:-1])
        weights = np.exp(-(lengths - np.repeat(row_min, counts)) / walk_sigma)
        P = sp.csr_matrix((weights, graph.indices, graph.indptr), shape=graph.shape)
        return sp.diags(1.0 / np.asarray(P.sum(axis=1)).ravel()) @ P
    weights = np.exp(-lengths / walk_sigma)
    if lengths.size and (weights == 0).any():
        raise ValueError(f"walk_sigma = {walk_sigma:g} is too small for edges of length up "
                         f"to {lengths.max():.3g}: exp(-d / sigma) underflows to 0 with "
                         f"transition='raw'; raise walk_sigma or use transition='row'")
    return sp.csr_matrix((weights, graph.indices, graph.indptr), shape=graph.shape)


def passage_probabilities(P: sp.spmatrix, edges: np.ndarray, walk_steps: int,
                          passage: str = "first", block: int = BLOCK
                          ) -> tuple[np.ndarray, np.ndarray]:
    """``(q_ij, q_ji)`` for every edge ``(i, j)`` of ``edges`` (module docstring).

    Every node is a target once, ``block`` targets at a time: ``H`` (n x block) holds
    ``h_s(i)`` for each target; ``"first"`` removes the paths through the target
    before the last step (``- P[:, J] * H[J, .]``), ``"visits"`` keeps them.
    """
    P = sp.csr_matrix(P, dtype=np.float64)
    n = P.shape[0]
    columns = P.tocsc()
    src = np.concatenate([edges[:, 0], edges[:, 1]])
    tgt = np.concatenate([edges[:, 1], edges[:, 0]])
    order = np.argsort(tgt, kind="stable")
    values = np.empty(len(src))
    bounds = np.searchsorted(tgt[order], np.arange(0, n + block, block))
    for b, start in enumerate(range(0, n, block)):
        stop = min(n, start + block)
        targets = np.arange(start, stop)
        PJ = columns[:, targets].toarray()
        H = np.zeros_like(PJ)
        diag = (targets, np.arange(len(targets)))
        for _ in range(walk_steps):
            new = PJ + P @ H
            if passage == "first":
                new -= PJ * H[diag][None, :]
            H = new
        pick = order[bounds[b]:bounds[b + 1]]
        values[pick] = H[src[pick], tgt[pick] - start]
    m = len(edges)
    return values[:m], values[m:]


def lower_fence(values: np.ndarray, fence: float) -> float:
    """Tukey's lower fence ``Q1 - fence * (Q3 - Q1)`` (NumPy's linear quartiles)."""
    if values.size == 0:
        return -math.inf
    q1, q3 = np.percentile(values, [25, 75])
    return float(q1 - fence * (q3 - q1))


def detect_bad_edges(graph: sp.spmatrix, rule: BadEdgeRule | None = None,
                     block: int = BLOCK) -> BadEdgeDetection:
    """Score every edge of the symmetric neighbourhood graph ``graph`` (edge lengths as
    data, e.g. :func:`neighbour_graph`) by ``q_ij^t + q_ji^t`` and mark the outliers
    below the lower fence of its logarithm (thesis 3.1.12).

    Raises
    ------
    ValueError
        ``graph`` is not a symmetric sparse matrix of non-negative lengths, or a node
        has no edge, or the weights underflow (``transition="raw"``).
    """
    rule = BadEdgeRule() if rule is None else rule
    graph = _check_graph(graph)
    edges, lengths = _upper_edges(graph)
    P = transition_matrix(graph, rule.walk_sigma, rule.transition)
    q_ij, q_ji = passage_probabilities(P, edges, rule.walk_steps, rule.passage, block)
    with np.errstate(divide="ignore"):
        log = np.log(q_ij + q_ji)
    threshold = lower_fence(log[np.isfinite(log)], rule.fence)
    return BadEdgeDetection(edges=edges, lengths=lengths, q_ij=q_ij, q_ji=q_ji,
                            threshold=threshold, cut=log < threshold, rule=rule)


def without_edges(graph: sp.spmatrix, edges: np.ndarray) -> sp.csr_matrix:
    """``graph`` with the undirected ``edges`` (pairs, either order) removed."""
    graph = sp.csr_matrix(graph, copy=True)
    if len(edges):
        mask = sp.csr_matrix((np.ones(2 * len(edges)),
                              (np.concatenate([edges[:, 0], edges[:, 1]]),
                               np.concatenate([edges[:, 1], edges[:, 0]]))), shape=graph.shape)
        graph = graph - graph.multiply(mask.astype(bool))
        graph.eliminate_zeros()
    return graph.tocsr()


def cut_bad_edges(graph: sp.spmatrix, rule: BadEdgeRule | None = None
                  ) -> tuple[sp.csr_matrix, BadEdgeDetection]:
    """:func:`detect_bad_edges` and ``graph`` without the cut edges."""
    detection = detect_bad_edges(graph, rule)
    return without_edges(_check_graph(graph), detection.cut_edges), detection
