"""LDA-LMNN after LDA as printed, without shrinkage: the other reading of Table 2.1's
row "LDA-LMNN" (thesis 2.1.6; LDA as eq. 2.27)."""

from __future__ import annotations

from harness.methods.shared.preprocessed_lmnn import LMNN_PARAMETERS_DOC
from harness.methods.lda_lmnn import LDALMNN

__all__ = ["LDALMNNUnshrunk"]


class LDALMNNUnshrunk(LDALMNN):
    __doc__ = f"""LMNN (eq. 2.11) on the unshrunk LDA projection of the inputs.

    The second reading of Table 2.1's LDA-LMNN row, as
    :class:`harness.methods.lda_knn_unshrunk.LDAKNNUnshrunk` is of its LDA row: LDA with the
    within-class covariance as it is (eq. 2.27; a singular one fails the cell with a
    ``ValueError``), then LMNN as :class:`harness.methods.lda_lmnn.LDALMNN`. Table 2.1 gives
    this row the thesis' LDA-LMNN numbers too and its claims about LDA check both rows.

    Parameters
    ----------
    {LMNN_PARAMETERS_DOC}
    n_components : int or None, default=None
        LDA dimension, at most ``n_classes - 1`` (None: that many).
    shrinkage : "auto", float or None, default=None
        None: the covariance as it is (the point of this row).
    """

    name = "lda_lmnn_unshrunk"
    thesis_label = "LDA-LMNN (unshrunk)"
    table_note = ("as LDA-LMNN, with LDA's within-class covariance unshrunk (eq. 2.27 "
                  "as printed); the thesis does not say how it regularised LDA, so both "
                  "readings are shown.")

    def __init__(self, *, n_neighbors=3, mu=0.5, solver="lbfgs", max_iter=1000, tol=1e-4,
                 n_components=None, shrinkage=None):
        super().__init__(n_neighbors=n_neighbors, mu=mu, solver=solver, max_iter=max_iter,
                         tol=tol, n_components=n_components, shrinkage=shrinkage)
