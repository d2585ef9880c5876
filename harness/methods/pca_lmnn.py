"""PCA-LMNN: LMNN after PCA, Table 2.1's main LMNN row (thesis 2.1.6)."""

from __future__ import annotations

from harness.methods.shared.preprocessed_lmnn import LMNN_PARAMETERS_DOC, PreprocessedLMNN
from harness.methods.pca_knn import pca_map


class PCALMNN(PreprocessedLMNN):
    __doc__ = f"""LMNN (eq. 2.11) on the leading principal components of the inputs.

    Thesis 2.1.6: "we applied PCA as a pre-processing step" (MNIST to 164
    dimensions, faces and 20 newsgroups to 200, isolet to 172); on iris, wine and
    bal every component is kept, which is a rotation and leaves LMNN unchanged. kNN
    (tie rule 2.1.6) and the energy rule (2.12) use the learned metric.

    Parameters
    ----------
    {LMNN_PARAMETERS_DOC}
    n_components : int or None, default=None
        PCA dimension; None keeps every component.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``L = L_lmnn P`` with ``P`` the principal directions.
    preprocessing_ : ndarray of shape (n_components, n_features)
        ``P``.
    lmnn_ : harness.methods.lmnn.LMNN
        The LMNN fitted on the principal components.
    loss_, n_active_, n_iter_, converged_ : from ``lmnn_``
    """

    name = "pca_lmnn"
    thesis_label = "PCA-LMNN"
    references = ("thesis 2.1.6, Table 2.1 (eqs. 2.11, 2.12)",)
    table_note = ("LMNN (2.11, mu = 0.5, margin 1, Euclidean target neighbours in the "
                  "PCA space) after PCA (all components on the small data sets); kNN "
                  "with the tie rule of 2.1.6 and the energy rule (2.12) as printed.")

    def __init__(self, *, n_neighbors=3, mu=0.5, solver="lbfgs", max_iter=1000, tol=1e-4,
                 n_components=None):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components

    def _preprocess(self, X, codes):
        return pca_map(X, self.n_components)[0]
