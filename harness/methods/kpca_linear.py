"""Kernel PCA with the linear kernel (thesis 3.1.9, eq. 3.46)."""

from __future__ import annotations

from harness.kernels import linear_kernel
from harness.methods.shared.kernel_pca import KernelPCAEmbedding


class KernelPCALinear(KernelPCAEmbedding):
    """Kernel PCA with the linear kernel K(x, y) = x . y (3.46).

    "The linear kernel simply identifies the feature space with the input space"
    (3.1.9): the centred kernel (3.49) is the Gram matrix of the centred inputs and the
    embedding is PCA's (up to the sign of each column). The thesis compares it with
    the polynomial, Gaussian and MVU kernels in Figs. 3.32-3.35.

    Parameters
    ----------
    n_components : int, default=2
        Output dimension d: y_i = (sqrt(l_1) v_1i, ..., sqrt(l_d) v_di).

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    kernel_eigenvalues_ : ndarray
        Eigenvalues of the centred kernel, largest first (all of them up to
        ``harness.methods.shared.kernel_pca.DENSE_SPECTRUM_MAX_N`` points, else the top 50).
    normalised_eigenvalues_ : ndarray
        ``kernel_eigenvalues_`` divided by the trace of the centred kernel.
    kernel_trace_ : float
    """

    name = "kpca_linear"
    thesis_label = "kernel PCA (linear)"
    references = ("thesis 3.1.9, eqs. 3.46, 3.49",
                  "Schölkopf, Smola & Müller, Neural Computation 10(5), 1998")
    table_note = "kernel PCA, linear kernel x . y (3.46), centred as (3.49)."

    def __init__(self, *, n_components=2):
        self.n_components = n_components

    def _kernel(self, X):
        return linear_kernel(X)
