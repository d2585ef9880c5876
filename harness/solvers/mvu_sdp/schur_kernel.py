"""The Schur matrix of the MVU interior-point method (:mod:`harness.solvers.mvu_sdp.ipm`),
formed in one pass in numba.

With incidence vectors ``a_e = e_i - e_j`` the HKM Schur matrix is the elementwise
product of two edge Gram matrices, ``M_ef = (a_e^T K a_f) (a_f^T W a_e)`` with
``K = V X V^T`` and ``W = V Z^{-1} V^T`` (both symmetric n x n). Each factor is four
entries of an n x n matrix, so one pass over the lower triangle reads eight numbers
per entry and writes one: O(m^2 / 2) work and no m x n or m x m temporaries. The
NumPy gathers it replaces (``R = K[i] - K[j]``, then ``R[:, i] - R[:, j]``, twice)
took 1.0 s per iteration at n = 1000 (m = 5733, 2 threads); this kernel computes the
lower triangle and mirrors each entry (a full matrix: ``gemv`` is ten times faster
than ``symv`` on one triangle, measured at m = 5733).

Threads: ``prange`` over rows, paired from both ends so that the triangle splits
evenly; :class:`numba_threads_like_blas` sets numba's thread count to the BLAS limit
in force (the harness pins BLAS threads with threadpoolctl).
"""

from __future__ import annotations

import os

import numpy as np
from numba import get_num_threads, njit, prange, set_num_threads
from numba import config as numba_config
from threadpoolctl import threadpool_info

if "NUMBA_THREADING_LAYER" not in os.environ:
    # numba's own thread pool rather than OpenMP: an OpenMP runtime loaded during a
    # solve would escape the harness' thread limits (threadpoolctl limits the
    # libraries loaded when it is entered) and show in the records as 2 threads
    numba_config.THREADING_LAYER = "workqueue"

__all__ = ["schur_matrix", "edge_traces", "numba_threads_like_blas"]


@njit(cache=True, nogil=True, inline="always")
def _row(K, W, ei, ej, e, M):
    i, j = ei[e], ej[e]
    for f in range(e + 1):
        p, q = ei[f], ej[f]
        g1 = K[i, p] - K[i, q] - K[j, p] + K[j, q]
        g2 = W[i, p] - W[i, q] - W[j, p] + W[j, q]
        M[e, f] = g1 * g2
        M[f, e] = g1 * g2


@njit(cache=True, nogil=True, parallel=True)
def _schur_matrix(K, W, ei, ej, M):
    m = ei.shape[0]
    half = (m + 1) // 2
    for t in prange(half):
        _row(K, W, ei, ej, t, M)
        e = m - 1 - t
        if e != t:
            _row(K, W, ei, ej, e, M)


def schur_matrix(K: np.ndarray, W: np.ndarray, edges: np.ndarray,
                 out: np.ndarray | None = None) -> np.ndarray:
    """``M = (B K B^T) o (B W B^T)`` (symmetric, both triangles written).

    Parameters
    ----------
    K, W : ndarray of shape (n, n)
        Symmetric, C-contiguous float64.
    edges : ndarray of shape (m, 2)
    out : ndarray of shape (m, m), optional
        Written in place.

    Returns
    -------
    ndarray of shape (m, m)
    """
    m = len(edges)
    if out is None:
        out = np.empty((m, m))
    ei = np.ascontiguousarray(edges[:, 0], dtype=np.int64)
    ej = np.ascontiguousarray(edges[:, 1], dtype=np.int64)
    _schur_matrix(np.ascontiguousarray(K), np.ascontiguousarray(W), ei, ej, out)
    return out


@njit(cache=True, nogil=True, parallel=True)
def _edge_traces(P, W, ei, ej, out):
    n = P.shape[1]
    for e in prange(ei.shape[0]):
        i, j = ei[e], ej[e]
        acc = 0.0
        for k in range(n):
            acc += (P[i, k] - P[j, k]) * (W[i, k] - W[j, k])
        out[e] = acc


def edge_traces(P: np.ndarray, W: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """``(a_e^T P W a_e)_e`` for any n x n ``P`` and symmetric ``W``, without forming
    ``P W``: two rows of each per edge, O(m n) instead of the product's O(n^3) (the
    interior point's right-hand sides ``A(X R Z^-1)``, :mod:`harness.solvers.mvu_sdp.ipm`).
    """
    ei = np.ascontiguousarray(edges[:, 0], dtype=np.int64)
    ej = np.ascontiguousarray(edges[:, 1], dtype=np.int64)
    out = np.empty(len(edges))
    _edge_traces(np.ascontiguousarray(P), np.ascontiguousarray(W), ei, ej, out)
    return out


class numba_threads_like_blas:
    """Context manager: numba's thread count = the BLAS thread limit in force (at most
    numba's own maximum), restored on exit."""

    def __enter__(self):
        self._saved = get_num_threads()
        limits = [info["num_threads"] for info in threadpool_info()
                  if info.get("user_api") == "blas"]
        want = min(limits) if limits else self._saved
        set_num_threads(max(1, min(int(want), numba_config.NUMBA_NUM_THREADS)))
        return self

    def __exit__(self, *exc):
        set_num_threads(self._saved)
        return False
