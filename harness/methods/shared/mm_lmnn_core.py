r"""Multiple-metric LMNN, MM-LMNN (thesis sec. 2.1.8 "Multiple Metrics"): the loss, its
gradient, the exact full pass, and kNN / energy predictions with the asymmetric
class-wise distance.

One map ``L_c`` (shape ``r x d``, ``M^c = L_c^T L_c``) per class ``c``. The distance of
eq. (2.17) uses the metric of its *second* argument's class,

.. math::

   \hat D(x_a, x_b) = (x_a - x_b)^T M^{y_b} (x_a - x_b) = \|L_{y_b}(x_a - x_b)\|^2 ,

and the SDP below (2.17), with its slack variables written as hinges, is

.. math::

   \varepsilon = (1-\mu) \sum_{i, j \leadsto i} \hat D(x_i, x_j)
     + \mu \sum_{i, j \leadsto i} \sum_{l: y_l \neq y_i}
       [1 + \hat D(x_i, x_j) - \hat D(x_i, x_l)]_+ ,

i.e. eq. (2.11) with ``D(i, j)`` measured by ``M^{y_j} = M^{y_i}`` (target neighbours
share the anchor's class) and ``D(i, l)`` by ``M^{y_l}``. With all ``L_c`` equal it is
(2.11) exactly.

Clusters other than the classes (thesis 2.1.8: "we can cluster the data into several
parts", e.g. with k-means; Fig. 2.10): every function takes an optional ``groups``, the
metric index ``g_a`` of each point, and then measures ``\hat D(x_a, x_b)`` with
``M^{g_b}``; the labels ``y`` still decide target neighbours and impostors. ``groups =
None`` means ``g = y``, the code path (and the numbers, bit for bit) of one metric per
class. Below, "class ``c``" of a metric reads "group ``c``" when groups are given.

Layout: ``Z`` of shape ``(c, n, r)`` holds every point mapped by every class map,
``Z[c, a] = L_c x_a`` (:func:`class_maps`), so ``\hat D(x_a, x_b) = ||Z[y_b, a] -
Z[y_b, b]||^2``. Every pair ``(a, b)`` is measured in exactly one metric, that of
``y_b``: target pairs ``(i, j)`` in ``y_i``'s, impostor pairs ``(i, l)`` in
``y_l``'s. ``O(c n r)`` memory, never ``n x n``. Inside the solver an evaluation over
the cached pairs maps and differentiates only the rows each metric reads (class ``c``'s
members and the anchors of impostors in class ``c``, :class:`RowIndex`), stored
compactly; on digits (1257 x 64, 10 classes) that is about a fifth of ``c n`` rows.

Gradient: the "Laplacian trick" of :mod:`harness.methods.shared.lmnn_core` per class. The pairs
measured by metric ``c`` carry the same weights as in (2.11) (``1 - mu`` plus ``mu``
per active triple on a target pair, ``-mu`` per active triple on an impostor pair);
with ``Lap_c`` the Laplacian of those weights on the pairs of metric ``c``,
``dE/dM^c = X^T Lap_c X`` and ``dE/dL_c = 2 (Lap_c Z_c)^T X``. One numba pass
scatters ``Lap_c Z_c`` for all ``c`` at once (each pair into its own class' slab), then
``c`` GEMMs of ``(r x n_c')(n_c' x d)`` over the ``n_c'`` rows metric ``c`` reads.

Candidates: only ``(i, l)`` with ``\hat D(x_i, x_l) < max_j \hat D(x_i, x_j) + 1`` can
be active. Per class ``c`` the points are mapped by ``L_c`` and
:func:`harness.methods.shared.lmnn_impostors.impostor_pairs` (tiled float32 GEMM screen, exact
float64 re-measurement) finds the pairs with an anchor of another class and ``l`` in
class ``c`` (anchors of class ``c`` get radius ``-inf``, so the reverse direction of
each tile yields nothing). ``O(TILE^2 + c n r)`` memory; about twice the work of one
single-metric search, since each unordered class pair is searched once per metric.

Predictions (the thesis gives the rule only for training, eq. 2.17; we use the same
asymmetric distance from a query ``t`` to a training point ``j``, ``\hat D(x_t, x_j)
= ||L_{y_j}(x_t - x_j)||^2``):

* kNN (:func:`mm_kneighbors`): the ``k`` training points of smallest ``\hat D(x_t,
  x_j)``, found as the ``k`` nearest of each class under its own map, merged; votes
  with the thesis' tie rule (2.1.6).
* energy rule (:func:`mm_class_energies`), eq. (2.12) with the asymmetric distance,
  for each candidate class ``c`` of the test point: its target neighbours are its
  ``k`` nearest class-``c`` training points under ``M^c``; the ``i = t`` hinge
  ``[1 + \hat D(t, j) - \hat D(t, l)]_+`` measures each impostor ``l`` (``y_l != c``)
  with ``M^{y_l}``; the ``l = t`` hinge ``[1 + \hat D(i, j) - \hat D(i, t)]_+`` (the
  test point invading the neighbourhood of a training point ``i`` with ``y_i != c``,
  whose fixed training target neighbours are ``j``) measures ``\hat D(i, t)`` with
  ``M^c``, the metric of the hypothetical label of ``t``, which is the second argument.
"""

