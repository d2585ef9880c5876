r"""Energy-based classification with an LMNN metric (thesis sec. 2.1.4, eq. 2.12).

K. Q. Weinberger, *Metric Learning with Convex Optimization*, PhD thesis, 2007:
a test point :math:`x_t` gets the label that minimises the LMNN loss (2.11) it would
add to the training set,

.. math::

   y_t = \operatorname{argmin}_{c} (1-\mu) \sum_{j \leadsto t} D(x_t, x_j)
     + \mu \sum_{i \leadsto j,\ i = t \,\vee\, l = t} (1 - y_{il})
       [1 + D(x_i, x_j) - D(x_i, x_l)]_+ ,  \qquad (2.12)

with :math:`D(a, b) = \|L(a - b)\|^2` and the hypothetical label :math:`y_t = c`.
Written out, the energy of class ``c`` is

* ``(1 - mu) * sum_j D(t, j)`` over the test point's target neighbours ``j``: the
  ``k`` nearest training points of class ``c`` (under the metric ``L``);
* ``+ mu * sum_j sum_{l: y_l != c} [1 + D(t, j) - D(t, l)]_+`` (``i = t``: training
  points of other classes invading the test point's neighbourhoods);
* ``+ mu * sum_{i: y_i != c} sum_{j ~> i} [1 + D(i, j) - D(i, t)]_+`` (``l = t``: the
  test point invading the neighbourhoods of training points of other classes, with
  their fixed training target neighbours ``j``).

Notes
-----
Choices where the text leaves room, all following the *text* of (2.12):

* The test point's target neighbours are its ``k`` nearest training points of class
  ``c`` under the learned metric (the text: "the k nearest neighbors of x_t that share
  the same label"); the training points' target neighbours stay the fixed ones of
  training (``target_neighbors``; by default the ``k`` nearest of the same class by
  Euclidean distance in the input, as in LMNN's training, thesis 2.1.2). The test
  point never becomes a target neighbour of a training point.
* Ties between classes go to the first class in sorted label order.
* Weinberger's MATLAB ``energyclassify.m`` differs from the text: it does not weight
  the two terms by ``1 - mu`` and ``mu`` and drops the ``+1`` margin in one of the two
  hinge sums. This module implements eq. (2.12) as printed.

Computation is blocked over test points: each block holds at most
:data:`BLOCK_ELEMENTS` test-training distances (plus a few arrays of that size). The
test point's target neighbours in each class come from a partial sort
(``np.partition``), and the hinge sums over impostors ``l`` visit only the training
points inside the largest radius ``1 + D(t, j_k)`` (the others contribute 0), so the
cost is ``O(n_test * n_train * (k + n_classes))`` elementwise passes in vectorised
NumPy plus the impostors found.
"""

from __future__ import annotations

import numpy as np

from harness.metrics.knn_error import (
    _check_k,
    _encode,
    apply_transform,
    same_class_neighbors,
)

__all__ = ["BLOCK_ELEMENTS", "energy_predict", "energy_test_error", "class_energies",
           "nearest_and_impostor_hinges"]

#: Test-by-training distances held per block (2**21 float64 = 16 MiB).
BLOCK_ELEMENTS = 2**21


def _sq_distances(A: np.ndarray, B: np.ndarray, sqB: np.ndarray) -> np.ndarray:
    D = A @ B.T
    D *= -2.0
    D += np.einsum("ij,ij->i", A, A)[:, None]
    D += sqB[None, :]
    return np.maximum(D, 0.0, out=D)


def nearest_and_impostor_hinges(D, codes, idx, c, k) -> tuple[np.ndarray, np.ndarray]:
    """For a test point labelled ``c``: its target neighbours' distances and the
    ``i = t`` hinge sums of (2.12).

    ``near[t]`` are the ``k`` smallest ``D[t, idx]`` (``idx``: the training points of
    class ``c``; unordered); ``push[t] = sum_{l: codes[l] != c} sum_m
    [1 + near[t, m] - D[t, l]]_+``, visiting only the training points inside the
    largest radius (the others contribute 0).
    """
    near = np.partition(D[:, idx], k - 1, axis=1)[:, :k]
    r = 1.0 + near
    rows, cols = np.nonzero(D < r.max(axis=1)[:, None])
    other = codes[cols] != c
    rows, cols = rows[other], cols[other]
    hinge = np.maximum(r[rows] - D[rows, cols][:, None], 0.0).sum(axis=1)
    return near, np.bincount(rows, weights=hinge, minlength=len(D))


