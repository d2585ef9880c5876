"""kNN after PCA: the Euclidean baseline of Table 2.1 (row "PCA", thesis 2.1.6)."""

from __future__ import annotations

from sklearn.decomposition import PCA

from harness.methods.shared.metric_knn import MetricKNNClassifier

__all__ = ["PCAKNN", "pca_map"]


def pca_map(X, n_components=None):
    """Principal directions of ``X`` as rows (``n_components`` x ``n_features``) and
    their variances; None keeps every component."""
    pca = PCA(n_components=n_components, svd_solver="full").fit(X)
    return pca.components_, pca.explained_variance_


class PCAKNN(MetricKNNClassifier):
    """k-nearest-neighbour classification under the Euclidean distance after PCA.

    Thesis 2.1.6: "we applied PCA as a pre-processing step"; Table 2.1's "PCA" rows
    are kNN (and the energy rule, 2.12, with the Euclidean metric) in that space.
    PCA is a rotation (plus truncation), so with all components this is plain
    Euclidean kNN.

    Parameters
    ----------
    n_neighbors : int, default=3
        k of the kNN rule and of the energy rule's target neighbours.
    n_components : int or None, default=None
        PCA dimension; None keeps every component (Table 2.1's small data sets).
    mu : float, default=0.5
        Weight of the energy rule's impostor terms (2.12).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        The principal directions (the map applied before kNN).
    """

    name = "pca_knn"
    thesis_label = "PCA"
    references = ("thesis 2.1.6, Table 2.1",)
    table_note = ("kNN (tie rule of 2.1.6) and the energy rule (2.12) with the "
                  "Euclidean metric after PCA (all components on the small data sets).")

    def __init__(self, *, n_neighbors=3, n_components=None, mu=0.5):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.mu = mu

    def _fit_map(self, X, codes):
        components, self.explained_variance_ = pca_map(X, self.n_components)
        return components