from __future__ import annotations

import numpy as np
from numba import njit  # a dependency (pyproject.toml)
from sklearn.neighbors import NearestNeighbors

from harness.metrics.energy import BLOCK_ELEMENTS, _sq_distances, nearest_and_impostor_hinges
from harness.methods.shared.lmnn_core import TripletState, add_hinges, sq_distance
from harness.methods.shared.lmnn_impostors import impostor_pairs

__all__ = [
    "class_maps",
    "MMTripletState",
    "mm_triplet_pass",
    "mm_target_sq_distances",
    "mm_candidate_pairs",
    "mm_loss_over_all_triples",
    "MultiMetricCore",
    "mm_kneighbors",
    "mm_class_energies",
]


def class_maps(X, Ls) -> np.ndarray:
    """``Z[c, a] = L_c x_a``, shape ``(c, n, r)``, C-contiguous float64."""
    return np.ascontiguousarray(np.matmul(X, np.swapaxes(Ls, 1, 2)), dtype=np.float64)


class RowIndex:
    """Which rows of ``Z`` a pair set reads, stored compactly class by class.

    ``rows[c]`` are the points measured in metric ``c`` (class ``c``'s members, every
    anchor of a target pair whose target is in group ``c`` -- with classes as the
    groups these are class ``c``'s members again -- and every anchor of an impostor
    pair with ``l`` in class ``c``); the compact array stacks ``L_c x_a`` for ``a in
    rows[c]``, ``c = 0, 1, ...``, and ``pos[c, a]`` is the row of ``L_c x_a`` in it (-1
    if not stored).
    """

    def __init__(self, rows, n):
        self.rows = rows
        self.offsets = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
        self.pos = np.full((len(rows), n), -1, dtype=np.intp)
        for c, r in enumerate(rows):
            self.pos[c, r] = np.arange(self.offsets[c], self.offsets[c + 1])

    @classmethod
    def full(cls, n_classes, n):
        return cls([np.arange(n)] * n_classes, n)

    @classmethod
    def for_pairs(cls, groups, targets, anchors, imps, n_metrics):
        n = len(groups)
        used = np.zeros((n_metrics, n), dtype=bool)
        used[groups, np.arange(n)] = True
        used[groups[targets], np.arange(n)[:, None]] = True
        used[groups[imps], anchors] = True
        return cls([np.flatnonzero(u) for u in used], n)

    def compact(self, X, Ls) -> np.ndarray:
        out = np.empty((self.offsets[-1], Ls.shape[1]))
        for c, r in enumerate(self.rows):
            np.matmul(X[r], Ls[c].T, out=out[self.offsets[c]:self.offsets[c + 1]])
        return out


class ClassMaps:
    """``Z`` computed on demand: :func:`mm_candidate_pairs` needs all of
    :func:`class_maps`, an evaluation over a cached pair set only the rows it reads."""

    def __init__(self, X, Ls):
        self.X, self.Ls = X, np.ascontiguousarray(Ls, dtype=np.float64)
        self._full = None

    def full(self) -> np.ndarray:
        if self._full is None:
            self._full = class_maps(self.X, self.Ls)
        return self._full


def _compact(Z, groups, targets, anchors, imps):
    """``(compact rows, RowIndex)`` of ``Z``: an array ``(c, n, r)`` or a :class:`ClassMaps`."""
    if isinstance(Z, ClassMaps):
        index = RowIndex.for_pairs(groups, targets, anchors, imps, len(Z.Ls))
        return index.compact(Z.X, Z.Ls), index
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    return Z.reshape(-1, Z.shape[2]), RowIndex.full(Z.shape[0], Z.shape[1])


