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

Layout: the SDP and its solvers are :mod:`harness.methods.shared.variational_sdp` (Clarabel, or the
native barrier method of :mod:`harness.methods.shared.psd_qp`), the CG objective and drivers
:mod:`harness.methods.shared.variational_refine`; this module has the bases, the pipeline both
paths share (:func:`variational_mvu`) and the Table 3.2 plugins' base class. The
graph path (sensor localisation: a given graph, no inputs X) is
:mod:`harness.methods.shared.variational_graph`. Table 3.2's plugins use Clarabel and scipy's CG,
as before the graph path existed (their embeddings are unchanged bit for bit).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import eigsh

from harness.problems.mvu_problem import clique_edges
from harness.methods.shared.manifold import ManifoldEmbedding, knn_graph
from harness.timelimit import cpu_clock
from harness.methods.shared.variational_refine import (
    PAIR_COUNT, pcg, refine_objective, scipy_cg, top_components,
)
from harness.methods.shared.variational_sdp import (
    SDP_SOLVERS, VariationalSDP, native_variational_sdp, sdp_objective, solve_variational_sdp,
)

__all__ = ["VariationalMVUBase", "VariationalResult", "CG_METHODS", "laplacian",
           "bottom_eigenvectors", "laplacian_basis", "lle_basis", "variational_mvu",
           "refine_embedding", "cg_refinement", "refine_objective", "solve_variational_sdp", "PAIR_COUNT",
           "plugin_docstring"]

CG_METHODS = ("scipy", "pcg")
EIGEN_SHIFT = 1e-6  # shift-invert at sigma = -EIGEN_SHIFT: M + EIGEN_SHIFT I is factorised


def bottom_eigenvectors(M: sp.spmatrix, m: int, seed: int, OPinv=None) -> np.ndarray:
    """The m eigenvectors after the constant one, smallest eigenvalues first, by
    shift-invert Lanczos at sigma = -1e-6. ``OPinv`` (a solve with M + 1e-6 I, e.g.
    from :func:`harness.methods.shared.variational_graph.laplacian_factor`) replaces ARPACK's own
    factorisation."""
    n = M.shape[0]
    v0 = np.random.default_rng(seed).standard_normal(n)
    vals, vecs = eigsh(M.tocsc(), k=m + 1, sigma=-EIGEN_SHIFT, which="LM", v0=v0,
                       OPinv=OPinv)
    order = np.argsort(vals)
    Q = vecs[:, order[1:]]
    Q -= Q.mean(axis=0)  # remove what is left of the constant direction
    Q, _ = np.linalg.qr(Q)
    return Q


def laplacian(W: sp.spmatrix) -> sp.spmatrix:
    """The graph Laplacian D - W of a symmetric weight matrix W (3.24)."""
    return sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W


def laplacian_basis(X: np.ndarray, n_neighbors: int, m: int, seed: int = 0) -> np.ndarray:
    """Bottom eigenvectors of the unweighted k-NN graph Laplacian (3.24)."""
    W = knn_graph(X, n_neighbors)
    W.data[:] = 1.0
    return bottom_eigenvectors(laplacian(W), m, seed)


def lle_basis(X: np.ndarray, n_neighbors: int, m: int, reg: float = 1e-3,
              seed: int = 0) -> np.ndarray:
    """Bottom eigenvectors of the LLE matrix (I - W)^T (I - W) (3.39)."""
    from sklearn.manifold._locally_linear import barycenter_kneighbors_graph

    W = barycenter_kneighbors_graph(X, n_neighbors=n_neighbors, reg=reg)
    IW = sp.eye(X.shape[0], format="csr") - W
    return bottom_eigenvectors((IW.T @ IW).tocsr(), m, seed)


@dataclasses.dataclass(frozen=True)
class VariationalResult:
    """What :func:`variational_mvu` computed, in the input's units.

    ``Y`` the final n x r embedding; ``Y_sdp`` the SDP solution's top r principal
    coordinates; ``Y_basis`` all m coordinates of the SDP's K = Y_basis Y_basis^T;
    ``Z`` (m x m, K = Q Z Q^T); ``sdp`` the solve on the normalised
    problem (:class:`harness.methods.shared.variational_sdp.VariationalSDP`); ``cg_iterations``
    (line searches of both CG stages); ``timings`` (wall seconds: ``sdp``, ``cg_basis``,
    ``cg_output``; CPU seconds of the process: ``sdp_cpu``); ``scale`` the squared-distance normalisation.
    """

    Y: np.ndarray
    Y_sdp: np.ndarray
    Y_basis: np.ndarray
    Z: np.ndarray
    sdp: VariationalSDP
    cg_iterations: int
    timings: dict
    scale: float


def _check_choice(what: str, value, valid) -> None:
    if value not in valid:
        raise ValueError(f"{what} must be one of {valid}, got {value!r}")


def refine_embedding(Y: np.ndarray, edges: np.ndarray, b: np.ndarray, *, omega: float,
                     maxiter: int, cg_method: str = "scipy",
                     precondition: Callable | None = None) -> tuple[np.ndarray, int]:
    """One CG stage on the objective of 3.1.8 (``b`` normalised squared distances):
    scipy's CG or the preconditioned CG with exact line searches
    (:mod:`harness.methods.shared.variational_refine`). Returns ``(Y, line_searches)``."""
    _check_choice("cg_method", cg_method, CG_METHODS)
    if cg_method == "scipy":
        if precondition is not None:
            raise ValueError("scipy's CG takes no preconditioner; use cg_method='pcg'")
        return scipy_cg(Y, edges, b, omega, maxiter)
    return pcg(Y, edges, b, omega, maxiter, precondition)


