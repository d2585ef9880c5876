"""LDA-LMNN: LMNN after linear discriminant analysis (Table 2.1, thesis 2.1.6)."""

from __future__ import annotations

from harness.methods.shared.preprocessed_lmnn import LMNN_PARAMETERS_DOC, PreprocessedLMNN
from harness.methods.lda_knn import lda_map


class LDALMNN(PreprocessedLMNN):
    __doc__ = f"""LMNN (eq. 2.11) on the LDA projection of the inputs.

    Thesis 2.1.6: "In Table 2.1, we also show the results of large margin training
    after LDA." LDA maps to at most ``n_classes - 1`` dimensions (Ledoit-Wolf
    shrinkage of the within-class covariance: the thesis does not say how it
    regularised LDA, see :class:`harness.methods.lda_knn.LDAKNN`); LMNN then learns a metric
    there, with target neighbours by Euclidean distance in the LDA space.

    Parameters
    ----------
    {LMNN_PARAMETERS_DOC}
    n_components : int or None, default=None
        LDA dimension, at most ``n_classes - 1`` (None: that many).
    shrinkage : "auto", float or None, default="auto"
        LDA's covariance shrinkage.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``L = L_lmnn P`` with ``P`` the discriminant directions.
    preprocessing_ : ndarray of shape (n_components, n_features)
        ``P``.
    lmnn_ : harness.methods.lmnn.LMNN
        The LMNN fitted in the LDA space.
    loss_, n_active_, n_iter_, converged_ : from ``lmnn_``
    """

    name = "lda_lmnn"
    thesis_label = "LDA-LMNN"
    references = ("thesis 2.1.6, Table 2.1 (eqs. 2.11, 2.12)", "Fisher 1936")
    table_note = ("LMNN (2.11, mu = 0.5) after LDA to n_classes - 1 dimensions "
                  "(Ledoit-Wolf shrinkage; the thesis does not say how it regularised "
                  "LDA); target neighbours Euclidean in the LDA space.")

    def __init__(self, *, n_neighbors=3, mu=0.5, solver="lbfgs", max_iter=1000, tol=1e-4,
                 n_components=None, shrinkage="auto"):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components
        self.shrinkage = shrinkage

    def _preprocess(self, X, codes):
        return lda_map(X, codes, self.n_components, self.shrinkage)
