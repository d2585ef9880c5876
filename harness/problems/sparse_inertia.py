"""Sylvester inertia of sparse symmetric matrices, and eigenvalue bounds proved with it.

A Ritz value from an iterative eigensolver (LOBPCG, Lanczos) that has not fully
converged lies *above* the smallest eigenvalue, so a dual bound computed from it is
not a bound. Sylvester's law of inertia gives a proof instead: if ``A - t I = L D L^T``
then the number of eigenvalues of ``A`` below ``t`` equals the number of negative
entries of ``D``. One sparse LDL^T factorisation (QDLDL, which cvxpy ships; AMD
ordering, no pivoting) therefore certifies ``lambda_min(A) >= t``.

For a weighted graph Laplacian ``L(w)`` the ones vector is an eigenvector with
eigenvalue 0, so on the complement of the ones vector

    mu(w) >= t   iff   L(w) - t I has exactly [t > 0] negative pivots,
    nu(w) <= t   iff   t I - L(w) has exactly [t < 0] negative pivots.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["negative_pivots", "bottom_at_least", "certified_bottom", "certified_top"]


def negative_pivots(A: sp.spmatrix) -> int | None:
    """Number of negative eigenvalues of the symmetric sparse matrix ``A``.

    Returns ``None`` when the pivot-free LDL^T factorisation meets a zero pivot (``A``
    singular or numerically so in the chosen order); callers then move the shift.
    """
    import qdldl

    A = sp.csc_matrix(A)
    try:
        _, D, _ = qdldl.Solver(A).factors()
    except RuntimeError:
        return None
    if not np.all(np.isfinite(D)):
        return None
    return int((D < 0).sum())


def _shifted(L: sp.spmatrix, t: float, sign: float) -> sp.csc_matrix:
    n = L.shape[0]
    return sp.csc_matrix(sign * (L - t * sp.identity(n, format="csr")))


def bottom_at_least(L: sp.spmatrix, t: float) -> bool:
    """Proof (by inertia) that the Laplacian ``L`` has no eigenvalue below ``t`` on the
    complement of the ones vector; ``False`` when it has one or the proof fails."""
    count = negative_pivots(_shifted(L, t, 1.0))
    return count is not None and count <= (1 if t > 0 else 0)


def certified_bottom(L: sp.spmatrix, estimate: float, rel_step: float = 1e-6,
                     max_tries: int = 40) -> float:
    """A proven lower bound on ``mu``, the smallest eigenvalue of the Laplacian ``L``
    on the complement of the ones vector, close below ``estimate``.

    Tries ``t = estimate - step`` and doubles ``step`` until the inertia of
    ``L - t I`` proves ``mu >= t``. Returns ``-inf`` if no such ``t`` is found.
    """
    step = rel_step * max(1.0, abs(estimate))
    for _ in range(max_tries):
        t = estimate - step
        if bottom_at_least(L, t):
            return float(t)
        step *= 2.0
    return -np.inf


def certified_top(L: sp.spmatrix, estimate: float, rel_step: float = 1e-6,
                  max_tries: int = 40) -> float:
    """A proven upper bound on ``nu``, the largest eigenvalue of ``L`` on the
    complement of the ones vector, close above ``estimate`` (``inf`` if none found)."""
    step = rel_step * max(1.0, abs(estimate))
    for _ in range(max_tries):
        t = estimate + step
        count = negative_pivots(_shifted(L, t, -1.0))
        if count is not None and count <= (1 if t < 0 else 0):
            return float(t)
        step *= 2.0
    return np.inf
