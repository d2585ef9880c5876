"""Hessian LLE (Donoho & Grimes 2003), the "hLLE" row of Table 3.2."""

from __future__ import annotations

from methods._lle_core import LocallyLinearBase


class HessianLLE(LocallyLinearBase):
    """Hessian eigenmaps (hLLE).

    The thesis (3.1.9) runs hLLE [Donoho & Grimes, PNAS 2003] without describing it;
    scikit-learn's ``LocallyLinearEmbedding(method="hessian")`` implements that paper's
    algorithm (local tangent coordinates by PCA, the Hessian estimator by
    Gram-Schmidt on their quadratic monomials, the bottom eigenvectors of the
    quadratic form). It needs ``n_neighbors > n_components * (n_components + 3) / 2``.
    No out-of-sample ``transform``: the paper defines none.

    Parameters
    ----------
    n_neighbors : int, default=15
    n_components : int, default=2
    hessian_tol : float, default=1e-4
    eigen_solver : {"auto", "arpack", "dense"}, default="auto"
    random_state : int or None, default=None

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    reconstruction_error_ : float
    model_ : sklearn.manifold.LocallyLinearEmbedding
    """

    name = "hlle"
    thesis_label = "hLLE"
    references = ("thesis 3.1.9", "Donoho & Grimes, PNAS 100:5591, 2003")
    _method = "hessian"
    table_note = "scikit-learn Hessian LLE (Donoho & Grimes 2003), hessian_tol 1e-4."

    def __init__(self, *, n_neighbors=15, n_components=2, hessian_tol=1e-4,
                 eigen_solver="auto", random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.hessian_tol = hessian_tol
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    def _model_kwargs(self) -> dict:
        return {"hessian_tol": self.hessian_tol}

    def fit(self, X, y=None):
        """Compute the Hessian eigenmap of ``X``; ``y`` is ignored."""
        needed = self.n_components * (self.n_components + 3) // 2
        if self.n_neighbors <= needed:
            raise ValueError(
                f"hLLE needs n_neighbors > n_components * (n_components + 3) / 2 = "
                f"{needed}; got n_neighbors={self.n_neighbors}"
            )
        return super().fit(X, y)
