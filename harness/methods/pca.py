"""PCA (thesis 2.2.1; the linear baseline of Table 3.2)."""

from __future__ import annotations

from sklearn.decomposition import PCA as _SkPCA

from harness.methods.shared.manifold import ManifoldEmbedding, OutOfSampleMixin


class PCA(OutOfSampleMixin, ManifoldEmbedding):
    """Principal component analysis: the top ``n_components`` principal directions.

    Thesis 2.2.1: project the centred inputs onto the leading eigenvectors of their
    covariance. This is exactly scikit-learn's :class:`sklearn.decomposition.PCA`,
    which this plugin wraps (full SVD by default, so the result is deterministic).

    Parameters
    ----------
    n_components : int, default=2
        Output dimension r.
    svd_solver : str, default="full"
        Passed to scikit-learn.
    random_state : int or None, default=None
        Only used by the randomized SVD solver.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    components_ : ndarray of shape (n_components, n_features)
    explained_variance_ : ndarray of shape (n_components,)
    model_ : sklearn.decomposition.PCA
    """

    name = "pca"
    thesis_label = "PCA"
    references = ("thesis 2.2.1", "Jolliffe, Principal Component Analysis, 1986")
    uses_neighbors = False
    requires_connected_graph = False
    table_note = "scikit-learn PCA, full SVD (thesis 2.2.1)."

    def __init__(self, *, n_components=2, svd_solver="full", random_state=None):
        self.n_components = n_components
        self.svd_solver = svd_solver
        self.random_state = random_state

    def _embed(self, X):
        self.model_ = _SkPCA(
            n_components=self.n_components,
            svd_solver=self.svd_solver,
            random_state=self.random_state,
        )
        Y = self.model_.fit_transform(X)
        self.components_ = self.model_.components_
        self.explained_variance_ = self.model_.explained_variance_
        return Y

    def transform(self, X):
        """Project new inputs onto the fitted principal directions."""
        self._check_fitted()
        return self.model_.transform(X)