@njit(cache=True, nogil=True)
def _mm_target_sq_distances(Zc, pos, groups, targets):
    n, k = targets.shape
    out = np.empty((n, k))
    for i in range(n):
        for m in range(k):
            j = targets[i, m]
            c = groups[j]  # eq. 2.17: the metric of the second argument's class (group)
            a = pos[c, i]
            b = pos[c, j]
            out[i, m] = sq_distance(Zc, a, b)
    return out


@njit(cache=True, nogil=True)
def _mm_triplet_pass(Zc, pos, groups, targets, anchors, imps, mu):
    """Loss, and the number of active triples per target pair and per impostor pair."""
    dt = _mm_target_sq_distances(Zc, pos, groups, targets)
    n, k = targets.shape
    on_target = np.zeros((n, k), dtype=np.int64)
    on_imp = np.zeros(anchors.shape[0], dtype=np.int64)
    push = 0.0
    for p in range(anchors.shape[0]):
        i = anchors[p]
        l = imps[p]
        c = groups[l]
        d = sq_distance(Zc, pos[c, i], pos[c, l])
        push += add_hinges(dt[i], d, on_target[i], on_imp, p)
    loss = (1.0 - mu) * dt.sum() + mu * push
    return loss, on_target, on_imp


@njit(cache=True, nogil=True)
def _mm_laplacian_times(Yc, pos, groups, targets, w_target, anchors, imps, w_imp):
    """``Lap_c Y_c`` for every ``c`` in the compact layout: each pair scattered into the
    rows of its metric."""
    n, k = targets.shape
    out = np.zeros_like(Yc)
    for i in range(n):
        for m in range(k):
            j = targets[i, m]
            c = groups[j]
            a = pos[c, i]
            b = pos[c, j]
            w = w_target[i, m]
            for q in range(Yc.shape[1]):
                t = w * (Yc[a, q] - Yc[b, q])
                out[a, q] += t
                out[b, q] -= t
    for p in range(anchors.shape[0]):
        w = w_imp[p]
        if w != 0.0:
            c = groups[imps[p]]
            a = pos[c, anchors[p]]
            b = pos[c, imps[p]]
            for q in range(Yc.shape[1]):
                t = w * (Yc[a, q] - Yc[b, q])
                out[a, q] += t
                out[b, q] -= t
    return out


class MMTripletState(TripletState):
    """Loss and pair weights of the MM-LMNN loss at one ``Z`` over a pair set; same
    attributes as :class:`harness.methods.shared.lmnn_core.TripletState` (``loss``, ``n_active``,
    ``on_target``, ``on_imp``, ``active_pair_keys``).

    ``Z`` is :func:`class_maps` ``(c, n, r)`` or a :class:`ClassMaps` handle; with a
    handle only the rows the pairs read are mapped (:class:`RowIndex`), and the
    gradient multiplies only those rows. ``groups``: the metric of each point (the
    class codes for one metric per class).
    """

    def __init__(self, Z, groups, targets, anchors, imps, mu):
        self.groups = np.asarray(groups, dtype=np.intp)
        self.targets, self.anchors, self.imps, self.mu = targets, anchors, imps, float(mu)
        self._Zc, self.index = _compact(Z, self.groups, targets, anchors, imps)
        self.loss, self.on_target, self.on_imp = _mm_triplet_pass(
            self._Zc, self.index.pos, self.groups, targets, anchors, imps, self.mu)
        self.n_active = int(self.on_imp.sum())

    def laplacian_times(self, Yc) -> np.ndarray:
        """``Lap_c Y_c`` for all ``c``, in the compact layout of :attr:`index`."""
        w_target = (1.0 - self.mu) + self.mu * self.on_target
        w_imp = -self.mu * self.on_imp
        return _mm_laplacian_times(np.ascontiguousarray(Yc, dtype=np.float64),
                                   self.index.pos, self.groups, self.targets, w_target,
                                   self.anchors, self.imps, w_imp)

    def _per_class(self, out, X) -> np.ndarray:
        """``[out_c^T X[rows_c] for c]``, shape ``(c, out.shape[1], d)``."""
        o, rows = self.index.offsets, self.index.rows
        return np.stack([out[o[c]:o[c + 1]].T @ X[r] for c, r in enumerate(rows)])

    def grad_L(self, Z, X) -> np.ndarray:
        """``dE/dL_c = 2 (Lap_c Z_c)^T X``, shape ``(c, r, d)`` (``Z`` is the one this
        state was built from)."""
        return 2.0 * self._per_class(self.laplacian_times(self._Zc), X)

    def grad_M(self, X) -> np.ndarray:
        """``dE/dM^c = X^T Lap_c X`` (eq. 2.14 per metric), shape ``(c, d, d)``."""
        Xc = np.concatenate([X[r] for r in self.index.rows])
        G = self._per_class(self.laplacian_times(Xc), X)
        return 0.5 * (G + np.swapaxes(G, 1, 2))


