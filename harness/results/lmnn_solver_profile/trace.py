r"""The thesis' solver (sec. 2.1.7, Algorithm 3) watched from the outside.

:func:`traced_reference` runs :func:`harness.methods.shared.lmnn_solvers.solve_reference` unchanged,
with the module's names ``triplet_pass`` and ``loss_over_all_triples`` (and, for a
chosen first step, ``_FIRST_STEP``) wrapped for the duration of the call: every trial
step, every accepted iterate and every exact full check is seen, nothing the solver
computes is changed (its result is the same ``SolverResult``). No file of
``harness/methods/`` is edited, so no existing job reruns.

At every accepted iterate ``M_t`` (and after every full check) we compute, from the
iterate's ``Z = X L_t^T``:

* the active set ``N_t`` over *all* triples (an exact search, the thesis' definition
  below (2.13)) as sorted keys ``(i n + l) k + m`` (anchor ``i``, impostor ``l``,
  ``m``-th target of ``i``);
* the gradient by (2.14) from ``N_t`` (:func:`gradient_2_14`) and by the incremental
  rule (2.15) from ``G_{t-1}`` and the differences ``N_{t-1} - N_t``, ``N_t -
  N_{t-1}`` (:func:`gradient_2_15`), each timed in CPU seconds; both sum the outer
  products ``C_ab`` with one kernel (:func:`sum_outer_products`), the triples first
  collapsed to pairs with their counts, so the two differ only in which triples they
  visit;
* the loss (2.13) over all triples and the leave-one-out k-NN error.

At every full check the solver makes after its first, the active triples the cached
set ``N^(t-1)`` missed (what a run that stopped there without the final check would
miss).
"""

from __future__ import annotations

import contextlib
import time

import numpy as np

import harness.methods.shared.lmnn_solvers as solvers
from harness.metrics.knn_error import knn_loo_error
from harness.methods.shared.lmnn_core import loss_over_all_triples, target_sq_distances
from harness.methods.shared.lmnn_impostors import pair_sq_distances
from harness import timelimit

__all__ = ["active_triples", "sum_outer_products", "gradient_2_14", "gradient_2_15",
           "cpu_clock", "cpu_seconds", "Trace", "traced_reference"]


def active_triples(Z, targets, anchors, imps) -> np.ndarray:
    """Sorted keys ``(anchor n + imp) k + m`` of the triples over the pairs ``(anchors,
    imps)`` whose hinge ``1 + d_ij - d_il`` is strictly positive (2.13)."""
    n, k = targets.shape
    dt = target_sq_distances(Z, targets)
    d_il = pair_sq_distances(np.ascontiguousarray(Z, dtype=np.float64), anchors, imps)
    on = 1.0 + dt[anchors] - d_il[:, None] > 0.0
    p, m = np.nonzero(on)
    return np.sort((anchors[p].astype(np.int64) * n + imps[p]) * k + m)


def sum_outer_products(X, a, b, w) -> np.ndarray:
    """``sum_p w_p (x_a - x_b)(x_a - x_b)^T`` over the pairs ``(a_p, b_p)``."""
    D = X[a] - X[b]
    return D.T @ (w[:, None] * D)


def _triple_pairs(keys, targets):
    """The pairs ``(i, j)`` and ``(i, l)`` of the triples ``keys`` with their counts:
    ``(target anchors, target points, counts), (impostor anchors, impostors, counts)``."""
    n, k = targets.shape
    pair, m = np.divmod(keys, k)
    i, l = np.divmod(pair, n)
    tkey, tcount = np.unique(i * k + m, return_counts=True)
    ti, tm = np.divmod(tkey, k)
    ikey, icount = np.unique(pair, return_counts=True)
    ii, il = np.divmod(ikey, n)
    return (ti, targets[ti, tm], tcount), (ii, il, icount)


def _signed(X, keys, targets, sign) -> np.ndarray:
    """``sign sum_{(i,j,l) in keys} (C_ij - C_il)``."""
    (ti, tj, tc), (ii, il, ic) = _triple_pairs(keys, targets)
    a = np.concatenate([ti, ii])
    b = np.concatenate([tj, il])
    w = sign * np.concatenate([tc, -ic]).astype(np.float64)
    return sum_outer_products(X, a, b, w)


def gradient_2_14(X, targets, keys, mu) -> np.ndarray:
    """Eq. (2.14): ``(1 - mu) sum_{j ~> i} C_ij + mu sum_{(i,j,l) in N} (C_ij - C_il)``."""
    n, k = targets.shape
    anchors = np.repeat(np.arange(n), k)
    pull = sum_outer_products(X, anchors, targets.ravel(), np.full(n * k, 1.0 - mu))
    return pull + _signed(X, keys, targets, mu)


def gradient_2_15(G, X, targets, old_keys, new_keys, mu) -> np.ndarray:
    """Eq. (2.15): ``G - mu sum_{N_t - N_t+1} (C_ij - C_il) + mu sum_{N_t+1 - N_t} (...)``."""
    gone = np.setdiff1d(old_keys, new_keys, assume_unique=True)
    came = np.setdiff1d(new_keys, old_keys, assume_unique=True)
    return G + _signed(X, came, targets, mu) - _signed(X, gone, targets, mu)


