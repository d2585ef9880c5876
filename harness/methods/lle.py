"""Locally linear embedding (Roweis & Saul 2000; thesis 3.2.1, eqs. 3.37-3.39)."""

from __future__ import annotations

from harness.methods.shared.lle_core import LocallyLinearBase
from harness.methods.shared.manifold import OutOfSampleMixin


class LLE(OutOfSampleMixin, LocallyLinearBase):
    """Locally linear embedding.

    Thesis 3.2.1: reconstruction weights W minimising (3.37) with rows summing to one,
    then the bottom eigenvectors of M = (I - W)^T (I - W) (3.39), the constant one
    excluded, *unscaled*. scikit-learn's ``LocallyLinearEmbedding(method="standard")``
    computes exactly this; this plugin wraps it. The thesis does not state the
    regulariser of the local Gram matrix when k exceeds the input dimension; we use
    scikit-learn's ``reg=1e-3`` (times the trace), the same order as Roweis' reference
    code (1e-3). The output scale differs from the input's; the metrics of 3.1.9
    optimise the scale s, so this does not matter there.

    Parameters
    ----------
    n_neighbors : int, default=15
    n_components : int, default=2
    reg : float, default=1e-3
    eigen_solver : {"auto", "arpack", "dense"}, default="auto"
    random_state : int or None, default=None
        Seed of ARPACK's start vector.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    reconstruction_error_ : float
    model_ : sklearn.manifold.LocallyLinearEmbedding
    """

    name = "lle"
    thesis_label = "LLE"
    references = ("thesis 3.2.1", "Roweis & Saul, Science 2000")
    _method = "standard"
    table_note = "scikit-learn LLE; local Gram regulariser 1e-3 x trace (thesis silent)."

    def __init__(self, *, n_neighbors=15, n_components=2, reg=1e-3, eigen_solver="auto",
                 random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.reg = reg
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    def _model_kwargs(self) -> dict:
        return {"reg": self.reg}

    def transform(self, X):
        """Embed new inputs by the LLE reconstruction-weight rule (scikit-learn)."""
        self._check_fitted()
        return self.model_.transform(X)