def mm_triplet_pass(Z, groups, targets, anchors, imps, mu) -> MMTripletState:
    """Evaluate the MM-LMNN loss and its pair weights at ``Z`` over ``(anchors, imps)``;
    ``groups``: each point's metric (the class codes for one metric per class)."""
    return MMTripletState(Z, groups, targets, anchors, imps, mu)


def mm_target_sq_distances(Z, groups, targets) -> np.ndarray:
    """``\\hat D(x_i, x_{targets[i, m]})`` for every anchor and target, shape (n, k);
    ``Z`` of shape ``(c, n, r)``, ``groups`` each point's metric."""
    Zc, index = _compact(Z.full() if isinstance(Z, ClassMaps) else Z, groups, None, None, None)
    return _mm_target_sq_distances(Zc, index.pos, np.asarray(groups, dtype=np.intp), targets)


def _pairs_in_metric(Zg, codes, groups, g, radius, search):
    """Pairs ``(i, l)``, ``y_l != y_i``, ``l`` in group ``g``, within ``radius[i]`` under
    metric ``g`` (``groups = None``: the groups are the classes)."""
    if groups is None:
        in_c = codes == g
        r_c = np.where(in_c, -np.inf, radius)  # anchors of class c: no pairs in metric c
        a, l, _ = impostor_pairs(Zg, in_c.astype(np.intp), r_c, method=search)
        return a, l
    # clusters cut across the classes: every pair of different labels, then the
    # ones whose l is in group g (c searches of all pairs; meant for small data)
    a, l, _ = impostor_pairs(Zg, np.asarray(codes, dtype=np.intp), radius, method=search)
    keep = groups[l] == g
    return a[keep], l[keep]