def cg_refinement(Y: np.ndarray, edges: np.ndarray, b: np.ndarray, *, n_components: int,
                  cg_in_basis: bool = True, rank_tol: float | None = None,
                  **stage) -> tuple[np.ndarray, int, dict]:
    """The "var. MVU (CG)" step from the SDP's coordinates ``Y`` (n x m, normalised
    units, columns by decreasing norm): CG in the m dimensions (if ``cg_in_basis``),
    projection onto the top ``n_components`` principal directions, CG there.
    ``rank_tol``: the first stage keeps only the columns whose squared norm (Z's
    eigenvalue) exceeds ``rank_tol`` times the largest, at least ``n_components``;
    the others are zero to rounding, and CG leaves a zero coordinate at zero (its
    gradient is zero), so this only saves time (None: all m). ``stage``: the keyword
    arguments of :func:`refine_embedding`. Returns ``(Y, line_searches, timings)``
    with the seconds of ``cg_basis`` and ``cg_output``."""
    iterations, timings = 0, {}
    if rank_tol is not None:
        norms = np.einsum("ij,ij->j", Y, Y)
        Y = Y[:, :max(n_components, int((norms > rank_tol * norms.max()).sum()))]
    if cg_in_basis:
        start = time.perf_counter()
        Y, it = refine_embedding(Y, edges, b, **stage)
        iterations += it
        timings["cg_basis"] = time.perf_counter() - start
    start = time.perf_counter()
    Y = top_components(Y, n_components)
    Y, it = refine_embedding(Y, edges, b, **stage)
    timings["cg_output"] = time.perf_counter() - start
    return Y, iterations + it, timings


def variational_mvu(Q: np.ndarray, edges: np.ndarray, b: np.ndarray, *, n_components: int,
                    omega: float, penalty: str = "squared", normalize: bool = True,
                    refine: bool = False, cg_maxiter: int = 100, cg_in_basis: bool = True,
                    sdp_solver: str = "clarabel", cg_method: str = "scipy",
                    cg_omega: float | None = None, precondition: Callable | None = None,
                    rank_tol: float | None = None) -> VariationalResult:
    """Variational MVU on a basis ``Q`` (n x m) and a graph (``edges``, squared
    lengths ``b``): the SDP over Z, K = Q Z Q^T, then optionally the CG refinement
    (first in the m basis dimensions if ``cg_in_basis``, then in ``n_components``).

    Shared by Table 3.2's plugins (k-NN graph, Clarabel, scipy's CG) and the graph
    path of sensor localisation (:func:`harness.methods.shared.variational_graph.variational_mvu_graph`:
    native SDP solver, preconditioned CG). ``cg_omega`` is the CG's omega (default:
    ``omega``; 1 minimises the loss (3.26)). ``rank_tol``: see :func:`cg_refinement`.
    """
    _check_choice("sdp_solver", sdp_solver, SDP_SOLVERS)
    scale = float(b.mean()) if normalize else 1.0
    timings = {}
    start, cpu = time.perf_counter(), cpu_clock()
    if sdp_solver == "native" and penalty == "squared":
        sdp = native_variational_sdp(Q, edges, b / scale, omega)
    else:
        Z, status = solve_variational_sdp(Q, edges, b / scale, omega, penalty, sdp_solver)
        sdp = VariationalSDP(Z, status, None, sdp_objective(Z, Q, edges, b / scale, omega))
    timings["sdp"] = time.perf_counter() - start
    timings["sdp_cpu"] = cpu_clock() - cpu  # CPU seconds: load-independent
    lam, U = np.linalg.eigh(sdp.Z)
    order = np.argsort(lam)[::-1]
    Y = Q @ (U[:, order] * np.sqrt(np.clip(lam[order], 0, None)))  # K = Q Z Q^T
    Y_basis = Y * np.sqrt(scale)
    Y_sdp = top_components(Y, n_components) * np.sqrt(scale)
    iterations = 0
    if refine:
        Y, iterations, cg_timings = cg_refinement(
            Y, edges, b / scale, n_components=n_components, cg_in_basis=cg_in_basis,
            rank_tol=rank_tol, omega=omega if cg_omega is None else cg_omega,
            maxiter=cg_maxiter, cg_method=cg_method, precondition=precondition)
        timings.update(cg_timings)
    return VariationalResult(top_components(Y, n_components) * np.sqrt(scale), Y_sdp,
                             Y_basis, sdp.Z * scale, sdp, iterations, timings, scale)


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
    SDP of thesis 3.1.8{steps}. See :mod:`harness.methods.shared.variational_mvu` for the choices
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
        result = variational_mvu(Q, edges, b, n_components=self.n_components,
                                 omega=self.omega, penalty=self.penalty,
                                 normalize=self.normalize, refine=self._refine,
                                 cg_maxiter=self.cg_maxiter, cg_in_basis=self.cg_in_basis)
        self.sdp_status_, self.cg_iterations_ = result.sdp.status, result.cg_iterations
        self.basis_, self.Z_ = Q, result.Z
        self.edges_, self.sq_lengths_ = edges, b
        return result.Y
