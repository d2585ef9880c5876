"""Shared core of the kernel PCA plugins (thesis 3.1.9, eqs. 3.46-3.49) and of
classical MDS: centre a kernel matrix, diagonalise it, embed.

Kernel PCA (Schölkopf, Smola & Müller 1998; thesis 3.1.9, "Kernel PCA"): given a
kernel matrix K_ij = Phi(x_i) . Phi(x_j), centre the features in feature space
(3.49), write the centred K = sum_a lambda_a v_a v_a^T with lambda_1 >= lambda_2 >=
..., and map x_i to y_i = (sqrt(lambda_1) v_1i, ..., sqrt(lambda_d) v_di). The
relative weight of the leading d eigenvalues, their sum divided by the trace,
"measures the relative variance captured by the leading d eigenvectors".

The centring (3.49) is printed as K_ij <- K_ij - (2/N) sum_k K_kj + (1/N^2)
sum_kl K_kl, which is not the centred Gram matrix element by element (it is not even
symmetric); recomputing the inner products of the centred features Phi(x_i) - (1/N)
sum_j Phi(x_j), as the sentence before (3.49) says, gives

    K_ij <- K_ij - (1/N) sum_k K_ik - (1/N) sum_k K_kj + (1/N^2) sum_kl K_kl,

i.e. J K J with J = I - (1/N) 1 1^T. That is what :func:`center_kernel` computes
(the printed form has the same trace and a zero total sum too, but not the same
entries: its rows do not sum to zero).

Classical MDS is the same computation on K = -1/2 D^2 (squared distances): J K J is
the B = -1/2 J D^2 J of the lecture notes, and for Euclidean distances of X it is the
centred linear kernel, so MDS of X is PCA of X.
"""

from __future__ import annotations

import abc
import dataclasses

import numpy as np
from scipy.linalg import eigh

from harness.methods.shared.manifold import ManifoldEmbedding

__all__ = ["DENSE_SPECTRUM_MAX_N", "N_TOP_EIGENVALUES", "KernelPCAResult",
           "center_kernel", "kernel_pca", "KernelPCAEmbedding"]

# Up to this many points every eigenvalue of the centred kernel is computed (a dense
# symmetric eigensolver, O(n^3): ~0.3 s at n = 1000); beyond, only the top
# N_TOP_EIGENVALUES (LAPACK's subset solver), and the trace from the diagonal.
DENSE_SPECTRUM_MAX_N = 2000
N_TOP_EIGENVALUES = 50


@dataclasses.dataclass(frozen=True)
class KernelPCAResult:
    """What :func:`kernel_pca` returns.

    Attributes
    ----------
    embedding : ndarray of shape (n, d)
        y_i = (sqrt(lambda_1) v_1i, ..., sqrt(lambda_d) v_di); a column whose
        eigenvalue is not positive is zero.
    eigenvalues : ndarray of shape (m,)
        Eigenvalues of the centred kernel, largest first (all n of them when n <=
        ``DENSE_SPECTRUM_MAX_N``, else the top max(N_TOP_EIGENVALUES, d)).
    trace : float
        Trace of the centred kernel (the sum of *all* its eigenvalues).
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    trace: float

    @property
    def normalised(self) -> np.ndarray:
        """Eigenvalues divided by the trace (the thesis' "normalized by their trace")."""
        return self.eigenvalues / self.trace if self.trace != 0 else self.eigenvalues.copy()


def center_kernel(K: np.ndarray) -> np.ndarray:
    """J K J: the kernel of the centred features (thesis 3.49 as derived, see the
    module docstring), symmetrised against rounding."""
    K = np.asarray(K, dtype=np.float64)
    col = K.mean(axis=0)
    row = K.mean(axis=1)
    Kc = K - col[None, :] - row[:, None] + col.mean()
    return 0.5 * (Kc + Kc.T)


def _flip_signs(V: np.ndarray) -> np.ndarray:
    """Each eigenvector with its largest-magnitude entry positive (deterministic signs;
    scikit-learn's ``svd_flip`` convention)."""
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def kernel_pca(K: np.ndarray, n_components: int) -> KernelPCAResult:
    """Kernel PCA of the kernel matrix ``K`` (not yet centred): centre (3.49),
    diagonalise, embed in ``n_components`` dimensions.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        A symmetric kernel (Gram) matrix.
    n_components : int
        d, the output dimension (< n).

    Returns
    -------
    KernelPCAResult
    """
    Kc = center_kernel(K)
    n = Kc.shape[0]
    if n <= DENSE_SPECTRUM_MAX_N:
        values, vectors = eigh(Kc)
    else:
        m = min(n, max(N_TOP_EIGENVALUES, n_components))
        values, vectors = eigh(Kc, subset_by_index=[n - m, n - 1])
    values, vectors = values[::-1], _flip_signs(vectors[:, ::-1])
    d = int(n_components)
    scale = np.sqrt(np.clip(values[:d], 0.0, None))
    return KernelPCAResult(embedding=vectors[:, :d] * scale, eigenvalues=values,
                           trace=float(np.trace(Kc)))


class KernelPCAEmbedding(ManifoldEmbedding, abc.ABC):
    """Skeleton of a kernel PCA plugin: subclasses give the kernel matrix.

    Subclasses implement ``_kernel(X) -> ndarray (n, n)``. Fitted attributes:
    ``embedding_`` (n, n_components), ``kernel_eigenvalues_`` (eigenvalues of the
    centred kernel, largest first: all of them up to ``DENSE_SPECTRUM_MAX_N`` points,
    else the top ``N_TOP_EIGENVALUES``), ``normalised_eigenvalues_`` (divided by the
    trace of the centred kernel), ``kernel_trace_``.
    """

    uses_neighbors = False
    requires_connected_graph = False

    @abc.abstractmethod
    def _kernel(self, X: np.ndarray) -> np.ndarray:
        """The ``(n, n)`` kernel matrix of the inputs (before centring)."""

    def _embed(self, X):
        result = kernel_pca(self._kernel(X), self.n_components)
        self.kernel_eigenvalues_ = result.eigenvalues
        self.normalised_eigenvalues_ = result.normalised
        self.kernel_trace_ = result.trace
        return result.embedding
