"""Shared core of variational MVU (thesis 3.1.8): a small SDP over the span of m
bottom eigenvectors of the graph Laplacian or of the LLE matrix, and the conjugate
gradient refinement ("var. MVU (CG)").

The thesis' choices and where it is ambiguous:

* Basis Q (n x m, m = 10): bottom eigenvectors of the unweighted k-NN graph
  Laplacian (3.24) or of the LLE matrix M = (I - W)^T (I - W), constant vector
  excluded; K = Q Z Q^T (3.25) is then centred and tr K = tr Z.
* The SDP: maximise (1 - omega) tr Z - omega xi s.t. Z >= 0 and
  sum_ij eta_ij (d_ij(Z) - D_ij)^2 <= xi, as displayed in 3.1.8. (Eq. 3.23 writes
  the same constraint with xi^2, i.e. a penalty on the norm instead of its square;
  ``penalty="norm"`` selects that reading.) The sum over ordered pairs counts each
  edge twice; we keep that. The squared penalty is not scale-free, so the squared
  distances are divided by their mean before solving and the result scaled back:
  omega then means the same on every data set (``normalize=True``).
* CG refinement: the thesis maximises (1 - omega) sum_ij |y_i - y_j|^2 - omega
  sum_ij eta_ij (|y_i - y_j|^2 - D_ij)^2 by conjugate gradients, first in the m
  dimensions of the SDP solution (optional, "not always necessary"), then after
  projecting onto the top r principal directions. The first sum there runs over all
  pairs (= 2n tr K); we use tr K, as in the SDP, so that omega has one meaning in
  both steps. scipy's nonlinear CG with the analytic gradient, ``cg_maxiter``
  iterations (the thesis quotes 100 line searches).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.sparse.linalg import eigsh

from harness.problems.mvu import clique_edges
from methods._manifold import ManifoldEmbedding, knn_graph

__all__ = ["VariationalMVUBase", "laplacian_basis", "lle_basis", "refine_objective",
           "plugin_docstring"]

PAIR_COUNT = 2  # sum over ordered pairs (i, j) with eta_ij = 1


def _bottom_eigenvectors(M: sp.spmatrix, m: int, seed: int) -> np.ndarray:
    """The m eigenvectors after the constant one, smallest eigenvalues first."""
    n = M.shape[0]
    v0 = np.random.default_rng(seed).standard_normal(n)
    vals, vecs = eigsh(M.tocsc(), k=m + 1, sigma=-1e-6, which="LM", v0=v0)
    order = np.argsort(vals)
    Q = vecs[:, order[1:]]
    Q -= Q.mean(axis=0)  # remove what is left of the constant direction
    Q, _ = np.linalg.qr(Q)
    return Q


def laplacian_basis(X: np.ndarray, n_neighbors: int, m: int, seed: int = 0) -> np.ndarray:
    """Bottom eigenvectors of the unweighted k-NN graph Laplacian (3.24)."""
    W = knn_graph(X, n_neighbors)
    W.data[:] = 1.0
    L = sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W
    return _bottom_eigenvectors(L, m, seed)


def lle_basis(X: np.ndarray, n_neighbors: int, m: int, reg: float = 1e-3,
              seed: int = 0) -> np.ndarray:
    """Bottom eigenvectors of the LLE matrix (I - W)^T (I - W) (3.39)."""
    from sklearn.manifold._locally_linear import barycenter_kneighbors_graph

    W = barycenter_kneighbors_graph(X, n_neighbors=n_neighbors, reg=reg)
    IW = sp.eye(X.shape[0], format="csr") - W
    return _bottom_eigenvectors((IW.T @ IW).tocsr(), m, seed)


def _edge_design(Q: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Rows vec(d_e d_e^T) with d_e = q_i - q_j: d_e^T Z d_e = row . vec(Z)."""
    d = Q[edges[:, 0]] - Q[edges[:, 1]]
    return np.einsum("ea,eb->eab", d, d).reshape(len(edges), -1)


