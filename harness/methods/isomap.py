"""Isomap (Tenenbaum, de Silva, Langford 2000; thesis 3.2.1)."""

from __future__ import annotations

import numpy as np
from sklearn.manifold import Isomap as _SkIsomap

from harness.methods.shared.manifold import ManifoldEmbedding, OutOfSampleMixin

__all__ = ["Isomap", "isomap_gram"]


def isomap_gram(geodesic) -> np.ndarray:
    """Isomap's similarity matrix ``-1/2 J G^2 J`` from the geodesic (shortest-path)
    distances ``G`` (thesis 3.2.1, step 3: classical MDS), with ``J = I - 1 1^T / n``
    the centring matrix. Unlike MVU's kernel it need not be positive semidefinite
    (thesis 3.1.9, Fig. 3.37)."""
    G = np.asarray(geodesic, dtype=np.float64)
    if G.ndim != 2 or G.shape[0] != G.shape[1]:
        raise ValueError(f"geodesic distances must be a square matrix, got shape {G.shape}")
    S = -0.5 * G**2
    S = S - S.mean(axis=0, keepdims=True)
    S = S - S.mean(axis=1, keepdims=True)
    return 0.5 * (S + S.T)


class Isomap(OutOfSampleMixin, ManifoldEmbedding):
    """Isomap: classical MDS on shortest-path distances of the k-NN graph.

    Thesis 3.2.1 lists the three steps: (1) a *connected* k-nearest-neighbour graph
    with Euclidean edge lengths, (2) Dijkstra's shortest paths, (3) the leading
    eigenvectors of -1/2 H D^2 H scaled by the square roots of their eigenvalues.
    scikit-learn's :class:`sklearn.manifold.Isomap` computes exactly this; this plugin
    wraps it with Dijkstra (``path_method="D"``) and refuses a disconnected graph
    (scikit-learn would silently add edges between components, which is not the
    thesis' algorithm).

    Parameters
    ----------
    n_neighbors : int, default=15
        k of the neighbourhood graph (Table 3.2: 15, see the table notes).
    n_components : int, default=2
        Output dimension r.
    eigen_solver : {"auto", "arpack", "dense"}, default="auto"
    path_method : {"D", "FW", "auto"}, default="D"

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    model_ : sklearn.manifold.Isomap
    """

    name = "isomap"
    thesis_label = "Isomap"
    references = ("thesis 3.2.1", "Tenenbaum, de Silva, Langford, Science 2000")
    table_note = ("scikit-learn Isomap with Dijkstra; a disconnected graph is an error, "
                  "not silently completed as scikit-learn would.")

    def __init__(self, *, n_neighbors=15, n_components=2, eigen_solver="auto",
                 path_method="D"):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.eigen_solver = eigen_solver
        self.path_method = path_method

    def _embed(self, X):
        self.model_ = _SkIsomap(
            n_neighbors=self.n_neighbors,
            n_components=self.n_components,
            eigen_solver=self.eigen_solver,
            path_method=self.path_method,
        )
        return self.model_.fit_transform(X)

    def transform(self, X):
        """Embed new inputs by Isomap's out-of-sample rule (scikit-learn)."""
        self._check_fitted()
        return self.model_.transform(X)

    def gram_matrix(self) -> np.ndarray:
        """The fitted similarity matrix ``-1/2 J G^2 J`` (:func:`isomap_gram`) of the
        shortest-path distances ``G`` on the k-NN graph, whose leading eigenvectors
        are the embedding; n x n."""
        self._check_fitted()
        return isomap_gram(self.model_.dist_matrix_)