def class_energies(D, codes, groups, radius, k, mu) -> np.ndarray:
    """Energies (2.12), shape (n_test, n_classes), from test-training distances ``D``.

    ``groups[c]`` are the training indices of class ``c``; ``radius[i, m] = 1 +
    D(x_i, x_{j_m})`` over the fixed training target neighbours ``j_m`` of ``i``.
    """
    g = np.zeros_like(D)  # g[t, i] = sum_m [1 + D(i, j_m) - D(i, t)]_+
    for m in range(radius.shape[1]):
        g += np.maximum(radius[:, m][None, :] - D, 0.0)
    onehot = np.zeros((D.shape[1], len(groups)))
    onehot[np.arange(D.shape[1]), codes] = 1.0
    push_l = g.sum(axis=1)[:, None] - g @ onehot  # over training points of other classes
    E = np.empty((len(D), len(groups)))
    for c, idx in enumerate(groups):
        near, push_t = nearest_and_impostor_hinges(D, codes, idx, c, k)
        E[:, c] = (1.0 - mu) * near.sum(axis=1) + mu * (push_t + push_l[:, c])
    return E


def energy_predict(X_train, y_train, X_test, L, n_neighbors=3, mu=0.5,
                   target_neighbors=None) -> np.ndarray:
    """Predict labels by LMNN's energy rule, thesis eq. (2.12).

    Parameters
    ----------
    X_train : array-like of shape (n_train, n_features)
    y_train : array-like of shape (n_train,)
        Labels, any sortable hashable values (strings work).
    X_test : array-like of shape (n_test, n_features)
    L : array of shape (r, n_features), callable or None
        The learned map (``M = L^T L``); None means Euclidean.
    n_neighbors : int, default=3
        ``k``, the number of target neighbours; every class needs at least ``k``
        training points (``k + 1`` when ``target_neighbors`` is computed here).
    mu : float, default=0.5
        Weight of the hinge terms, as in (2.11).
    target_neighbors : ndarray of int of shape (n_train, k), optional
        Fixed target neighbours of the training points (``LMNN.target_neighbors_``).
        Default: the ``k`` nearest of the same class by Euclidean distance in
        ``X_train`` (thesis 2.1.2).

    Returns
    -------
    ndarray of shape (n_test,)
        Labels of minimum energy.
    """
    Ztr = apply_transform(X_train, L)
    Zte = apply_transform(X_test, L)
    classes, codes = _encode(y_train)
    if len(codes) != len(Ztr):
        raise ValueError(f"X_train has {len(Ztr)} rows but y_train has {len(codes)} labels")
    groups = [np.flatnonzero(codes == c) for c in range(len(classes))]
    smallest = min(len(g) for g in groups)
    k = _check_k(n_neighbors, smallest, "the size of the smallest training class")
    if target_neighbors is None:
        target_neighbors = same_class_neighbors(X_train, codes, k, classes)
    T = np.asarray(target_neighbors)
    if T.shape != (len(Ztr), k) or not np.issubdtype(T.dtype, np.integer):
        raise ValueError(f"target_neighbors must be an integer array of shape "
                         f"({len(Ztr)}, {k}), got {T.dtype} {T.shape}")
    diff = Ztr[T] - Ztr[:, None, :]
    radius = 1.0 + np.einsum("imc,imc->im", diff, diff)
    sq_train = np.einsum("ij,ij->i", Ztr, Ztr)
    out = np.empty(len(Zte), dtype=np.intp)
    rows = max(1, BLOCK_ELEMENTS // len(Ztr))
    for s in range(0, len(Zte), rows):
        D = _sq_distances(Zte[s:s + rows], Ztr, sq_train)
        out[s:s + rows] = class_energies(D, codes, groups, radius, k, float(mu)).argmin(axis=1)
    return classes[out]


def energy_test_error(X_train, y_train, X_test, y_test, L, n_neighbors=3, mu=0.5,
                      target_neighbors=None) -> float:
    """Test error of :func:`energy_predict` on ``(X_test, y_test)``, in ``[0, 1]``."""
    pred = energy_predict(X_train, y_train, X_test, L, n_neighbors, mu, target_neighbors)
    y_test = np.asarray(y_test)
    if y_test.shape != pred.shape:
        raise ValueError(f"y_test has shape {y_test.shape}, expected {pred.shape}")
    return float(np.mean(pred != y_test))
