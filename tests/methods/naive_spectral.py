"""Naive, dense, loop-level reference implementations of the spectral embeddings of
thesis section 3.2.1 (and PCA, section 2.2.1), written from the equations and
independent of scikit-learn, plus the small test manifolds they are compared on.

Everything here is O(n^2) memory or worse and is meant for n of about 100.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

__all__ = [
    "swiss_roll",
    "curved_sheet",
    "flat_patch",
    "pairwise_distances",
    "knn_indices",
    "knn_adjacency",
    "naive_pca",
    "floyd_warshall",
    "naive_isomap",
    "naive_lle_weights",
    "naive_lle",
    "naive_laplacian_eigenmaps",
    "naive_hessian_lle",
]


# --------------------------------------------------------------------------- #
# test manifolds
# --------------------------------------------------------------------------- #
def swiss_roll(n: int = 120, noise: float = 0.05, seed: int = 0):
    """A small noisy Swiss roll in 3-D; returns ``(X, (t, h))`` with the roll angle t
    and the height h as the intrinsic coordinates."""
    rng = np.random.default_rng(seed)
    t = 1.5 * np.pi * (1.0 + 2.0 * rng.uniform(size=n))
    h = rng.uniform(0.0, 8.0, size=n)
    X = np.column_stack([t * np.cos(t), h, t * np.sin(t)])
    X += noise * rng.standard_normal(X.shape)
    return X, (t, h)


def curved_sheet(n: int = 100, seed: int = 0):
    """Points on the saddle z = 0.3 (u^2 - v^2) over the rectangle [-1.6, 1.6] x [-1, 1]
    (anisotropic so that the leading eigenvalues are well separated)."""
    rng = np.random.default_rng(seed)
    u = rng.uniform(-1.6, 1.6, size=n)
    v = rng.uniform(-1.0, 1.0, size=n)
    return np.column_stack([u, v, 0.3 * (u**2 - v**2)]), np.column_stack([u, v])


def flat_patch(n: int = 150, seed: int = 0):
    """A flat rectangle [0, 1] x [0, 1.4] placed in 3-D by a random rotation and a
    translation (an isometric embedding); returns ``(X, uv)``."""
    rng = np.random.default_rng(seed)
    uv = rng.uniform(0.0, 1.0, size=(n, 2)) * np.array([1.0, 1.4])
    Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    X = np.column_stack([uv, np.zeros(n)]) @ Q.T + np.array([3.0, -1.0, 2.0])
    return X, uv


# --------------------------------------------------------------------------- #
# neighbourhoods
# --------------------------------------------------------------------------- #
def pairwise_distances(X: np.ndarray) -> np.ndarray:
    """Dense Euclidean distance matrix by explicit differences."""
    diff = X[:, None, :] - X[None, :, :]
    return np.sqrt((diff**2).sum(axis=-1))


def knn_indices(X: np.ndarray, k: int) -> np.ndarray:
    """Row i: the indices of the k nearest neighbours of x_i, nearest first, self
    excluded."""
    D = pairwise_distances(X)
    np.fill_diagonal(D, np.inf)
    return np.argsort(D, axis=1, kind="stable")[:, :k]


def knn_adjacency(X: np.ndarray, k: int) -> np.ndarray:
    """Boolean adjacency of the symmetrised k-NN graph: i ~ j if either is among the
    other's k nearest neighbours."""
    n = X.shape[0]
    A = np.zeros((n, n), dtype=bool)
    nbrs = knn_indices(X, k)
    for i in range(n):
        A[i, nbrs[i]] = True
    return A | A.T


# --------------------------------------------------------------------------- #
# the methods
# --------------------------------------------------------------------------- #
def naive_pca(X: np.ndarray, r: int) -> np.ndarray:
    """Scores on the top r principal directions: U S of the SVD of the centred data."""
    Xc = X - X.mean(axis=0)
    U, S, _ = np.linalg.svd(Xc, full_matrices=False)
    return U[:, :r] * S[:r]


def floyd_warshall(G: np.ndarray) -> np.ndarray:
    """All-pairs shortest paths of a dense weight matrix (np.inf = no edge)."""
    D = G.copy()
    np.fill_diagonal(D, 0.0)
    for m in range(D.shape[0]):
        D = np.minimum(D, D[:, m, None] + D[None, m, :])
    return D


def naive_isomap(X: np.ndarray, k: int, r: int):
    """Thesis 3.2.1, Isomap steps 1-3. Returns ``(Y, eigenvalues descending)``."""
    n = X.shape[0]
    G = np.where(knn_adjacency(X, k), pairwise_distances(X), np.inf)
    SP = floyd_warshall(G)
    if not np.isfinite(SP).all():
        raise AssertionError("reference: the k-NN graph is disconnected")
    H = np.eye(n) - np.ones((n, n)) / n
    B = -0.5 * H @ (SP**2) @ H
    w, V = np.linalg.eigh(B)
    order = np.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    return V[:, :r] * np.sqrt(w[:r]), w


def naive_lle_weights(X: np.ndarray, k: int, reg: float = 1e-3) -> np.ndarray:
    """Reconstruction weights minimising (3.37) with rows summing to one; the local
    Gram matrix is regularised by ``reg * trace`` (as scikit-learn and Roweis' code)."""
    n = X.shape[0]
    W = np.zeros((n, n))
    nbrs = knn_indices(X, k)
    for i in range(n):
        Z = X[nbrs[i]] - X[i]
        C = Z @ Z.T
        tr = np.trace(C)
        C = C + np.eye(k) * (reg * tr if tr > 0 else reg)
        w = np.linalg.solve(C, np.ones(k))
        W[i, nbrs[i]] = w / w.sum()
    return W


