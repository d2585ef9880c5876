"""Tests of the embedding-quality metrics of thesis section 3.1.9 (eqs 3.27-3.29)."""

from __future__ import annotations

import importlib
import tracemalloc

import numpy as np
import pytest

from harness.metrics import (
    embedding_quality,
    local_continuity,
    local_trust,
    neighborhood_intersection,
)
from tests.metrics.naive_embedding_quality import (
    naive_local_continuity,
    naive_local_trust,
    naive_neighborhood_intersection,
)

KEYS = ("local_continuity", "local_trust", "neighborhood_intersection")


def _random_data(seed: int, n: int):
    """Random X in 5-D and Y = a noisy nonlinear map of X to 2-D."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, 5))
    Y = np.column_stack(
        [
            np.sin(2.0 * X[:, 0]) + X[:, 1] * X[:, 2],
            X[:, 3] * np.cos(X[:, 4]) + 0.5 * X[:, 0] ** 2,
        ]
    )
    Y += 0.05 * rng.standard_normal(Y.shape)
    return X, Y


# --------------------------------------------------------------------------- #
# agreement with the naive O(n^2) reference (numerical min over s)
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("seed", "n", "n_neighbors"),
    [(0, 60, 1), (1, 80, 5), (2, 120, 15), (3, 50, 49), (4, 100, 7)],
)
def test_matches_naive_reference(seed, n, n_neighbors):
    X, Y = _random_data(seed, n)
    C = local_continuity(X, Y, n_neighbors)
    T = local_trust(X, Y, n_neighbors)
    N = neighborhood_intersection(X, Y, n_neighbors)
    np.testing.assert_allclose(C, naive_local_continuity(X, Y, n_neighbors), rtol=1e-9)
    np.testing.assert_allclose(T, naive_local_trust(X, Y, n_neighbors), rtol=1e-9)
    assert N == naive_neighborhood_intersection(X, Y, n_neighbors)
    # the random map is neither perfect nor useless
    assert 0.0 < C < 1.0 and 0.0 < T < 1.0 and 0.0 <= N <= 1.0


def test_matches_naive_reference_high_dimensional_input():
    # d > 15 -> scikit-learn's brute-force search instead of a tree.
    rng = np.random.default_rng(11)
    X = rng.standard_normal((70, 300))
    Y = X[:, :2] + 0.1 * rng.standard_normal((70, 2))
    for l in (3, 10):
        np.testing.assert_allclose(local_continuity(X, Y, l), naive_local_continuity(X, Y, l), rtol=1e-9)
        np.testing.assert_allclose(local_trust(X, Y, l), naive_local_trust(X, Y, l), rtol=1e-9)
        assert neighborhood_intersection(X, Y, l) == naive_neighborhood_intersection(X, Y, l)


# --------------------------------------------------------------------------- #
# hand-worked cases
# --------------------------------------------------------------------------- #
def test_scaled_copy_on_a_line_is_perfect():
    # Points 0, 1, 3, 7, 12 on a line (gaps 1, 2, 4, 5: no ties), l = 2.
    # N(x_0) = {1 (d=1), 2 (d=3)}, N(x_1) = {0 (1), 2 (2)}, N(x_2) = {1 (2), 0 (3)},
    # N(x_3) = {2 (4), 4 (5)}, N(x_4) = {3 (5), 2 (9)}.
    # Y = 2 X has the same neighbour sets and ||y_i - y_j|| = 2 ||x_i - x_j||, so
    # s* = 1/2 makes both residual sums 0: C = T = 1, and N = 10 / (5 * 2) = 1.
    X = np.array([[0.0], [1.0], [3.0], [7.0], [12.0]])
    Y = 2.0 * X
    assert local_continuity(X, Y, 2) == pytest.approx(1.0, abs=1e-15)
    assert local_trust(X, Y, 2) == pytest.approx(1.0, abs=1e-15)
    assert neighborhood_intersection(X, Y, 2) == 1.0
    # also when Y lives in 2-D (the line embedded diagonally, scaled by 3)
    Y2 = np.column_stack([X[:, 0], X[:, 0]]) * 3.0 / np.sqrt(2.0)
    assert embedding_quality(X, Y2, 2) == pytest.approx(dict.fromkeys(KEYS, 1.0), abs=1e-12)


def test_permuted_points_hand_worked():
    # X = 0, 1, 3, 7, 12 (1-D), l = 1; Y = X with the coordinates of points 0 and 4
    # swapped: y = 12, 1, 3, 7, 0.
    # N(x): 0->1, 1->0, 2->1 (d 2 < 3), 3->2 (d 4 < 5), 4->3 (d 5).
    # N(y): 0->3 (|12-7|=5 < 9), 1->4 (|1-0|=1), 2->1 (2 < 3 < 4), 3->2 (4 < 5), 4->1 (1).
    # Shared: i = 2 and i = 3  ->  N = 2 / (5 * 1) = 0.4.
    # Continuity, pairs (i, N(x_i)): b = input  = 1, 1, 2, 4, 5
    #                                a = embedded = 11, 11, 2, 4, 7
    #   <a,b> = 11 + 11 + 4 + 16 + 35 = 77, <a,a> = 121+121+4+16+49 = 311,
    #   <b,b> = 1 + 1 + 4 + 16 + 25 = 47, C = 77^2 / (311 * 47) = 5929 / 14617.
    # Trust, pairs (i, N(y_i)): b = embedded = 5, 1, 2, 4, 1
    #                           a = input    = 7, 11, 2, 4, 11
    #   <a,b> = 35 + 11 + 4 + 16 + 11 = 77, <a,a> = 49+121+4+16+121 = 311,
    #   <b,b> = 25 + 1 + 4 + 16 + 1 = 47, T = 5929 / 14617 as well.
    X = np.array([[0.0], [1.0], [3.0], [7.0], [12.0]])
    Y = X[[4, 1, 2, 3, 0]]
    assert neighborhood_intersection(X, Y, 1) == 0.4
    assert local_continuity(X, Y, 1) == pytest.approx(5929 / 14617, rel=1e-12)
    assert local_trust(X, Y, 1) == pytest.approx(5929 / 14617, rel=1e-12)


def test_small_case_with_continuity_not_one_and_trust_different():
    # X = 0, 1, 3, 7 and Y = 0, 1, 6, 4 (both 1-D), l = 1.
    # N(x): 0->1 (1), 1->0 (1 < 2), 2->1 (2 < 3 < 4), 3->2 (4).
    # N(y): 0->1 (1), 1->0 (1 < 3), 2->3 (|6-4|=2 < 5), 3->2 (2 < 3).
    # Continuity: b = |x_i-x_j| = 1, 1, 2, 4;  a = |y_i-y_j| = 1, 1, 5, 2
    #   <a,b> = 1+1+10+8 = 20, <a,a> = 1+1+25+4 = 31, <b,b> = 1+1+4+16 = 22
    #   s* = 20/31, min = 22 - 400/31 = 282/31, C = 1 - (282/31)/22 = 400/682 = 200/341.
    # Trust: b = |y_i-y_j| = 1, 1, 2, 2;  a = |x_i-x_j| = 1, 1, 4, 4
    #   <a,b> = 1+1+8+8 = 18, <a,a> = 1+1+16+16 = 34, <b,b> = 1+1+4+4 = 10
    #   T = 18^2 / (34 * 10) = 324/340 = 81/85.
    # Intersection: rows 0, 1, 3 agree -> N = 3/4.
    X = np.array([[0.0], [1.0], [3.0], [7.0]])
    Y = np.array([[0.0], [1.0], [6.0], [4.0]])
    assert local_continuity(X, Y, 1) == pytest.approx(200 / 341, rel=1e-12)
    assert local_trust(X, Y, 1) == pytest.approx(81 / 85, rel=1e-12)
    assert neighborhood_intersection(X, Y, 1) == 0.75
    assert embedding_quality(X, Y, 1) == pytest.approx(
        {"local_continuity": 200 / 341, "local_trust": 81 / 85, "neighborhood_intersection": 0.75},
        rel=1e-12,
    )


def test_three_points_2d_embedding_hand_worked():
    # X = 0, 1, 3 (1-D), Y = (0,0), (1,0), (1,1.5), l = 1.
    # N(x): 0->1, 1->0 (1 < 2), 2->1 (2 < 3).
    # Embedded distances on these pairs: 1, 1, 1.5; input: 1, 1, 2.
    # <a,b> = 1 + 1 + 3 = 5, <a,a> = 1 + 1 + 2.25 = 4.25, <b,b> = 6
    # C = 25 / (4.25 * 6) = 25 / 25.5 = 50/51.
    # N(y): 0->1 (1 < 1.803), 1->0 (1 < 1.5), 2->1 (1.5 < 1.803): same pairs, T = 50/51, N = 1.
    X = np.array([[0.0], [1.0], [3.0]])
    Y = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.5]])
    assert local_continuity(X, Y, 1) == pytest.approx(50 / 51, rel=1e-12)
    assert local_trust(X, Y, 1) == pytest.approx(50 / 51, rel=1e-12)
    assert neighborhood_intersection(X, Y, 1) == 1.0


def test_collapsed_embedding_degenerate_case():
    # All y_i equal: every embedded distance is 0, so (3.27)'s objective is the
    # constant <b,b> (minimum at s = 0) and C = 1 - <b,b>/<b,b> = 0.
    X, _ = _random_data(5, 30)
    Y = np.zeros((30, 2))
    assert local_continuity(X, Y, 4) == 0.0
    # ... while trust's denominator (embedded distances) is 0: undefined.
    with pytest.raises(ValueError, match=r"distances in Y .* zero .*duplicate"):
        local_trust(X, Y, 4)
    with pytest.raises(ValueError, match=r"duplicate"):
        embedding_quality(X, Y, 4)
    # Symmetrically, X collapsed: continuity undefined, trust = 0.
    _, Y = _random_data(6, 30)
    Xc = np.ones((30, 3))
    with pytest.raises(ValueError, match=r"distances in X .* zero .*duplicate"):
        local_continuity(Xc, Y, 4)
    assert local_trust(Xc, Y, 4) == 0.0


# --------------------------------------------------------------------------- #
# invariances and ranges
# --------------------------------------------------------------------------- #
def test_invariance_to_similarity_transforms_of_Y():
    X, Y = _random_data(7, 150)
    ref = embedding_quality(X, Y, 10)
    theta = 0.7
    R = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    for Y2 in (Y @ R.T, Y + np.array([100.0, -3.5]), 4.2 * Y, 0.03 * (Y @ R.T) + 7.0):
        got = embedding_quality(X, Y2, 10)
        assert got["neighborhood_intersection"] == ref["neighborhood_intersection"]
        np.testing.assert_allclose(got["local_continuity"], ref["local_continuity"], rtol=1e-9)
        np.testing.assert_allclose(got["local_trust"], ref["local_trust"], rtol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_scores_in_unit_interval(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(20, 200))
    X = rng.standard_normal((n, int(rng.integers(1, 8))))
    Y = rng.standard_normal((n, int(rng.integers(1, 4))))  # unrelated embedding
    l = int(rng.integers(1, n))
    res = embedding_quality(X, Y, l)
    for key in KEYS:
        assert 0.0 <= res[key] <= 1.0, (key, res[key])


def test_embedding_quality_agrees_with_single_functions():
    X, Y = _random_data(8, 200)
    res = embedding_quality(X, Y, 15)
    assert list(res) == list(KEYS)
    assert res["local_continuity"] == local_continuity(X, Y, 15)
    assert res["local_trust"] == local_trust(X, Y, 15)
    assert res["neighborhood_intersection"] == neighborhood_intersection(X, Y, 15)
    # default n_neighbors is l = 15 (Table 3.2)
    assert embedding_quality(X, Y) == res


def test_embedding_quality_runs_two_neighbor_searches(monkeypatch):
    # harness.metrics re-exports the function embedding_quality, which shadows the
    # submodule of the same name as a package attribute: fetch the module itself.
    eq = importlib.import_module("harness.metrics.embedding_quality")

    calls = []
    original = eq._neighbor_indices

    def counting(Z, l):
        calls.append(Z.shape)
        return original(Z, l)

    monkeypatch.setattr(eq, "_neighbor_indices", counting)
    X, Y = _random_data(9, 50)
    eq.embedding_quality(X, Y, 5)
    assert calls == [(50, 5), (50, 2)]


def test_accepts_lists_and_float32_and_numpy_int_n_neighbors():
    X, Y = _random_data(10, 40)
    ref = embedding_quality(X, Y, 6)
    got = embedding_quality(X.tolist(), Y.tolist(), np.int64(6))
    assert got == ref
    got32 = embedding_quality(X.astype(np.float32), Y.astype(np.float32), 6)
    for key in KEYS:
        assert 0.0 <= got32[key] <= 1.0


# --------------------------------------------------------------------------- #
# input validation
# --------------------------------------------------------------------------- #
_FUNCS = [local_continuity, local_trust, neighborhood_intersection, embedding_quality]


@pytest.mark.parametrize("func", _FUNCS)
def test_nan_in_X_rejected(func):
    X, Y = _random_data(12, 20)
    X[3, 1] = np.nan
    X[7, 0] = np.nan
    with pytest.raises(ValueError, match=r"^X contains non-finite values \(2 NaN, 0 inf\) in 2 of its 20 rows"):
        func(X, Y, 3)


@pytest.mark.parametrize("func", _FUNCS)
def test_inf_in_Y_rejected(func):
    X, Y = _random_data(13, 20)
    Y[5, :] = np.inf
    with pytest.raises(ValueError, match=r"^Y contains non-finite values \(0 NaN, 2 inf\) in 1 of its 20 rows"):
        func(X, Y, 3)


@pytest.mark.parametrize("func", _FUNCS)
@pytest.mark.parametrize("bad", [20, 25])
def test_n_neighbors_too_large_rejected(func, bad):
    X, Y = _random_data(14, 20)
    with pytest.raises(ValueError, match=rf"n_neighbors={bad} with n_samples=20"):
        func(X, Y, bad)


@pytest.mark.parametrize("func", _FUNCS)
@pytest.mark.parametrize("bad", [0, -1])
def test_n_neighbors_too_small_rejected(func, bad):
    X, Y = _random_data(15, 20)
    with pytest.raises(ValueError, match=rf"1 <= n_neighbors < n_samples, got n_neighbors={bad}"):
        func(X, Y, bad)


@pytest.mark.parametrize("bad", [2.0, 2.5, "3", None, True])
def test_n_neighbors_not_integer_rejected(bad):
    X, Y = _random_data(16, 20)
    with pytest.raises(ValueError, match=r"n_neighbors must be an integer"):
        embedding_quality(X, Y, bad)


@pytest.mark.parametrize("func", _FUNCS)
def test_single_sample_rejected(func):
    with pytest.raises(ValueError, match=r"at least 2 samples.*n_samples=1"):
        func(np.zeros((1, 3)), np.zeros((1, 2)), 1)


@pytest.mark.parametrize("func", _FUNCS)
def test_mismatched_rows_rejected(func):
    X, _ = _random_data(17, 20)
    Y = np.zeros((19, 2))
    with pytest.raises(ValueError, match=r"same number of rows.*X of shape \(20, 5\) and Y of shape \(19, 2\)"):
        func(X, Y, 3)


def test_not_2d_rejected():
    X, Y = _random_data(18, 20)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array.*shape \(20,\)"):
        embedding_quality(X[:, 0], Y, 3)
    with pytest.raises(ValueError, match=r"^Y must be a 2-D array.*shape \(1, 20, 2\)"):
        embedding_quality(X, Y[None], 3)
    with pytest.raises(ValueError, match=r"^Y has shape \(20, 0\): it has no features"):
        embedding_quality(X, Y[:, :0], 3)


def test_sparse_rejected():
    import scipy.sparse as sp

    X, Y = _random_data(19, 20)
    with pytest.raises(ValueError, match=r"^X is a sparse matrix"):
        embedding_quality(sp.csr_matrix(X), Y, 3)


# --------------------------------------------------------------------------- #
# memory: no n x n matrix
# --------------------------------------------------------------------------- #
def test_no_quadratic_allocation():
    # An n x n float64 matrix at n = 60000 would need 60000**2 * 8 B = 28.8 GB;
    # the row-wise implementation needs O(n l (d + 1)) memory (tens of MB).
    rng = np.random.default_rng(20)
    n = 60_000
    X = rng.standard_normal((n, 3))
    Y = X[:, :2] + 0.1 * rng.standard_normal((n, 2))
    tracemalloc.start()
    try:
        res = embedding_quality(X, Y, 15)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 1024**2, f"peak traced allocation {peak / 1e6:.1f} MB"
    for key in KEYS:
        assert 0.0 < res[key] <= 1.0


# --------------------------------------------------------------------------- #
# the input's neighbours computed once (input_neighbors)
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("d", [5, 300])  # a k-d tree, scikit-learn's brute force
def test_precomputed_input_neighbors_give_identical_scores(d):
    """Scores of several embeddings of one X with X's side computed once equal, exactly,
    those of calls that search X themselves; X's side is read-only."""
    from harness.metrics import input_neighbors

    rng = np.random.default_rng(12)
    X = rng.standard_normal((90, d))
    Y = X[:, :4] @ rng.standard_normal((4, 4)) + 0.2 * rng.standard_normal((90, 4))
    inputs = input_neighbors(X, 8)
    assert inputs.indices.shape == inputs.distances.shape == (90, 8)
    assert not inputs.indices.flags.writeable and not inputs.distances.flags.writeable
    for r in range(1, 5):
        Yr = Y[:, :r]
        assert embedding_quality(X, Yr, 8, input_neighbors=inputs) == embedding_quality(X, Yr, 8)
        assert local_continuity(X, Yr, 8, inputs) == local_continuity(X, Yr, 8)
        assert neighborhood_intersection(X, Yr, 8, inputs) == neighborhood_intersection(X, Yr, 8)
    # the distances are the input distances to the neighbours (naive check)
    i, j = 17, inputs.indices[17, 3]
    assert inputs.distances[17, 3] == pytest.approx(np.linalg.norm(X[i] - X[j]), rel=1e-12)


