"""Spectral clustering by Ng, Jordan & Weiss (NIPS 2002), statwiki STAT 841 F14,
lectures 7-8 (not a thesis method; the thesis cites it as [62], 1.2 and 3.1.8)."""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import LinearOperator, eigsh, lobpcg, splu
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import KMeans
from sklearn.metrics import pairwise_distances
from sklearn.neighbors import kneighbors_graph
from sklearn.utils.validation import check_random_state

from harness.plugin import MethodPlugin
from harness.validation import check_embedding_input

__all__ = ["NJWSpectralClustering", "AFFINITIES", "EIGEN_SOLVERS", "affinity_matrix",
           "normalized_affinity", "njw_embedding", "check_clustering_input"]

AFFINITIES = ("rbf", "nearest_neighbors")
EIGEN_SOLVERS = ("auto", "dense", "arpack", "lobpcg")
#: ``eigen_solver="auto"`` diagonalises a dense (Gaussian) affinity densely up to this
#: many points, else ARPACK; a sparse (k-NN) affinity always goes to ARPACK.
DENSE_MAX = 3000
#: shift of the shift-invert ARPACK solve, (I - M + SHIFT I)^-1 (scikit-learn's
#: spectral embedding solves (L + 1e-5 I)^-1 for the normalised Laplacian L = I - M).
SHIFT = 1e-5


def check_clustering_input(X, *, n_clusters, affinity, gamma, n_neighbors) -> np.ndarray:
    """Validate the inputs and parameters of a spectral clusterer; return X as float64.

    Errors name the bad value and the fix: non-finite rows (with their count and the
    first one, as for the embeddings), fewer than two samples, ``n_clusters`` outside
    ``[1, n_samples]``, an unknown ``affinity``, a ``gamma`` that is not positive and
    finite, ``n_neighbors`` not below ``n_samples`` (nearest-neighbour affinity).
    """
    X = check_embedding_input(X, n_neighbors=None, n_components=1)
    n = X.shape[0]
    if isinstance(n_clusters, bool) or not isinstance(n_clusters, (int, np.integer)) \
            or not 1 <= n_clusters <= n:
        raise ValueError(f"n_clusters={n_clusters!r} must be an integer with 1 <= "
                         f"n_clusters <= n_samples={n}; lower n_clusters or use more "
                         f"samples")
    if affinity not in AFFINITIES:
        raise ValueError(f"affinity must be one of {AFFINITIES}, got {affinity!r}")
    if affinity == "rbf":
        if not (isinstance(gamma, (int, float, np.number)) and np.isfinite(gamma)
                and gamma > 0):
            raise ValueError(f"gamma must be positive and finite (the Gaussian kernel is "
                             f"exp(-gamma |x_i - x_j|^2), gamma = 1 / (2 sigma^2)), got "
                             f"{gamma!r}")
    elif not (isinstance(n_neighbors, (int, np.integer)) and 1 <= n_neighbors < n):
        raise ValueError(f"n_neighbors={n_neighbors!r} must satisfy 1 <= n_neighbors < "
                         f"n_samples={n}; lower n_neighbors or use more samples")
    return X


def affinity_matrix(X: np.ndarray, affinity: str = "rbf", gamma: float = 1.0,
                    n_neighbors: int = 10):
    """NJW step 1: the affinity matrix A with a zero diagonal, a dense ndarray for
    ``rbf`` and a ``scipy.sparse`` CSR matrix for ``nearest_neighbors`` (its
    n x n_neighbors..2 n_neighbors non-zeros per row are all that the eigensolver and
    the memory need).

    ``rbf``: A_ij = exp(-gamma |x_i - x_j|^2) for i != j (NJW's exp(-|s_i - s_j|^2 /
    (2 sigma^2)) with gamma = 1 / (2 sigma^2)). ``nearest_neighbors``: A_ij = 1 if i is
    among the ``n_neighbors`` nearest neighbours of j or j among those of i, else 0
    (the symmetric k-NN graph with constant weights, lecture 8's "similarity graph").
    A_ii = 0 in both, as NJW state (scikit-learn keeps the Gaussian's 1 on the
    diagonal and weights one-sided k-NN edges 1/2).
    """
    if affinity == "rbf":
        A = np.exp(-gamma * pairwise_distances(X, metric="sqeuclidean"))
        np.fill_diagonal(A, 0.0)
        return A
    if affinity == "nearest_neighbors":
        # include_self=False: no diagonal entries, so A_ii = 0 already
        G = kneighbors_graph(X, n_neighbors, mode="connectivity", include_self=False)
        A = G.maximum(G.T).tocsr()
        A.sort_indices()
        return A
    raise ValueError(f"affinity must be one of {AFFINITIES}, got {affinity!r}")


