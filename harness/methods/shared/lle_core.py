"""Shared core of the LLE-family plugins (LLE, Hessian LLE): both are
scikit-learn's ``LocallyLinearEmbedding`` with a different ``method``.

When ARPACK fails on the null space (e.g. hLLE on Frey's faces: "factor is exactly
singular" in the shift-invert factorisation), scikit-learn raises a ``ValueError``
that recommends ``eigen_solver="dense"``; the fit is then redone with the dense
eigensolver, and ``eigen_solver_used_`` and ``fit_note_`` say so (the record keeps
both, the table's notes show the note).
"""

from __future__ import annotations

from sklearn.manifold import LocallyLinearEmbedding

from harness.methods.shared.manifold import ManifoldEmbedding

__all__ = ["LocallyLinearBase", "ARPACK_FAILURE"]

#: How scikit-learn's ``null_space`` words an ARPACK failure (its ValueError)
ARPACK_FAILURE = "Error in determining null-space with ARPACK"


class LocallyLinearBase(ManifoldEmbedding):
    """Fit scikit-learn's LocallyLinearEmbedding with ``_method`` and the
    subclass' ``_model_kwargs()``; store ``model_``, ``reconstruction_error_``,
    ``eigen_solver_used_`` (``"dense"`` after an ARPACK failure, else the
    ``eigen_solver`` asked for) and ``fit_note_`` (why the dense solver was used, or
    None)."""

    _method = "standard"

    def _model_kwargs(self) -> dict:
        return {}

    def _fit_model(self, X, eigen_solver: str):
        self.model_ = LocallyLinearEmbedding(
            n_neighbors=self.n_neighbors,
            n_components=self.n_components,
            method=self._method,
            eigen_solver=eigen_solver,
            random_state=self.random_state,
            **self._model_kwargs(),
        )
        return self.model_.fit_transform(X)

    def _embed(self, X):
        self.eigen_solver_used_, self.fit_note_ = self.eigen_solver, None
        try:
            Y = self._fit_model(X, self.eigen_solver)
        except ValueError as exc:
            if self.eigen_solver == "dense" or not str(exc).startswith(ARPACK_FAILURE):
                raise
            Y = self._fit_model(X, "dense")
            detail = str(exc).split("Error message: ", 1)[-1].split(". Note", 1)[0]
            self.eigen_solver_used_ = "dense"
            self.fit_note_ = (f"ARPACK failed on the null space ({detail}); refitted with "
                              f"the dense eigensolver, as scikit-learn recommends")
        self.reconstruction_error_ = float(self.model_.reconstruction_error_)
        return Y
