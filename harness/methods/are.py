"""Action respecting embedding (Bowling, Ghodsi & Wilkinson, ICML 2005; statwiki STAT
841 F14, lecture 7): MVU whose embedding also makes every action a distance-preserving
map. Not a thesis method."""

from __future__ import annotations

import numpy as np

from harness.problems.are_problem import ACTION_PAIRS, DISTANCES, AREProblem, check_actions
from harness.solvers.are_solver import ARE_SOLVERS, DEFAULT_ARE_SOLVER, solve_are
from harness.validation import check_embedding_input
from harness.methods.shared.manifold import ManifoldEmbedding, check_connected, knn_graph
from harness.methods.mvu import SolverFailedError, dense_solver_skip


class ARE(ManifoldEmbedding):
    """Action respecting embedding.

    Inputs x_1..x_n come in temporal order with discrete actions a_1..a_{n-1}
    (``actions``), a_t taken between x_t and x_{t+1}; actions are labels without
    semantics. The SDP (:mod:`harness.problems.are_problem`) is MVU's (thesis 3.1.4: maximise
    tr K, K PSD and centred, on the clique graph of the k nearest neighbours
    ``K_ii - 2 K_ij + K_jj <= |x_i - x_j|^2``) plus, for every pair i < j < n - 1 with
    a_i = a_j (lecture 7: "For all i, j, a_i = a_j"),

        K_(i+1)(i+1) - 2 K_(i+1)(j+1) + K_(j+1)(j+1) = K_ii - 2 K_ij + K_jj,

    i.e. |y_{i+1} - y_{j+1}| = |y_i - y_j|: the action maps the embedding isometrically
    (a rotation, reflection or translation). The embedding is K's top eigenvectors
    scaled by the square roots of their eigenvalues, as MVU's (3.21).

    Choices where the sources differ or are silent (parameters):

    * ``action_pairs``: ``"all"`` (default) constrains every pair with the same
      action, as the lecture states; ``"neighbors"`` only pairs of which one is among
      the other's k nearest neighbours, the restriction we recall from the paper
      (which could not be consulted here).
    * ``distances``: the local distances as inequalities (default), so that the SDP
      is always feasible; the lecture writes MVU's equalities, which the action
      constraints can contradict (then the solve is ``infeasible``).

    How actions reach the estimator: ``fit(X, actions=...)`` /
    ``fit_transform(X, actions=...)``. In the harness the data set carries them
    (:class:`harness.datasets.moving_window.ActionSequenceData`) and the embedding task
    passes them by name (:func:`harness.tasks.embedding.fit_params`). Without
    actions the problem is MVU with the chosen distance constraints.

    The SDP is solved by the native interior point (default; MVU's, generalised to
    the action rows: :mod:`harness.solvers.are_native`) or a cvxpy backend (dense,
    so at most the backend's ``max_n`` points in the tables); see
    :mod:`harness.solvers.are_solver`. The harness recomputes the certificate
    (:func:`harness.problems.are_problem.certify_are`) from ``edges_``, ``sq_lengths_``,
    ``action_pairs_``, ``kernel_factor_``, ``dual_`` and ``action_dual_`` alone.

    Parameters
    ----------
    n_neighbors : int, default=5
        k of the neighbourhood graph (MVU's Table 3.2 value).
    n_components : int, default=2
    action_pairs : {"all", "neighbors"}, default="all"
    distances : {"inequality", "equality"}, default="inequality"
    solver : str, default="native"
        ``native`` (the interior point of :mod:`harness.solvers.are_native`, stopped
        by the certificate) or a cvxpy backend: ``clarabel``, ``scs``, ``cvxopt``,
        ``sdpa``, ``mosek``.
    tol_gap : float, default=1e-3
        Certified relative gap below which a solve counts as optimal.
    tol_violation : float, default=1e-4
        Relative constraint violation below which a solve counts as optimal.
    time_limit : float, default=600.0
        CPU seconds for the SDP solve.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    edges_ : ndarray of shape (m, 2)
    sq_lengths_ : ndarray of shape (m,)
    action_pairs_ : ndarray of shape (c, 4)
        Rows ``(i, j, i + 1, j + 1)`` of the action constraints.
    kernel_factor_ : ndarray of shape (n_samples, p)
        K = F F^T.
    dual_ : ndarray of shape (m,)
        Edge multipliers.
    action_dual_ : ndarray of shape (c,)
        Action multipliers.
    eigenvalues_ : ndarray of shape (p,)
        Eigenvalues of K, largest first.
    solve_info_ : dict
        status, value, violation, bound, gap, solver, seconds, m, c.
    """

    name = "are"
    thesis_label = "ARE"
    references = ("Bowling, Ghodsi & Wilkinson, Action respecting embedding, ICML 2005",
                  "statwiki STAT 841 F14, lecture 7", "thesis 3.1.4 (the MVU SDP)")
    solvers = ARE_SOLVERS
    table_params = {"table_3_2": {"n_neighbors": 5}}
    table_note = ("MVU SDP with <= local distances plus |y_i+1 - y_j+1| = |y_i - y_j| for "
                  "every pair with a_i = a_j (lecture 7); needs an action sequence "
                  "(moving_window), native interior-point solve certified by the "
                  "harness.")

    def __init__(self, *, n_neighbors=5, n_components=2, action_pairs="all",
                 distances="inequality", solver=DEFAULT_ARE_SOLVER, tol_gap=1e-3,
                 tol_violation=1e-4, time_limit=600.0):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.action_pairs = action_pairs
        self.distances = distances
        self.solver = solver
        self.tol_gap = tol_gap
        self.tol_violation = tol_violation
        self.time_limit = time_limit

    @classmethod
    def skip(cls, dataset, solver):
        skip, why = super().skip(dataset, solver)
        if skip or dataset is None:
            return skip, why
        if dataset.fit_params().get("actions") is None:
            return True, (f"ARE needs the action sequence of the inputs; data set "
                          f"{dataset.meta.get('thesis_name')!r} has none (moving_window "
                          f"has)")
        return dense_solver_skip(dataset, solver)
        return False, ""

    def fit(self, X, y=None, actions=None):
        """Embed ``X`` respecting ``actions`` (n_samples - 1 labels, ``actions[t]``
        taken between rows t and t + 1); ``y`` is ignored."""
        X = check_embedding_input(X, n_neighbors=self.n_neighbors,
                                  n_components=self.n_components)
        if actions is not None:
            actions = check_actions(actions, len(X))
        for name, value, valid in (("action_pairs", self.action_pairs, ACTION_PAIRS),
                                   ("distances", self.distances, DISTANCES),
                                   ("solver", self.solver, ARE_SOLVERS)):
            if value not in valid:
                raise ValueError(f"{name} must be one of {valid}, got {value!r}")
        check_connected(knn_graph(X, self.n_neighbors), self.n_neighbors)
        self.n_features_in_ = X.shape[1]
        self.embedding_ = self._solve(X, actions)
        return self

    def fit_transform(self, X, y=None, actions=None):
        """Fit and return ``embedding_``."""
        return self.fit(X, y, actions=actions).embedding_

    def _solve(self, X, actions):
        problem = AREProblem.from_points(X, actions, self.n_neighbors, self.action_pairs,
                                         self.distances)
        zero = np.flatnonzero(problem.base.sq_lengths == 0)
        if zero.size:
            i, j = problem.base.edges[zero[0]]
            raise ValueError(f"X has duplicate points (rows {i} and {j}, and "
                             f"{zero.size - 1} more pairs); remove duplicates (or add "
                             f"noise) before ARE")
        result = solve_are(problem, self.solver, time_limit=self.time_limit,
                           tol_gap=self.tol_gap, tol_violation=self.tol_violation)
        self.solve_info_ = {**result.info(), "m": problem.m, "c": problem.c,
                            "action_pairs": self.action_pairs, "distances": self.distances}
        if result.F is None or result.status == "infeasible":  # native: F, no K feasible
            raise SolverFailedError(f"ARE solver {self.solver}: {result.status}: "
                                    f"{result.reason}", result.status)
        self.edges_, self.sq_lengths_ = problem.base.edges, problem.base.sq_lengths
        self.action_pairs_ = problem.pairs
        self.kernel_factor_, self.dual_, self.action_dual_ = result.F, result.w, result.v
        U, s, _ = np.linalg.svd(result.F, full_matrices=False)
        self.eigenvalues_ = s**2
        Y = np.zeros((problem.n, self.n_components))
        kept = min(self.n_components, len(s))
        Y[:, :kept] = U[:, :kept] * s[:kept]
        return Y
