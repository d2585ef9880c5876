r"""The thesis' ball tree (2.1.9, "Ball Trees Reviewed", Fig. 2.15), in pure NumPy.

**Build** (:func:`build`). "A hierarchical data structure is built by splitting the
data recursively into two disjoint sets. Both sets are encapsulated inside
hyper-spheres" until "no leaf set contains more than some predefined number of points"
(Fig. 2.15: 10). A set ``S`` is split by the thesis' heuristic: a random input ``r``
of ``S``, ``x1`` the input of ``S`` farthest from ``r``, ``x2`` the input of ``S``
farthest from ``x1``; every input is projected onto ``x1 - x2`` and ``S`` is divided
"at the mean value" (``split="mean"``) or, the alternative the thesis names, at the
median (``split="median"``: the ``floor(|S| / 2)`` smallest projections go left, so
both halves differ by at most one input and the depth is at most ``ceil(log2(n /
leaf_size)) + 1`` levels). A ball's centre is the centroid of its inputs and its
radius the largest distance of one of them to it (the thesis leaves the ball's centre
open; it only requires ``||x - c|| <= r`` for every input, Eq. 2.19). Inputs on the
mean go right. A set whose projections are all equal (repeated inputs) cannot be
split by either rule and is halved in index order.

**Query** (:func:`query`): the thesis' "standard depth-first tree-search technique":
at each node the child with the closer centre first; before descending into a
sub-tree the bound of Eq. (2.19), ``max(||x_t - c|| - r, 0)``, is checked and the
sub-tree pruned when the ball "is further than the current best k-th nearest
neighbor" (bound strictly above it); at a leaf the distances to all its inputs are
computed and the best ``k`` updated (of equal distances the lower input index kept).
Each query's counts are returned: nodes visited, nodes pruned (the roots of pruned
sub-trees), distance evaluations to inputs and to ball centres.

The tree is stored in flat arrays (node ``i`` holds ``order[start[i]:end[i]]``,
children ``left[i]``, ``right[i]``, ``-1`` at a leaf); :func:`check_invariants` tests
its properties.
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["LEAF_SIZE", "SPLITS", "Tree", "build", "query", "brute_force", "split_value",
           "sibling_overlap", "check_invariants", "depth_bound"]

#: Fig. 2.15: "each ball contains at most 10 inputs"
LEAF_SIZE = 10
SPLITS = ("mean", "median")


@dataclasses.dataclass
class Tree:
    """A ball tree in flat arrays (nodes in the order they were made, root 0).

    Attributes
    ----------
    X : ndarray (n, d)
        The inputs.
    order : ndarray (n,)
        A permutation of the inputs' indices; node ``i`` holds ``order[start[i]:end[i]]``.
    start, end, left, right, level : ndarray (m,)
        Per node: its range in ``order``, its children (``-1`` at a leaf) and its level
        (the root 1).
    center : ndarray (m, d)
        The balls' centres (the centroid of their inputs).
    radius : ndarray (m,)
        The balls' radii (the largest distance of an input to the centre).
    leaf_size, split : int, str
        How it was built.
    """

    X: np.ndarray
    order: np.ndarray
    start: np.ndarray
    end: np.ndarray
    left: np.ndarray
    right: np.ndarray
    level: np.ndarray
    center: np.ndarray
    radius: np.ndarray
    leaf_size: int
    split: str

    @property
    def n_nodes(self) -> int:
        """The number of balls (inner nodes and leaves)."""
        return len(self.start)

    @property
    def leaves(self) -> np.ndarray:
        """The indices of the leaf balls."""
        return np.flatnonzero(self.left < 0)

    @property
    def n_leaves(self) -> int:
        """The number of leaf balls (the thesis' "155 balls")."""
        return int((self.left < 0).sum())

    @property
    def depth(self) -> int:
        """The number of levels (a single ball: 1)."""
        return int(self.level.max())

    def leaf_of(self) -> np.ndarray:
        """Per input, the index of the leaf ball that holds it."""
        out = np.empty(len(self.X), dtype=np.int64)
        for node in self.leaves:
            out[self.order[self.start[node]:self.end[node]]] = node
        return out

    def level_assignment(self, level: int) -> np.ndarray:
        """Per input, the ball at ``level`` that holds it (or the leaf above it that
        holds it, where the tree ends earlier): Fig. 2.15's "first 2 and 4 balls" are
        levels 2 and 3."""
        out = np.full(len(self.X), -1, dtype=np.int64)
        for node in range(self.n_nodes):
            if self.level[node] == level or (self.left[node] < 0 and self.level[node] < level):
                out[self.order[self.start[node]:self.end[node]]] = node
        return out


def split_value(proj: np.ndarray, split: str) -> float:
    """The value at which a set's projections are divided: their mean, or their median
    (a partial sort, :func:`numpy.partition`)."""
    if split == "mean":
        return float(proj.mean())
    if split == "median":
        m = len(proj) // 2
        return float(np.partition(proj, m)[m])
    raise ValueError(f"split={split!r} must be one of {SPLITS}")


def _divide(points: np.ndarray, rng: np.random.Generator, split: str) -> np.ndarray:
    """The thesis' heuristic on one set: a boolean mask of the inputs that go left."""
    r = points[rng.integers(len(points))]
    x1 = points[np.argmax(((points - r) ** 2).sum(axis=1))]
    x2 = points[np.argmax(((points - x1) ** 2).sum(axis=1))]
    proj = points @ (x1 - x2)
    mask = np.zeros(len(points), dtype=bool)
    if split == "median":
        if np.ptp(proj) > 0:
            mask[np.argpartition(proj, len(points) // 2 - 1)[:len(points) // 2]] = True
    elif split == "mean":
        mask = proj < split_value(proj, "mean")
    else:
        raise ValueError(f"split={split!r} must be one of {SPLITS}")
    if not mask.any() or mask.all():  # equal projections: halve in index order
        mask = np.zeros(len(points), dtype=bool)
        mask[:len(points) // 2] = True
    return mask


def build(X, leaf_size: int = LEAF_SIZE, split: str = "mean", seed=0) -> Tree:
    """Build the thesis' ball tree on the rows of ``X`` (module docstring).

    Parameters
    ----------
    X : array (n, d)
        The inputs.
    leaf_size : int
        A set of more than ``leaf_size`` inputs is split.
    split : {"mean", "median"}
        Where a set's projections are divided.
    seed : int or sequence
        Seeds the random inputs ``r`` of the heuristic.

    Returns
    -------
    Tree
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    if leaf_size < 1:
        raise ValueError(f"leaf_size = {leaf_size} must be at least 1")
    if split not in SPLITS:
        raise ValueError(f"split={split!r} must be one of {SPLITS}")
    rng = np.random.default_rng(seed)
    order = np.arange(len(X))
    start, end, left, right, level, center, radius = [], [], [], [], [], [], []

    def new(lo: int, hi: int, lev: int) -> int:
        pts = X[order[lo:hi]]
        c = pts.mean(axis=0)
        start.append(lo), end.append(hi), left.append(-1), right.append(-1)
        level.append(lev), center.append(c)
        radius.append(float(np.sqrt(((pts - c) ** 2).sum(axis=1).max())))
        return len(start) - 1

    stack = [new(0, len(X), 1)]
    while stack:
        node = stack.pop()
        lo, hi = start[node], end[node]
        if hi - lo <= leaf_size:
            continue
        idx = order[lo:hi]
        mask = _divide(X[idx], rng, split)
        order[lo:hi] = np.concatenate([idx[mask], idx[~mask]])
        mid = lo + int(mask.sum())
        left[node] = new(lo, mid, level[node] + 1)
        right[node] = new(mid, hi, level[node] + 1)
        stack += [right[node], left[node]]
    as_int = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return Tree(X, order, as_int(start), as_int(end), as_int(left), as_int(right),
                as_int(level), np.asarray(center, dtype=np.float64).reshape(-1, X.shape[1]),
                np.asarray(radius), int(leaf_size), split)


def depth_bound(n: int, leaf_size: int = LEAF_SIZE) -> int:
    """``ceil(log2(n / leaf_size)) + 1`` levels (at least 1): the depth a median split
    guarantees (the thesis' "log(n)")."""
    return 1 if n <= leaf_size else int(np.ceil(np.log2(n / leaf_size))) + 1


def _merge(best_d, best_i, d, idx, k):
    d_all = np.concatenate([best_d, d])
    i_all = np.concatenate([best_i, idx])
    keep = np.lexsort((i_all, d_all))[:k]
    return d_all[keep], i_all[keep]


def query(tree: Tree, Q, k: int = 3) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Exact ``k``-NN of each row of ``Q`` by the thesis' depth-first search with
    pruning by Eq. (2.19) (module docstring).

    Returns
    -------
    idx, dist : ndarray (m, k)
        The neighbours' indices and distances, nearest first.
    counts : dict
        Per query (arrays of length m): ``visited`` (nodes entered), ``pruned`` (roots
        of sub-trees pruned), ``point_evals`` (distances to inputs), ``center_evals``
        (distances to ball centres).
    """
    Q = np.atleast_2d(np.asarray(Q, dtype=np.float64))
    if k > len(tree.X):
        raise ValueError(f"k = {k} exceeds the {len(tree.X)} inputs")
    m = len(Q)
    idx = np.empty((m, k), dtype=np.int64)
    dist = np.empty((m, k))
    counts = {name: np.zeros(m, dtype=np.int64)
              for name in ("visited", "pruned", "point_evals", "center_evals")}
    X, order, start, end = tree.X, tree.order, tree.start, tree.end
    left, right, center, radius = tree.left, tree.right, tree.center, tree.radius
    for q in range(m):
        x = Q[q]
        best_d, best_i = np.full(k, np.inf), np.full(k, -1, dtype=np.int64)
        visited = pruned = points = centers = 0
        stack = [(0, float(np.sqrt(((center[0] - x) ** 2).sum())))]
        centers += 1
        while stack:
            node, dc = stack.pop()
            if max(dc - radius[node], 0.0) > best_d[-1]:
                pruned += 1
                continue
            visited += 1
            if left[node] < 0:
                members = order[start[node]:end[node]]
                d = np.sqrt(((X[members] - x) ** 2).sum(axis=1))
                points += len(members)
                best_d, best_i = _merge(best_d, best_i, d, members, k)
                continue
            a, b = left[node], right[node]
            da, db = np.sqrt(((center[[a, b]] - x) ** 2).sum(axis=1))
            centers += 2
            if da <= db:  # the closer child is popped first
                stack += [(b, float(db)), (a, float(da))]
            else:
                stack += [(a, float(da)), (b, float(db))]
        idx[q], dist[q] = best_i, best_d
        for name, value in (("visited", visited), ("pruned", pruned),
                            ("point_evals", points), ("center_evals", centers)):
            counts[name][q] = value
    return idx, dist, counts


def brute_force(X, Q, k: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The brute-force ``k``-NN (every distance, in float64, a stable sort: of equal
    distances the lower index first): ``(idx, dist)``, each (m, k)."""
    X, Q = np.asarray(X, dtype=np.float64), np.atleast_2d(np.asarray(Q, dtype=np.float64))
    idx = np.empty((len(Q), k), dtype=np.int64)
    for q, x in enumerate(Q):
        d = np.sqrt(((X - x) ** 2).sum(axis=1))
        idx[q] = np.argsort(d, kind="stable")[:k]
    return idx, np.sqrt(((X[idx] - Q[:, None, :]) ** 2).sum(axis=2))


def sibling_overlap(tree: Tree) -> float:
    """The fraction of inner nodes whose two children's balls intersect
    (``||c_l - c_r|| < r_l + r_r``); NaN for a tree of one ball."""
    inner = np.flatnonzero(tree.left >= 0)
    if not len(inner):
        return float("nan")
    a, b = tree.left[inner], tree.right[inner]
    gap = np.sqrt(((tree.center[a] - tree.center[b]) ** 2).sum(axis=1))
    return float(np.mean(gap < tree.radius[a] + tree.radius[b]))


def check_invariants(tree: Tree, rtol: float = 1e-12) -> list[str]:
    """What is wrong with ``tree`` (an empty list when nothing is): every input in
    exactly one leaf, no leaf above the leaf size (nor empty), every ball containing
    its inputs, every inner node's inputs divided between its two children."""
    errors = []
    n = len(tree.X)
    if sorted(tree.order.tolist()) != list(range(n)):
        errors.append("order is not a permutation of the inputs")
    cover = np.zeros(n, dtype=np.int64)
    for node in tree.leaves:
        cover[tree.order[tree.start[node]:tree.end[node]]] += 1
        size = tree.end[node] - tree.start[node]
        if not 1 <= size <= tree.leaf_size:
            errors.append(f"leaf {node} holds {size} inputs (leaf size {tree.leaf_size})")
    if np.any(cover != 1):
        errors.append(f"{int(np.sum(cover != 1))} inputs are not in exactly one leaf")
    for node in range(tree.n_nodes):
        pts = tree.X[tree.order[tree.start[node]:tree.end[node]]]
        if not len(pts):
            errors.append(f"ball {node} is empty")
            continue
        far = np.sqrt(((pts - tree.center[node]) ** 2).sum(axis=1)).max()
        if far > tree.radius[node] * (1 + rtol) + 1e-300:
            errors.append(f"ball {node} does not contain its inputs ({far} > "
                          f"{tree.radius[node]})")
        a, b = tree.left[node], tree.right[node]
        if (a < 0) != (b < 0):
            errors.append(f"node {node} has one child")
        elif a >= 0 and not (tree.start[a] == tree.start[node] and tree.end[a] == tree.start[b]
                             and tree.end[b] == tree.end[node]
                             and tree.start[a] < tree.end[a] and tree.start[b] < tree.end[b]):
            errors.append(f"node {node}'s children do not divide its inputs")
    return errors
