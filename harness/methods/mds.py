"""Classical multidimensional scaling (Torgerson 1952; the base of Isomap, thesis 3.2.1)."""

from __future__ import annotations

import numpy as np

from harness.kernels import squared_distances
from harness.methods.shared.kernel_pca import KernelPCAEmbedding

DISSIMILARITIES = ("euclidean", "precomputed")


def check_distance_matrix(D: np.ndarray, rtol: float = 1e-10) -> np.ndarray:
    """Return a precomputed distance matrix as float64, or raise ``ValueError`` naming
    what is wrong: not square, not symmetric (beyond ``rtol`` of its largest entry),
    negative entries, a non-zero diagonal."""
    D = np.asarray(D, dtype=np.float64)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError(f"dissimilarity='precomputed' needs a square n x n distance matrix; "
                         f"got shape {D.shape}; pass X with dissimilarity='euclidean' instead")
    scale = max(float(np.abs(D).max()), 1.0)
    asym = np.abs(D - D.T)
    if asym.max() > rtol * scale:
        i, j = np.unravel_index(np.argmax(asym), asym.shape)
        raise ValueError(f"the precomputed distance matrix is not symmetric: D[{i}, {j}] = "
                         f"{D[i, j]:g} but D[{j}, {i}] = {D[j, i]:g}; symmetrise it, "
                         f"e.g. (D + D.T) / 2")
    if (D < 0).any():
        i, j = np.argwhere(D < 0)[0]
        raise ValueError(f"the precomputed distance matrix has negative entries: D[{i}, {j}] "
                         f"= {D[i, j]:g}; distances must be >= 0")
    diag = np.abs(np.diag(D))
    if diag.max() > rtol * scale:
        i = int(np.argmax(diag))
        raise ValueError(f"the precomputed distance matrix has a non-zero diagonal: D[{i}, "
                         f"{i}] = {D[i, i]:g}; a point's distance to itself must be 0")
    return 0.5 * (D + D.T)


class ClassicalMDS(KernelPCAEmbedding):
    """Classical (Torgerson) multidimensional scaling.

    From the matrix D^2 of squared distances, B = -1/2 J D^2 J with J = I - (1/n) 1 1^T
    (the Gram matrix of the centred points when the distances are Euclidean), and
    y_i = (sqrt(l_1) v_1i, ..., sqrt(l_d) v_di) from its top eigenpairs. This is kernel
    PCA (3.1.9) on the "kernel" -1/2 D^2, which (3.49) centres to B; from the
    Euclidean distances of X it equals PCA of X. The thesis meets it as the last step
    of Isomap (3.2.1); sklearn's ``MDS`` is the iterative SMACOF, not this.

    ``fit(X)`` takes the inputs (``dissimilarity="euclidean"``) or a symmetric n x n
    matrix of distances, not squared (``dissimilarity="precomputed"``). Negative
    eigenvalues of B (non-Euclidean distances) are kept in ``kernel_eigenvalues_``; a
    kept dimension whose eigenvalue is not positive is a zero column.

    Parameters
    ----------
    n_components : int, default=2
        Output dimension d.
    dissimilarity : {"euclidean", "precomputed"}, default="euclidean"
        Whether ``fit`` gets points or their distance matrix.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    kernel_eigenvalues_ : ndarray
        Eigenvalues of B, largest first.
    normalised_eigenvalues_ : ndarray
        Divided by the trace of B.
    kernel_trace_ : float
    """

    name = "mds"
    thesis_label = "classical MDS"
    references = ("Torgerson, Psychometrika 17(4), 1952", "thesis 3.2.1 (Isomap's last step)")
    table_note = "classical MDS: top eigenvectors of -1/2 J D^2 J."

    def __init__(self, *, n_components=2, dissimilarity="euclidean"):
        self.n_components = n_components
        self.dissimilarity = dissimilarity

    def _kernel(self, X):
        if self.dissimilarity not in DISSIMILARITIES:
            raise ValueError(f"dissimilarity={self.dissimilarity!r} must be one of "
                             f"{DISSIMILARITIES}")
        if self.dissimilarity == "precomputed":
            return -0.5 * check_distance_matrix(X) ** 2
        return -0.5 * squared_distances(X)