def solve_variational_sdp(Q, edges, b, omega, penalty="squared"):
    """The small SDP of 3.1.8 over Z (m x m) with cvxpy/Clarabel; returns Z."""
    import cvxpy as cp

    if penalty not in ("squared", "norm"):
        raise ValueError(f"penalty must be 'squared' or 'norm', got {penalty!r}")
    m = Q.shape[1]
    Z = cp.Variable((m, m), PSD=True)
    z = cp.vec(Z, order="C")
    A = _edge_design(Q, edges)
    # |A z - b|^2 = |R z - c|^2 + (|b|^2 - |c|^2) with A^T A = R^T R, c = R^-T A^T b:
    # an m^2-dimensional cone instead of one with a row per edge (better conditioned).
    G = A.T @ A
    R = np.linalg.cholesky(G + 1e-12 * np.trace(G) / len(G) * np.eye(len(G))).T
    c = np.linalg.solve(R.T, A.T @ b)
    const = max(float(b @ b - c @ c), 0.0)
    squared = cp.sum_squares(R @ z - c) + const
    misfit = PAIR_COUNT * squared if penalty == "squared" else \
        np.sqrt(PAIR_COUNT) * cp.norm2(cp.hstack([R @ z - c, np.sqrt(const)]))
    problem = cp.Problem(cp.Maximize((1 - omega) * cp.trace(Z) - omega * misfit))
    problem.solve(solver="CLARABEL")
    if Z.value is None:
        raise RuntimeError(f"variational SDP not solved: {problem.status}")
    return (Z.value + Z.value.T) / 2, problem.status


def incidence_transpose(n: int, edges: np.ndarray) -> sp.csr_matrix:
    """``B^T`` (n x m): column e has +1 at node i and -1 at node j of edge e."""
    m = len(edges)
    return sp.csr_matrix((np.tile([1.0, -1.0], m), (edges.ravel(), np.repeat(np.arange(m), 2))),
                         shape=(n, m))


def refine_objective(flat, n, dim, edges, b, omega, BT=None):
    """-(objective) of the CG step and its gradient, for ``scipy.optimize``.

    ``BT`` (:func:`incidence_transpose`) scatters the edge terms onto the nodes as one
    sparse product (``np.add.at`` was 2/3 of the run time at n = 10000).
    """
    Y = flat.reshape(n, dim)
    Yc = Y - Y.mean(axis=0)
    diff = Y[edges[:, 0]] - Y[edges[:, 1]]
    r = np.einsum("ij,ij->i", diff, diff) - b
    value = (1 - omega) * np.einsum("ij,ij->", Yc, Yc) - omega * PAIR_COUNT * (r @ r)
    coef = (omega * PAIR_COUNT * 4 * r)[:, None] * diff
    if BT is None:
        BT = incidence_transpose(n, edges)
    grad = -2 * (1 - omega) * Yc + BT @ coef
    return -value, grad.ravel()


def _cg(Y, edges, b, omega, maxiter):
    n, dim = Y.shape
    BT = incidence_transpose(n, edges)
    result = minimize(refine_objective, Y.ravel(), args=(n, dim, edges, b, omega, BT),
                      jac=True, method="CG", options={"maxiter": maxiter, "gtol": 1e-10})
    return result.x.reshape(n, dim), int(result.nit)


def _top_components(Y: np.ndarray, r: int) -> np.ndarray:
    Yc = Y - Y.mean(axis=0)
    U, s, _ = np.linalg.svd(Yc, full_matrices=False)
    return U[:, :r] * s[:r]


