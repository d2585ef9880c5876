"""Nonnegative matrix factorization (Lee & Seung 1999; lecture notes
``lecture_sha_nonlinear_dimred``, "Linear dimensionality reductions")."""

from __future__ import annotations

import numpy as np
from sklearn.decomposition import NMF as _SkNMF
from sklearn.utils.validation import validate_data

from harness.methods.shared.manifold import ManifoldEmbedding, OutOfSampleMixin

__all__ = ["NMF", "check_nonnegative"]


def check_nonnegative(X: np.ndarray, what: str = "X") -> None:
    """Raise ``ValueError`` naming the negative entries of ``X`` and the fix.

    The message starts like scikit-learn's (``"Negative values in data passed to
    NMF"``), which its estimator checks look for.
    """
    negative = X < 0
    if negative.any():
        i, j = np.argwhere(negative)[0]
        raise ValueError(
            f"Negative values in data passed to NMF (input {what}): {int(negative.sum())} "
            f"entries are < 0 (first: row {i}, column {j}: {X[i, j]:g}; minimum "
            f"{X.min():g}). NMF factorises nonnegative data, X ~ W H with W, H >= 0: "
            f"shift or rescale the features to be nonnegative (e.g. X - X.min(axis=0), or "
            f"pixel intensities in [0, 1]), or use PCA (method 'pca') for signed data")


class NMF(OutOfSampleMixin, ManifoldEmbedding):
    """Nonnegative matrix factorization: ``X ~ W H`` with ``W, H >= 0``; ``W`` is the
    embedding.

    The lecture lists NMF beside PCA and FDA among the linear dimensionality
    reductions ``x -> y``; it needs nonnegative inputs (pixel intensities, counts).
    This plugin is scikit-learn's :class:`sklearn.decomposition.NMF` (Frobenius loss,
    coordinate descent by default, ``init=None``: NNDSVDa when ``n_components <=
    min(n_samples, n_features)``, else random): ``embedding_`` is its
    ``fit_transform(X)`` with the same parameters and seed. ``transform`` solves for
    the codes of new inputs with ``H`` fixed; for the training inputs this is a new
    solve (to ``tol``), not ``embedding_`` exactly. A data set with negative entries
    (the Swiss roll) is skipped with the reason; ``fit`` on such data raises
    ``ValueError`` naming the fix.

    Parameters
    ----------
    n_components : int, default=2
        Output dimension r (the rank of the factorisation).
    init : {None, "random", "nndsvd", "nndsvda", "nndsvdar"}, default=None
        Passed to scikit-learn.
    solver : {"cd", "mu"}, default="cd"
    beta_loss : float or {"frobenius", "kullback-leibler", "itakura-saito"}, default="frobenius"
    tol : float, default=1e-4
    max_iter : int, default=200
    random_state : int or None, default=None
        Seed of the random initialisation (and of the coordinate order, unused by the
        default cyclic descent); the harness passes the run's seed.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        ``W``.
    components_ : ndarray of shape (n_components, n_features)
        ``H``.
    reconstruction_error_ : float
        ``beta_loss`` between ``X`` and ``W H`` (Frobenius norm by default).
    n_iter_ : int
    model_ : sklearn.decomposition.NMF
    """

    name = "nmf"
    thesis_label = "NMF"
    references = ("Lee & Seung, Nature 401, 1999",
                  "lecture_sha_nonlinear_dimred, linear dimensionality reductions")
    uses_neighbors = False
    requires_connected_graph = False
    table_note = ("scikit-learn NMF (Frobenius loss, coordinate descent, NNDSVDa start); "
                  "nonnegative data only (the Swiss roll is skipped); not a thesis row.")

    def __init__(self, *, n_components=2, init=None, solver="cd", beta_loss="frobenius",
                 tol=1e-4, max_iter=200, random_state=None):
        self.n_components = n_components
        self.init = init
        self.solver = solver
        self.beta_loss = beta_loss
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    @classmethod
    def skip(cls, dataset, solver):
        """Skip a data set with negative entries, saying so and what would fix it."""
        skip, why = super().skip(dataset, solver)
        if skip or dataset is None:
            return skip, why
        X = np.asarray(dataset.X)
        if np.issubdtype(X.dtype, np.number) and X.size and np.nanmin(X) < 0:
            return True, (f"NMF needs nonnegative inputs; this data set has negative "
                          f"entries (minimum {np.nanmin(X):g}): shift or rescale its "
                          f"features, or compare with PCA")
        return False, ""

    def _embed(self, X):
        check_nonnegative(X)
        self.model_ = _SkNMF(n_components=self.n_components, init=self.init,
                             solver=self.solver, beta_loss=self.beta_loss, tol=self.tol,
                             max_iter=self.max_iter, random_state=self.random_state)
        W = self.model_.fit_transform(X)
        self.components_ = self.model_.components_
        self.reconstruction_error_ = float(self.model_.reconstruction_err_)
        self.n_iter_ = int(self.model_.n_iter_)
        return W

    def transform(self, X):
        """Codes ``W`` of new inputs with the fitted ``H`` (scikit-learn's solve)."""
        self._check_fitted()
        X = validate_data(self, X, reset=False, dtype=np.float64)
        check_nonnegative(X)
        return self.model_.transform(X)
