r"""Embedding-quality metrics of thesis section 3.1.9 (eqs 3.27-3.29).

K. Q. Weinberger, *Metric Learning with Convex Optimization*, PhD thesis, 2007,
section 3.1.9, defines three scores of how well a low-dimensional embedding
``Y`` (rows ``y_i``) preserves the local geometry of the input ``X`` (rows
``x_i``). Let :math:`N(x_i)` be the set of indices of the ``l`` nearest
neighbours of :math:`x_i` in ``X`` (``i`` itself excluded) and :math:`N(y_i)`
the same in ``Y``:

* local continuity (3.27)

  .. math::

     C(Y) = 1 - \min_s \frac{\sum_i \sum_{j \in N(x_i)}
            (s \|y_i - y_j\| - \|x_i - x_j\|)^2}
            {\sum_i \sum_{j \in N(x_i)} \|x_i - x_j\|^2}

* local trust (3.28): the same with the roles of ``X`` and ``Y`` swapped,
  over the neighbour pairs of ``Y``;

* neighbourhood intersection (3.29)

  .. math:: N(Y) = \frac{1}{n l} \sum_i |N(x_i) \cap N(y_i)|.

Notes
-----
The minimum over ``s`` has a closed form: the score is the squared cosine between the
vectors of scaled and reference distances over the neighbour pairs, in ``[0, 1]`` and
invariant to a uniform scaling, rotation or translation of ``X`` or ``Y``. All-zero
scaled distances score 0; all-zero reference distances (duplicate points) raise
``ValueError``. (3.29) is normalised by ``n l`` (the thesis writes ``n k``; we read its
``k`` as the neighbourhood size). Neighbours come from
:class:`sklearn.neighbors.NearestNeighbors`, each point excluded from its own set; no
``n x n`` matrix is built. :func:`input_neighbors` caches ``X``'s side for many
embeddings of one input (an r sweep searches ``X`` once), with identical scores. The
derivation, the degenerate cases, ties and the search are in
``docs/embedding_quality.md``.

"""

from __future__ import annotations

import dataclasses
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.neighbors import NearestNeighbors

__all__ = [
    "InputNeighbors",
    "input_neighbors",
    "local_continuity",
    "local_trust",
    "neighborhood_intersection",
    "embedding_quality",
]

_CONTINUITY = "local_continuity"
_TRUST = "local_trust"
_INTERSECTION = "neighborhood_intersection"
_ALL = (_CONTINUITY, _TRUST, _INTERSECTION)

# Maximum number of float64 elements of a temporary (rows x l x d) difference
# block in _pair_distances (2**22 elements = 32 MiB).
_CHUNK_ELEMENTS = 2**22


# --------------------------------------------------------------------------- #
# validation
# --------------------------------------------------------------------------- #
def _as_2d_finite(A, name: str) -> np.ndarray:
    """Return ``A`` as a 2-D float64 array, raising errors that name ``name``."""
    if sp.issparse(A):
        raise ValueError(
            f"{name} is a sparse matrix; pass a dense 2-D array "
            f"(e.g. {name}.toarray())."
        )
    try:
        arr = np.asarray(A, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} could not be converted to a numeric float array ({exc}); "
            f"pass a 2-D array of real numbers of shape (n_samples, n_features)."
        ) from exc
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_samples, n_features), got "
            f"an array of shape {arr.shape} ({arr.ndim}-D); reshape it, e.g. "
            f"{name}.reshape(-1, 1) for a single feature."
        )
    if arr.shape[1] == 0:
        raise ValueError(
            f"{name} has shape {arr.shape}: it has no features; pass at least "
            f"one column."
        )
    finite = np.isfinite(arr)
    if not finite.all():
        bad_rows = int(np.count_nonzero(~finite.all(axis=1)))
        n_nan = int(np.count_nonzero(np.isnan(arr)))
        n_inf = int(np.count_nonzero(np.isinf(arr)))
        raise ValueError(
            f"{name} contains non-finite values ({n_nan} NaN, {n_inf} inf) in "
            f"{bad_rows} of its {arr.shape[0]} rows; remove or impute those rows "
            f"(in both X and Y, to keep the rows paired) before computing the "
            f"embedding-quality metrics."
        )
    return arr


