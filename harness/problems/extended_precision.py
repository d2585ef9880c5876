"""Eigenvalue bounds of lifted MVU multipliers in extended precision.

Facial reduction lifts the reduced problem's multipliers to ``w + t w_Y``
(:func:`harness.problems.facial_reduction.lift_multipliers`). Where the face has
weakly rigid directions (``L(w_Y)`` with eigenvalues ~1e-11 of its largest outside
the face, e.g. the noise-free Swiss roll, n = 1000, k = 5) the dual is not attained
and t must reach ~1e12. In float64 the eigenvalues of ``L(w + t w_Y)`` are then only
resolved to ``eps t lambda_max(Y)`` ~ 4e-3, and so is the certificate: rounding, not
the mathematics, held the gap at 4.8e-3. Measured on that instance with the sums
below in ``numpy.longdouble`` (x87 80-bit, eps 1.1e-19): ``mu`` at t = 2^40 is
1 - 4e-6, a gap of ~1e-5.

Two things make that exact rather than lucky:

* the multipliers are kept as an exact sum ``w_high + w_low`` of two float64
  vectors (:func:`exact_lift`: t a power of two makes ``t w_Y`` exact and a TwoSum
  keeps the rounding error of ``w + t w_Y``), so the dual point the certificate
  speaks of is the real-number sum, not its float64 rounding (which alone moves
  ``L`` by ``eps t |Y|``);
* ``L(w_high) + L(w_low) - lambda I`` is assembled and Cholesky-factorised in
  extended precision (:func:`centred_extreme_at`). Success proves that the
  smallest eigenvalue on the complement of the ones vector is at least ``lambda``
  up to the same rounding convention as :func:`harness.problems.mvu_certificate.
  rounding_margin`: the shift is raised by ``eps_ext ||L||_inf``.

Dense: O(n^2) extended-precision memory and n^3 / 3 flops per test (measured, 1
thread: 1.2 s at n = 1000, 10 s at n = 2000). Used only for lifted facial
multipliers, up to ``EXTENDED_DENSE_MAX`` points. Where ``numpy.longdouble`` is no
wider than float64 (some platforms), :data:`AVAILABLE` is False and callers keep
the float64 certificate.
"""

from __future__ import annotations

import numpy as np

__all__ = ["AVAILABLE", "EXTENDED_EPS", "EXTENDED_DENSE_MAX", "exact_lift",
           "dense_laplacian", "cholesky_succeeds", "centred_extreme_at",
           "certified_extreme"]

EXTENDED_EPS = float(np.finfo(np.longdouble).eps)
#: Whether numpy's longdouble carries more digits than float64.
AVAILABLE = EXTENDED_EPS < 1e-18
#: Largest n for the dense extended-precision factorisation (256 MB at 4000).
EXTENDED_DENSE_MAX = 4000
_BLOCK = 96


