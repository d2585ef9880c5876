"""Naive O(n^2) reference implementation of thesis eqs 3.27-3.29 (tests only).

Deliberately independent of :mod:`harness.metrics.embedding_quality`:

* full ``n x n`` Euclidean distance matrices with numpy broadcasting;
* neighbour sets by a *stable* ``np.argsort`` of each row, with ``i`` removed;
* the minimum over ``s`` found *numerically* with
  :func:`scipy.optimize.minimize_scalar` (not the closed form);
* literal Python loops over ``i`` and ``j`` to assemble the sums.

Only meant for small ``n`` (a few hundred points at most).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar


def naive_distance_matrix(Z) -> np.ndarray:
    """Full ``n x n`` Euclidean distance matrix."""
    Z = np.asarray(Z, dtype=np.float64)
    diff = Z[:, None, :] - Z[None, :, :]
    return np.sqrt((diff**2).sum(axis=2))


def naive_neighbor_sets(D: np.ndarray, n_neighbors: int) -> list[list[int]]:
    """``N[i]`` = the ``n_neighbors`` nearest indices to ``i`` (stable argsort, ``i`` excluded)."""
    n = D.shape[0]
    sets = []
    for i in range(n):
        order = np.argsort(D[i], kind="stable")
        order = [int(j) for j in order if j != i]
        sets.append(order[:n_neighbors])
    return sets


def _naive_local_score(D_ref: np.ndarray, D_scaled: np.ndarray, neigh) -> float:
    """``1 - min_s sum_i sum_{j in neigh[i]} (s D_scaled[i,j] - D_ref[i,j])^2 / sum D_ref[i,j]^2``."""
    scaled = []
    ref = []
    for i in range(len(neigh)):
        for j in neigh[i]:
            scaled.append(D_scaled[i, j])
            ref.append(D_ref[i, j])
    scaled = np.array(scaled)
    ref = np.array(ref)

    def objective(s):
        return float(np.sum((s * scaled - ref) ** 2))

    denominator = 0.0
    for r in ref:
        denominator += r * r
    res = minimize_scalar(objective, method="brent", options={"xtol": 1e-12})
    return 1.0 - res.fun / denominator


def naive_local_continuity(X, Y, n_neighbors: int) -> float:
    """Eq. (3.27): pairs (i, j in N(x_i)); scaled = Y distances, reference = X distances."""
    DX = naive_distance_matrix(X)
    DY = naive_distance_matrix(Y)
    return _naive_local_score(DX, DY, naive_neighbor_sets(DX, n_neighbors))


def naive_local_trust(X, Y, n_neighbors: int) -> float:
    """Eq. (3.28): pairs (i, j in N(y_i)); scaled = X distances, reference = Y distances."""
    DX = naive_distance_matrix(X)
    DY = naive_distance_matrix(Y)
    return _naive_local_score(DY, DX, naive_neighbor_sets(DY, n_neighbors))


def naive_neighborhood_intersection(X, Y, n_neighbors: int) -> float:
    """Eq. (3.29) with the thesis' ``k`` read as ``l``: mean ``|N(x_i) ∩ N(y_i)| / l``."""
    NX = naive_neighbor_sets(naive_distance_matrix(X), n_neighbors)
    NY = naive_neighbor_sets(naive_distance_matrix(Y), n_neighbors)
    n = len(NX)
    total = 0
    for i in range(n):
        total += len(set(NX[i]) & set(NY[i]))
    return total / (n * n_neighbors)
