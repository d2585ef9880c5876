"""The LLE-style out-of-sample extension of Saul & Roweis (2003), "lle" in Fig. 3.23."""

from __future__ import annotations

import numpy as np
from sklearn.manifold._locally_linear import barycenter_weights

from harness.methods.shared.out_of_sample_core import OutOfSampleExtension


class LLEExtension(OutOfSampleExtension):
    """Place a new point at the weighted mean of its neighbours' embeddings, with the
    weights that best reconstruct the new input from its k nearest neighbours
    (Saul & Roweis, JMLR 4, 2003, section 6.1; thesis 3.1.10: "positions the test
    point based on an objective function related to LLE").

    The weights minimise |x_t - sum_j w_j x_j|^2 subject to sum_j w_j = 1, with the
    local Gram matrix regularised by ``reg`` times its trace (scikit-learn's
    ``barycenter_weights``, the same rule as the LLE plugin).

    Parameters
    ----------
    n_neighbors : int, default=5
    reg : float, default=1e-3

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The fitted embedding.
    """

    name = "oos_lle"
    thesis_label = "lle"
    references = ("thesis 3.1.10, Fig. 3.23", "Saul & Roweis, JMLR 4:119-155, 2003")

    def __init__(self, *, n_neighbors=5, reg=1e-3):
        self.n_neighbors = n_neighbors
        self.reg = reg

    def _extend(self, X, neighbors, sq_dists):
        fitted = self.neighbors_._fit_X
        weights = barycenter_weights(X, fitted, neighbors, reg=self.reg)
        return np.einsum("mk,mkr->mr", weights, self.embedding_[neighbors]), {}
