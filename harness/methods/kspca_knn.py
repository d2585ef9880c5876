"""kNN after kernel supervised PCA (Barshan et al. 2011, sec. 5; lecture notes
``statwiki_stat841f14``, lecture 10, "Kernel SPCA")."""

from __future__ import annotations

import math
import numbers

import numpy as np

from harness.kernels import gaussian_kernel, linear_kernel, polynomial_kernel, squared_distances
from harness.methods.shared.metric_knn import MetricKNNClassifier
from harness.methods.shared.spca import (
    check_n_components,
    default_n_components,
    kernel_spca,
    label_factor,
)

__all__ = ["KernelSPCAKNN", "median_distance", "KERNELS", "MAX_SAMPLES",
           "MEDIAN_SUBSAMPLE"]

KERNELS = ("gaussian", "linear", "polynomial")
#: Data sets with more points are skipped: the n x n kernel, its products and the
#: generalised eigensolve (O(n^3)) of the training part would not fit a cell's budget
#: (10^4 points: three 0.8 GB matrices).
MAX_SAMPLES = 10_000
#: The median heuristic uses at most this many (evenly strided) training points.
MEDIAN_SUBSAMPLE = 1000


def median_distance(X: np.ndarray) -> float:
    """The median Euclidean distance between distinct training points (Gretton et al.'s
    heuristic width for HSIC's Gaussian kernels), from at most
    :data:`MEDIAN_SUBSAMPLE` evenly strided points."""
    X = np.asarray(X, dtype=np.float64)
    sample = X[:: max(1, -(-len(X) // MEDIAN_SUBSAMPLE))]
    D2 = squared_distances(sample)
    upper = D2[np.triu_indices(len(sample), k=1)]
    return float(np.sqrt(np.median(upper))) if upper.size else 0.0


class KernelSPCAKNN(MetricKNNClassifier):
    """k-nearest-neighbour classification after kernel supervised PCA.

    Kernel SPCA (Barshan, Ghodsi, Azimifar & Zolghadri Jahromi 2011, Algorithm 3;
    lecture 10) writes the directions as ``U = Phi(X)^T beta`` and maximises
    ``tr(beta^T K H L H K beta)`` subject to ``beta^T K beta = I`` -- the top
    generalised eigenvectors of ``(K H L H K, K)`` -- with ``K`` the training kernel
    and ``L`` the delta kernel of the labels. A point is projected to
    ``z = beta^T k(X_train, x)``, and kNN (tie rule of 2.1.6) and the energy rule
    (2.12) use Euclidean distances between projections. The map is not linear in
    ``x`` (no ``components_``); with ``kernel="linear"`` it is SPCA's
    (:class:`harness.methods.spca_knn.SPCAKNN`) up to the sign of each direction and the
    regularisation.

    Our choices where the paper leaves room: ``K`` in the constraint is regularised to
    ``K + eps I`` with ``eps = regularization * tr(K) / n`` (:mod:`harness.methods.shared.spca` says
    why); the Gaussian kernel's width is by default the median distance between
    training points (Gretton et al.'s heuristic for HSIC); the dimension is by
    default ``n_classes - 1``, the rank of ``H L H``. Data sets of more than
    :data:`MAX_SAMPLES` points are skipped (marked cells).

    Parameters
    ----------
    n_neighbors : int, default=3
        k of the kNN rule and of the energy rule's target neighbours.
    n_components : int or None, default=None
        Number of directions; None: the rank of ``H L H`` (``n_classes - 1`` for the
        delta kernel, ``n - 1`` for the identity).
    kernel : {"gaussian", "linear", "polynomial"}, default="gaussian"
        ``exp(-|x - y|^2 / (2 sigma^2))``, ``x . y`` or ``(1 + x . y)^degree``
        (thesis eqs. 3.46-3.48, :mod:`harness.kernels`).
    sigma : float or "median", default="median"
        Width of the Gaussian kernel; "median": the median distance between training
        points (:func:`median_distance`).
    degree : int, default=2
        Degree of the polynomial kernel.
    label_kernel : {"delta", "identity"}, default="delta"
        ``L``: the delta kernel of the classes, or the identity (kernel PCA's
        objective).
    regularization : float, default=1e-6
        Relative ridge ``eps / (tr(K) / n)`` added to ``K`` in the constraint.
    mu : float, default=0.5
        Weight of the energy rule's impostor terms (2.12).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_train, n_components)
        ``beta``, with ``beta^T (K + eps I) beta = I``.
    eigenvalues_ : ndarray of shape (n_components,)
        Generalised eigenvalues, largest first.
    X_fit_ : ndarray of shape (n_train, n_features)
        The training inputs (the map needs their kernel with new points).
    sigma_ : float
        The Gaussian width used (NaN for the other kernels).
    regularization_eps_ : float
        ``eps``.
    """

    name = "kspca_knn"
    thesis_label = "kernel SPCA"
    references = ("Barshan, Ghodsi, Azimifar & Zolghadri Jahromi, Pattern Recognition "
                  "44(7), 2011 (kernel supervised PCA)",
                  "statwiki stat841f14, lecture 10")
    table_note = ("kNN and energy rule after kernel supervised PCA (Barshan et al. 2011): "
                  "Gaussian kernel of median-distance width, delta label kernel, "
                  "n_classes - 1 dimensions, K + 1e-6 tr(K)/n I in the constraint; data "
                  f"sets above {MAX_SAMPLES} points skipped; not a thesis row.")
    linear_map = False

    def __init__(self, *, n_neighbors=3, n_components=None, kernel="gaussian",
                 sigma="median", degree=2, label_kernel="delta", regularization=1e-6,
                 mu=0.5):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.label_kernel = label_kernel
        self.regularization = regularization
        self.mu = mu

    @classmethod
    def skip(cls, dataset, solver):
        """Skip data sets of more than :data:`MAX_SAMPLES` points (the n x n kernel)."""
        skip, why = super().skip(dataset, solver)
        if skip or dataset is None or dataset.n_samples <= MAX_SAMPLES:
            return skip, why
        gb = 8 * dataset.n_samples**2 / 1e9
        return True, (f"kernel SPCA needs the n x n kernel of the training points and an "
                      f"O(n^3) generalised eigensolve; this data set has "
                      f"{dataset.n_samples} points ({gb:.1f} GB per n x n matrix at "
                      f"that n), above MAX_SAMPLES = {MAX_SAMPLES} of harness.methods.kspca_knn")

    def _check_params(self):
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel={self.kernel!r} must be one of {KERNELS}")
        if not (isinstance(self.sigma, str) and self.sigma == "median") and (
                isinstance(self.sigma, bool) or not isinstance(self.sigma, numbers.Real)
                or not math.isfinite(self.sigma) or self.sigma <= 0):
            raise ValueError(f"sigma={self.sigma!r} must be a positive number or 'median' "
                             f"(the width of exp(-|x - y|^2 / (2 sigma^2)))")
        if isinstance(self.degree, bool) or not isinstance(self.degree, numbers.Integral) \
                or self.degree < 1:
            raise ValueError(f"degree={self.degree!r} must be a positive integer")
        reg = self.regularization
        if isinstance(reg, bool) or not isinstance(reg, numbers.Real) or not (
                math.isfinite(reg) and reg > 0):
            raise ValueError(f"regularization={reg!r} must be a positive number (the ridge "
                             f"eps = regularization * tr(K) / n that keeps K + eps I "
                             f"positive definite)")

    def _kernel(self, X, Y=None):
        if self.kernel == "gaussian":
            return gaussian_kernel(X, Y, sigma=self.sigma_)
        if self.kernel == "polynomial":
            return polynomial_kernel(X, Y, p=self.degree)
        return linear_kernel(X, Y)

    def _fit_map(self, X, codes):
        self._check_params()
        factor = label_factor(codes, self.label_kernel)
        check_n_components(self.n_components, len(X), "kernel SPCA has at most one "
                                                       "direction per training point")
        self.sigma_ = float("nan")
        if self.kernel == "gaussian":
            self.sigma_ = median_distance(X) if self.sigma == "median" else float(self.sigma)
            if not self.sigma_ > 0:
                raise ValueError("sigma='median': the training points are all identical "
                                 "(median distance 0); give a positive sigma")
        r = self.n_components or default_n_components(codes, self.label_kernel)
        self.X_fit_ = X
        self.dual_coef_, self.eigenvalues_, self.regularization_eps_ = kernel_spca(
            self._kernel(X), factor, r, self.regularization)
        return None

    def _map(self, X):
        """``z = beta^T k(X_train, x)`` for each row ``x``."""
        return self._kernel(X, self.X_fit_) @ self.dual_coef_