def _validate(X, Y, n_neighbors) -> tuple[np.ndarray, np.ndarray, int]:
    X = _as_2d_finite(X, "X")
    Y = _as_2d_finite(Y, "Y")
    if X.shape[0] != Y.shape[0]:
        raise ValueError(
            f"X and Y must have the same number of rows (row i of Y is the "
            f"embedding of row i of X), got X of shape {X.shape} and Y of shape "
            f"{Y.shape}."
        )
    n = X.shape[0]
    if n < 2:
        raise ValueError(
            f"need at least 2 samples to define neighbourhoods, got n_samples={n} "
            f"(X of shape {X.shape}, Y of shape {Y.shape})."
        )
    if isinstance(n_neighbors, bool) or not isinstance(n_neighbors, numbers.Integral):
        raise ValueError(
            f"n_neighbors must be an integer with 1 <= n_neighbors < n_samples={n}, "
            f"got {n_neighbors!r} of type {type(n_neighbors).__name__}."
        )
    n_neighbors = int(n_neighbors)
    if not 1 <= n_neighbors < n:
        raise ValueError(
            f"n_neighbors must satisfy 1 <= n_neighbors < n_samples, got "
            f"n_neighbors={n_neighbors} with n_samples={n}; choose n_neighbors "
            f"between 1 and {n - 1}."
        )
    return X, Y, n_neighbors


# --------------------------------------------------------------------------- #
# core
# --------------------------------------------------------------------------- #
def _neighbor_indices(Z: np.ndarray, n_neighbors: int) -> np.ndarray:
    """Indices (n, l) of the l nearest neighbours of each row of Z, self excluded."""
    nn = NearestNeighbors(n_neighbors=n_neighbors).fit(Z)
    # kneighbors() without a query: each point is not its own neighbour.
    return nn.kneighbors(return_distance=False)


