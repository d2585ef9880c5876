"""Shared core of the LLE-family plugins (LLE, Hessian LLE): both are
scikit-learn's ``LocallyLinearEmbedding`` with a different ``method``."""

from __future__ import annotations

from sklearn.manifold import LocallyLinearEmbedding

from methods._manifold import ManifoldEmbedding

__all__ = ["LocallyLinearBase"]


class LocallyLinearBase(ManifoldEmbedding):
    """Fit scikit-learn's LocallyLinearEmbedding with ``_method`` and the
    subclass' ``_model_kwargs()``; store ``model_`` and ``reconstruction_error_``."""

    _method = "standard"

    def _model_kwargs(self) -> dict:
        return {}

    def _embed(self, X):
        self.model_ = LocallyLinearEmbedding(
            n_neighbors=self.n_neighbors,
            n_components=self.n_components,
            method=self._method,
            eigen_solver=self.eigen_solver,
            random_state=self.random_state,
            **self._model_kwargs(),
        )
        Y = self.model_.fit_transform(X)
        self.reconstruction_error_ = float(self.model_.reconstruction_error_)
        return Y
