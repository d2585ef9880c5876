r"""Solvers of the LMNN loss (thesis eq. 2.11): the thesis' own and a fast L-BFGS one.

``solve_reference`` -- thesis sec. 2.1.7, Algorithm 3: subgradient steps on ``M``
(eq. 2.14), projection onto the PSD cone by an eigen-decomposition (eq. 2.16), and
an active set: every ``refresh`` iterations (and when the loss stalls) the triples
are searched exactly and the active ones are added to a cached set; in between only
the cached set is evaluated. Step size: x1.01 after a decrease, x0.5 after an
increase, and an increasing step is rejected. Choices where the thesis is silent:
the cache is kept per impostor *pair* ``(i, l)`` (all ``k`` triples of a cached pair
are evaluated); the gradient is recomputed from the pair weights (equal to the
incremental update 2.15); the first step size moves ``M`` by 1% (``||alpha G|| =
0.01 ||M||``); "converged" means a relative loss decrease below ``tol`` over the
last ``refresh`` iterations, confirmed by an exact search that finds no new active
triple.

``solve_lbfgs`` -- L-BFGS-B (scipy) on ``L`` over a cached candidate set of impostor
pairs within ``max_j d_ij + 1 + slack`` of their anchor. The set stays fixed during
each inner L-BFGS run (so the objective the line search sees is one function) and is
rebuilt between runs; runs are 1, 2, 4, ... up to ``MAX_RUN`` iterations long. The
set contains every active triple of the current ``L``, so the loss after each rebuild
is the loss over all triples. A run after which that loss went *up* (pairs outside the
cache became active on the way) is rejected and repeated from its start with those
pairs added to the cache, so the loss over all triples decreases monotonically. It
stops when a rebuild brings no active triple the previous set lacked and the relative
loss change of the last run (relative to ``max(|loss|, 1)``, :func:`_relative_decrease`)
is below ``tol``, or after ``max_iter`` L-BFGS iterations
in total. The loss it minimises comes from a *core* (:class:`SingleMetricCore`, eq.
2.11, by default); :mod:`harness.methods.shared.mm_lmnn_core` supplies one for the multiple-metric
loss of sec. 2.1.8, where ``L`` is a stack of one map per class.

Both methods stop near a kink of the piecewise-linear loss, not exactly at the
minimum: on iris both end within ~1e-4 (relative) of the best value found; on wine and
digits L-BFGS ends 1-3 % above what a smoothed-hinge continuation reaches (a measured
alternative that costs ~3x the time and was not adopted), and the reference solver
with the default ``tol`` about 1.5 % above L-BFGS on digits. On tiny problems the
reference solver can stall far from the minimum: its step halves after every
increase, so at a kink where the subgradient is no descent direction the steps shrink
geometrically (a summable sequence) and the loss stops moving. Measured on the
half-square data of Fig. 2.3 (n = 20, k = 1, from M = I, seeds 0-3): final losses 5.53,
9.70, 4.52, 4.24 against L-BFGS's 2.72, 8.97, 2.62, 4.24, the same with ``tol`` = 1e-9;
taking every step as Algorithm 3 prints (halving after an increase, keeping the best
iterate) ends at 5.38, 9.70, 4.52, 4.25. Use ``"lbfgs"`` (the default) for results.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from harness.methods.shared.lmnn_core import (
    candidate_pairs,
    loss_over_all_triples,
    target_sq_distances,
    triplet_pass,
)

__all__ = ["SolverResult", "SingleMetricCore", "initial_L", "solve_lbfgs",
           "solve_reference", "MAX_RUN", "INIT_MEAN_TARGET_DISTANCE"]

#: Mean squared target distance that ``init="pca"`` / ``"identity"`` are scaled to.
INIT_MEAN_TARGET_DISTANCE = 3.0

#: Longest inner L-BFGS run between two rebuilds of the candidate set.
MAX_RUN = 32
_FIRST_STEP = 0.01  # reference solver: first step moves M by 1 % (Frobenius norm)


class SingleMetricCore:
    """The loss :func:`solve_lbfgs` minimises: eq. (2.11) with one map ``L`` (r, d).

    A core provides ``embed(X, L) -> Z`` (the mapped inputs the loss needs),
    ``candidate_pairs(Z, codes, targets, slack, search) -> (anchors, imps)`` (impostor
    pairs within ``max_j d_ij + 1 + slack``, sorted by key ``anchor * n + imp``;
    ``search`` is the impostor search method, :data:`harness.methods.shared.lmnn_impostors.SEARCHES`) and
    ``triplet_pass(Z, targets, anchors, imps, mu)``, a state with ``loss``,
    ``n_active``, ``on_imp``, ``active_pair_keys(n)`` and ``grad_L(Z, X)`` (shape of
    ``L``), like :class:`harness.methods.shared.lmnn_core.TripletState`.
    """

    @staticmethod
    def embed(X, L):
        return X @ L.T

    candidate_pairs = staticmethod(candidate_pairs)
    triplet_pass = staticmethod(triplet_pass)


class SolverResult:
    """What a solver returns: ``L`` (r, d), ``n_iter``, ``loss_curve`` (list), ``converged``."""

    def __init__(self, L, n_iter, loss_curve, converged):
        self.L, self.n_iter, self.loss_curve, self.converged = L, n_iter, loss_curve, converged


def initial_L(X, targets, n_components: int, init) -> np.ndarray:
    """Starting ``L`` of shape (n_components, n_features).

    ``"pca"``: the leading principal directions of ``X`` (rows of unit norm; for
    ``n_components = n_features`` a rotation, i.e. the Euclidean metric);
    ``"identity"``: the first ``n_components`` rows of the identity. Both are then
    scaled so that the mean squared target distance is
    :data:`INIT_MEAN_TARGET_DISTANCE` (a few units of the margin 1). An array is used
    as given.
    """
    d = X.shape[1]
    if not isinstance(init, str):
        L = np.array(init, dtype=np.float64)
        if L.shape != (n_components, d):
            raise ValueError(f"init has shape {L.shape}; expected ({n_components}, {d}) "
                             f"= (n_components, n_features)")
        return L
    if init == "pca":
        Xc = X - X.mean(axis=0)
        _, V = np.linalg.eigh(Xc.T @ Xc)
        L = np.ascontiguousarray(V[:, ::-1][:, :n_components].T)
    elif init == "identity":
        L = np.eye(n_components, d)
    else:
        raise ValueError(f"init={init!r} is not one of 'pca', 'identity' or an array")
    mean = target_sq_distances(X @ L.T, targets).mean()
    return L * np.sqrt(INIT_MEAN_TARGET_DISTANCE / mean) if mean > 0 else L


def _new_active_triples(state, old_keys, n) -> int:
    """Active triples of ``state`` on impostor pairs missing from ``old_keys`` (sorted)."""
    keys = state.active_pair_keys(n)
    if len(old_keys) == 0:
        return int(state.n_active)
    pos = np.minimum(np.searchsorted(old_keys, keys), len(old_keys) - 1)
    return int(state.on_imp[state.on_imp > 0][old_keys[pos] != keys].sum())


def _union(pairs, more, n):
    """Union of two pair sets ``(anchors, imps)``, sorted by key ``anchor * n + imp``."""
    keys = np.union1d(pairs[0] * n + pairs[1], more[0] * n + more[1])
    return keys // n, keys % n


def _relative_decrease(before: float, after: float) -> float:
    """The loss decrease relative to ``max(|before|, 1)``, scipy's scale for L-BFGS-B's
    ``ftol``: one unit is one margin of the hinge, so once the loss is below ``tol``
    its further (geometric) decrease towards 0 is not progress. Measured on
    MM-LMNN, olivetti (280 x 200, 40 metrics, k = 3), whose loss can reach 0: with the
    plain relative change the fit crawled from loss 1.3e-5 (run 5) to 1.3e-29 in 600
    one-iteration runs, 195 CPU-s (:mod:`harness.methods.shared.mm_lmnn_core`)."""
    return (before - after) / max(abs(before), 1.0)


def solve_lbfgs(X, codes, targets, L0, *, mu, max_iter, tol, slack,
                core=SingleMetricCore, search="auto") -> SolverResult:
    """L-BFGS-B on ``L`` over cached candidate impostor pairs (see module docstring).

    ``core`` defines the loss (default :class:`SingleMetricCore`, eq. 2.11); ``L0``
    may have any shape the core's ``embed`` accepts. ``search``: how the candidate
    pairs are searched (:func:`harness.methods.shared.lmnn_impostors.impostor_pairs`' ``method``;
    the same pairs either way).
    """
    n = len(X)
    shape = L0.shape
    L = np.array(L0, dtype=np.float64)
    Z = core.embed(X, L)
    pairs = core.candidate_pairs(Z, codes, targets, slack, search)
    state = core.triplet_pass(Z, targets, *pairs, mu)
    curve = [state.loss]
    n_iter, run, converged = 0, 1, False

    def fun(w):
        L = w.reshape(shape)
        Z = core.embed(X, L)
        s = core.triplet_pass(Z, targets, *pairs, mu)
        return s.loss, s.grad_L(Z, X).ravel()

    while n_iter < max_iter:
        res = minimize(fun, L.ravel(), jac=True, method="L-BFGS-B",
                       options={"maxiter": min(run, max_iter - n_iter), "gtol": 0.0,
                                "ftol": 0.1 * tol})
        n_iter += max(int(res.nit), 1)
        L_new = res.x.reshape(shape)
        Z = core.embed(X, L_new)
        fresh_pairs = core.candidate_pairs(Z, codes, targets, slack, search)
        state = core.triplet_pass(Z, targets, *fresh_pairs, mu)
        if state.loss > curve[-1]:
            # pairs outside the cache became active on the way: reject the run and
            # retry from L with those pairs cached too (the cache strictly grows, so
            # this cannot cycle)
            pairs = _union(pairs, fresh_pairs, n)
            continue
        fresh = _new_active_triples(state, pairs[0] * n + pairs[1], n)
        L, pairs = L_new, fresh_pairs
        curve.append(state.loss)
        if fresh == 0 and _relative_decrease(curve[-2], curve[-1]) <= tol:
            converged = True
            break
        run = min(2 * run, MAX_RUN)
    return SolverResult(L, n_iter, curve, converged)


def _project_psd(M):
    """Nearest PSD matrix (eq. 2.16) and a factor ``L`` with ``L^T L`` = it (rows by
    decreasing eigenvalue)."""
    w, V = np.linalg.eigh(0.5 * (M + M.T))
    w = np.maximum(w, 0.0)[::-1]
    V = V[:, ::-1]
    L = np.sqrt(w)[:, None] * V.T
    return L.T @ L, L


def solve_reference(X, codes, targets, L0, *, mu, max_iter, tol, refresh,
                    search="auto") -> SolverResult:
    """The thesis' projected subgradient solver on ``M`` (sec. 2.1.7, Algorithm 3);
    ``search``: the exact active-set search's method (as in :func:`solve_lbfgs`)."""
    n = len(X)
    M, L = _project_psd(L0.T @ L0)
    Z = X @ L.T
    exact = loss_over_all_triples(Z, codes, targets, mu, search)
    on = exact.on_imp > 0
    pairs = (exact.anchors[on], exact.imps[on])  # the active set N^(0)
    state = triplet_pass(Z, targets, *pairs, mu)
    G = state.grad_M(X)
    alpha = _FIRST_STEP * np.linalg.norm(M) / max(np.linalg.norm(G), np.finfo(float).tiny)
    curve = [state.loss]
    converged = False
    t = 0
    while t < max_iter:
        t += 1
        M_new, L_new = _project_psd(M - alpha * G)
        Z_new = X @ L_new.T
        trial = triplet_pass(Z_new, targets, *pairs, mu)
        if trial.loss <= state.loss:
            M, L, Z, state, alpha = M_new, L_new, Z_new, trial, alpha * 1.01
            G = state.grad_M(X)
        else:
            alpha *= 0.5
        curve.append(state.loss)
        almost = t >= refresh and _relative_decrease(curve[-1 - refresh], curve[-1]) <= tol
        if t % refresh == 0 or almost:
            exact = loss_over_all_triples(Z, codes, targets, mu, search)
            fresh = _new_active_triples(exact, pairs[0] * n + pairs[1], n)
            on = exact.on_imp > 0
            pairs = _union(pairs, (exact.anchors[on], exact.imps[on]), n)
            state = triplet_pass(Z, targets, *pairs, mu)
            G = state.grad_M(X)
            if almost and fresh == 0:
                converged = True
                break
    return SolverResult(L, t, curve, converged)
