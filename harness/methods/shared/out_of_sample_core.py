"""Shared core of the out-of-sample extensions (thesis 3.1.10, Fig. 3.23).

An out-of-sample extension maps new inputs into an existing embedding: it is fitted
on the inputs X (n x d) and their embedding Y (n x r) and predicts the embedding of
new inputs, so it is a scikit-learn multi-output regressor (``fit(X, Y)``,
``predict(X_new)``). Every extension here works from the k nearest neighbours (in
input space) of each new point among the fitted inputs.
"""

from __future__ import annotations

import abc

import numpy as np
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.validation import check_is_fitted, validate_data

from harness.plugin import MethodPlugin

__all__ = ["OutOfSampleExtension"]


class OutOfSampleExtension(MethodPlugin, MultiOutputMixin, RegressorMixin, BaseEstimator,
                           abc.ABC):
    """Base of the extension plugins: input checks, the neighbour search, the
    single-output case. Subclasses implement ``_extend(X, neighbors, sq_dists)``
    returning the (m, r) coordinates of the m new points and a dict of what they
    measured."""

    task = "out_of_sample"

    def fit(self, X, Y):
        """Store the inputs ``X`` (n, d) and their embedding ``Y`` (n, r) or (n,)."""
        X, Y = validate_data(self, X, Y, multi_output=True, y_numeric=True,
                             dtype=np.float64)
        k = int(self.n_neighbors)
        if k < 1:
            raise ValueError(f"n_neighbors must be at least 1, got {self.n_neighbors}")
        if X.shape[0] < k:
            raise ValueError(f"an extension with n_neighbors = {k} needs at least {k} "
                             f"fitted points; got n_samples = {X.shape[0]}")
        self._single_output = Y.ndim == 1
        self.embedding_ = Y.reshape(X.shape[0], -1).astype(np.float64)
        self.neighbors_ = NearestNeighbors(n_neighbors=k).fit(X)
        return self

    def predict(self, X):
        """The embedding of new inputs ``X`` (m, d): (m, r), or (m,) if fitted on a
        1-D ``Y``."""
        return self.extend(X)[0]

    def extend(self, X):
        """Like :meth:`predict`, and also what the extension measured on the way
        (solver statistics; empty for closed-form rules): ``(Y, info)``. The
        estimator itself is not changed (scikit-learn's rule for ``predict``)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        dist, ind = self.neighbors_.kneighbors(X)
        Y, info = self._extend(X, ind, dist**2)
        return (Y[:, 0] if self._single_output else Y), info

    @abc.abstractmethod
    def _extend(self, X, neighbors, sq_dists):
        """``(Y (m, r), info dict)`` for the m new points, from each point's
        neighbour indices (m, k) among the fitted inputs and squared distances (m, k)."""
