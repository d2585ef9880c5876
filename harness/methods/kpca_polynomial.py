"""Kernel PCA with the polynomial kernel (thesis 3.1.9, eq. 3.47)."""

from __future__ import annotations

import numbers

from harness.kernels import polynomial_kernel
from harness.methods.shared.kernel_pca import KernelPCAEmbedding


class KernelPCAPolynomial(KernelPCAEmbedding):
    """Kernel PCA with the polynomial kernel K(x, y) = (1 + x . y)^p (3.47).

    The feature space has dimension O(D^p) (3.1.9). The thesis uses p = 4 on the Swiss
    roll (Fig. 3.32) and the teapot (Fig. 3.33). p must be a positive integer: for
    another exponent 1 + x . y < 0 has no real power and the kernel is not positive
    semidefinite.

    Parameters
    ----------
    degree : int, default=4
        p of (3.47).
    n_components : int, default=2
        Output dimension d.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    kernel_eigenvalues_ : ndarray
        Eigenvalues of the centred kernel, largest first.
    normalised_eigenvalues_ : ndarray
        Divided by the trace of the centred kernel.
    kernel_trace_ : float
    """

    name = "kpca_polynomial"
    thesis_label = "kernel PCA (polynomial)"
    references = ("thesis 3.1.9, eqs. 3.47, 3.49",
                  "Schölkopf, Smola & Müller, Neural Computation 10(5), 1998")
    table_note = "kernel PCA, polynomial kernel (1 + x . y)^p (3.47), p = 4 by default."

    def __init__(self, *, degree=4, n_components=2):
        self.degree = degree
        self.n_components = n_components

    def _kernel(self, X):
        p = self.degree
        if isinstance(p, bool) or not isinstance(p, numbers.Integral) or p < 1:
            raise ValueError(f"degree={p!r} must be an integer >= 1 (p of (1 + x . y)^p, "
                             f"thesis 3.47; the thesis uses 4)")
        return polynomial_kernel(X, p=int(p))