def _pair_distances(Z: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``out[i, m] = ||Z[i] - Z[idx[i, m]]||`` computed row-wise, in chunks."""
    n, l = idx.shape
    d = Z.shape[1]
    out = np.empty((n, l), dtype=np.float64)
    step = max(1, _CHUNK_ELEMENTS // (l * d))
    for start in range(0, n, step):
        stop = min(n, start + step)
        diff = Z[idx[start:stop]]  # (rows, l, d) copy
        diff -= Z[start:stop, None, :]
        out[start:stop] = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    return out


def _squared_cosine_score(a: np.ndarray, b: np.ndarray, ref_name: str, n_neighbors: int) -> float:
    """``1 - min_s ||s a - b||^2 / ||b||^2`` in closed form (``a`` scaled, ``b`` reference)."""
    a = a.ravel()
    b = b.ravel()
    bb = float(b @ b)
    if bb == 0.0:
        raise ValueError(
            f"all distances in {ref_name} between each point and its "
            f"n_neighbors={n_neighbors} nearest neighbours are zero (duplicate "
            f"points: every point of {ref_name} coincides with its neighbours), so "
            f"the normalising denominator is zero; remove duplicate rows or "
            f"increase n_neighbors."
        )
    aa = float(a @ a)
    if aa == 0.0:
        # Objective constant in s: minimum <b,b> attained at s = 0 -> score 0.
        return 0.0
    ab = float(a @ b)
    score = (ab / aa) * (ab / bb)
    return float(min(1.0, max(0.0, score)))


def _intersection(idx_x: np.ndarray, idx_y: np.ndarray) -> float:
    """``1/(n l) sum_i |N(x_i) ∩ N(y_i)|`` via row-tagged keys (no n x n array)."""
    n, l = idx_x.shape
    rows = np.arange(n, dtype=np.int64)[:, None] * np.int64(n)
    keys_x = (rows + idx_x).ravel()
    keys_y = (rows + idx_y).ravel()
    # Within a row neighbour indices are distinct, so the keys are unique.
    shared = np.intersect1d(keys_x, keys_y, assume_unique=True).size
    return float(shared) / float(n * l)


@dataclasses.dataclass(frozen=True, eq=False)
class InputNeighbors:
    """The input's side of continuity and intersection, for many embeddings of one
    ``X`` (made by :func:`input_neighbors`; read-only arrays).

    Attributes
    ----------
    indices : ndarray of shape (n_samples, n_neighbors)
        ``N(x_i)``: the ``l`` nearest neighbours of each row of ``X``, itself
        excluded, as the metrics find them.
    distances : ndarray of shape (n_samples, n_neighbors)
        ``||x_i - x_j||`` for ``j = indices[i, m]``, computed row-wise as the
        metrics compute them.
    n_features : int
        Columns of ``X``, checked against the ``X`` it is used with.
    """

    indices: np.ndarray
    distances: np.ndarray
    n_features: int


def input_neighbors(X, n_neighbors: int = 15) -> InputNeighbors:
    """``X``'s ``n_neighbors`` nearest neighbours and the distances to them, once.

    Pass the result as ``input_neighbors=`` to :func:`embedding_quality`,
    :func:`local_continuity` or :func:`neighborhood_intersection` with the same
    ``X`` and ``n_neighbors`` to score many embeddings of ``X`` (e.g. the leading
    ``r`` columns of one embedding for every ``r``) without searching ``X`` again;
    the scores are identical to those of calls without it.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Input points (finite, dense).
    n_neighbors : int, default=15
        Neighbourhood size ``l``, with ``1 <= n_neighbors < n_samples``.

    Returns
    -------
    InputNeighbors

    Raises
    ------
    ValueError
        As the metrics, for a bad ``X`` or ``n_neighbors``.
    """
    X, _, l = _validate(X, X, n_neighbors)
    indices = _neighbor_indices(X, l)
    distances = _pair_distances(X, indices)
    indices.setflags(write=False)
    distances.setflags(write=False)
    return InputNeighbors(indices, distances, int(X.shape[1]))


def _checked_inputs(inputs, X: np.ndarray, l: int) -> InputNeighbors:
    """``inputs`` if it can be ``X``'s neighbours at ``l``; else a ValueError naming
    the mismatch and the fix."""
    if not isinstance(inputs, InputNeighbors):
        raise ValueError(
            f"input_neighbors must be the result of input_neighbors(X, n_neighbors), "
            f"got {type(inputs).__name__}; compute it with "
            f"harness.metrics.embedding_quality.input_neighbors(X, {l})."
        )
    expected = (X.shape[0], l)
    if inputs.indices.shape != expected or inputs.n_features != X.shape[1]:
        raise ValueError(
            f"input_neighbors was computed for {inputs.indices.shape[0]} points with "
            f"{inputs.n_features} features and n_neighbors={inputs.indices.shape[1]}, "
            f"but X has shape {X.shape} and n_neighbors={l}; compute it with "
            f"input_neighbors(X, {l}) for this X."
        )
    # a cheap check of the values too: the first point's distances to its neighbours
    first = np.sqrt(np.sum((X[inputs.indices[0]] - X[0]) ** 2, axis=1))
    if not np.allclose(first, inputs.distances[0], rtol=1e-9, atol=0.0):
        raise ValueError(
            "input_neighbors was computed from another X of the same shape (the first "
            "point's distances to its neighbours differ); compute it with "
            f"input_neighbors(X, {l}) for this X."
        )
    return inputs


def _quality(X, Y, n_neighbors, which, inputs=None) -> dict[str, float]:
    """Validate, run only the neighbour searches needed by ``which`` (``X``'s taken
    from ``inputs`` when given), compute scores."""
    X, Y, l = _validate(X, Y, n_neighbors)
    if inputs is not None:
        inputs = _checked_inputs(inputs, X, l)
    need_x = _CONTINUITY in which or _INTERSECTION in which
    need_y = _TRUST in which or _INTERSECTION in which
    idx_x = None
    if need_x:
        idx_x = inputs.indices if inputs is not None else _neighbor_indices(X, l)
    idx_y = _neighbor_indices(Y, l) if need_y else None
    out: dict[str, float] = {}
    if _CONTINUITY in which:
        reference = (inputs.distances if inputs is not None
                     else _pair_distances(X, idx_x))
        out[_CONTINUITY] = _squared_cosine_score(
            _pair_distances(Y, idx_x), reference, "X", l
        )
    if _TRUST in which:
        out[_TRUST] = _squared_cosine_score(
            _pair_distances(X, idx_y), _pair_distances(Y, idx_y), "Y", l
        )
    if _INTERSECTION in which:
        out[_INTERSECTION] = _intersection(idx_x, idx_y)
    return out


# --------------------------------------------------------------------------- #
# public API
# --------------------------------------------------------------------------- #
def local_continuity(X, Y, n_neighbors: int = 15, input_neighbors=None) -> float:
    r"""Local continuity ``C(Y)`` of thesis eq. (3.27).

    .. math::

       C(Y) = 1 - \min_s \frac{\sum_i \sum_{j \in N(x_i)}
              (s\|y_i - y_j\| - \|x_i - x_j\|)^2}
              {\sum_i \sum_{j \in N(x_i)} \|x_i - x_j\|^2}

    where :math:`N(x_i)` are the ``n_neighbors`` nearest neighbours of
    :math:`x_i` in ``X`` (``i`` excluded). With ``a`` the embedded distances
    :math:`\|y_i - y_j\|` and ``b`` the input distances
    :math:`\|x_i - x_j\|` over these pairs, the optimal scale is
    :math:`s^* = \langle a,b\rangle/\langle a,a\rangle` and
    :math:`C = \langle a,b\rangle^2/(\langle a,a\rangle\langle b,b\rangle)`,
    the squared cosine between the distance vectors; this closed form is used.
    If all embedded distances on the pairs are zero the minimum is attained at
    ``s = 0`` and ``C = 0``. Neighbours come from scikit-learn's
    ``NearestNeighbors.kneighbors()`` (ties broken in whatever order the
    search returns); no ``n x n`` matrix is built. See the module docstring.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Input points ``x_i`` (finite, dense).
    Y : array-like of shape (n_samples, n_components)
        Embedded points; row ``i`` of ``Y`` is the embedding of row ``i`` of
        ``X`` (finite, dense).
    n_neighbors : int, default=15
        Neighbourhood size ``l``, with ``1 <= n_neighbors < n_samples``
        (Table 3.2 of the thesis uses ``l = 15``).
    input_neighbors : InputNeighbors, optional
        ``input_neighbors(X, n_neighbors)`` for this ``X``, computed once for many
        embeddings of it: ``X``'s neighbours are then not searched again (same
        scores). None (default): searched here.

    Returns
    -------
    float
        ``C(Y)`` in ``[0, 1]``; ``1`` iff the embedded distances over the
        neighbour pairs of ``X`` are proportional to the input distances.

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not 2-D, has no features, contains NaN or inf,
        if their numbers of rows differ, if there are fewer than 2 samples,
        or if ``n_neighbors`` is not an integer in ``[1, n_samples)``.
        Also if all input distances on the neighbour pairs are zero (duplicate
        points in ``X``), where (3.27) is undefined, or if ``input_neighbors``
        does not fit ``X`` and ``n_neighbors``.
    """
    return _quality(X, Y, n_neighbors, (_CONTINUITY,), input_neighbors)[_CONTINUITY]


def local_trust(X, Y, n_neighbors: int = 15) -> float:
    r"""Local trust ``T(Y)`` of thesis eq. (3.28).

    .. math::

       T(Y) = 1 - \min_s \frac{\sum_i \sum_{j \in N(y_i)}
              (s\|x_i - x_j\| - \|y_i - y_j\|)^2}
              {\sum_i \sum_{j \in N(y_i)} \|y_i - y_j\|^2}

    where :math:`N(y_i)` are the ``n_neighbors`` nearest neighbours of
    :math:`y_i` in ``Y`` (``i`` excluded). This is local continuity with the
    roles of ``X`` and ``Y`` swapped: with ``a`` the input distances and ``b``
    the embedded distances over these pairs, :math:`s^* = \langle
    a,b\rangle/\langle a,a\rangle` and :math:`T = \langle a,b\rangle^2 /
    (\langle a,a\rangle\langle b,b\rangle)` (closed form used). If all
    input distances on the pairs are zero the minimum is at ``s = 0`` and
    ``T = 0``. Neighbours come from scikit-learn's
    ``NearestNeighbors.kneighbors()`` (ties broken in whatever order the
    search returns); no ``n x n`` matrix is built. See the module docstring.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Input points ``x_i`` (finite, dense).
    Y : array-like of shape (n_samples, n_components)
        Embedded points; row ``i`` of ``Y`` is the embedding of row ``i`` of
        ``X`` (finite, dense).
    n_neighbors : int, default=15
        Neighbourhood size ``l``, with ``1 <= n_neighbors < n_samples``
        (Table 3.2 of the thesis uses ``l = 15``).

    Returns
    -------
    float
        ``T(Y)`` in ``[0, 1]``.

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not 2-D, has no features, contains NaN or inf,
        if their numbers of rows differ, if there are fewer than 2 samples,
        or if ``n_neighbors`` is not an integer in ``[1, n_samples)``.
        Also if all embedded distances on the neighbour pairs are zero
        (duplicate points in ``Y``), where (3.28) is undefined.
    """
    return _quality(X, Y, n_neighbors, (_TRUST,))[_TRUST]


def neighborhood_intersection(X, Y, n_neighbors: int = 15, input_neighbors=None) -> float:
    r"""Neighbourhood intersection ``N(Y)`` of thesis eq. (3.29).

    .. math:: N(Y) = \frac{1}{n l} \sum_i |N(x_i) \cap N(y_i)|

    the mean fraction of the ``l = n_neighbors`` nearest neighbours of each
    point (``i`` excluded) that are shared between ``X`` and ``Y``. The thesis
    writes the normaliser as ":math:`nk`"; since the neighbourhoods have ``l``
    elements we read its ``k`` as ``l`` (a reading of the thesis' notation),
    so ``N(Y)`` lies in ``[0, 1]``. Neighbours come from scikit-learn's
    ``NearestNeighbors.kneighbors()``; ties in neighbour ranks are broken in
    whatever order the search returns, which can change this score when
    distances tie exactly. No ``n x n`` matrix is built.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Input points ``x_i`` (finite, dense).
    Y : array-like of shape (n_samples, n_components)
        Embedded points; row ``i`` of ``Y`` is the embedding of row ``i`` of
        ``X`` (finite, dense).
    n_neighbors : int, default=15
        Neighbourhood size ``l``, with ``1 <= n_neighbors < n_samples``
        (Table 3.2 of the thesis uses ``l = 15``).
    input_neighbors : InputNeighbors, optional
        ``input_neighbors(X, n_neighbors)`` for this ``X``, computed once for many
        embeddings of it: ``X``'s neighbours are then not searched again (same
        scores). None (default): searched here.

    Returns
    -------
    float
        ``N(Y)`` in ``[0, 1]``, a multiple of ``1 / (n l)``.

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not 2-D, has no features, contains NaN or inf,
        if their numbers of rows differ, if there are fewer than 2 samples,
        or if ``n_neighbors`` is not an integer in ``[1, n_samples)``, or if
        ``input_neighbors`` does not fit ``X`` and ``n_neighbors``.
    """
    return _quality(X, Y, n_neighbors, (_INTERSECTION,), input_neighbors)[_INTERSECTION]


def embedding_quality(X, Y, n_neighbors: int = 15, input_neighbors=None) -> dict:
    r"""All three scores of thesis section 3.1.9 with two neighbour searches.

    Equivalent to calling :func:`local_continuity`, :func:`local_trust` and
    :func:`neighborhood_intersection` (same private core, same results) but
    the neighbour search in ``X`` and the one in ``Y`` are each run once (the
    one in ``X`` not at all with ``input_neighbors``).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Input points ``x_i`` (finite, dense).
    Y : array-like of shape (n_samples, n_components)
        Embedded points; row ``i`` of ``Y`` is the embedding of row ``i`` of
        ``X`` (finite, dense).
    n_neighbors : int, default=15
        Neighbourhood size ``l``, with ``1 <= n_neighbors < n_samples``
        (Table 3.2 of the thesis uses ``l = 15``).
    input_neighbors : InputNeighbors, optional
        ``input_neighbors(X, n_neighbors)`` for this ``X``, computed once for many
        embeddings of it: ``X``'s neighbours are then not searched again (same
        scores). None (default): searched here.

    Returns
    -------
    dict
        ``{"local_continuity": C, "local_trust": T,
        "neighborhood_intersection": N}`` (floats, eqs 3.27-3.29).

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not 2-D, has no features, contains NaN or inf,
        if their numbers of rows differ, if there are fewer than 2 samples,
        or if ``n_neighbors`` is not an integer in ``[1, n_samples)``.
        Also if continuity or trust is undefined because of duplicate points
        (see :func:`local_continuity` and :func:`local_trust`), or if
        ``input_neighbors`` does not fit ``X`` and ``n_neighbors``.
    """
    res = _quality(X, Y, n_neighbors, _ALL, input_neighbors)
    return {name: res[name] for name in _ALL}

