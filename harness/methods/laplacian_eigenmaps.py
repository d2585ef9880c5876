"""Laplacian eigenmaps (Belkin & Niyogi 2003; thesis 3.2.1, eqs. 3.40-3.45), the
"Lap" row of Table 3.2."""

from __future__ import annotations

import numpy as np
from sklearn.manifold import spectral_embedding

from harness.methods.shared.manifold import ManifoldEmbedding, knn_graph


class LaplacianEigenmaps(ManifoldEmbedding):
    """Laplacian eigenmaps: the bottom generalised eigenvectors of L y = lambda D y.

    Thesis 3.2.1: a k-NN graph with positive weights W, the graph Laplacian
    L = D - W, and the solution of min tr(Y L Y^T) s.t. Y D Y^T = I, i.e. the
    generalised eigenproblem (3.45), the constant eigenvector excluded. The thesis
    names two weightings, "constant weights (eg W_ij = 1) or the exponentially decaying
    heat kernel", without saying which Table 3.2 used; the default here is constant
    weights on the symmetrised graph (``weights="binary"``), the heat kernel is
    ``weights="heat"`` with ``sigma`` (default: the median edge length). The
    eigenproblem is solved by :func:`sklearn.manifold.spectral_embedding` with
    ``norm_laplacian=True``, whose eigenvectors of D^-1/2 L D^-1/2 divided by
    D^1/2 are exactly the generalised eigenvectors of (3.45). (scikit-learn's own
    ``SpectralEmbedding`` would weight one-sided edges 0.5, which the thesis does not.)

    Parameters
    ----------
    n_neighbors : int, default=15
    n_components : int, default=2
    weights : {"binary", "heat"}, default="binary"
    sigma : float or None, default=None
        Heat-kernel width, W_ij = exp(-|x_i - x_j|^2 / sigma^2).
    eigen_solver : {"arpack", "lobpcg"}, default="arpack"
    random_state : int or None, default=None

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    affinity_ : sparse matrix of shape (n_samples, n_samples)
        The weight matrix W.
    """

    name = "laplacian_eigenmaps"
    thesis_label = "Lap"
    references = ("thesis 3.2.1", "Belkin & Niyogi, Neural Computation 15(6), 2003")
    table_note = ("constant weights W_ij = 1 on the symmetrised k-NN graph (the thesis "
                  "names constant or heat-kernel weights); generalised problem (3.45).")

    def __init__(self, *, n_neighbors=15, n_components=2, weights="binary", sigma=None,
                 eigen_solver="arpack", random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.weights = weights
        self.sigma = sigma
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    def _affinity(self, X):
        W = knn_graph(X, self.n_neighbors)
        if self.weights == "binary":
            W.data[:] = 1.0
        elif self.weights == "heat":
            sigma = float(np.median(W.data)) if self.sigma is None else float(self.sigma)
            if not sigma > 0:
                raise ValueError(f"sigma must be positive, got {sigma}")
            W.data = np.exp(-(W.data**2) / sigma**2)
        else:
            raise ValueError(f"weights must be 'binary' or 'heat', got {self.weights!r}")
        return W

    def _embed(self, X):
        self.affinity_ = self._affinity(X)
        return spectral_embedding(
            self.affinity_,
            n_components=self.n_components,
            eigen_solver=self.eigen_solver,
            random_state=self.random_state,
            norm_laplacian=True,
            drop_first=True,
        )
