"""Kernel PCA with the Gaussian kernel (thesis 3.1.9, eq. 3.48)."""

from __future__ import annotations

import math
import numbers


from harness.kernels import gaussian_kernel, neighbourhood_scale
from harness.methods.shared.kernel_pca import KernelPCAEmbedding


def check_sigma(sigma) -> None:
    """Raise ``ValueError`` naming ``sigma`` unless it is ``"auto"`` or a positive,
    finite number."""
    if isinstance(sigma, str) and sigma == "auto":
        return
    if (isinstance(sigma, bool) or not isinstance(sigma, numbers.Real)
            or not math.isfinite(sigma) or sigma <= 0):
        raise ValueError(f"sigma={sigma!r} must be a positive number or 'auto' (the width "
                         f"of exp(-|x - y|^2 / (2 sigma^2)), thesis 3.48)")


class KernelPCAGaussian(KernelPCAEmbedding):
    """Kernel PCA with the Gaussian kernel K(x, y) = exp(-|x - y|^2 / (2 sigma^2)) (3.48).

    The thesis' widths: sigma = 1.45 on the Swiss roll (Fig. 3.32), 1541 on the teapot
    (Fig. 3.33), and in general (footnote 4) "the estimated standard deviation within
    neighborhoods of size k = 4, thus reflecting the same length scale used in MVU".
    ``sigma="auto"`` is that estimate, read as the root-mean-square distance of each
    point to its ``sigma_neighbors`` nearest neighbours
    (:func:`harness.kernels.neighbourhood_scale`, which says why this reading).

    Parameters
    ----------
    sigma : float or "auto", default="auto"
        Width of the kernel; ``"auto"``: footnote 4's neighbourhood estimate.
    sigma_neighbors : int, default=4
        k of the neighbourhood estimate (footnote 4: k = 4); unused for a numeric sigma.
    n_components : int, default=2
        Output dimension d.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    sigma_ : float
        The width used (the estimate when ``sigma="auto"``).
    sigma_auto_ : float
        Footnote 4's estimate (with ``sigma_neighbors``), computed whatever ``sigma``
        is, to compare a given width with it (NaN where it does not exist and
        ``sigma`` is given).
    kernel_eigenvalues_ : ndarray
        Eigenvalues of the centred kernel, largest first.
    normalised_eigenvalues_ : ndarray
        Divided by the trace of the centred kernel.
    kernel_trace_ : float
    """

    name = "kpca_gaussian"
    thesis_label = "kernel PCA (Gaussian)"
    references = ("thesis 3.1.9, eqs. 3.48, 3.49 and footnote 4",
                  "Schölkopf, Smola & Müller, Neural Computation 10(5), 1998")
    table_note = ("kernel PCA, Gaussian kernel (3.48); sigma by default the RMS distance to "
                  "the 4 nearest neighbours (footnote 4).")

    def __init__(self, *, sigma="auto", sigma_neighbors=4, n_components=2):
        self.sigma = sigma
        self.sigma_neighbors = sigma_neighbors
        self.n_components = n_components

    def _kernel(self, X):
        check_sigma(self.sigma)
        if not 1 <= int(self.sigma_neighbors) < len(X):
            raise ValueError(f"sigma_neighbors={self.sigma_neighbors} must satisfy 1 <= "
                             f"sigma_neighbors < n_samples={len(X)}; lower it or use more "
                             f"samples")
        try:
            self.sigma_auto_ = neighbourhood_scale(X, self.sigma_neighbors)
        except ValueError:
            if self.sigma == "auto":
                raise
            self.sigma_auto_ = float("nan")  # a given width needs no estimate
        sigma = self.sigma_auto_ if self.sigma == "auto" else float(self.sigma)
        self.sigma_ = sigma
        return gaussian_kernel(X, sigma=sigma)
