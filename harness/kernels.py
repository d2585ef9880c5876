"""The standard kernels of thesis 3.1.9 ("Kernel PCA"), eqs. (3.46)-(3.48), and a
length scale of a data set's neighbourhoods.

(3.46) linear ``K(x, y) = x . y``; (3.47) polynomial ``K(x, y) = (1 + x . y)^p``;
(3.48) Gaussian ``K(x, y) = exp(-|x - y|^2 / (2 sigma^2))``. Each takes the rows of
``X`` and ``Y`` (``Y = X`` by default) and returns the ``(len(X), len(Y))`` matrix.
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors

__all__ = ["linear_kernel", "polynomial_kernel", "gaussian_kernel", "squared_distances",
           "neighbourhood_scale"]


def _pair(X, Y):
    X = np.asarray(X, dtype=np.float64)
    return X, X if Y is None else np.asarray(Y, dtype=np.float64)


def linear_kernel(X, Y=None) -> np.ndarray:
    """(3.46): ``x . y``."""
    X, Y = _pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, p: int = 2) -> np.ndarray:
    """(3.47): ``(1 + x . y)^p`` (non-homogeneous, degree ``p``)."""
    if int(p) != p or p < 1:
        raise ValueError(f"polynomial kernel: p = {p!r} must be a positive integer")
    X, Y = _pair(X, Y)
    return (1.0 + X @ Y.T) ** int(p)


def squared_distances(X, Y=None) -> np.ndarray:
    """``|x - y|^2`` for every pair, clipped at 0 (the expansion can round below)."""
    X, Y = _pair(X, Y)
    sq = np.einsum("ij,ij->i", X, X)[:, None] + np.einsum("ij,ij->i", Y, Y)[None, :]
    return np.maximum(sq - 2.0 * X @ Y.T, 0.0)


def gaussian_kernel(X, Y=None, sigma: float = 1.0) -> np.ndarray:
    """(3.48): ``exp(-|x - y|^2 / (2 sigma^2))``."""
    if not sigma > 0:
        raise ValueError(f"Gaussian kernel: sigma = {sigma!r} must be positive")
    return np.exp(-squared_distances(X, Y) / (2.0 * sigma**2))


def neighbourhood_scale(X, k: int = 4) -> float:
    """Root mean square distance of each point to its ``k`` nearest neighbours: the
    length scale of the neighbourhoods MVU preserves (the thesis sets the Gaussian's
    width of its kernel PCA experiments "to the estimated standard deviation within
    neighborhoods of size k = 4", 3.1.9, footnote 4)."""
    X = np.asarray(X, dtype=np.float64)
    if not 1 <= k < len(X):
        raise ValueError(f"neighbourhood scale: k = {k} must satisfy 1 <= k < n = {len(X)}")
    distances, _ = NearestNeighbors(n_neighbors=k).fit(X).kneighbors()
    return float(np.sqrt(np.mean(distances**2)))
