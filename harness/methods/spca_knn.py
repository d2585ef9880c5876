"""kNN after supervised PCA (Barshan et al. 2011; lecture notes ``statwiki_stat841f14``,
lectures 9-10): a row beside PCA and LDA in Table 2.1 and the LMNN peers table."""

from __future__ import annotations

from harness.methods.shared.metric_knn import MetricKNNClassifier
from harness.methods.shared.spca import (
    check_n_components,
    default_n_components,
    label_factor,
    spca_map,
)

__all__ = ["SPCAKNN"]


class SPCAKNN(MetricKNNClassifier):
    """k-nearest-neighbour classification after supervised principal component analysis.

    SPCA (Barshan, Ghodsi, Azimifar & Zolghadri Jahromi 2011, Algorithm 1; lecture
    10, "Algorithm for HSIC") projects on the top eigenvectors ``U`` of ``Q = X^T H
    L H X``, the directions of largest HSIC (:mod:`harness.metrics.hsic`) between the
    projections and the labels, with ``L`` the delta kernel of the class labels
    (``L_ij = 1`` if ``y_i = y_j``); :mod:`harness.methods.shared.spca` has the derivation. With
    ``label_kernel="identity"`` (``L = I``, the lectures' ``B = I``) it is PCA, i.e.
    :class:`harness.methods.pca_knn.PCAKNN`. kNN (tie rule of 2.1.6) and the energy rule
    (2.12) use the Euclidean distance of the projections ``U^T x`` (the lectures
    encode ``U^T (x - mean)``; the shift changes no distance).

    The delta kernel gives at most ``n_classes - 1`` informative directions (the
    rank of ``H L H``), which is the default dimension, as for LDA; more directions
    are allowed (up to ``n_features``) but add directions of zero objective, chosen
    by LAPACK.

    Parameters
    ----------
    n_neighbors : int, default=3
        k of the kNN rule and of the energy rule's target neighbours.
    n_components : int or None, default=None
        Number of directions; None: the rank of ``H L H`` (``n_classes - 1`` for the
        delta kernel, ``n - 1`` for the identity), at most ``n_features``.
    label_kernel : {"delta", "identity"}, default="delta"
        ``L``: the delta kernel of the classes, or the identity (PCA).
    mu : float, default=0.5
        Weight of the energy rule's impostor terms (2.12).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``U^T``, orthonormal rows (the map applied before kNN), each with its
        largest-magnitude entry positive.
    eigenvalues_ : ndarray of shape (n_components,)
        Their eigenvalues of ``Q`` (``(n - 1)^2`` times the biased HSIC each adds).
    """

    name = "spca_knn"
    thesis_label = "SPCA"
    references = ("Barshan, Ghodsi, Azimifar & Zolghadri Jahromi, Pattern Recognition "
                  "44(7), 2011 (supervised PCA)",
                  "statwiki stat841f14, lectures 9-10")
    table_note = ("kNN and energy rule after supervised PCA (Barshan et al. 2011): top "
                  "eigenvectors of X^T H L H X with the delta kernel of the labels, "
                  "n_classes - 1 dimensions; not a thesis row.")

    def __init__(self, *, n_neighbors=3, n_components=None, label_kernel="delta", mu=0.5):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.label_kernel = label_kernel
        self.mu = mu

    def _fit_map(self, X, codes):
        factor = label_factor(codes, self.label_kernel)
        d = X.shape[1]
        check_n_components(self.n_components, d, "SPCA's directions are orthonormal in "
                                                 f"the {d}-dimensional input space")
        r = self.n_components or min(default_n_components(codes, self.label_kernel), d)
        components, self.eigenvalues_ = spca_map(X, factor, r)
        return components