def mm_candidate_pairs(Z, codes, targets, slack: float, groups=None, search: str = "auto"):
    """Pairs ``(i, l)``, ``y_l != y_i``, with ``\\hat D(x_i, x_l) <= max_j \\hat D(x_i,
    x_j) + 1 + slack``, sorted by key ``i * n + l`` (one tiled search per metric).
    ``Z``: :func:`class_maps` or a :class:`ClassMaps` handle; ``codes`` the class codes,
    ``groups`` each point's metric (None: its class); ``search``:
    :func:`harness.methods.shared.lmnn_impostors.impostor_pairs`' ``method``."""
    if isinstance(Z, ClassMaps):
        Z = Z.full()
    n = len(codes)
    metric = codes if groups is None else np.asarray(groups, dtype=np.intp)
    radius = mm_target_sq_distances(Z, metric, targets).max(axis=1) + 1.0 + float(slack)
    found_a, found_l = [], []
    for c in range(Z.shape[0]):
        a, l = _pairs_in_metric(Z[c], codes, None if groups is None else metric, c, radius,
                                search)
        found_a.append(a)
        found_l.append(l)
    keys = np.sort(np.concatenate(found_a) * n + np.concatenate(found_l))
    return (keys // n).astype(np.intp), (keys % n).astype(np.intp)


def mm_loss_over_all_triples(Z, codes, targets, mu, groups=None,
                             search: str = "auto") -> MMTripletState:
    """The MM-LMNN loss over *every* triple, exactly (the pairs within radius + 0);
    ``groups`` each point's metric (None: its class), ``search`` the impostor search."""
    pairs = mm_candidate_pairs(Z, codes, targets, 0.0, groups, search)
    return mm_triplet_pass(Z, codes if groups is None else groups, targets, *pairs, mu)


class MultiMetricCore:
    """:func:`harness.methods.shared.lmnn_solvers.solve_lbfgs`' hooks for the MM-LMNN loss; ``L`` is
    the stack ``(c, r, d)`` of maps, one per group (``groups``: each point's metric;
    None: one per class), ``embed`` returns a :class:`ClassMaps` handle (evaluations
    over the cached pairs map only the rows they read)."""

    def __init__(self, codes, groups=None):
        self.groups = None if groups is None else np.asarray(groups, dtype=np.intp)
        self.metric = np.asarray(codes if groups is None else groups, dtype=np.intp)

    @staticmethod
    def embed(X, Ls):
        return ClassMaps(X, Ls)

    def candidate_pairs(self, Z, codes, targets, slack, search="auto"):
        return mm_candidate_pairs(Z, codes, targets, slack, self.groups, search)

    def triplet_pass(self, Z, targets, anchors, imps, mu):
        return mm_triplet_pass(Z, self.metric, targets, anchors, imps, mu)


# --------------------------------------------------------------------------- #
# predictions with the asymmetric distance
# --------------------------------------------------------------------------- #
def mm_kneighbors(X_train, groups, Ls, X_query, k, leave_one_out=False) -> np.ndarray:
    """Indices (n_query, k) of the ``k`` training points nearest to each query under
    ``\\hat D(x_t, x_j) = ||L_{g_j}(x_t - x_j)||^2``, nearest first; ``groups`` (``g``)
    the metric of each training point (its class code for one metric per class).

    The ``k`` (``k + 1`` with ``leave_one_out``) nearest of each group under its own
    map are merged (the overall ``k`` nearest are among them) and sorted stably. With
    ``leave_one_out`` the queries are the training points and query ``i`` drops
    training point ``i`` (by index; exact duplicates stay, as in
    :func:`harness.metrics.knn_error.knn_loo_predict`).
    """
    n_q = len(X_query)
    dists, idxs = [], []
    for c, L in enumerate(Ls):
        members = np.flatnonzero(groups == c)
        m = min(k + bool(leave_one_out), len(members))
        nn = NearestNeighbors(n_neighbors=m).fit(X_train[members] @ L.T)
        dist, idx = nn.kneighbors(X_query @ L.T)
        idx = members[idx]
        if leave_one_out:
            dist = np.where(idx == np.arange(n_q)[:, None], np.inf, dist)
        dists.append(dist)
        idxs.append(idx)
    D, idx = np.hstack(dists), np.hstack(idxs)
    order = np.argsort(D, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(idx, order, axis=1)


def mm_class_energies(X_train, codes, X_test, Ls, targets, k, mu) -> np.ndarray:
    """Energies of eq. (2.12) with the asymmetric distance (2.17), shape
    (n_test, n_classes); see the module docstring for which metric each term uses.

    Blocked over test points (:data:`harness.metrics.energy.BLOCK_ELEMENTS`
    test-training distances per block); the ``i = t`` hinge sums are
    :func:`harness.metrics.energy.nearest_and_impostor_hinges`, as in the
    single-metric rule.
    """
    Z = class_maps(X_train, Ls)
    n, n_classes = len(X_train), len(Ls)
    radius = 1.0 + mm_target_sq_distances(Z, codes, targets)  # (n, k), fixed targets
    groups = [np.flatnonzero(codes == c) for c in range(n_classes)]
    others = [np.flatnonzero(codes != c) for c in range(n_classes)]
    sq = np.einsum("cij,cij->ci", Z, Z)
    E = np.empty((len(X_test), n_classes))
    rows = max(1, BLOCK_ELEMENTS // n)
    for s in range(0, len(X_test), rows):
        Xb = X_test[s:s + rows]
        A = np.empty((len(Xb), n))  # A[t, i] = \hat D(x_t, x_i), metric of y_i
        push_l = np.zeros((len(Xb), n_classes))  # l = t hinges, t labelled c
        for c in range(n_classes):
            Dc = _sq_distances(Xb @ Ls[c].T, Z[c], sq[c])  # every training point, M^c
            A[:, groups[c]] = Dc[:, groups[c]]
            D_o = Dc[:, others[c]]
            for m in range(radius.shape[1]):
                push_l[:, c] += np.maximum(radius[others[c], m][None, :] - D_o, 0.0).sum(axis=1)
        for c in range(n_classes):
            near, push_t = nearest_and_impostor_hinges(A, codes, groups[c], c, k)
            E[s:s + rows, c] = (1.0 - mu) * near.sum(axis=1) + mu * (push_t + push_l[:, c])
    return E