def exact_lift(w: np.ndarray, t: float, w_Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(high, low)`` with ``high + low = w + t w_Y`` exactly (real numbers).

    ``t`` must be plus or minus a power of two (then ``t w_Y`` is exact); ``high`` is
    the float64 rounding of the sum and ``low`` its error by Knuth's TwoSum.
    """
    if not (t != 0 and np.frexp(abs(t))[0] == 0.5):
        raise ValueError(f"t must be +/- a power of two for an exact lift, got {t!r}")
    a, b = np.asarray(w, dtype=np.float64), t * np.asarray(w_Y, dtype=np.float64)
    high = a + b
    bb = high - a
    low = (a - (high - bb)) + (b - bb)
    return high, low


def dense_laplacian(n: int, edges: np.ndarray, parts) -> np.ndarray:
    """``sum_p L(w_p)`` as a dense ``numpy.longdouble`` matrix (each float64 weight
    converted exactly; the sums in extended precision)."""
    A = np.zeros((n, n), dtype=np.longdouble)
    i, j = edges[:, 0], edges[:, 1]
    for w in parts:
        w = np.asarray(w, dtype=np.longdouble)
        np.add.at(A, (i, j), -w)
        np.add.at(A, (j, i), -w)
        np.add.at(A, (i, i), w)
        np.add.at(A, (j, j), w)
    return A


def cholesky_succeeds(A: np.ndarray, block: int = _BLOCK) -> bool:
    """Whether the (blocked, right-looking) Cholesky factorisation of the symmetric
    matrix ``A`` meets only positive pivots, in A's own precision. ``A`` is
    overwritten (its lower triangle holds the factor on success)."""
    n = A.shape[0]
    for k in range(0, n, block):
        e = min(k + block, n)
        for j in range(k, e):  # the diagonal block, column by column
            if j > k:
                A[j:e, j] -= A[j:e, k:j] @ A[j, k:j]
            p = A[j, j]
            if not p > 0:
                return False
            A[j, j] = p = np.sqrt(p)
            A[j + 1:e, j] /= p
        if e < n:  # the panel below: L21 L11^T = A21, then the trailing update
            L11, A21 = A[k:e, k:e], A[e:, k:e]
            for jj in range(e - k):
                if jj:
                    A21[:, jj] -= A21[:, :jj] @ L11[jj, :jj]
                A21[:, jj] /= L11[jj, jj]
            A[e:, e:] -= A21 @ A21.T
    return True


def centred_extreme_at(L: np.ndarray, lam: float, largest: bool = False) -> bool:
    """Proof that the dense Laplacian ``L`` (extended precision) has no eigenvalue
    below ``lam`` (``largest``: above ``lam``) on the complement of the ones vector.

    ``L 1 = 0``, so ``L - lam I`` has the eigenvalue ``-lam`` on 1; adding
    ``(|lam| + 1) 1 1^T / n`` moves it to a positive value and leaves the rest. The
    shift is moved by ``EXTENDED_EPS ||L||_inf`` towards safety before factorising.
    """
    n = L.shape[0]
    margin = EXTENDED_EPS * float(np.abs(L).sum(axis=1).max())
    sign = -1.0 if largest else 1.0
    shift = np.longdouble(lam - sign * margin)
    M = sign * L  # a copy
    M[np.diag_indices(n)] -= sign * shift
    M += np.longdouble(abs(float(shift)) + 1.0) / n
    return cholesky_succeeds(M)


def certified_extreme(L: np.ndarray, low: float, high: float, largest: bool = False,
                      towards: float = 1.0, steps: int = 8) -> float:
    """The best proven bound on the smallest (``largest``: the largest) eigenvalue of
    the dense extended-precision Laplacian ``L`` on the complement of 1, given a
    bracket ``[low, high]`` from float64 (``low`` proven for the smallest, ``high``
    for the largest).

    Candidates from the best end of the bracket: that end, then ``towards -/+ 10^-k``
    (k = 6 .. 2, what a dual bound near 1 needs), then bisection steps; the first
    candidate proven is returned (the float64 end of the bracket if none is).
    """
    if largest:
        proven, best, sign = high, low, -1.0
    else:
        proven, best, sign = low, high, 1.0
    ladder = [best] + [towards - sign * 10.0 ** -k for k in range(6, 1, -1)]
    ladder = [c for c in ladder if low < c < high or c == best]
    for c in ladder:
        if centred_extreme_at(L, c, largest):
            proven = c
            break
        # the proven value lies beyond c: shrink the bracket's unproven end
        best = c
    lo, hi = (proven, best) if not largest else (best, proven)
    for _ in range(steps if proven != best else 0):
        mid = 0.5 * (lo + hi)
        if centred_extreme_at(L, mid, largest):
            lo, hi = (mid, hi) if not largest else (lo, mid)
            proven = mid
        else:
            lo, hi = (lo, mid) if not largest else (mid, hi)
    return float(proven)
