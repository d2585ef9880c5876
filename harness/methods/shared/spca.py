r"""Shared core of supervised PCA and kernel supervised PCA (Barshan, Ghodsi,
Azimifar & Zolghadri Jahromi, "Supervised principal component analysis:
Visualization, classification and regression on subspaces and submanifolds",
Pattern Recognition 44(7), 2011; lecture notes ``statwiki_stat841f14``, lectures 9-10).

Supervised PCA looks for the orthonormal directions ``U`` whose projections depend
most on the labels, measured by HSIC (:mod:`harness.metrics.hsic`) between the
linear kernel of ``U^T x`` and a label kernel ``L``:

.. math:: \max_U \operatorname{tr}(U^T X^T H L H X U) \quad \text{s.t.} \quad U^T U = I

(rows-are-points ``X``, n x d; the lectures' ``X`` is its transpose). The solution
is the top eigenvectors of ``Q = X^T H L H X``. With ``L = I`` ("B = I" in lecture
10) ``Q`` is the scatter matrix of the centred inputs and SPCA is PCA; with the
delta kernel of class labels (``L_ij = [y_i = y_j]``) ``rank(H L H) = n_classes -
1``, so there are at most that many informative directions, as for LDA.

Every label kernel used here is given by a factor ``Delta`` with ``L = Delta^T
Delta`` (the lecture's ``B = Delta^T Delta``): the one-hot class indicator matrix
(n_classes x n) for the delta kernel, the identity for ``L = I``. Then ``Q = A^T A``
with ``A = Delta H X`` -- the class sums of the centred inputs for the delta kernel,
so no n x n matrix is ever formed -- and ``U`` is ``A``'s top right singular vectors.

Kernel SPCA (Barshan et al. 2011, sec. 5; lecture 10) writes ``U = Phi(X)^T beta``
and maximises ``tr(beta^T K H L H K beta)`` subject to ``beta^T K beta = I``: the
top generalised eigenvectors of ``(K H L H K, K)``. ``K`` is singular as soon as
the feature space has fewer dimensions than points (the linear kernel with d < n)
and nearly so for a Gaussian kernel, so the constraint matrix is regularised:
``K + eps I`` with ``eps = regularization * tr(K) / n`` (relative to the mean
diagonal of ``K``, so scale-free), which makes it positive definite for LAPACK's
generalised symmetric solver and leaves directions in ``K``'s null space with
eigenvalue 0. This choice is ours (the paper states the generalised eigenproblem
with ``K`` itself); for the linear kernel its effect on the projections is of the
order of ``eps / sigma_min(X^T X)``. Projections: ``z = beta^T k(X_train, x)``.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.linalg import eigh

__all__ = ["LABEL_KERNELS", "check_n_components", "default_n_components", "flip_columns",
           "kernel_spca", "label_factor", "spca_map"]

#: Label kernels by name: "delta" (classes, L_ij = [y_i = y_j]) and "identity"
#: (L = I, the lectures' B = I: PCA).
LABEL_KERNELS = ("delta", "identity")


def label_factor(codes: np.ndarray, label_kernel: str) -> np.ndarray | None:
    """``Delta`` with ``L = Delta^T Delta`` for integer class ``codes``: the one-hot
    indicator matrix (n_classes x n) of the delta kernel, None for the identity."""
    if label_kernel == "delta":
        codes = np.asarray(codes)
        return (np.arange(codes.max() + 1)[:, None] == codes[None, :]).astype(np.float64)
    if label_kernel == "identity":
        return None
    raise ValueError(f"label_kernel={label_kernel!r} must be one of {LABEL_KERNELS} "
                     f"(delta: classes, L_ij = [y_i = y_j]; identity: L = I, i.e. PCA)")


def default_n_components(codes: np.ndarray, label_kernel: str) -> int:
    """The rank of ``H L H``, the number of directions with positive objective at
    most: ``n_classes - 1`` (delta kernel), ``n - 1`` (identity)."""
    codes = np.asarray(codes)
    if label_kernel == "delta":
        return max(int(codes.max()), 1)
    return max(len(codes) - 1, 1)


def check_n_components(n_components, limit: int, what: str) -> None:
    """``n_components`` must be None or an integer in 1 .. ``limit``."""
    if n_components is None:
        return
    if (isinstance(n_components, bool) or not isinstance(n_components, numbers.Integral)
            or not 1 <= n_components <= limit):
        raise ValueError(f"n_components={n_components!r} must be None or an integer with "
                         f"1 <= n_components <= {limit} ({what})")


def flip_columns(V: np.ndarray) -> np.ndarray:
    """Each column with its largest-magnitude entry positive (scikit-learn's
    ``svd_flip`` convention; deterministic signs)."""
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def spca_map(X: np.ndarray, factor: np.ndarray | None, n_components: int
             ) -> tuple[np.ndarray, np.ndarray]:
    """SPCA's directions: the top ``n_components`` eigenvectors of ``Q = X^T H L H X``
    with ``L = factor^T factor`` (``factor`` None: ``L = I``).

    Returns ``(components, eigenvalues)``: the directions as orthonormal rows
    (``n_components x n_features``, each with its largest-magnitude entry positive)
    and their eigenvalues of ``Q``, largest first. Directions beyond the rank of ``Q``
    span part of its null space (eigenvalue 0; which part is LAPACK's choice).
    """
    X = np.asarray(X, dtype=np.float64)
    centred = X - X.mean(axis=0)
    A = centred if factor is None else factor @ centred  # Q = A^T A
    r, d = int(n_components), X.shape[1]
    if r <= min(A.shape):
        _, s, Vt = np.linalg.svd(A, full_matrices=False)
        vectors, values = Vt[:r].T, s[:r] ** 2
    else:  # more directions than A has singular vectors: the d x d eigenproblem
        values, vectors = eigh(A.T @ A, subset_by_index=[d - r, d - 1])
        values, vectors = np.clip(values[::-1], 0.0, None), vectors[:, ::-1]
    return flip_columns(vectors).T, values


def kernel_spca(K: np.ndarray, factor: np.ndarray | None, n_components: int,
                regularization: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Kernel SPCA's coefficients: the top generalised eigenvectors ``beta`` of
    ``K H L H K beta = lambda (K + eps I) beta`` with ``L = factor^T factor``
    (``factor`` None: ``L = I``) and ``eps = regularization * tr(K) / n``.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        The (uncentred) kernel matrix of the training inputs.
    factor : ndarray of shape (m, n) or None
    n_components : int
        At most n.
    regularization : float
        Relative ridge on the constraint matrix, > 0.

    Returns
    -------
    beta : ndarray of shape (n, n_components)
        ``beta^T (K + eps I) beta = I``; each column signed so that its
        largest-magnitude entry is positive. Projections are ``k(X_train, x)^T beta``.
    eigenvalues : ndarray of shape (n_components,)
        Largest first.
    eps : float
    """
    K = np.asarray(K, dtype=np.float64)
    n, r = K.shape[0], int(n_components)
    HK = K - K.mean(axis=0)  # H K
    A = HK if factor is None else factor @ HK  # Q = K H L H K = A^T A
    Q = A.T @ A
    eps = float(regularization) * max(float(np.trace(K)) / n, np.finfo(np.float64).tiny)
    B = K + eps * np.eye(n)
    values, beta = eigh(0.5 * (Q + Q.T), 0.5 * (B + B.T), subset_by_index=[n - r, n - 1])
    return flip_columns(beta[:, ::-1]), values[::-1], eps
