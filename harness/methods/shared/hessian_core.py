"""The quadratic form of Hessian eigenmaps (Donoho & Grimes, PNAS 2003) and its bottom
eigenvectors, for :class:`harness.methods.hlle.HessianLLE`.

Steps 1-5 of the paper: for each point x_i its k nearest neighbours N_i (x_i itself
excluded, as in the paper's ``hlle.m`` and scikit-learn), centred; tangent coordinates
U (their top r left singular vectors); the design [1, U, the r(r+1)/2 products
U_a U_b, a <= b], orthonormalised; the local Hessian estimator H^i from its columns
after the linear ones; the form M = sum_i H^i H^i^T on the index sets N_i. Step 6: the
embedding spans the bottom eigenvectors of M orthogonal to the constants.

**Orphans.** A point that is in no other point's neighbourhood appears in no N_i: its
row and column of M are zero, so its indicator vector is an exact null vector of M.
On Frey's faces (n = 1965, 560 pixels, k = 15) six points are such orphans, the null
space of M is 7-dimensional instead of 1, and an embedding taken as "eigenvectors 2 to
r + 1" (scikit-learn's, and ``hlle.m``'s) is made of orphan indicators: all points but
a few at one spot (continuity 0.003). Nothing in the form constrains an orphan, so here
the eigenproblem is solved on the other points (:func:`bottom_eigenvectors` of M
restricted to them; the orphans' own neighbourhoods still count, they are part of M)
and an orphan is placed at the mean of its k neighbours' coordinates (its neighbours
are never orphans: they are in its neighbourhood). Data with no orphans (the Swiss
roll, Olivetti at k = 15) get exactly the paper's embedding.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh, qr, svd
from scipy.sparse.linalg import eigsh

__all__ = ["ESTIMATORS", "hessian_form", "orphans", "bottom_eigenvectors"]

#: the local Hessian estimators: the columns of the orthonormalised design kept as H^i
ESTIMATORS = ("scikit_learn", "donoho_grimes")


def hessian_form(X: np.ndarray, neighbors: np.ndarray, r: int,
                 estimator: str = "scikit_learn", tol: float = 1e-4) -> sp.csr_matrix:
    """The quadratic form M = sum_i H^i H^i^T (Donoho & Grimes 2003, steps 2-5).

    Parameters
    ----------
    X : ndarray of shape (n, p)
    neighbors : ndarray of shape (n, k)
        Row i: the indices of x_i's k nearest neighbours, x_i itself excluded.
    r : int
        The embedding dimension.
    estimator : {"scikit_learn", "donoho_grimes"}
        ``"donoho_grimes"``: the paper's and ``hlle.m``'s H^i, the r(r+1)/2
        orthonormalised quadratic columns. ``"scikit_learn"``: all k - 1 - r columns of
        the complete orthogonal factor after the linear ones (the quadratic columns
        and the design's orthogonal complement), as
        ``sklearn.manifold.LocallyLinearEmbedding(method="hessian")``.
    tol : float
        A column of H^i is divided by its sum when the sum's magnitude is at least
        ``tol`` (both implementations' normalisation).

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n, n), symmetric positive semidefinite.
    """
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {ESTIMATORS}; got {estimator!r}")
    n, k = neighbors.shape
    dp = r * (r + 1) // 2
    design = np.empty((k, 1 + r + dp))
    design[:, 0] = 1.0
    blocks = np.empty((n, k, k))
    for i in range(n):
        patch = X[neighbors[i]] - X[neighbors[i]].mean(axis=0)
        U = svd(patch, full_matrices=False)[0][:, :r]
        design[:, 1:1 + r] = U
        column = 1 + r
        for a in range(r):
            design[:, column:column + r - a] = U[:, a:a + 1] * U[:, a:r]
            column += r - a
        if estimator == "scikit_learn":
            H = qr(design)[0][:, r + 1:].copy()
        else:
            Q, R = qr(design, mode="economic")
            H = (Q * np.sign(np.diag(R)))[:, r + 1:r + 1 + dp].copy()
        sums = H.sum(axis=0)
        sums[np.abs(sums) < tol] = 1.0
        H /= sums
        blocks[i] = H @ H.T
    rows = np.repeat(neighbors, k, axis=1).ravel()
    cols = np.tile(neighbors, (1, k)).ravel()
    return sp.coo_matrix((blocks.ravel(), (rows, cols)), shape=(n, n)).tocsr()


def orphans(neighbors: np.ndarray, n: int) -> np.ndarray:
    """Boolean mask of the points in no other point's neighbourhood (zero rows of M)."""
    return np.bincount(neighbors.ravel(), minlength=n) == 0


def bottom_eigenvectors(M: sp.spmatrix, r: int, solver: str = "dense",
                        random_state=None) -> tuple[np.ndarray, np.ndarray]:
    """The r bottom eigenvectors of the PSD form ``M`` orthogonal to the constants,
    and the r + 2 bottom eigenvalues of ``M`` (ascending).

    The r + 1 bottom eigenvectors are computed (``"dense"``: LAPACK on the dense
    matrix; ``"arpack"``: shift-invert about a small negative shift, so that the
    factorised matrix is positive definite even though M is singular), the constant
    direction is projected out of their span, and the remaining r directions are
    rotated onto M's eigenvectors within it (Rayleigh-Ritz), which makes the result
    independent of where the constant sits among the bottom eigenvalues. One more
    eigenvalue is returned than used, so that a caller can see a degenerate null space.
    """
    n = M.shape[0]
    count = min(r + 2, n)
    if solver == "dense":
        values, vectors = eigh(M.toarray(), subset_by_index=(0, count - 1))
    elif solver == "arpack":
        scale = float(abs(M.diagonal()).max()) or 1.0
        rng = np.random.default_rng(random_state)
        values, vectors = eigsh(M.tocsc(), k=count, sigma=-1e-6 * scale, which="LM",
                                v0=rng.uniform(-1.0, 1.0, n))
        order = np.argsort(values)
        values, vectors = values[order], vectors[:, order]
    else:
        raise ValueError(f"solver must be 'dense' or 'arpack'; got {solver!r}")
    basis = vectors[:, :r + 1] - vectors[:, :r + 1].mean(axis=0)
    basis = svd(basis, full_matrices=False)[0][:, :r]
    rotation = eigh(basis.T @ (M @ basis))[1]
    return basis @ rotation, values