_PARAMETERS = """
    Parameters
    ----------
    n_neighbors : int, default=15
        k of the graph. Table 3.2 uses 15: the text runs only MVU itself at k = 5,
        "because of its higher computational complexity".
    n_components : int, default=2
    n_basis : int, default=10
        m, the number of basis eigenvectors (the thesis' "sweet spot").
    omega : float, default=0.9
        Weight of the distance penalty against the variance, in (0, 1).
    penalty : {"squared", "norm"}, default="squared"
    normalize : bool, default=True
        Divide the squared distances by their mean before solving.
    cg_maxiter : int, default=100
        Iterations of each conjugate-gradient stage (refined variants only).
    cg_in_basis : bool, default=True
        Run the first CG stage in the m basis dimensions (refined variants only).
    random_state : int or None, default=None

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    basis_ : ndarray of shape (n_samples, n_basis)
    Z_ : ndarray of shape (n_basis, n_basis)
    sdp_status_ : str
    cg_iterations_ : int
"""


def plugin_docstring(basis: str, refine: bool) -> str:
    """The numpydoc docstring of one variational MVU plugin."""
    matrix = "k-NN graph Laplacian" if basis == "laplacian" else "LLE matrix"
    steps = (", then conjugate-gradient refinement of the coordinates (first in the m "
             "basis dimensions, then in the r output dimensions)") if refine else ""
    return (f"""Variational MVU{" (CG)" if refine else ""} on the {matrix} basis.

    K = Q Z Q^T with Q the m bottom eigenvectors of the {matrix}, Z from the small
    SDP of thesis 3.1.8{steps}. See :mod:`methods._variational_mvu` for the choices
    where the thesis is ambiguous.
""" + _PARAMETERS)


class VariationalMVUBase(ManifoldEmbedding):
    """Variational MVU on a Laplacian or LLE basis, with optional CG refinement.

    Subclasses set ``_basis`` (``"laplacian"`` or ``"lle"``) and ``_refine``.
    Fitted attributes: ``embedding_``, ``basis_`` (Q), ``Z_``, ``edges_``,
    ``sq_lengths_``, ``sdp_status_``, ``cg_iterations_``.
    """

    _basis = "laplacian"
    _refine = False
    references = ("thesis 3.1.8", "Weinberger, Sha, Zhu, Saul, NIPS 2006")
    table_note = ("k = 15, m = 10 basis vectors, omega = 0.9, squared penalty on "
                  "normalised distances (the norm reading of (3.23) is unbounded for "
                  "omega < 0.999).")

    def __init__(self, *, n_neighbors=15, n_components=2, n_basis=10, omega=0.9,
                 penalty="squared", normalize=True, cg_maxiter=100, cg_in_basis=True,
                 random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.n_basis = n_basis
        self.omega = omega
        self.penalty = penalty
        self.normalize = normalize
        self.cg_maxiter = cg_maxiter
        self.cg_in_basis = cg_in_basis
        self.random_state = random_state

    def _embed(self, X):
        n = X.shape[0]
        m = min(self.n_basis, n - 2)
        seed = 0 if self.random_state is None else int(self.random_state)
        basis = laplacian_basis if self._basis == "laplacian" else lle_basis
        Q = basis(X, self.n_neighbors, m, seed=seed)
        edges, b = clique_edges(X, self.n_neighbors)
        scale = float(b.mean()) if self.normalize else 1.0
        Z, self.sdp_status_ = solve_variational_sdp(Q, edges, b / scale, self.omega,
                                                    self.penalty)
        lam, U = np.linalg.eigh(Z)
        order = np.argsort(lam)[::-1]
        Y = Q @ (U[:, order] * np.sqrt(np.clip(lam[order], 0, None)))  # K = Q Z Q^T
        self.cg_iterations_ = 0
        if self._refine:
            if self.cg_in_basis:
                Y, it = _cg(Y, edges, b / scale, self.omega, self.cg_maxiter)
                self.cg_iterations_ += it
            Y = _top_components(Y, self.n_components)
            Y, it = _cg(Y, edges, b / scale, self.omega, self.cg_maxiter)
            self.cg_iterations_ += it
        self.basis_, self.Z_ = Q, Z * scale
        self.edges_, self.sq_lengths_ = edges, b
        return _top_components(Y, self.n_components) * np.sqrt(scale)
