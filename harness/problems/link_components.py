"""Artificial links between the connected components of a neighbourhood graph (3.1.12).

The thesis (3.1.12, "Practical considerations"): "If for all values of k the
neighborhood graph is disconnected, MVU can be run on all connected components
individually. Alternatively, one can also add artificial links between the connected
components. Imagine a data set has two connected components C_1 and C_2. We can link
them by picking a random point in connected component x in C_1. Let x' in C_2 be the
closest point to x in C_2. And let x'' in C_1 be the closest point to x' in C_1. We
add an edge between x' and x''. This procedure should be continued until the graph is
connected."

Two rules are offered (:data:`LINK_RULES`):

``thesis``
    The procedure quoted above. With more than two components the thesis does not say
    which two are linked next; here x is drawn uniformly from all points, C_1 is its
    component, x' the point nearest to x outside C_1 (its component is C_2), x'' the
    point of C_1 nearest to x'; the edge (x', x'') merges C_1 and C_2, and this is
    repeated until one component is left. Seeded (``seed``) for reproducibility.
``shortest``
    Deterministic alternative (not in the thesis): repeatedly add the shortest edge
    between the component of point 0 and the rest (Prim's rule over components, so
    the added edges are those of a minimum spanning tree of the components).

Each added edge becomes one more distance constraint of the SDP, like any other edge;
it is *not* joined into a clique.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix, csgraph
from sklearn.neighbors import NearestNeighbors

__all__ = ["LINK_RULES", "components", "link_components"]

#: ``thesis`` (3.1.12's random point and two nearest-point steps) or ``shortest``
LINK_RULES = ("thesis", "shortest")


def components(n: int, edges: np.ndarray) -> np.ndarray:
    """The connected-component label (0..c-1) of each of ``n`` nodes of ``edges``."""
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    return csgraph.connected_components(graph, directed=False)[1]


def _nearest(X: np.ndarray, pool: np.ndarray, queries: np.ndarray) -> tuple[int, int]:
    """``(q, p)``: the query row q and pool row p of the closest pair (indices into X)."""
    dist, idx = NearestNeighbors(n_neighbors=1).fit(X[pool]).kneighbors(X[queries])
    best = int(np.argmin(dist[:, 0]))
    return int(queries[best]), int(pool[idx[best, 0]])


def link_components(X: np.ndarray, edges: np.ndarray, rule: str = "thesis",
                    seed: int = 0) -> np.ndarray:
    """The edges that join the components of the graph ``edges`` on the points ``X``.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    edges : ndarray of shape (m, 2)
        The graph (any orientation; duplicates allowed).
    rule : {"thesis", "shortest"}
        See the module docstring.
    seed : int
        Seed of the ``thesis`` rule's random points.

    Returns
    -------
    ndarray of shape (c - 1, 2)
        The added edges ``(i, j)``, ``i < j``, in the order added (empty when the graph
        is connected).
    """
    if rule not in LINK_RULES:
        raise ValueError(f"rule must be one of {LINK_RULES}, got {rule!r}")
    X = np.asarray(X, dtype=np.float64)
    labels = components(len(X), edges)
    rng = np.random.default_rng(seed)
    added = []
    while len(np.unique(labels)) > 1:
        if rule == "thesis":
            x = int(rng.integers(len(X)))
            inside = labels == labels[x]
            _, x1 = _nearest(X, np.flatnonzero(~inside), np.array([x]))
            _, x2 = _nearest(X, np.flatnonzero(inside), np.array([x1]))
            a, b = x1, x2
        else:
            inside = labels == labels[0]
            a, b = _nearest(X, np.flatnonzero(~inside), np.flatnonzero(inside))
        added.append((min(a, b), max(a, b)))
        labels[labels == labels[b]] = labels[a]
    return np.array(added, dtype=np.int64).reshape(-1, 2)
