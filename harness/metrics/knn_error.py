r"""k-nearest-neighbour classification errors with the thesis' tie rule (sec. 2.1.6).

K. Q. Weinberger, *Metric Learning with Convex Optimization*, PhD thesis, 2007,
section 2.1.6: "To break ties among different classes, we repeatedly reduced the
neighborhood size, ultimately classifying (if necessary) by just the k = 1 nearest
neighbor", and "All training error rates reported are leave-one-out estimates".

* :func:`knn_predict` -- majority vote among the ``k`` nearest training points; if
  two or more classes share the largest vote, the vote is repeated among the
  ``k - 1`` nearest, and so on down to the single nearest neighbour.
* :func:`knn_loo_predict`, :func:`knn_loo_error` -- leave-one-out labels and training
  error: each training point is classified by the others.
* :func:`knn_test_error` -- the error on held-out points.
* :func:`same_class_neighbors` -- the ``k`` nearest points of the same class
  (LMNN's *target neighbours*, thesis 2.1.2), shared by the LMNN core and the energy
  rule.

All distances are Euclidean after an optional linear map (``transform``): a matrix
``L`` (rows ``L x``, i.e. the Mahalanobis metric ``M = L^T L``) or any callable.

Notes
-----
Memory is bounded: queries run in blocks of at most :data:`BLOCK_ROWS` rows through
:class:`sklearn.neighbors.NearestNeighbors` (which itself chunks its brute-force
distance computation), so no ``n_test x n_train`` matrix is ever built.
Equidistant candidates for the ``k``-th neighbour are ordered however the search
returns them. Leave-one-out removes the point itself (by index) from its own
neighbour list; exact duplicates of a point are *other* points and do count as
neighbours (at distance 0), as in the thesis' setting where every training input is
a separate example. Errors are fractions in ``[0, 1]``; labels may be any hashable
values that :func:`numpy.unique` can sort (integers, strings, ...).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.neighbors import NearestNeighbors

__all__ = [
    "BLOCK_ROWS",
    "knn_predict",
    "knn_loo_predict",
    "knn_loo_error",
    "knn_test_error",
    "same_class_neighbors",
    "apply_transform",
]

#: Query rows per block of the neighbour search.
BLOCK_ROWS = 2048


def apply_transform(X, transform=None) -> np.ndarray:
    """Return ``X`` (float64, 2-D) mapped by ``transform``.

    ``transform`` is None (identity), a matrix ``L`` of shape ``(r, n_features)``
    (rows become ``L x``, i.e. ``X @ L.T``), or a callable taking and returning a
    2-D array.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of shape (n_samples, n_features), got {X.shape}")
    if transform is None:
        return X
    if callable(transform):
        return np.asarray(transform(X), dtype=np.float64)
    L = np.asarray(transform, dtype=np.float64)
    if L.ndim != 2 or L.shape[1] != X.shape[1]:
        raise ValueError(
            f"transform matrix L must have shape (n_components, {X.shape[1]}), got {L.shape}"
        )
    return X @ L.T


def _check_k(n_neighbors, n_available: int, what: str) -> int:
    if isinstance(n_neighbors, bool) or not isinstance(n_neighbors, numbers.Integral):
        raise ValueError(f"n_neighbors must be an integer >= 1, got {n_neighbors!r}")
    if not 1 <= n_neighbors <= n_available:
        raise ValueError(
            f"n_neighbors={n_neighbors} must satisfy 1 <= n_neighbors <= {n_available} "
            f"({what}); lower n_neighbors"
        )
    return int(n_neighbors)


def vote_with_ties(neighbor_codes: np.ndarray, n_classes: int) -> np.ndarray:
    """Class codes voted by rows of ``neighbor_codes`` (nearest first), thesis tie rule.

    Row ``t`` holds the class codes of the ``k`` nearest neighbours of query ``t``,
    sorted by distance. The vote among the first ``m`` columns is taken for
    ``m = k, k - 1, ..., 1`` and the first ``m`` with a unique winner decides.
    """
    b, k = neighbor_codes.shape
    out = np.full(b, -1, dtype=np.intp)
    rows = np.arange(b)
    flat = (rows[:, None] * n_classes + neighbor_codes).ravel()
    counts = np.bincount(flat, minlength=b * n_classes).reshape(b, n_classes)
    for m in range(k, 0, -1):
        if m < k:  # vote among the m nearest: drop column m, the (m + 1)-th nearest
            counts[rows, neighbor_codes[:, m]] -= 1
        todo = out < 0
        best = counts.max(axis=1)
        unique = (counts == best[:, None]).sum(axis=1) == 1
        decided = todo & unique
        out[decided] = counts[decided].argmax(axis=1)
        if (out >= 0).all():
            break
    return out


def _encode(y) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"labels y must be 1-D, got shape {y.shape}")
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.ravel()


