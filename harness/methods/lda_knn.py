"""kNN after LDA: Table 2.1's row "LDA" (thesis 2.1.6, Fisher's discriminant [32])."""

from __future__ import annotations

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from harness.methods.shared.metric_knn import MetricKNNClassifier

__all__ = ["LDAKNN", "lda_map"]


def lda_map(X, codes, n_components=None, shrinkage="auto"):
    """LDA's discriminant directions as rows, at most ``n_classes - 1`` of them.

    scikit-learn's eigen solver with ``shrinkage`` of the within-class covariance
    (Ledoit-Wolf for ``"auto"``); ``scalings_`` transposed, so that ``X @ map.T`` is
    LDA's transform up to a shift (its centring moves all points alike).

    With ``shrinkage=None`` this is the thesis' LDA as printed (2.27): the
    eigenvectors of ``C_w^-1 C_b``, defined only where the within-class covariance
    ``C_w`` is non-singular ("only well defined if C_w is non-singular", 2.2.1); a
    singular one raises a ``ValueError`` naming the fix.
    """
    lda = LinearDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage,
                                     n_components=n_components)
    try:
        lda.fit(X, codes)
    except np.linalg.LinAlgError as err:
        if shrinkage is not None:
            raise
        n_classes = int(np.max(codes)) + 1
        raise ValueError(
            f"unshrunk LDA (shrinkage=None) needs a non-singular within-class covariance "
            f"(thesis 2.2.1); {X.shape[0]} points of {n_classes} classes in "
            f"{X.shape[1]} dimensions give a singular one ({err}). Use shrinkage='auto' "
            f"(harness.methods.lda_knn) or fewer input dimensions.") from err
    r = n_components or min(int(codes.max()), X.shape[1])  # n_classes - 1
    return lda.scalings_[:, :r].T


class LDAKNN(MetricKNNClassifier):
    """k-nearest-neighbour classification in the space of linear discriminant analysis.

    Thesis 2.1.6: "In addition to pre-processing with PCA, we also pre-processed the
    data with LDA". LDA maps to at most ``n_classes - 1`` dimensions; we use
    scikit-learn's eigen solver with automatic (Ledoit-Wolf) shrinkage of the
    within-class covariance, which keeps the map defined when that covariance is
    singular (more dimensions than training points per class). The thesis does not
    say how it regularised LDA.

    Parameters
    ----------
    n_neighbors : int, default=3
    n_components : int or None, default=None
        At most ``n_classes - 1`` (None: that many).
    mu : float, default=0.5
        Weight of the energy rule's impostor terms (2.12).
    shrinkage : "auto", float or None, default="auto"
        Passed to :class:`sklearn.discriminant_analysis.LinearDiscriminantAnalysis`.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        The discriminant directions (``scalings_`` transposed), so that ``transform``
        is ``X @ components_.T`` (LDA's centring shifts all points alike and does not
        change distances).
    """

    name = "lda_knn"
    thesis_label = "LDA"
    references = ("thesis 2.1.6, Table 2.1", "Fisher 1936")
    table_note = ("kNN and energy rule after LDA to n_classes - 1 dimensions "
                  "(eigen solver, Ledoit-Wolf shrinkage; the thesis does not say how it "
                  "regularised LDA).")

    def __init__(self, *, n_neighbors=3, n_components=None, mu=0.5, shrinkage="auto"):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.mu = mu
        self.shrinkage = shrinkage

    def _fit_map(self, X, codes):
        return lda_map(X, codes, self.n_components, self.shrinkage)