def normalized_affinity(A):
    """NJW step 2: L = D^{-1/2} A D^{-1/2}, D the diagonal of the row sums of A.

    Dense A gives a dense result, sparse A a sparse CSR matrix (same pattern).

    Raises
    ------
    ValueError
        When a point has zero affinity to every other one (D_ii = 0): the Gaussian
        underflows (``gamma`` too large for the data's scale) or the point is isolated.
    """
    d = np.asarray(A.sum(axis=1)).ravel()
    isolated = np.flatnonzero(~(d > 0))
    if isolated.size:
        raise ValueError(f"{isolated.size} point(s) (first: row {int(isolated[0])}) have "
                         f"zero affinity to every other point, so D^-1/2 is undefined; "
                         f"lower gamma (a wider Gaussian) or use "
                         f"affinity='nearest_neighbors'")
    s = 1.0 / np.sqrt(d)
    if sp.issparse(A):
        # A is symmetric with a symmetric pattern: scale the stored values in place of
        # a product of diagonal matrices (rows s_i, columns s_j)
        A = sp.csr_matrix(A, copy=True)
        A.sum_duplicates()
        rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
        A.data = A.data * (s[rows] * s[A.indices])  # s_i s_j: exactly symmetric
        return A
    M = s[:, None] * A * s[None, :]
    return 0.5 * (M + M.T)


def _sparse_top_eigenvectors(M, k: int, solver: str, random_state, sqrt_d: np.ndarray):
    """The k largest eigenpairs of the sparse normalised affinity M (values largest
    first), or None when the graph has more than k components (the top-k eigenspace is
    then not unique) or too few points are left beside them for the iterative solvers;
    the caller then falls back to the dense reference.

    The eigenvalue 1 has one eigenvector per connected component, D^1/2 1_C (M D^1/2
    1_C = D^-1/2 A 1_C = D^1/2 1_C), so its multiplicity is the number of components c;
    those are written down exactly, and the remaining k - c are the largest
    eigenvalues of M on their orthogonal complement, i.e. the smallest of the
    normalised Laplacian I - M there, found by ``arpack`` (Lanczos on (I - M + SHIFT
    I)^-1, factorised once by SuperLU, as scikit-learn's spectral embedding) or
    ``lobpcg`` (the component vectors as its constraints).
    """
    n = M.shape[0]
    c, comp = connected_components(M, directed=False)
    if c > k:
        return None
    U = np.zeros((n, c))
    U[np.arange(n), comp] = sqrt_d
    U /= np.linalg.norm(U, axis=0)
    m = k - c
    if m == 0:
        return np.ones(k), U
    if m >= n - c - 1:
        return None
    rng = check_random_state(random_state)
    L = (sp.identity(n, format="csr") - M).tocsc()

    def deflate(V):
        return V - U @ (U.T @ V)

    if solver == "arpack":
        # L + SHIFT I is symmetric positive definite: no pivoting needed, and the
        # minimum degree ordering of A + A^T fills less than SuperLU's default COLAMD
        # (digits: 150 000 against 230 000 non-zeros in the factors, 0.010 against
        # 0.012 CPU-s to factorise, 0.015 against 0.022 for the whole solve)
        lu = splu((L + SHIFT * sp.identity(n, format="csc")).tocsc(),
                  permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                  options={"SymmetricMode": True})
        op = LinearOperator((n, n), dtype=np.float64,
                            matvec=lambda v: deflate(lu.solve(deflate(np.ravel(v)))))
        v0 = deflate(rng.uniform(-1, 1, n))
        mu, V = eigsh(L, k=m, sigma=-SHIFT, which="LM", OPinv=op, v0=v0)
    else:
        X0 = deflate(rng.standard_normal((n, m + 1)))
        mu, V = lobpcg(L, X0, Y=U, largest=False, tol=1e-10, maxiter=2000)
        order = np.argsort(mu)[:m]
        mu, V = mu[order], V[:, order]
    V = deflate(V)
    return np.concatenate([np.ones(c), 1.0 - mu]), np.hstack([U, V])


