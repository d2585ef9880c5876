"""Large margin nearest neighbour metric learning, LMNN (thesis sec. 2.1)."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from harness.methods.shared.metric_knn import MetricKNNClassifier, check_mu
from harness.methods.shared.lmnn_core import loss_over_all_triples
from harness.methods.shared.lmnn_impostors import resolve_search
from harness.methods.shared.lmnn_solvers import initial_L, solve_lbfgs, solve_reference

SOLVERS = ("lbfgs", "reference")


class LMNN(MetricKNNClassifier):
    r"""Large margin nearest neighbour (LMNN) metric learning, thesis sec. 2.1.

    Learns ``L`` (``M = L^T L``) minimising eq. (2.11),

    ``(1 - mu) sum_{j ~> i} D(i, j) + mu sum_{j ~> i} sum_{l: y_l != y_i}
    [1 + D(i, j) - D(i, l)]_+``,  ``D(a, b) = ||L (x_a - x_b)||^2``,

    with target neighbours ``j ~> i`` fixed before learning as the ``k`` nearest
    points of the same class by Euclidean distance in the input (thesis 2.1.2),
    margin 1 and ``mu = 0.5`` (thesis 2.1.6). ``predict`` is ``k``-NN under the
    metric with the thesis' tie rule (2.1.6); ``predict_energy`` is the energy rule
    (2.12), see :mod:`harness.metrics.energy`.

    Parameters
    ----------
    n_neighbors : int, default=3
        ``k``: target neighbours per point and neighbours of the ``k``-NN rule. Every
        class needs more than ``k`` members.
    mu : float, default=0.5
        Weight of the hinge (push) term in (2.11), in ``[0, 1]``.
    n_components : int or None, default=None
        Rows of ``L``; None means ``n_features`` (square ``L``). A rectangular ``L``
        (thesis 2.1.9) makes the problem non-convex and needs ``solver="lbfgs"``.
    solver : {"lbfgs", "reference"}, default="lbfgs"
        ``"reference"``: the thesis' projected subgradient method on ``M`` (sec.
        2.1.7, Algorithm 3). ``"lbfgs"``: L-BFGS-B on ``L`` over a cached set of
        candidate impostor pairs refreshed between inner runs. See
        :mod:`harness.methods.shared.lmnn_solvers` for both.
    init : {"pca", "identity"} or ndarray of shape (n_components, n_features), default="pca"
        Starting ``L``. The strings are scaled so that the mean squared target
        distance is 3 (the thesis starts from ``M = I``, Algorithm 3; on inputs whose
        distances are in the hundreds the margin 1 would be meaningless at that
        scale). An array is used as given (``np.eye(d)`` is the thesis' start).
    max_iter : int, default=1000
        L-BFGS iterations in total (``"lbfgs"``) or subgradient steps
        (``"reference"``).
    tol : float, default=1e-4
        Relative loss change below which the solver stops once no new active triple
        appears (``"lbfgs"``: between two candidate refreshes; ``"reference"``: over
        the last ``active_set_refresh`` steps, confirmed by an exact search).
        Measured on digits (20 stratified 70/30 splits, k = 3): 1e-4 ends with a
        loss 0.1-0.2 % above tol=1e-7 (less than the 1-3 % by which any kink-stopping
        solver misses the minimum, see :mod:`harness.methods.shared.lmnn_solvers`) at 0.47 instead
        of 0.71 CPU-s (L-BFGS), with the same test errors (131 vs 133 of 10800).
    candidate_slack : float, default=0.25
        ``"lbfgs"`` only: cached pairs lie within ``max_j D(i, j) + 1 +
        candidate_slack`` of their anchor.
    active_set_refresh : int, default=10
        ``"reference"`` only: exact active-set search every that many steps (the
        thesis: "every ten or twenty iterations").
    impostor_search : {"auto", "blocked", "tree"}, default="auto"
        How impostor pairs are searched (:func:`harness.methods.shared.lmnn_impostors.impostor_pairs`):
        ``"blocked"`` tiled float32 GEMM screen, ``"tree"`` one ball tree per class
        (thesis 2.1.9), ``"auto"`` the one measured faster at ``L``'s number of rows.
        Every choice finds the same pairs, so the fit (``L``) is the same; only its
        time differs.
    random_state : None or int, default=None
        Unused: the fit is deterministic. Accepted for a uniform plugin interface.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``L``.
    metric_ : ndarray of shape (n_features, n_features)
        ``M = L^T L``.
    loss_ : float
        (2.11) at the final ``L`` over every triple (exact, not the solver's cache).
    n_active_ : int
        Triples with a positive hinge at the final ``L``, over every triple.
    n_iter_ : int
    loss_curve_ : ndarray
        ``"lbfgs"``: the loss over every triple at the start and after each inner
        run; ``"reference"``: the loss over the active set after each step.
    converged_ : bool
    target_neighbors_ : ndarray of int of shape (n_samples, n_neighbors)
        Indices of each training point's target neighbours.
    classes_ : ndarray of shape (n_classes,)

    Notes
    -----
    Where the thesis is silent or ambiguous: target neighbours at equal distance are
    taken in the order of scikit-learn's neighbour search, and an exact duplicate of
    a point may be its target neighbour; a class needs more than ``k`` members (an
    error otherwise); the hinge counts as active only when strictly positive; the
    start is scaled (``init``); ``"reference"`` keeps its active set per impostor pair
    and learns a square ``M`` only; the energy rule follows the printed (2.12), not
    ``energyclassify.m``. The solvers stop near a kink of the nonsmooth loss, so
    ``loss_`` is close to but not exactly the minimum (see
    :mod:`harness.methods.shared.lmnn_solvers`).
    """

    name = "lmnn"
    thesis_label = "LMNN"
    references = (
        "thesis 2.1 (eqs. 2.11, 2.12; solver 2.1.7)",
        "Weinberger, Blitzer, Saul, Distance metric learning for large margin nearest "
        "neighbor classification, NIPS 2005",
        "Weinberger, Saul, Distance metric learning for large margin nearest neighbor "
        "classification, JMLR 10, 2009",
    )
    table_note = (
        "LMNN (2.11), mu = 0.5, margin 1, Euclidean target neighbours; L-BFGS on L over "
        "cached impostor pairs from a PCA start scaled to mean squared target distance "
        "3 (solver='reference' is the thesis' projected subgradient on M, 2.1.7); kNN "
        "ties shrink k (2.1.6); energy rule as printed in (2.12)."
    )

    def __init__(self, *, n_neighbors=3, mu=0.5, n_components=None, solver="lbfgs",
                 init="pca", max_iter=1000, tol=1e-4, candidate_slack=0.25,
                 active_set_refresh=10, impostor_search="auto", random_state=None):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.n_components = n_components
        self.solver = solver
        self.init = init
        self.max_iter = max_iter
        self.tol = tol
        self.candidate_slack = candidate_slack
        self.active_set_refresh = active_set_refresh
        self.impostor_search = impostor_search
        self.random_state = random_state

    def _check_params(self, d):
        check_mu(self.mu)
        if self.solver not in SOLVERS:
            raise ValueError(f"solver={self.solver!r} is not one of {SOLVERS}")
        resolve_search(self.impostor_search, 1, d)  # an unknown name raises here
        r = d if self.n_components is None else self.n_components
        if isinstance(r, bool) or not isinstance(r, numbers.Integral) or not 1 <= r <= d:
            raise ValueError(f"n_components={r!r} must satisfy 1 <= n_components <= "
                             f"n_features={d}")
        if self.solver == "reference" and r != d:
            raise ValueError(f"solver='reference' learns a square M (thesis 2.1.7); "
                             f"n_components={r} < n_features={d} needs solver='lbfgs'")
        return int(r)

    def _fit_map(self, X, codes):
        """Learn ``L`` on ``(X, codes)`` from Euclidean target neighbours in ``X``."""
        r = self._check_params(X.shape[1])
        targets = self.target_neighbors_ = self._input_target_neighbors(X, codes)
        L0 = initial_L(X, targets, r, self.init)
        if self.solver == "lbfgs":
            res = solve_lbfgs(X, codes, targets, L0, mu=self.mu, max_iter=self.max_iter,
                              tol=self.tol, slack=self.candidate_slack,
                              search=self.impostor_search)
        else:
            res = solve_reference(X, codes, targets, L0, mu=self.mu, max_iter=self.max_iter,
                                  tol=self.tol, refresh=self.active_set_refresh,
                                  search=self.impostor_search)
        if not res.converged:
            warnings.warn(f"LMNN ({self.solver}) stopped at max_iter={self.max_iter} "
                          f"before converging", ConvergenceWarning, stacklevel=3)
        final = loss_over_all_triples(X @ res.L.T, codes, targets, self.mu,
                                      self.impostor_search)
        self.metric_ = res.L.T @ res.L
        self.loss_, self.n_active_ = float(final.loss), int(final.n_active)
        self.n_iter_, self.loss_curve_ = int(res.n_iter), np.asarray(res.loss_curve)
        self.converged_ = bool(res.converged)
        return res.L
