"""kNN after LDA as printed, without shrinkage: the other reading of Table 2.1's row
"LDA" (thesis 2.1.6; LDA as eq. 2.27)."""

from __future__ import annotations

from harness.methods.lda_knn import LDAKNN

__all__ = ["LDAKNNUnshrunk"]


class LDAKNNUnshrunk(LDAKNN):
    """k-nearest-neighbour classification after LDA with the within-class covariance
    as it is.

    The thesis does not say how it regularised LDA for Table 2.1 (2.1.6); its LDA
    (2.2.1, eq. 2.27) takes the eigenvectors of ``C_w^-1 C_b`` and "is only well
    defined if C_w is non-singular". So Table 2.1's LDA row has two readings, both
    run and shown: :class:`harness.methods.lda_knn.LDAKNN` shrinks ``C_w`` (Ledoit-Wolf, chosen
    first), this row does not. Where ``C_w`` is singular the fit raises a
    ``ValueError`` and the cell is a marked failure. Table 2.1 gives this row the
    thesis' LDA numbers too (``reference_aliases`` of its spec) and its claims about
    LDA check both rows.

    Parameters
    ----------
    n_neighbors : int, default=3
    n_components : int or None, default=None
    mu : float, default=0.5
        As :class:`~harness.methods.lda_knn.LDAKNN`.
    shrinkage : "auto", float or None, default=None
        None: the covariance as it is (the point of this row).
    """

    name = "lda_knn_unshrunk"
    thesis_label = "LDA (unshrunk)"
    table_note = ("as LDA, with the within-class covariance unshrunk (eq. 2.27 as "
                  "printed); the thesis does not say how it regularised LDA, so both "
                  "readings are shown.")

    def __init__(self, *, n_neighbors=3, n_components=None, mu=0.5, shrinkage=None):
        super().__init__(n_neighbors=n_neighbors, n_components=n_components, mu=mu,
                         shrinkage=shrinkage)