def njw_embedding(M, n_clusters: int, eigen_solver: str = "auto", random_state=None,
                  sqrt_d: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """NJW steps 3-4: the ``n_clusters`` largest eigenvectors of the normalised
    affinity ``M`` as columns (X), each row then scaled to unit length (Y).

    Returns ``(Y, eigenvalues)``, eigenvalues largest first. ``dense`` (the reference)
    diagonalises M with LAPACK (a sparse M is densified). ``arpack`` on a dense M runs
    Lanczos on M itself; on a sparse M (the k-NN affinity), ``arpack`` and ``lobpcg``
    take the component eigenvectors of the eigenvalue 1 exactly and solve for the rest
    of the normalised Laplacian I - M in their complement
    (:func:`_sparse_top_eigenvectors`; ``sqrt_d``, the square roots of the row sums
    of A, gives those vectors and is required there); more components than clusters
    fall back to ``dense``. ``auto``: sparse M -> ``arpack``, dense M -> ``dense`` up
    to :data:`DENSE_MAX` points, else ``arpack``.
    The start vectors are drawn from ``random_state``.

    Raises
    ------
    ValueError
        When a row of X is zero (it cannot be normalised), or ``sqrt_d`` is missing
        where it is needed.
    """
    n = M.shape[0]
    if eigen_solver not in EIGEN_SOLVERS:
        raise ValueError(f"eigen_solver must be one of {EIGEN_SOLVERS}, got {eigen_solver!r}")
    solver = eigen_solver
    if solver == "auto":
        solver = "arpack" if sp.issparse(M) else "dense" if n <= DENSE_MAX else "arpack"
    if n_clusters >= n - 1 or (solver == "lobpcg" and not sp.issparse(M)):
        solver = "dense"  # ARPACK needs k < n - 1; LOBPCG runs on the sparse path only
    result = None
    if solver != "dense" and sp.issparse(M):
        if sqrt_d is None:
            raise ValueError(f"eigen_solver={solver!r} on a sparse M needs sqrt_d, the "
                             f"square roots of the row sums of A (D^1/2 1_C are the "
                             f"eigenvectors of the eigenvalue 1); pass it or use "
                             f"eigen_solver='dense'")
        result = _sparse_top_eigenvectors(M, n_clusters, solver, random_state, sqrt_d)
    elif solver == "arpack":
        v0 = check_random_state(random_state).uniform(-1, 1, n)
        result = eigsh(M, k=n_clusters, which="LA", v0=v0)
    if result is None:  # dense, or more graph components than clusters
        Md = M.toarray() if sp.issparse(M) else M
        result = scipy.linalg.eigh(Md, subset_by_index=[n - n_clusters, n - 1])
    values, vectors = result
    order = np.argsort(values, kind="stable")[::-1]
    values, vectors = values[order], vectors[:, order]
    norms = np.linalg.norm(vectors, axis=1)
    zero = np.flatnonzero(~(norms > 0))
    if zero.size:
        raise ValueError(f"{zero.size} row(s) of the top {n_clusters} eigenvectors are "
                         f"zero (first: row {int(zero[0])}) and cannot be normalised; "
                         f"change gamma / n_neighbors or n_clusters")
    return vectors / norms[:, None], values


class NJWSpectralClustering(MethodPlugin, ClusterMixin, BaseEstimator):
    """Spectral clustering as Ng, Jordan & Weiss (2002) state it.

    The algorithm of the paper (section 2), for k = ``n_clusters`` clusters:

    1. the affinity A, A_ij = exp(-|s_i - s_j|^2 / (2 sigma^2)) for i != j, A_ii = 0
       (:func:`affinity_matrix`; here ``gamma`` = 1 / (2 sigma^2), or a binary
       symmetric k-NN graph with ``affinity="nearest_neighbors"``);
    2. L = D^{-1/2} A D^{-1/2}, D_ii = sum_j A_ij (:func:`normalized_affinity`);
    3. X = [x_1 ... x_k], the k largest eigenvectors of L, orthonormal columns;
    4. Y = X with each row renormalised to unit length (:func:`njw_embedding`);
    5. k-means on the rows of Y (scikit-learn's :class:`~sklearn.cluster.KMeans`,
       k-means++ starts, ``n_init`` restarts, seeded by ``random_state``);
    6. point i goes to cluster j iff row i of Y went to j.

    Lecture 8 derives the two-cluster case as a relaxed ratio cut on the graph
    Laplacian L = D - W and its multiclass form with k - 1 eigenvectors; NJW's
    normalised affinity is the normalised-cut counterpart (its top eigenvectors are
    the bottom ones of I - D^{-1/2} A D^{-1/2}). Where they differ we follow NJW.

    Parameters
    ----------
    n_clusters : int, default=8
        k. The clustering task sets it to the number of distinct labels.
    affinity : {"rbf", "nearest_neighbors"}, default="rbf"
    gamma : float, default=1.0
        Gaussian kernel exp(-gamma |x_i - x_j|^2), gamma = 1 / (2 sigma^2) (NJW's
        sigma); ``affinity="rbf"`` only.
    n_neighbors : int, default=10
        k of the k-NN graph; ``affinity="nearest_neighbors"`` only.
    eigen_solver : {"auto", "dense", "arpack", "lobpcg"}, default="auto"
        ``dense``: LAPACK on the dense M, the reference. ``auto``: the k-NN affinity
        (sparse) -> ``arpack``; the Gaussian (dense) -> ``dense`` up to ``DENSE_MAX``
        points, ARPACK beyond. On the sparse M, ``arpack`` and ``lobpcg`` take the
        eigenvalue 1's eigenvectors D^1/2 1_C (one per connected component C of the
        graph) exactly and find the others in their complement, ARPACK by shift-invert
        Lanczos on (I - M + 1e-5 I)^-1 (as scikit-learn's spectral embedding), LOBPCG
        with the component vectors as constraints (slower on the lecture's data);
        they fall back to ``dense`` when the graph has more components than
        ``n_clusters`` (the top eigenspace is then not unique).
    n_init : int, default=10
        k-means restarts (the best inertia is kept).
    random_state : int or None, default=None
        Seeds k-means and ARPACK's start vector.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each point, 0 .. n_clusters - 1.
    affinity_matrix_ : ndarray or scipy.sparse CSR matrix of shape (n_samples, n_samples)
        A (step 1): dense for ``rbf``, sparse for ``nearest_neighbors``.
    embedding_ : ndarray of shape (n_samples, n_clusters)
        Y (step 4), the rows k-means clusters.
    eigenvalues_ : ndarray of shape (n_clusters,)
        The k largest eigenvalues of L, largest first (1 with multiplicity k for k
        clusters with no affinity between them).
    n_features_in_ : int
    """

    name = "spectral_clustering"
    task = "clustering"
    thesis_label = "NJW spectral clustering"
    references = ("Ng, Jordan & Weiss, On spectral clustering: analysis and an algorithm, "
                  "NIPS 14, 2002 (thesis ref. [62])",
                  "statwiki STAT 841 F14, lectures 7-8")
    table_note = ("our NJW implementation: zero-diagonal Gaussian affinity, D^-1/2 A "
                  "D^-1/2, top-k eigenvectors with unit rows, k-means (10 starts).")

    def __init__(self, *, n_clusters=8, affinity="rbf", gamma=1.0, n_neighbors=10,
                 eigen_solver="auto", n_init=10, random_state=None):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.eigen_solver = eigen_solver
        self.n_init = n_init
        self.random_state = random_state

    def fit(self, X, y=None):
        """Cluster ``X``; ``y`` is ignored."""
        X = check_clustering_input(X, n_clusters=self.n_clusters, affinity=self.affinity,
                                   gamma=self.gamma, n_neighbors=self.n_neighbors)
        if self.eigen_solver not in EIGEN_SOLVERS:
            raise ValueError(f"eigen_solver must be one of {EIGEN_SOLVERS}, got "
                             f"{self.eigen_solver!r}")
        A = affinity_matrix(X, self.affinity, self.gamma, self.n_neighbors)
        sqrt_d = np.sqrt(np.asarray(A.sum(axis=1)).ravel())
        Y, values = njw_embedding(normalized_affinity(A), int(self.n_clusters),
                                  self.eigen_solver, self.random_state, sqrt_d=sqrt_d)
        kmeans = KMeans(n_clusters=int(self.n_clusters), n_init=self.n_init,
                        random_state=self.random_state).fit(Y)
        self.n_features_in_ = X.shape[1]
        self.affinity_matrix_, self.embedding_, self.eigenvalues_ = A, Y, values
        self.labels_ = kmeans.labels_.astype(np.int64)
        return self
