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

The ball-tree search (``method="tree"``, thesis 2.1.9) builds one
:class:`sklearn.neighbors.BallTree` per class and asks it, for every anchor of the
other classes, for the points within ``sqrt(radius_i) + pad``, ``pad = 8 (r + 4)
eps64 (sqrt(radius_i) + 2 max|z|)`` (a bound on the float64 rounding of the tree's
distances and node bounds, after centring; every distance is at most ``2 max|z|``). Its survivors are re-measured by the same float64 formula
against ``radius`` and sorted the same way, so both searches return the same pairs,
in the same order, with the same distances (tests/methods/test_lmnn_impostors.py
checks this on data with ties). Which one is faster depends on the dimension ``r``
and the number ``n`` of points: ``method="auto"`` takes the trees for ``r <=
AUTO_TREE_MAX_DIM`` and ``n >= AUTO_TREE_MIN_N`` (measured, see :data:`AUTO_TREE_MAX_DIM`).
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import BallTree

__all__ = ["TILE", "SEARCHES", "AUTO_TREE_MAX_DIM", "impostor_pairs", "pair_sq_distances",
           "resolve_search", "tree_candidates"]

#: Values of ``impostor_pairs``' ``method`` (and LMNN's ``impostor_search``).
SEARCHES = ("auto", "blocked", "tree")
#: ``method="auto"`` uses the ball trees for ``Z`` of at most ``AUTO_TREE_MAX_DIM``
#: columns and at least ``AUTO_TREE_MIN_N`` rows, else the blocked search. Measured on
#: the first n MNIST training digits (164 PCs; radii from LMNN's scaled PCA start to r
#: dims, max target distance + 1; one BLAS thread, a shared 2-core machine, best of 2;
#: ``python -m benchmarks.bench_impostor_search N DIMS 1``), blocked time / tree time:
#: n = 3000: 0.7x at r = 5, 0.3x at 20; n = 10000: 1.3x at r = 5 and 8, 1.07x at 10
#: (0.9x in another run), 0.9x at 12, 0.7x at 15, 0.36x at 20, 0.11x at 50, 0.03x at
#: 164; n = 20000: 1.9x at r = 5, 1.7x at 10, 0.93x at 15; n = 60000: 2.5x at r = 5,
#: 2.6x at 10, 1.0x at 15, 0.54x at 20, 0.61x at 30. With the input scaled up (squared
#: distances x 100, the thesis' remark: the margin 1 then inflates the radii less) the
#: trees gain: n = 60000: 3.9x at r = 15, 1.7x at 20, 0.85x at 30. The trees pay off at
#: r <= 10 from n ~ 10000 on, by more the larger n.
AUTO_TREE_MAX_DIM = 10
AUTO_TREE_MIN_N = 10000
#: Leaf size of the ball trees (scikit-learn's default is 40; 10 measured ~1.5x faster
#: on MNIST after PCA to r = 10 and 20 dimensions, n = 10000).
LEAF_SIZE = 10

#: Rows and columns of one float32 distance tile (2048 x 2048 = 16 MiB).
TILE = 2048
_EPS32 = float(np.finfo(np.float32).eps)
_EPS64 = float(np.finfo(np.float64).eps)
_TINY = float(np.finfo(np.float64).tiny)
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


def resolve_search(method: str, n: int, r: int) -> str:
    """``"blocked"`` or ``"tree"`` for ``method`` on ``n`` points in ``r`` dimensions
    (``"auto"``: the trees for ``r <= AUTO_TREE_MAX_DIM`` and ``n >= AUTO_TREE_MIN_N``);
    a clear error for an unknown ``method``."""
    if method not in SEARCHES:
        raise ValueError(f"impostor search method={method!r} is not one of {SEARCHES}; "
                         f"'auto' picks the faster")
    if method == "auto":
        return "tree" if r <= AUTO_TREE_MAX_DIM and n >= AUTO_TREE_MIN_N else "blocked"
    return method


def _blocked_candidates(Z, codes, radius):
    """Candidate pairs of the float32 GEMM screen (a superset of the exact pairs)."""
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
    return found_a, found_l


def tree_candidates(Z, codes, radius, trees=None):
    """Candidate pairs of one ball tree per class, queried with padded radii; each tree,
    after its query, is appended to the list ``trees`` when one is given (its
    ``get_n_calls()`` counts the distances the query evaluated)."""
    Zc = Z - Z.mean(axis=0)
    norm_max = float(np.sqrt(np.einsum("ij,ij->i", Zc, Zc).max()))
    root = np.sqrt(np.maximum(radius, 0.0))
    reach = root + 8.0 * (Z.shape[1] + 4) * _EPS64 * (root + 2.0 * norm_max) + _TINY
    found_a, found_l = [], []
    for c in range(int(codes.max()) + 1):
        members = np.flatnonzero(codes == c)
        anchors = np.flatnonzero((codes != c) & (radius >= 0))
        if len(members) == 0 or len(anchors) == 0:
            continue
        tree = BallTree(Zc[members], leaf_size=LEAF_SIZE)
        tree.reset_n_calls()
        hits = tree.query_radius(Zc[anchors], reach[anchors])
        if trees is not None:
            trees.append(tree)
        counts = np.fromiter((len(h) for h in hits), dtype=np.intp, count=len(hits))
        found_a.append(np.repeat(anchors, counts))
        found_l.append(members[np.concatenate(hits)] if counts.sum()
                       else np.empty(0, np.intp))
    return found_a, found_l


def impostor_pairs(Z: np.ndarray, codes: np.ndarray, radius: np.ndarray,
                   method: str = "auto"):
    """All pairs ``(i, l)`` with ``codes[i] != codes[l]`` and ``||Z_i - Z_l||^2 <= radius[i]``.

    Parameters
    ----------
    Z : ndarray of shape (n, r)
        Transformed inputs ``X L^T``.
    codes : ndarray of int of shape (n,)
        Class codes.
    radius : ndarray of shape (n,)
        Squared radius per anchor.
    method : {"auto", "blocked", "tree"}, default="auto"
        ``"blocked"``: tiled float32 GEMM screen; ``"tree"``: one ball tree per class
        (thesis 2.1.9); ``"auto"``: the trees for ``r <= AUTO_TREE_MAX_DIM`` and
        ``n >= AUTO_TREE_MIN_N``. All three return identical output (see the module
        docstring).

    Returns
    -------
    anchors, impostors : ndarray of intp
        Sorted by anchor, then impostor (so ``anchors * n + impostors`` is increasing).
    dist : ndarray of float64
        Their exact squared distances.
    """
    Z = np.asarray(Z, dtype=np.float64)
    radius = np.asarray(radius, dtype=np.float64)
    codes = np.asarray(codes)
    search = tree_candidates if resolve_search(method, *Z.shape) == "tree" else \
        _blocked_candidates
    found_a, found_l = search(Z, codes, radius) if len(Z) else ([], [])
    a = np.concatenate(found_a) if found_a else np.empty(0, np.intp)
    l = np.concatenate(found_l) if found_l else np.empty(0, np.intp)
    d = pair_sq_distances(Z, a, l)
    keep = d <= radius[a]
    a, l, d = a[keep], l[keep], d[keep]
    order = np.lexsort((l, a))
    return a[order].astype(np.intp), l[order].astype(np.intp), d[order]
