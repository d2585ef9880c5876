"""scikit-learn's SpectralClustering as the peer of our NJW plugin
(:mod:`harness.methods.spectral_clustering`), on the same data (statwiki STAT 841 F14,
lectures 7-8; not a thesis method)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import SpectralClustering

from harness.plugin import MethodPlugin
from harness.methods.spectral_clustering import check_clustering_input

__all__ = ["SklearnSpectralClustering"]


class SklearnSpectralClustering(MethodPlugin, ClusterMixin, BaseEstimator):
    """scikit-learn's :class:`sklearn.cluster.SpectralClustering` (peer).

    Our inputs checks run first (the same errors as the NJW plugin); then
    scikit-learn fits with the parameters below and its other defaults. What it does
    differently from NJW (:class:`harness.methods.spectral_clustering.NJWSpectralClustering`):
    the Gaussian affinity keeps exp(0) = 1 on the diagonal; the nearest-neighbour
    affinity is 1/2 (C + C^T) of the k-NN connectivity C *including* each point
    itself, so one-sided edges weigh 1/2; the spectral embedding
    (:func:`sklearn.manifold.spectral_embedding`) takes the bottom eigenvectors of the
    normalised Laplacian and divides them by D^1/2 instead of renormalising rows;
    ``assign_labels="kmeans"`` then runs k-means on that embedding. On well-separated
    clusters both find the same partition.

    Parameters
    ----------
    n_clusters : int, default=8
        The clustering task sets it to the number of distinct labels.
    affinity : {"rbf", "nearest_neighbors"}, default="rbf"
    gamma : float, default=1.0
        Gaussian kernel exp(-gamma |x_i - x_j|^2); ``affinity="rbf"`` only.
    n_neighbors : int, default=10
        ``affinity="nearest_neighbors"`` only.
    assign_labels : {"kmeans", "discretize", "cluster_qr"}, default="kmeans"
    eigen_solver : {None, "arpack", "lobpcg", "amg"}, default=None
    n_init : int, default=10
        k-means restarts.
    random_state : int or None, default=None

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
    affinity_matrix_ : ndarray or sparse matrix of shape (n_samples, n_samples)
    model_ : sklearn.cluster.SpectralClustering
    n_features_in_ : int
    """

    name = "sklearn_spectral_clustering"
    task = "clustering"
    thesis_label = "scikit-learn SpectralClustering"
    references = ("scikit-learn sklearn.cluster.SpectralClustering (peer)",
                  "Ng, Jordan & Weiss, NIPS 14, 2002; Shi & Malik, PAMI 22(8), 2000")
    table_note = ("scikit-learn SpectralClustering (peer): Gaussian affinity with its unit "
                  "diagonal, embedding divided by D^1/2, k-means labels.")

    def __init__(self, *, n_clusters=8, affinity="rbf", gamma=1.0, n_neighbors=10,
                 assign_labels="kmeans", eigen_solver=None, n_init=10, random_state=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.assign_labels = assign_labels
        self.eigen_solver = eigen_solver
        self.n_init = n_init
        self.random_state = random_state

    def fit(self, X, y=None):
        """Cluster ``X``; ``y`` is ignored."""
        X = check_clustering_input(X, n_clusters=self.n_clusters, affinity=self.affinity,
                                   gamma=self.gamma, n_neighbors=self.n_neighbors)
        self.model_ = SpectralClustering(
            n_clusters=int(self.n_clusters), affinity=self.affinity, gamma=self.gamma,
            n_neighbors=self.n_neighbors, assign_labels=self.assign_labels,
            eigen_solver=self.eigen_solver, n_init=self.n_init,
            random_state=self.random_state).fit(X)
        self.n_features_in_ = X.shape[1]
        self.affinity_matrix_ = self.model_.affinity_matrix_
        self.labels_ = np.asarray(self.model_.labels_, dtype=np.int64)
        return self
