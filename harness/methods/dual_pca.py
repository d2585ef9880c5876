"""Dual PCA: PCA through the n x n Gram matrix, for d >> n (lecture notes
``statwiki_stat841f14``, lecture 3, "Dual principal component analysis")."""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import validate_data

from harness.methods.shared.kernel_pca import KernelPCAEmbedding, kernel_pca
from harness.methods.shared.manifold import OutOfSampleMixin


class DualPCA(OutOfSampleMixin, KernelPCAEmbedding):
    """Principal component analysis from the eigenvectors of the n x n Gram matrix.

    Lecture 3 (d x n data matrix X, centred): from the SVD X = U Sigma V^T, the
    principal directions are U = X V Sigma^-1, where V holds the top eigenvectors of
    the n x n matrix X^T X and Sigma the square roots of their eigenvalues. When the
    dimension d is much larger than the number of points n (the teapot: 400 images of
    23028 pixels) this replaces PCA's d x d covariance by an n x n eigenproblem.
    In the lecture's steps, with our rows-are-points ``X`` (n x d) centred by its
    mean ``mean_``:

    - basis: ``G = Xc Xc^T``, its top eigenpairs ``(lambda_j, v_j)``, and
      ``u_j = Xc^T v_j / sqrt(lambda_j)`` (the rows of ``components_``);
    - training encoding: ``Y = Xc U = V Sigma`` (no pass over the d features beyond
      forming G);
    - test encoding: ``y = U^T (x - mean_) = Sigma^-1 V^T Xc (x - mean_)``;
    - reconstruction: ``x_hat = U y + mean_`` (``inverse_transform``).

    It is kernel PCA with the linear kernel (thesis 3.1.9) with PCA's basis and
    out-of-sample map added, and it equals :class:`harness.methods.pca.PCA` up to rounding:
    the signs follow scikit-learn's PCA (the largest-magnitude entry of each
    principal direction is positive), and ``explained_variance_`` is
    ``lambda_j / (n - 1)``. A direction whose eigenvalue is not above ``max(n, d) *
    eps * lambda_1`` (more components than the centred data's rank) is a zero row of
    ``components_`` and a zero column of the embedding. Cost: O(n^2 d) for G and
    O(n^3) for its eigenvectors, memory O(n^2 + n d): a win over PCA's O(n d min(n, d))
    SVD only in the constant, and a loss for n >> d (use PCA there).

    Parameters
    ----------
    n_components : int, default=2
        Output dimension.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    components_ : ndarray of shape (n_components, n_features)
        The principal directions ``U^T``, orthonormal rows.
    explained_variance_ : ndarray of shape (n_components,)
    singular_values_ : ndarray of shape (n_components,)
        ``sqrt(lambda_j)``, the singular values of the centred data.
    mean_ : ndarray of shape (n_features,)
    kernel_eigenvalues_ : ndarray
        Eigenvalues of the centred Gram matrix, largest first (all of them up to
        ``harness.methods.shared.kernel_pca.DENSE_SPECTRUM_MAX_N`` points, else the top 50).
    normalised_eigenvalues_ : ndarray
        ``kernel_eigenvalues_`` divided by the trace of the Gram matrix.
    kernel_trace_ : float
    """

    name = "dual_pca"
    thesis_label = "dual PCA"
    references = ("statwiki stat841f14, lecture 3 (Dual PCA)",
                  "Jolliffe, Principal Component Analysis, 1986")
    table_note = ("dual PCA (lecture 3): PCA from the n x n Gram matrix of the centred "
                  "inputs, U = X V Sigma^-1; equals the PCA row up to rounding.")

    def __init__(self, *, n_components=2):
        self.n_components = n_components

    def _kernel(self, X):
        """The Gram matrix ``Xc Xc^T`` of the centred inputs (n x n)."""
        centred = X - X.mean(axis=0)
        return centred @ centred.T

    def _embed(self, X):
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        centred = X - self.mean_
        # the Gram matrix of centred inputs is already centred: (3.49) changes nothing
        result = kernel_pca(centred @ centred.T, self.n_components)
        values = result.eigenvalues[: self.n_components]
        Y = result.embedding.copy()  # V Sigma
        kept = values > max(n, d) * np.finfo(np.float64).eps * max(values[0], 0.0)
        U = np.zeros((d, len(values)))
        U[:, kept] = centred.T @ Y[:, kept] / values[kept]  # X V Sigma^-1 = X Y Sigma^-2
        Y[:, ~kept] = 0.0
        # scikit-learn's PCA signs (svd_flip with u_based_decision=False)
        rows = np.argmax(np.abs(U), axis=0)
        signs = np.sign(U[rows, np.arange(U.shape[1])])
        signs[signs == 0] = 1.0
        self.components_ = (U * signs).T
        self.singular_values_ = np.sqrt(np.where(kept, values, 0.0))
        self.explained_variance_ = self.singular_values_**2 / (n - 1)
        self.kernel_eigenvalues_ = result.eigenvalues
        self.normalised_eigenvalues_ = result.normalised
        self.kernel_trace_ = result.trace
        return Y * signs

    def transform(self, X):
        """Encode new inputs: ``y = U^T (x - mean_)`` (lecture 3, "Encode test
        example")."""
        self._check_fitted()
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return (X - self.mean_) @ self.components_.T

    def inverse_transform(self, Y):
        """Reconstruct inputs from codes: ``x_hat = U y + mean_`` (lecture 3,
        "Reconstruct test example")."""
        self._check_fitted()
        Y = np.asarray(Y, dtype=np.float64)
        if Y.ndim != 2 or Y.shape[1] != self.components_.shape[0]:
            raise ValueError(f"inverse_transform needs codes of shape (m, "
                             f"{self.components_.shape[0]}); got shape {Y.shape}")
        return Y @ self.components_ + self.mean_
