"""Maximum variance unfolding (thesis 3.1.4-3.1.6, 3.1.11; Table 3.1)."""

from __future__ import annotations

import numpy as np

from harness.plugin import ExpectedFailure
from harness.problems.bad_edges import BadEdgeRule
from harness.problems.mvu_problem import MVUProblem
from harness import registry
from harness.solvers.mvu_sdp import mvu_solvers, solve_mvu
from harness.methods.shared.manifold import ManifoldEmbedding


def _principal_coordinates(X: np.ndarray, max_dims: int = 30) -> np.ndarray:
    """The centred inputs in their top ``max_dims`` principal axes: a (nearly, and
    exactly when X has at most ``max_dims`` dimensions) feasible starting factor."""
    Xc = np.asarray(X, dtype=np.float64) - np.mean(X, axis=0)
    U, s, _ = np.linalg.svd(Xc, full_matrices=False)
    k = min(max_dims, len(s))
    return U[:, :k] * s[:k]


def dense_solver_skip(dataset, solver: str) -> tuple[bool, str]:
    """``(True, reason)`` for a backend plugin whose ``max_n`` the data set exceeds
    (a dense n x n SDP: :data:`harness.solvers.backend.DENSE_MAX_N` for the cvxpy
    ones), else ``(False, "")``; a solver that is not a backend plugin (ARE's and
    MVE's own ``native``) has no cap."""
    if solver not in registry.backends():
        return False, ""
    return registry.get_backend(solver).size_skip(dataset.n_samples)


class SolverFailedError(ExpectedFailure):
    """The SDP solver returned no usable solution (failed, timed out, skipped)."""

    def __init__(self, message: str, status: str):
        super().__init__(message)
        self.status = {"timeout": "timeout", "skipped": "skipped"}.get(status, "failed")