def _kneighbors(Zfit, Zq, k, leave_one_out) -> np.ndarray:
    """Indices (n_query, k) of the k nearest rows of ``Zfit``, nearest first.

    Queries run in blocks of :data:`BLOCK_ROWS`. With ``leave_one_out`` the queries
    are ``Zfit`` itself and row ``i`` is removed from its own list (by index; if
    ``k + 1`` exact duplicates hid it, the last of them is dropped instead).
    """
    nn = NearestNeighbors(n_neighbors=k + leave_one_out).fit(Zfit)
    out = np.empty((len(Zq), k), dtype=np.intp)
    for start in range(0, len(Zq), BLOCK_ROWS):
        stop = min(len(Zq), start + BLOCK_ROWS)
        idx = nn.kneighbors(Zq[start:stop], return_distance=False)
        if leave_one_out:
            drop = idx == np.arange(start, stop)[:, None]
            drop[~drop.any(axis=1), -1] = True
            idx = idx[~drop].reshape(stop - start, k)
        out[start:stop] = idx
    return out


def knn_predict(X_train, y_train, X_test, n_neighbors=3, transform=None) -> np.ndarray:
    """Predict labels of ``X_test`` by ``k``-NN with the thesis' tie rule (sec. 2.1.6).

    Parameters
    ----------
    X_train : array-like of shape (n_train, n_features)
    y_train : array-like of shape (n_train,)
        Labels, any sortable hashable values (strings work).
    X_test : array-like of shape (n_test, n_features)
    n_neighbors : int, default=3
        ``k``; at most ``n_train``.
    transform : None, array of shape (r, n_features) or callable, default=None
        Linear map ``L`` (or any feature map) applied to both sets first.

    Returns
    -------
    ndarray of shape (n_test,)
        Predicted labels, of the dtype of ``np.unique(y_train)``.
    """
    Ztr = apply_transform(X_train, transform)
    Zte = apply_transform(X_test, transform)
    classes, codes = _encode(y_train)
    if len(codes) != len(Ztr):
        raise ValueError(f"X_train has {len(Ztr)} rows but y_train has {len(codes)} labels")
    k = _check_k(n_neighbors, len(Ztr), "n_train")
    return classes[vote_with_ties(codes[_kneighbors(Ztr, Zte, k, False)], len(classes))]


def knn_loo_predict(X, y, n_neighbors=3, transform=None) -> np.ndarray:
    """Leave-one-out ``k``-NN labels of the training points (thesis 2.1.6).

    Each point is classified by its ``k`` nearest *other* points (itself excluded by
    index; exact duplicates of it are not excluded) with the thesis' tie rule.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    n_neighbors : int, default=3
        ``k``; at most ``n_samples - 1``.
    transform : None, array of shape (r, n_features) or callable, default=None

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    Z = apply_transform(X, transform)
    classes, codes = _encode(y)
    if len(codes) != len(Z):
        raise ValueError(f"X has {len(Z)} rows but y has {len(codes)} labels")
    k = _check_k(n_neighbors, len(Z) - 1, "n_samples - 1 for leave-one-out")
    return classes[vote_with_ties(codes[_kneighbors(Z, Z, k, True)], len(classes))]


def knn_loo_error(X, y, n_neighbors=3, transform=None) -> float:
    """Leave-one-out ``k``-NN error of the training set, in ``[0, 1]``.

    The fraction of points that :func:`knn_loo_predict` gets wrong; same parameters.
    """
    return float(np.mean(knn_loo_predict(X, y, n_neighbors, transform) != np.asarray(y)))


def knn_test_error(X_train, y_train, X_test, y_test, n_neighbors=3, transform=None) -> float:
    """Test error of :func:`knn_predict` on ``(X_test, y_test)``, in ``[0, 1]``.

    Parameters are those of :func:`knn_predict`, plus ``y_test`` of shape (n_test,).
    """
    pred = knn_predict(X_train, y_train, X_test, n_neighbors, transform)
    y_test = np.asarray(y_test)
    if y_test.shape != pred.shape:
        raise ValueError(f"y_test has shape {y_test.shape}, expected {pred.shape}")
    return float(np.mean(pred != y_test))


def same_class_neighbors(X, codes, n_neighbors: int, classes=None) -> np.ndarray:
    """The ``k`` nearest points of the same class, by Euclidean distance in ``X``.

    LMNN's target neighbours (thesis 2.1.2: "the k nearest neighbors within the class
    y_i, determined by Euclidean distance"). The point itself is excluded by index;
    duplicates of it may be chosen.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    codes : ndarray of int of shape (n_samples,)
        Class codes ``0 .. n_classes - 1``.
    n_neighbors : int
        ``k``.
    classes : sequence, optional
        Class labels by code, only used to name a class in errors.

    Returns
    -------
    ndarray of int of shape (n_samples, k)
        Global row indices, nearest first.

    Raises
    ------
    ValueError
        If a class has ``<= k`` members (it cannot give each member ``k`` others).
    """
    X = np.asarray(X, dtype=np.float64)
    codes = np.asarray(codes)
    k = int(n_neighbors)
    out = np.empty((len(X), k), dtype=np.intp)
    for c in range(int(codes.max()) + 1 if len(codes) else 0):
        members = np.flatnonzero(codes == c)
        if len(members) <= k:
            name = np.asarray(classes)[c].item() if classes is not None else c
            raise ValueError(
                f"class {name!r} has {len(members)} member(s) but n_neighbors={k} target "
                f"neighbours of the same class are needed for each of them (at least "
                f"{k + 1} members); lower n_neighbors below {len(members)}, or add "
                f"samples of class {name!r} / drop that class"
            )
        out[members] = members[_kneighbors(X[members], X[members], k, True)]
    return out