def naive_lle(X: np.ndarray, k: int, r: int, reg: float = 1e-3):
    """Bottom eigenvectors of M = (I - W)^T (I - W) (3.39), the constant one (the
    smallest) excluded. Returns ``(Y, eigenvalues ascending)``."""
    n = X.shape[0]
    IW = np.eye(n) - naive_lle_weights(X, k, reg)
    w, V = np.linalg.eigh(IW.T @ IW)
    return V[:, 1 : r + 1], w


def naive_laplacian_eigenmaps(X: np.ndarray, k: int, r: int, *, weights: str = "binary",
                              sigma: float | None = None):
    """Thesis (3.40)-(3.45): W on the symmetrised k-NN graph (1 or the heat kernel
    exp(-|x_i - x_j|^2 / sigma^2)), D = diag(W 1), L = D - W, the generalised problem
    L y = lambda D y, the first (constant) eigenvector dropped. Returns
    ``(Y, eigenvalues ascending, W)``; Y is D-orthonormal (Y^T D Y = I)."""
    A = knn_adjacency(X, k)
    if weights == "binary":
        W = A.astype(float)
    elif weights == "heat":
        W = np.where(A, np.exp(-pairwise_distances(X) ** 2 / sigma**2), 0.0)
    else:
        raise ValueError(weights)
    D = np.diag(W.sum(axis=1))
    w, V = scipy.linalg.eigh(D - W, D)
    return V[:, 1 : r + 1], w, W


def naive_hessian_form(X: np.ndarray, k: int, r: int, *, variant: str = "donoho_grimes",
                       tol: float = 1e-4) -> np.ndarray:
    """The dense quadratic form M = sum_i H^i H^i^T of Hessian eigenmaps (Donoho &
    Grimes, PNAS 2003, steps 1-5).

    For each x_i: its k nearest neighbours (self excluded), centred; tangent
    coordinates U = their top r left singular vectors; the design matrix
    [1, U, the r(r+1)/2 products U_a U_b (a <= b)], orthonormalised (Gram-Schmidt:
    QR with a positive diagonal of R); the local Hessian estimator H^i. ``variant``
    picks H^i:

    ``"donoho_grimes"``
        The paper and its reference code ``hlle.m``: the r(r+1)/2 orthonormalised
        quadratic columns, each divided by its sum when that sum exceeds ``tol``.
    ``"scikit_learn"``
        What ``sklearn.manifold.LocallyLinearEmbedding(method="hessian")`` does: all
        k - 1 - r columns of the *complete* orthogonal factor after the linear ones
        (the quadratic columns plus the orthogonal complement of the design), each
        divided by its sum when the sum's magnitude is at least ``tol``.
    """
    n = X.shape[0]
    dp = r * (r + 1) // 2
    nbrs = knn_indices(X, k)
    M = np.zeros((n, n))
    for i in range(n):
        G = X[nbrs[i]] - X[nbrs[i]].mean(axis=0)
        U = np.linalg.svd(G, full_matrices=False)[0][:, :r]
        quad = [U[:, a] * U[:, b] for a in range(r) for b in range(a, r)]
        design = np.column_stack([np.ones(k), U, *quad])
        if variant == "donoho_grimes":
            Q, R = np.linalg.qr(design)
            Q = Q * np.sign(np.diag(R))
            H = Q[:, r + 1 : r + 1 + dp].copy()
            S = H.sum(axis=0)
            S[~(S > tol)] = 1.0
        elif variant == "scikit_learn":
            Q = np.linalg.qr(design, mode="complete")[0]
            H = Q[:, r + 1 :].copy()
            S = H.sum(axis=0)
            S[np.abs(S) < tol] = 1.0
        else:
            raise ValueError(variant)
        H /= S
        M[np.ix_(nbrs[i], nbrs[i])] += H @ H.T
    return M


def naive_hessian_lle(X: np.ndarray, k: int, r: int, *, variant: str = "donoho_grimes",
                      tol: float = 1e-4, keep: np.ndarray | None = None):
    """Hessian eigenmaps (Donoho & Grimes, PNAS 2003, steps 1-6): the bottom r + 1
    eigenvectors of :func:`naive_hessian_form`, the constant direction (an exact null
    vector, since every column of H^i is orthogonal to 1) projected out. ``keep``
    (boolean mask): the eigenproblem of M restricted to those points (the rows of the
    points in no neighbourhood, which are zero, left out); Y then has their rows only.

    Returns ``(Y, eigenvalues ascending)`` with Y orthonormal and orthogonal to 1.
    """
    M = naive_hessian_form(X, k, r, variant=variant, tol=tol)
    if keep is not None:
        M = M[np.ix_(keep, keep)]
    w, V = np.linalg.eigh(M)
    B = V[:, : r + 1]
    B = B - B.mean(axis=0)  # remove the constant direction from the span, which ...
    B = np.linalg.svd(B, full_matrices=False)[0][:, :r]  # ... leaves r dimensions
    # Rayleigh-Ritz within that span: the eigenvectors of M when they are distinct
    _, R = np.linalg.eigh(B.T @ M @ B)
    return B @ R, w
