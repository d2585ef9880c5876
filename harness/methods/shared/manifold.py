"""Shared core of the neighbourhood-graph embedding plugins (Isomap, LLE, hLLE,
Laplacian eigenmaps, and later MVU): input checks, the k-nearest-neighbour graph and
its connectivity, and the estimator skeleton.

Every spectral method of thesis 3.2.1 starts by "constructing a (connected)
k-nearest neighbor graph". scikit-learn's Isomap silently *adds* edges between the
components of a disconnected graph, and its LLE and spectral embedding only warn;
none of that is the thesis' algorithm, so the plugins here refuse a disconnected graph
with :class:`harness.plugin.DisconnectedGraphError`, which names the components.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csgraph
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.neighbors import kneighbors_graph
from sklearn.utils.validation import check_is_fitted

from harness.plugin import DisconnectedGraphError, MethodPlugin
from harness.problems.bad_edges import BadEdgeRule, cut_bad_edges
from harness.validation import check_embedding_input

__all__ = [
    "ManifoldEmbedding",
    "OutOfSampleMixin",
    "check_embedding_input",
    "knn_graph",
    "check_connected",
]


def knn_graph(X: np.ndarray, n_neighbors: int, bad_edges: BadEdgeRule | None = None):
    """Symmetric k-nearest-neighbour graph: i ~ j if either is among the other's k
    nearest neighbours. Sparse CSR with the Euclidean edge lengths as data.

    ``bad_edges``: the graph without its bad edges (thesis 3.1.12, Fig. 3.29;
    :func:`harness.problems.bad_edges.cut_bad_edges`); ``None`` (default) cuts nothing.
    """
    directed = kneighbors_graph(X, n_neighbors, mode="distance", include_self=False)
    graph = directed.maximum(directed.T).tocsr()
    return graph if bad_edges is None else cut_bad_edges(graph, bad_edges)[0]


def check_connected(graph, n_neighbors: int, note: str = "") -> None:
    """Raise :class:`DisconnectedGraphError` if ``graph`` has several components
    (``note`` is added to the message, e.g. that bad edges were cut)."""
    n_comp, labels = csgraph.connected_components(graph, directed=False)
    if n_comp > 1:
        sizes = np.sort(np.bincount(labels))[::-1]
        shown = ", ".join(map(str, sizes[:8])) + (", ..." if n_comp > 8 else "")
        raise DisconnectedGraphError(
            f"the k-nearest-neighbour graph (k={n_neighbors}) of the "
            f"{graph.shape[0]} inputs has {n_comp} connected components "
            f"(sizes {shown}){note}; increase n_neighbors or embed each component "
            f"separately"
        )


class ManifoldEmbedding(MethodPlugin, BaseEstimator):
    """Skeleton of a k-NN-graph embedding: validate, check the graph, embed.

    Subclasses implement ``_embed(X) -> ndarray (n_samples, n_components)`` and may
    store a fitted scikit-learn model in ``model_``. Fitted attributes:
    ``embedding_`` and ``n_features_in_``. A subclass that cuts bad edges of its
    graph (3.1.12) returns its rule from ``_bad_edge_rule()``: the connectivity check
    then judges the cut graph.
    """

    task = "embedding"
    uses_neighbors = True
    requires_connected_graph = True

    def _n_neighbors(self) -> int | None:
        return getattr(self, "n_neighbors", None) if self.uses_neighbors else None

    def _bad_edge_rule(self) -> BadEdgeRule | None:
        return None

    def fit(self, X, y=None):
        """Compute the embedding of ``X``; ``y`` is ignored."""
        k = self._n_neighbors()
        X = check_embedding_input(X, n_neighbors=k, n_components=self.n_components)
        if self.requires_connected_graph and k is not None:
            rule, note = self._bad_edge_rule(), ""
            graph = knn_graph(X, k)
            if rule is not None:
                graph, detection = cut_bad_edges(graph, rule)
                note = (f" after cutting its {int(detection.cut.sum())} bad edges (3.1.12; "
                        f"a larger fence, now {rule.fence:g}, cuts fewer)")
            check_connected(graph, k, note)
        self.n_features_in_ = X.shape[1]
        self.embedding_ = np.asarray(self._embed(X), dtype=np.float64)
        return self

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_``."""
        return self.fit(X, y).embedding_

    def _check_fitted(self):
        check_is_fitted(self, "embedding_")


class OutOfSampleMixin(TransformerMixin):
    """For embeddings that also have an out-of-sample ``transform``.

    Put it first in the bases (scikit-learn wants mixins left of the estimator).
    ``fit_transform`` returns the fitted embedding: scikit-learn's
    ``TransformerMixin.fit_transform`` would return ``fit(X).transform(X)``, the
    out-of-sample rule applied to the training inputs, which for LLE is a different
    embedding.
    """

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_`` (not ``transform(X)``)."""
        return self.fit(X, y).embedding_