def cpu_clock(blas_threads: int):
    """The CPU clock of the timings: ``time.thread_time`` when BLAS is pinned to one
    thread (the work then runs in the calling thread), else the process' clock
    :func:`harness.timelimit.cpu_clock` (why not ``time.process_time``: see there);
    the gradients (2.14)/(2.15) take 0.1-1 ms."""
    return time.thread_time if blas_threads == 1 else timelimit.cpu_clock


def cpu_seconds(fn, repeats: int, clock=time.thread_time):
    """``(result, seconds)``: the least CPU time (``clock``) of ``repeats`` calls of
    ``fn()``."""
    best, out = np.inf, None
    for _ in range(max(1, repeats)):
        start = clock()
        out = fn()
        best = min(best, clock() - start)
    return out, best


class Trace:
    """What :func:`traced_reference` saw: per accepted iterate (``iterates``, a list
    of dicts) and per full check after the first (``checks``)."""

    def __init__(self, X, codes, targets, mu, n_neighbors, repeats, loo, clock):
        self.clock = clock
        self.X, self.codes, self.targets, self.mu = X, codes, targets, float(mu)
        self.n_neighbors, self.repeats, self.loo = n_neighbors, repeats, loo
        self.iterates, self.checks = [], []
        self.G = self.keys = None
        self.step = 0            # trial steps so far (the solver's t)
        self.cache = None        # the pairs of the solver's last triplet_pass
        self.after_check = True  # the next triplet_pass re-evaluates the state
        self.current = None      # the solver's state loss

    def iterate(self, Z, kind: str) -> None:
        """Record the iterate ``Z`` (``kind``: ``start``, ``step`` or ``check``)."""
        exact = loss_over_all_triples(Z, self.codes, self.targets, self.mu)
        keys = active_triples(Z, self.targets, exact.anchors, exact.imps)
        row = {"t": self.step, "kind": kind, "loss": float(exact.loss),
               "n_active": int(len(keys)), "n_active_core": int(exact.n_active)}
        full, t_full = cpu_seconds(
            lambda: gradient_2_14(self.X, self.targets, keys, self.mu), self.repeats,
            self.clock)
        if self.G is not None:
            inc, t_inc = cpu_seconds(lambda: gradient_2_15(
                self.G, self.X, self.targets, self.keys, keys, self.mu), self.repeats,
                self.clock)
            union = np.union1d(self.keys, keys)
            row.update(n_changed=int(len(union) - len(np.intersect1d(self.keys, keys))),
                       n_active_before=int(len(self.keys)),
                       grad_rel_error=float(np.linalg.norm(inc - full) / max(
                           np.linalg.norm(full), np.finfo(float).tiny)),
                       seconds_2_14=t_full, seconds_2_15=t_inc)
            self.G = inc  # (2.15) accumulates from its own previous value
        else:
            self.G = full
        if self.loo:
            row["loo_error"] = float(knn_loo_error(Z, self.codes, self.n_neighbors))
        self.keys = keys
        self.iterates.append(row)


@contextlib.contextmanager
def _patched(**names):
    old = {name: getattr(solvers, name) for name in names}
    try:
        for name, value in names.items():
            setattr(solvers, name, value)
        yield
    finally:
        for name, value in old.items():
            setattr(solvers, name, value)


def traced_reference(X, codes, targets, L0, *, mu, max_iter, tol, refresh, n_neighbors,
                     repeats=3, loo=True, first_step=None, watch=True,
                     clock=time.thread_time):
    """Run the reference solver (Algorithm 3) on ``(X, codes)`` from ``L0`` and return
    ``(SolverResult, Trace)``. ``first_step``: the solver's ``_FIRST_STEP`` (the first
    step moves ``M`` by that fraction of ``||M||``), None to keep it; ``watch=False``
    records nothing per iterate (a plain run); ``clock``: :func:`cpu_clock`."""
    trace = Trace(X, codes, targets, mu, n_neighbors, repeats, loo, clock)
    real_pass, real_exact = solvers.triplet_pass, solvers.loss_over_all_triples

    def exact(Z, codes_, targets_, mu_, search="auto"):
        state = real_exact(Z, codes_, targets_, mu_, search)
        if trace.cache is not None and watch:
            n, k = targets_.shape
            cached = np.isin(state.anchors * n + state.imps,
                             trace.cache[0] * n + trace.cache[1])
            missed = active_triples(Z, targets_, state.anchors[~cached], state.imps[~cached])
            trace.checks.append({"t": trace.step, "missed": int(len(missed)),
                                 "n_active": int(state.n_active)})
        trace.after_check = True
        return state

    def passed(Z, targets_, anchors, imps, mu_):
        state = real_pass(Z, targets_, anchors, imps, mu_)
        trace.cache = (anchors, imps)
        if trace.after_check:
            trace.after_check = False
            kind = "start" if trace.current is None else "check"
            trace.current = state.loss
            if watch and kind == "start":
                trace.iterate(Z, kind)
            return state
        trace.step += 1
        if state.loss <= trace.current:
            trace.current = state.loss
            if watch:
                trace.iterate(Z, "step")
        return state

    patches = {"triplet_pass": passed, "loss_over_all_triples": exact}
    if first_step is not None:
        patches["_FIRST_STEP"] = float(first_step)
    with _patched(**patches):
        res = solvers.solve_reference(X, codes, targets, L0, mu=mu, max_iter=max_iter,
                                      tol=tol, refresh=refresh)
    return res, trace
