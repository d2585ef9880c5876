"""POLA, the pseudo-metric online learning algorithm of Shalev-Shwartz, Singer and Ng
(2004) [74], as thesis 2.2.2 describes it (lines 1190-1213, eqs. 2.28-2.30).

For a pair ``(u_t, v_t, y_t)`` (``y_t = 1`` similar, ``-1`` not) with ``x_t = u_t -
v_t``, the constraint (2.28) ``y_t (b - x_t^T M x_t) >= 1`` defines the half-space
``C_1^t`` (2.29) of the vectors ``(vec M, b)``; POLA projects the current ``(M, b)``
first onto ``C_1^t`` and then onto ``C_2 = {M >= 0}`` (2.30). The Euclidean projection
onto the half-space, whose normal is ``y_t (-vec(x_t x_t^T), 1)`` of squared norm
``||x_t||^4 + 1``, moves by the hinge loss ``l_t = max(0, 1 - y_t (b - x_t^T M x_t))``::

    alpha = l_t / (||x_t||^4 + 1),  M <- M - alpha y_t x_t x_t^T,  b <- b + alpha y_t

and the projection onto ``C_2`` clips ``M``'s negative eigenvalues (needed only after a
similar pair, which lowers ``M``). [74] also keeps ``b >= 1`` in its second set; the
thesis' (2.30) does not (``b_floor``, default None).

The batch version (line 1213): the pairs are visited again, pass after pass, until
no pair incurs a hinge loss above ``beta`` during a pass (each pass in a seeded random
order). :func:`pola_step` is the reference (NumPy); :func:`batch_pola` runs the same
step compiled by numba (tested against the reference).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["pola_step", "project_psd", "hinge_losses", "batch_pola", "metric_map"]


def project_psd(M: np.ndarray) -> np.ndarray:
    """The nearest (Frobenius) PSD matrix: the negative eigenvalues of the symmetric
    ``M`` set to zero."""
    w, V = np.linalg.eigh((M + M.T) / 2.0)
    return (V * np.maximum(w, 0.0)) @ V.T


def pola_step(M, b, x, y, b_floor=None) -> tuple[np.ndarray, float, float]:
    """One POLA update on the pair difference ``x`` with label ``y`` (+1 / -1): the
    projection onto ``C_1^t`` (2.29), then onto ``C_2`` (2.30) (and ``b >= b_floor``
    when given). Returns the new ``M``, ``b`` and the hinge loss before the step."""
    x = np.asarray(x, dtype=np.float64)
    loss = max(0.0, 1.0 - y * (b - x @ M @ x))
    if loss > 0.0:
        alpha = loss / ((x @ x) ** 2 + 1.0)
        M = M - alpha * y * np.outer(x, x)
        b = b + alpha * y
        if y > 0:
            M = project_psd(M)
    if b_floor is not None:
        b = max(b, b_floor)
    return M, float(b), float(loss)


def hinge_losses(M, b, X, y) -> np.ndarray:
    """The hinge loss ``max(0, 1 - y_t (b - x_t^T M x_t))`` of every pair (rows of
    ``X``)."""
    q = np.einsum("ij,jk,ik->i", X, M, X)
    return np.maximum(0.0, 1.0 - y * (b - q))


def _kernel():
    import numba

    @numba.njit(cache=True)
    def one_pass(M, b, X, y, order, beta, b_floor, use_floor):
        d = M.shape[0]
        worst = 0.0
        updates = 0
        for t in order:
            x = X[t]
            q = 0.0
            for i in range(d):
                s = 0.0
                for j in range(d):
                    s += M[i, j] * x[j]
                q += x[i] * s
            loss = 1.0 - y[t] * (b - q)
            if loss > 0.0:
                if loss > worst:
                    worst = loss
                nx = 0.0
                for i in range(d):
                    nx += x[i] * x[i]
                alpha = loss / (nx * nx + 1.0)
                for i in range(d):
                    for j in range(d):
                        M[i, j] -= alpha * y[t] * x[i] * x[j]
                b += alpha * y[t]
                updates += 1
                if y[t] > 0:
                    S = (M + M.T) / 2.0
                    w, V = np.linalg.eigh(S)
                    if w[0] < 0.0:
                        for k in range(d):
                            if w[k] < 0.0:
                                w[k] = 0.0
                        M[:, :] = (V * w) @ V.T
            if use_floor and b < b_floor:
                b = b_floor
        return b, worst, updates

    return one_pass


_ONE_PASS = None


def batch_pola(X, y, beta: float = 0.1, max_passes: int = 1000, seed=0, b_floor=None,
               M0=None, b0: float = 1.0) -> dict:
    """Batch POLA on the pair differences ``X`` (rows) with labels ``y`` (+1 / -1):
    passes in seeded random orders until one has no hinge loss above ``beta`` (the
    thesis' stopping rule) or ``max_passes``. Starts from ``M0`` (default 0) and
    ``b0`` (1, as [74]).

    Returns ``{"M", "b", "passes", "converged", "last_pass_max_loss",
    "final_max_loss" (every pair's loss at the returned (M, b)), "updates"}``.
    """
    global _ONE_PASS
    if _ONE_PASS is None:
        _ONE_PASS = _kernel()
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    d = X.shape[1]
    M = np.zeros((d, d)) if M0 is None else np.array(M0, dtype=np.float64)
    b = float(b0)
    rng = np.random.default_rng(seed)
    updates, worst, passes, converged = 0, math.inf, 0, False
    for passes in range(1, max_passes + 1):
        order = rng.permutation(len(X)).astype(np.int64)
        b, worst, u = _ONE_PASS(M, b, X, y, order, beta,
                                0.0 if b_floor is None else float(b_floor), b_floor is not None)
        updates += int(u)
        if worst <= beta:
            converged = True
            break
    return {"M": project_psd(M), "b": float(b), "passes": passes, "converged": converged,
            "last_pass_max_loss": float(worst),
            "final_max_loss": float(hinge_losses(M, b, X, y).max()) if len(X) else 0.0,
            "updates": updates}


def metric_map(M) -> np.ndarray:
    """A linear map ``L`` with ``L^T L = M`` (the symmetric square root of the PSD part),
    so that distances under ``M`` are Euclidean distances of ``X @ L.T``."""
    w, V = np.linalg.eigh((np.asarray(M) + np.asarray(M).T) / 2.0)
    return (V * np.sqrt(np.maximum(w, 0.0))) @ V.T
