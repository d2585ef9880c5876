"""The two exact impostor searches (blocked float32 GEMM screen, ball trees, thesis
2.1.9) return identical output, also with ties; LMNN fits the same L with either."""

from __future__ import annotations

import numpy as np
import pytest

import harness.methods.shared.lmnn_impostors as imp
from harness.methods.lmnn import LMNN
from harness.methods.mm_lmnn import MMLMNN
from tests.methods.test_lmnn import blobs


def tied_problem(seed, n=60, r=3, n_classes=3):
    """Integer coordinates (many equal distances), a third of the points duplicated
    (zero distances, some across classes), integer radii (points exactly on the
    radius) and a few anchors with radius -inf (no pairs, as MM-LMNN passes)."""
    rng = np.random.default_rng(seed)
    Z = rng.integers(-3, 4, size=(n, r)).astype(float)
    Z = np.vstack([Z, Z[: n // 3]])
    codes = rng.integers(0, n_classes, size=len(Z))
    radius = rng.integers(0, 9, size=len(Z)).astype(float)
    radius[::11] = -np.inf
    return Z, codes, radius


def brute_force(Z, codes, radius):
    D = ((Z[:, None] - Z[None]) ** 2).sum(-1)
    a, b = np.nonzero((D <= radius[:, None]) & (codes[:, None] != codes[None, :]))
    return a, b, D[a, b]


@pytest.mark.parametrize("seed", range(6))
def test_searches_identical_with_ties(seed, monkeypatch):
    Z, codes, radius = tied_problem(seed, r=1 + seed % 4)
    monkeypatch.setattr(imp, "TILE", 7)  # several tiles per class pair
    monkeypatch.setattr(imp, "LEAF_SIZE", 2)  # deep trees: many pruning decisions
    blocked = imp.impostor_pairs(Z, codes, radius, method="blocked")
    tree = imp.impostor_pairs(Z, codes, radius, method="tree")
    for x, t in zip(blocked, tree):
        np.testing.assert_array_equal(x, t)  # same pairs, same order, same distances
        assert x.dtype == t.dtype
    a, b, d = brute_force(Z, codes, radius)
    np.testing.assert_array_equal(tree[0], a)
    np.testing.assert_array_equal(tree[1], b)
    np.testing.assert_array_equal(tree[2], d)  # integer data: exact in float64
    on_radius = d == radius[a]
    assert on_radius.any() and (d == 0).any()  # the ties are really exercised


def test_tree_search_keeps_pairs_on_the_radius_of_real_valued_data():
    """Radii set to exact distances of real-valued (not integer) points: pairs on the
    radius are kept by both searches despite the rounding of the tree's distances."""
    rng = np.random.default_rng(3)
    Z = rng.normal(size=(80, 5)) * 1e3 + 5e3  # large offset: centring matters
    codes = np.arange(80) % 4
    D = ((Z[:, None] - Z[None]) ** 2).sum(-1)
    other = np.where(codes[:, None] != codes[None, :], D, np.inf)
    # the 4th nearest impostor exactly on the radius (measured as both searches do)
    radius = imp.pair_sq_distances(Z, np.arange(80), np.argsort(other, axis=1)[:, 3])
    blocked = imp.impostor_pairs(Z, codes, radius, method="blocked")
    tree = imp.impostor_pairs(Z, codes, radius, method="tree")
    for x, t in zip(blocked, tree):
        np.testing.assert_array_equal(x, t)
    assert len(tree[0]) >= 4 * 80


def test_auto_rule_and_bad_method():
    r, n = imp.AUTO_TREE_MAX_DIM, imp.AUTO_TREE_MIN_N
    assert imp.resolve_search("auto", n, r) == "tree"
    assert imp.resolve_search("auto", n, r + 1) == "blocked"
    assert imp.resolve_search("auto", n - 1, r) == "blocked"
    assert imp.resolve_search("blocked", n, 1) == "blocked"
    with pytest.raises(ValueError, match="'kdtree' is not one of"):
        imp.impostor_pairs(np.zeros((4, 2)), np.array([0, 0, 1, 1]), np.ones(4), "kdtree")
    X, y = blobs(0)
    with pytest.raises(ValueError, match="impostor search method='ball'"):
        LMNN(impostor_search="ball").fit(X, y)


@pytest.mark.parametrize("solver", ["lbfgs", "reference"])
def test_lmnn_fits_identically_with_both_searches(solver):
    X, y = blobs(1, n=45, d=4, spread=0.7)
    fits = [LMNN(solver=solver, max_iter=60, impostor_search=s).fit(X, y)
            for s in ("blocked", "tree")]
    np.testing.assert_array_equal(fits[0].components_, fits[1].components_)
    assert fits[0].loss_ == fits[1].loss_ and fits[0].n_iter_ == fits[1].n_iter_
    assert fits[0].n_active_ > 0  # impostors were really searched


@pytest.mark.parametrize("groups", ["labels", 2])
def test_mm_lmnn_fits_identically_with_both_searches(groups):
    X, y = blobs(2, n=36, d=3, spread=0.7)
    fits = [MMLMNN(max_iter=30, groups=groups, impostor_search=s, random_state=0).fit(X, y)
            for s in ("blocked", "tree")]
    np.testing.assert_array_equal(fits[0].components_, fits[1].components_)
    assert fits[0].n_active_ > 0