class MVU(ManifoldEmbedding):
    """Maximum variance unfolding.

    The three steps of thesis Table 3.1: (I) the k-nearest-neighbour graph with each
    point's neighbours joined into a clique (3.1.4, so that angles are kept), (II)
    the SDP "maximise tr K s.t. K >= 0, sum K = 0, K_ii + K_jj - 2 K_ij = |x_i -
    x_j|^2 on every edge", (III) the top eigenvectors of K scaled by the square roots
    of their eigenvalues (3.21). ``variant`` selects the inequality or slack
    relaxations of 3.1.6 or the minimum-trace SDP of 3.1.11. Whatever the solver, the
    harness recomputes the objective, the constraint violation and a dual bound from
    the multipliers (``solve_info_``), so a solve can be certified without trusting
    this code: ``edges_``, ``sq_lengths_``, ``kernel_factor_``, ``dual_`` and
    ``dual_low_`` are the whole certificate (:func:`harness.problems.verify.
    verify_estimator` re-checks it from them alone).

    The certificate -- how the bound is proved from the multipliers, in extended
    precision after facial reduction (noise-free inputs of dimension below k), and how
    a disconnected graph is linked (3.1.12: by default it is an error;
    ``connect_components`` adds the thesis' artificial links) -- is derived in
    ``docs/mvu_certificate.md``.

    With ``cut_bad_edges=True`` the "bad" edges of the k-nearest-neighbour graph
    (short cuts between distant layers of the manifold, thesis 3.1.12, Fig. 3.29) are
    detected by a t-step random walk and cut before the neighbourhoods are joined into
    cliques (:mod:`harness.problems.bad_edges`,
    :func:`harness.problems.mvu_problem.neighbourhood_cliques`). Off by default.

    Parameters
    ----------
    n_neighbors : int, default=5
        k of the neighbourhood graph (Table 3.2: 5).
    n_components : int, default=2
        Output dimension r.
    solver : str, default="native"
        ``native`` (a dense interior-point method for small problems, the low-rank
        solver for large ones, see :func:`harness.solvers.mvu_sdp.native_solver.solve_native`),
        ``native_lowrank`` (the low-rank solver at every size), a cvxpy backend
        (``clarabel``, ``scs``, ``cvxopt``, ``sdpa``, ``mosek``; dense, so limited to
        its ``max_n`` points) or ``csdp``, the thesis' solver run as a
        program (:mod:`harness.solvers.backends.csdp`, its default formulation; no size
        cap but its memory budget; without the program, ``apt-get install
        coinor-csdp``, the fit raises ``SolverFailedError`` with status skipped).
    variant : {"equality", "inequality", "slack", "min_trace"}, default="equality"
    omega : float, default=0.9
        Slack weight of the ``slack`` variant.
    tol_gap : float, default=1e-3
        Certified relative gap below which a solve counts as optimal.
    tol_violation : float, default=1e-4
        Relative constraint violation below which a solve counts as optimal.
    time_limit : float, default=600.0
        Seconds for the SDP solve.
    random_state : int or None, default=None
    cut_bad_edges : bool, default=False
        Detect and cut bad edges first (3.1.12). The next five parameters are used
        only then (:class:`harness.problems.bad_edges.BadEdgeRule`).
    walk_steps : int, default=7
        t of q^t, the probability to reach j from i within t steps (thesis: 7).
    walk_sigma : float, default=1.0
        sigma of the walk's weights exp(-|x_i - x_j| / sigma), in the data's units
        (thesis: 1).
    cut_fence : float, default=1.5
        An edge is cut when log(q_ij + q_ji) lies below Q1 - cut_fence (Q3 - Q1), the
        lower Tukey fence over the graph's edges.
    walk_transition : {"row", "raw"}, default="row"
        The walk's transition matrix: the weights row-normalised, or as written.
    walk_passage : {"first", "visits"}, default="first"
        q: first-passage probability within t steps, or the summed s-step
        probabilities s = 1..t.
    connect_components : {None, "thesis", "shortest"}, default=None
        Link a disconnected graph's components by artificial edges (3.1.12, above);
        None: a disconnected graph raises ``DisconnectedGraphError``. The ``thesis``
        rule's random points are seeded by ``random_state``.
    csdp_params : dict, optional
        With ``solver="csdp"``: CSDP parameters over the backend's defaults
        (:data:`harness.solvers.backends.csdp.PARAMETERS`), e.g. ``{"maxiter": 50}``, the
        iteration limit of Weinberger's ``sde.m`` (its iterate is then taken as it is,
        certified or not: ``solve_info_`` says which). Any other solver refuses it.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    edges_ : ndarray of shape (m, 2)
        The clique graph, ``i < j``.
    sq_lengths_ : ndarray of shape (m,)
    kernel_factor_ : ndarray of shape (n_samples, p)
        K = F F^T, the whole solution (not only the kept dimensions).
    dual_ : ndarray of shape (m,)
        Edge multipliers: the dual certificate; after facial reduction the float64
        rounding (high part) of the lifted multipliers ``dual_ + dual_low_``.
    dual_low_ : ndarray of shape (m,)
        Low part: the multipliers are exactly ``dual_ + dual_low_`` (real numbers).
        Zero without facial reduction and where the lift was exact in float64.
    dual_lift_ : float
        t of the lift ``dual_ + dual_low_ = w_base + t exposing_dual_`` (signed:
        negative for ``min_trace``); 0.0 without facial reduction.
    exposing_dual_ : ndarray of shape (m,) or None
        w_Y, ``L(w_Y)`` the exposing vector of the face; None without facial
        reduction.
    face_basis_ : ndarray of shape (n_samples, d_f) or None
        U, orthonormal, ``U^T 1 = 0``, ``L(w_Y) U = 0``: every feasible K is ``U Q
        U^T``; None without facial reduction.
    eigenvalues_ : ndarray of shape (p,)
        Eigenvalues of K, largest first.
    solve_info_ : dict
        status, objective (value), violation, bound, gap, solver, seconds, ...
    linked_edges_ : ndarray of shape (p, 2)
        The artificial edges ``connect_components`` added (also rows of ``edges_``);
        empty when the graph was connected or no linking was asked.
    bad_edges_ : dict or None
        With ``cut_bad_edges``: the rule, the number of edges of the k-NN graph and of
        cut ones, the fence and the cut edges
        (:meth:`harness.problems.bad_edges.BadEdgeDetection.summary`); else None.
    """

    name = "mvu"
    thesis_label = "MVU"
    references = ("thesis 3.1.4-3.1.6, 3.1.11",
                  "Weinberger & Saul, IJCV 70(1), 2006")
    solvers = mvu_solvers()
    table_params = {"table_3_2": {"n_neighbors": 5, "connect_components": "thesis"}}
    table_note = ("k = 5 (3.1.9); a disconnected k = 5 graph (cited earlier measurement: "
                  "tests/datasets/test_real_files.py, olivetti's 400 real faces, "
                  "2026-11-26: components of 390 and 10 images) is joined by the thesis' artificial links (3.1.12: a "
                  "random x in C_1, x' its nearest point in C_2, x'' the nearest to x' in "
                  "C_1, edge x'-x''), recorded as linked_edges; SDP solved natively with a "
                  "dual certificate; status, gap and violation are in each cell's record.")

    def __init__(self, *, n_neighbors=5, n_components=2, solver="native",
                 variant="equality", omega=0.9, tol_gap=1e-3, tol_violation=1e-4,
                 time_limit=600.0, random_state=None, cut_bad_edges=False, walk_steps=7,
                 walk_sigma=1.0, cut_fence=1.5, walk_transition="row",
                 walk_passage="first", connect_components=None, csdp_params=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.solver = solver
        self.variant = variant
        self.omega = omega
        self.tol_gap = tol_gap
        self.tol_violation = tol_violation
        self.time_limit = time_limit
        self.random_state = random_state
        self.cut_bad_edges = cut_bad_edges
        self.walk_steps = walk_steps
        self.walk_sigma = walk_sigma
        self.cut_fence = cut_fence
        self.walk_transition = walk_transition
        self.walk_passage = walk_passage
        self.connect_components = connect_components
        self.csdp_params = csdp_params

    @property
    def requires_connected_graph(self) -> bool:
        """Only without ``connect_components`` must the k-NN graph be connected."""
        return getattr(self, "connect_components", None) is None

    @classmethod
    def skip(cls, dataset, solver):
        skip, why = super().skip(dataset, solver)
        if skip or dataset is None:
            return skip, why
        return dense_solver_skip(dataset, solver)

    def _bad_edge_rule(self) -> BadEdgeRule | None:
        """The bad-edge rule of the parameters, or None without ``cut_bad_edges``."""
        if not self.cut_bad_edges:
            return None
        return BadEdgeRule(walk_steps=self.walk_steps, walk_sigma=self.walk_sigma,
                           fence=self.cut_fence, transition=self.walk_transition,
                           passage=self.walk_passage)

    def _embed(self, X):
        if self.solver not in mvu_solvers():
            raise ValueError(f"solver must be one of {mvu_solvers()}, got {self.solver!r}")
        seed = 0 if self.random_state is None else int(self.random_state)
        problem = MVUProblem.from_points(X, self.n_neighbors, bad_edges=self._bad_edge_rule(),
                                         link=self.connect_components, link_seed=seed,
                                         variant=self.variant, omega=self.omega)
        self.linked_edges_ = (np.zeros((0, 2), np.int64) if problem.linked_edges is None
                              else problem.linked_edges)
        self.bad_edges_ = None if problem.bad_edges is None else problem.bad_edges.summary()
        zero = np.flatnonzero(problem.sq_lengths == 0)
        if zero.size:
            i, j = problem.edges[zero[0]]
            raise ValueError(f"X has duplicate points (rows {i} and {j}, and "
                             f"{zero.size - 1} more pairs); remove duplicates before MVU")
        init = _principal_coordinates(X) if self.variant == "min_trace" else None
        result = solve_mvu(problem, self.solver, time_limit=self.time_limit,
                           tol_gap=self.tol_gap, tol_violation=self.tol_violation,
                           seed=seed, init=init,
                           options={"params": self.csdp_params} if self.csdp_params else None)
        self.solve_info_ = {**result.info(), "connect_components": self.connect_components,
                            "linked_edges": self.linked_edges_.tolist()}
        if result.F is None:
            raise SolverFailedError(f"MVU solver {self.solver}: {result.status}: "
                                    f"{result.reason}", result.status)
        self.edges_, self.sq_lengths_ = problem.edges, problem.sq_lengths
        self.kernel_factor_, self.dual_ = result.F, result.w
        self.dual_low_ = np.zeros(problem.m) if result.w_low is None else result.w_low
        self.dual_lift_, self.exposing_dual_, self.face_basis_ = result.t, result.w_Y, result.U
        U, s, _ = np.linalg.svd(result.F, full_matrices=False)
        self.eigenvalues_ = s**2
        Y = np.zeros((problem.n, self.n_components))
        kept = min(self.n_components, len(s))
        Y[:, :kept] = U[:, :kept] * s[:kept]  # (3.21); zero columns beyond rank K
        return Y