def test_precomputed_input_neighbors_skip_the_input_search(monkeypatch):
    eq = importlib.import_module("harness.metrics.embedding_quality")
    X, Y = _random_data(13, 50)
    inputs = eq.input_neighbors(X, 5)
    calls = []
    original = eq._neighbor_indices
    monkeypatch.setattr(eq, "_neighbor_indices", lambda Z, l: calls.append(Z.shape) or original(Z, l))
    eq.embedding_quality(X, Y, 5, input_neighbors=inputs)
    eq.local_continuity(X, Y, 5, input_neighbors=inputs)
    assert calls == [(50, 2)]  # Y only, and continuity searches nothing


def test_input_neighbors_that_do_not_fit_are_refused():
    from harness.metrics import input_neighbors

    X, Y = _random_data(14, 40)
    inputs = input_neighbors(X, 5)
    with pytest.raises(ValueError, match=r"n_neighbors=5, but X has shape \(40, 5\) and "
                                         r"n_neighbors=6; compute it with input_neighbors\(X, 6\)"):
        embedding_quality(X, Y, 6, input_neighbors=inputs)
    with pytest.raises(ValueError, match=r"computed for 40 points .* X has shape \(30, 5\)"):
        local_continuity(X[:30], Y[:30], 5, input_neighbors=inputs)
    with pytest.raises(ValueError, match="computed from another X of the same shape"):
        neighborhood_intersection(2.0 * X, Y, 5, input_neighbors=inputs)
    with pytest.raises(ValueError, match="must be the result of input_neighbors.*got ndarray"):
        embedding_quality(X, Y, 5, input_neighbors=inputs.indices)
    with pytest.raises(ValueError, match="n_neighbors must satisfy"):
        input_neighbors(X, 40)
