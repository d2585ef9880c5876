"""Elementwise passes over the interior-point method's dense matrices, in numba.

Each is one multi-threaded pass that NumPy makes in several single-threaded ones
(:mod:`harness.solvers.mvu_sdp.ipm`), with the same floating-point operations in the
same order, so their results are NumPy's bit for bit (no FMA contraction: numba
does not contract without ``fastmath``):

- :func:`float32_plus`: ``float32(M) + float32(add)``, the Schur matrix's float32
  copy that preconditions the mixed-precision solves (``M.astype(np.float32)``,
  then ``+=``: two passes, the first single-threaded; 0.6 s per iteration at
  m = 11,426, 2 threads);
- :func:`symmetrized`: ``(G + G^T) / 2``, by tiles (NumPy's reads ``G^T`` against
  the cache);
- :func:`reflected`: ``H P H`` for a Householder ``H = I - c v v^T``, the rank-two
  update ``P - c v t^T - c r v^T + (c^2 v^T r) v v^T`` (three ``np.outer``
  temporaries and four passes in NumPy).

Threads: numba's thread count is set by the caller
(:class:`harness.solvers.mvu_sdp.schur_kernel.numba_threads_like_blas`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["float32_plus", "symmetrized", "reflected"]

_TILE = 64


@njit(cache=True, nogil=True, parallel=True)
def _float32_plus(M, add, out):
    for i in prange(M.shape[0]):
        for j in range(M.shape[1]):
            out[i, j] = np.float32(M[i, j]) + add


def float32_plus(M: np.ndarray, add: float) -> np.ndarray:
    """``M.astype(np.float32) + np.float32(add)`` (C-contiguous float64 ``M``)."""
    out = np.empty(M.shape, dtype=np.float32)
    _float32_plus(np.ascontiguousarray(M, dtype=np.float64), np.float32(add), out)
    return out


@njit(cache=True, nogil=True, parallel=True)
def _symmetrized(G, out):
    n = G.shape[0]
    tiles = (n + _TILE - 1) // _TILE
    for bi in prange(tiles):
        for bj in range(tiles):
            for i in range(bi * _TILE, min(n, (bi + 1) * _TILE)):
                for j in range(bj * _TILE, min(n, (bj + 1) * _TILE)):
                    out[i, j] = 0.5 * (G[i, j] + G[j, i])


def symmetrized(G: np.ndarray) -> np.ndarray:
    """``0.5 * (G + G.T)`` for square ``G``."""
    out = np.empty(G.shape)
    _symmetrized(np.ascontiguousarray(G, dtype=np.float64), out)
    return out


@njit(cache=True, nogil=True, parallel=True)
def _reflected(P, v, t, r, c, s, out):
    n = P.shape[0]
    for i in prange(n):
        cv, cr, sv = v[i], r[i], v[i]
        for j in range(n):
            x = P[i, j] - c * (cv * t[j])
            x = x - c * (cr * v[j])
            out[i, j] = x + s * (sv * v[j])


def reflected(v: np.ndarray, c: float, P: np.ndarray, r: np.ndarray, t: np.ndarray
              ) -> np.ndarray:
    """``P - c v t^T - c r v^T + (c^2 v^T r) v v^T`` (n x n) with ``r = P v`` and
    ``t = r`` (symmetric ``P``) or ``P^T v``, as NumPy's ``P - c * np.outer(v, t)``,
    ``-= c * np.outer(r, v)``, ``+= (c * c * (v @ r)) * np.outer(v, v)``."""
    out = np.empty(P.shape)
    s = c * c * float(v @ r)
    _reflected(np.ascontiguousarray(P, dtype=np.float64), v, t, r, float(c), s, out)
    return out
