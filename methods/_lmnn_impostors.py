r"""Blocked search of LMNN impostor pairs (thesis 2.1.2, eq. 2.4; 2.1.7 "active set").

An *impostor pair* ``(i, l)`` is an anchor ``i`` and a point ``l`` of another class
within the anchor's radius, ``||L(x_i - x_l)||^2 <= radius_i``. With
``radius_i = max_j ||L(x_i - x_j)||^2 + 1`` over the target neighbours ``j`` of ``i``
the pairs contain every triple ``(i, j, l)`` with a positive hinge in (2.11); a
``slack`` added to the radius gives the solvers' *cached candidate set*, which stays
valid while ``L`` moves a little.

The search never holds more than one ``TILE x TILE`` block of distances: the points
are grouped by class, and for every unordered pair of classes ``(c, c')`` the
distances between the two groups are computed tile by tile with a float32 GEMM
(``||a||^2 + ||b||^2 - 2 a.b`` after centring), each tile answering both directions
(anchor in ``c`` and anchor in ``c'``). Memory is ``O(TILE^2 + n r + output)``.

Float32 is only a screen: a tile keeps the pairs within ``radius + pad``, where
``pad = (r + 4) eps32 (max|a|^2 + max|b|^2)`` bounds the float32 rounding error of
the expanded distance, and the survivors are re-measured exactly in float64
(``sum (z_i - z_l)^2``) against ``radius`` itself. The result is therefore exactly
the set of pairs with ``d_il <= radius_i`` (up to float64 rounding).
"""

from __future__ import annotations

import numpy as np

__all__ = ["TILE", "impostor_pairs", "pair_sq_distances"]

#: Rows and columns of one float32 distance tile (2048 x 2048 = 16 MiB).
TILE = 2048
_EPS32 = float(np.finfo(np.float32).eps)
_DIFF_ROWS = 2**16  # rows per chunk of the exact float64 re-measurement


def pair_sq_distances(Z: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Exact ``||Z[a] - Z[b]||^2`` for index arrays ``a``, ``b`` (chunked)."""
    out = np.empty(len(a), dtype=np.float64)
    for s in range(0, len(a), _DIFF_ROWS):
        diff = Z[a[s:s + _DIFF_ROWS]] - Z[b[s:s + _DIFF_ROWS]]
        out[s:s + _DIFF_ROWS] = np.einsum("ij,ij->i", diff, diff)
    return out


def _tile_pairs(Za, sqa, ra, Zb, sqb, rb):
    """Local index pairs of one tile: (anchor in a, other in b) and (anchor in b, other in a)."""
    D = Za @ Zb.T
    D *= -2.0
    D += sqa[:, None]
    D += sqb[None, :]
    pad = (Za.shape[1] + 4) * _EPS32 * (float(sqa.max()) + float(sqb.max()))
    ia, ib = np.nonzero(D <= (ra + pad)[:, None])
    jb, ja = np.nonzero((D <= (rb + pad)[None, :]).T)
    return ia, ib, jb, ja


def impostor_pairs(Z: np.ndarray, codes: np.ndarray, radius: np.ndarray):
    """All pairs ``(i, l)`` with ``codes[i] != codes[l]`` and ``||Z_i - Z_l||^2 <= radius[i]``.

    Parameters
    ----------
    Z : ndarray of shape (n, r)
        Transformed inputs ``X L^T``.
    codes : ndarray of int of shape (n,)
        Class codes.
    radius : ndarray of shape (n,)
        Squared radius per anchor.

    Returns
    -------
    anchors, impostors : ndarray of intp
        Sorted by anchor, then impostor (so ``anchors * n + impostors`` is increasing).
    dist : ndarray of float64
        Their exact squared distances.
    """
    Z = np.asarray(Z, dtype=np.float64)
    Z32 = (Z - Z.mean(axis=0)).astype(np.float32)
    sq = np.einsum("ij,ij->i", Z32, Z32)
    r32 = radius.astype(np.float32)
    groups = [np.flatnonzero(codes == c) for c in range(int(codes.max()) + 1)]
    found_a, found_l = [], []
    for c, gc in enumerate(groups):
        for gd in groups[c + 1:]:
            for s in range(0, len(gc), TILE):
                A = gc[s:s + TILE]
                for t in range(0, len(gd), TILE):
                    B = gd[t:t + TILE]
                    ia, ib, jb, ja = _tile_pairs(Z32[A], sq[A], r32[A], Z32[B], sq[B], r32[B])
                    found_a += [A[ia], B[jb]]
                    found_l += [B[ib], A[ja]]
    a = np.concatenate(found_a) if found_a else np.empty(0, np.intp)
    l = np.concatenate(found_l) if found_l else np.empty(0, np.intp)
    d = pair_sq_distances(Z, a, l)
    keep = d <= radius[a]
    a, l, d = a[keep], l[keep], d[keep]
    order = np.lexsort((l, a))
    return a[order].astype(np.intp), l[order].astype(np.intp), d[order]
