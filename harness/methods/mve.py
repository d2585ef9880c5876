"""Minimum volume embedding (Shaw and Jebara, AISTATS 2007): MVU's feasible set, an
eigenspectrum objective, solved as a sequence of certified SDPs."""

from __future__ import annotations

import numpy as np

from harness.solvers.mve_solver import (
    AFFINITY_KERNELS, INITS, affinity_factor, initial_factor, iterate_mve, points_problem,
    top_embedding,
)
from harness.solvers.mvu_sdp import cvxpy_solvers
from harness.methods.shared.manifold import ManifoldEmbedding
from harness.methods.mvu import SolverFailedError, dense_solver_skip

#: The backends the plugin accepts: the native interior point with a linear cost, and
#: the dense cvxpy models (small n; for cross-checks).
MVE_SOLVERS = ("native", *cvxpy_solvers())


class MVE(ManifoldEmbedding):
    """Minimum volume embedding: stretch the top ``n_components`` dimensions, squash
    the rest.

    The MVE pseudocode (seed ``lecture_jebara_manifold_learning_mve.txt``): (1) an
    affinity kernel ``A_ij = kappa(x_i, x_j)``; (2) a k-nearest-neighbour
    connectivity; (3) ``K = A``; (4-7) repeat: ``B = I - 2 V_d V_d^T`` from the top-d
    eigenvectors of K, ``K^ = argmin tr(K B)`` over MVU's feasible set (K PSD,
    centred, the distances of A's feature space kept on every edge), until ``|K -
    K^| < eps``; (8) kernel PCA of K. The objective ``sum_{i<=d} lambda_i -
    sum_{i>d} lambda_i`` never decreases (``history_``). Every SDP is certified by
    the harness (:func:`harness.problems.linear_cost.certify_cost`); see
    :mod:`harness.solvers.mve_solver`.

    Parameters
    ----------
    n_neighbors : int, default=5
        k of the connectivity graph (as MVU's default).
    n_components : int, default=2
        Output dimension d (the objective's split).
    connectivity : {"clique", "knn"}, default="clique"
        ``clique``: MVU's graph (thesis 3.1.4: each point and its k neighbours
        pairwise), so that MVU and MVE share a feasible set; ``knn``: the lecture's
        binary k-nearest-neighbour connectivity C (Step 2) only.
    kernel : {"linear", "rbf"}, default="linear"
        The affinity kernel A (Step 1); ``linear``: its kernel PCA is PCA.
    gamma : float or None, default=None
        RBF width ``exp(-gamma |x - x'|^2)``; None: 1 / median squared distance.
    init : {"affinity", "mvu", "random"}, default="affinity"
        Initial kernel: ``K = A`` (Step 3), MVU's solution, or a seeded random one.
        When MVU's solve returns no kernel the start falls back to ``K = A``, recorded
        in ``init_used_`` and ``init_fallback_reason_`` (never silently).
    solver : str, default="native"
        ``native`` (the interior point with a linear cost) or a cvxpy backend
        (``clarabel``, ...; dense, up to the backend's ``max_n`` points).
    eps : float, default=1e-3
        Stop when ``|K - K^|_F / |K^|_F < eps`` (Step 7).
    max_iter : int, default=30
        SDPs at most.
    tol_gap : float, default=1e-6
        Certified relative gap of each SDP for "optimal".
    tol_violation : float, default=1e-6
        Relative constraint violation of each SDP for "optimal".
    time_limit : float, default=600.0
        CPU seconds of the process for the whole iteration (:func:`harness.timelimit.cpu_clock`;
        :func:`harness.solvers.mve_solver.iterate_mve`); the MVU start gets it as its limit too.
    random_state : int or None, default=None
        Seed of the random start and of fill-in directions.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    kernel_factor_ : ndarray of shape (n_samples, p)
        The final K = F F^T.
    eigenvalues_ : ndarray of shape (p,)
        Eigenvalues of K, largest first.
    history_ : list of dict
        Per SDP attempted: the objective, fidelity, the SDP's value, bound, gap,
        violation and status, the change of K; a failed last SDP is kept with its
        status and reason (:class:`harness.solvers.mve_solver.MVEResult`).
    n_iter_ : int
        SDPs whose kernel was accepted.
    init_used_ : str
        The start actually used (``init``, or ``"affinity"`` after a fallback).
    init_fallback_reason_ : str
        Why the start fell back (``""`` when it did not).
    status_ : str
        ``converged``, ``max_iter`` or ``timeout``.
    solve_info_ : dict
        The last SDP's certificate and status, with ``mve_status``, ``iterations``,
        ``sdps_attempted``, ``failed_sdps``, ``all_certified`` (every SDP attempted,
        the last included, certified optimal), ``init_used``,
        ``init_fallback_reason`` and ``init_solve``.
    """

    name = "mve"
    thesis_label = "MVE"
    references = ("Shaw & Jebara, Minimum Volume Embedding, AISTATS 2007",
                  "seed lecture_jebara_manifold_learning_mve.txt (MVE pseudocode)")
    solvers = ("native",)
    table_note = ("MVE (Shaw & Jebara 2007): MVU's feasible set, objective "
                  "sum_{i<=d} lambda_i - sum_{i>d} lambda_i by iterated certified SDPs.")

    @classmethod
    def skip(cls, dataset, solver):
        if solver in MVE_SOLVERS and solver != "native" and dataset is not None:
            return dense_solver_skip(dataset, solver)  # accepted, not a table backend
        return super().skip(dataset, solver)

    def __init__(self, *, n_neighbors=5, n_components=2, connectivity="clique",
                 kernel="linear", gamma=None, init="affinity", solver="native", eps=1e-3,
                 max_iter=30, tol_gap=1e-6, tol_violation=1e-6, time_limit=600.0,
                 random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.connectivity = connectivity
        self.kernel = kernel
        self.gamma = gamma
        self.init = init
        self.solver = solver
        self.eps = eps
        self.max_iter = max_iter
        self.tol_gap = tol_gap
        self.tol_violation = tol_violation
        self.time_limit = time_limit
        self.random_state = random_state

    def _check_params(self):
        for what, value, valid in (("solver", self.solver, MVE_SOLVERS),
                                   ("kernel", self.kernel, AFFINITY_KERNELS),
                                   ("init", self.init, INITS)):
            if value not in valid:
                raise ValueError(f"{what} must be one of {valid}, got {value!r}")

    def _embed(self, X):
        self._check_params()
        d = int(self.n_components)
        F0 = affinity_factor(X, self.kernel, self.gamma)
        problem = points_problem(X, F0, self.n_neighbors, self.connectivity)
        zero = np.flatnonzero(problem.sq_lengths == 0)
        if zero.size:
            i, j = problem.edges[zero[0]]
            raise ValueError(f"X has points at distance 0 in the affinity kernel's space "
                             f"(rows {i} and {j}); remove duplicates before MVE")
        seed = 0 if self.random_state is None else int(self.random_state)
        settings = dict(solver=self.solver, tol_gap=self.tol_gap,
                        tol_violation=self.tol_violation, time_limit=self.time_limit)
        start, start_info = initial_factor(self.init, F0, problem, d, seed=seed, **settings)
        self.init_used_ = start_info["init_used"]
        self.init_fallback_reason_ = start_info["fallback_reason"]
        result = iterate_mve(problem, start, d, eps=self.eps, max_iter=self.max_iter,
                             seed=seed, **settings)
        self.solve_info_ = {**result.solve_info, "mve_status": result.status,
                            "iterations": result.iterations,
                            "sdps_attempted": result.attempted,
                            "failed_sdps": result.failed_sdps,
                            "all_certified": result.certified,
                            "init_used": self.init_used_,
                            "init_fallback_reason": self.init_fallback_reason_,
                            "init_solve": start_info.get("solve", {})}
        if result.iterations == 0:
            raise SolverFailedError(f"MVE's first SDP ({self.solver}): {result.status}: "
                                    f"{result.reason}", result.status)
        self.edges_, self.sq_lengths_ = problem.edges, problem.sq_lengths
        self.kernel_factor_ = result.F
        self.eigenvalues_ = np.linalg.svd(result.F, compute_uv=False) ** 2
        self.history_, self.n_iter_, self.status_ = result.history, result.iterations, result.status
        return top_embedding(result.F, d)
