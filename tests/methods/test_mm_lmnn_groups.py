"""MM-LMNN with metrics per group (k-means clusters or given groups) instead of per
class (thesis 2.1.8, Fig. 2.10): the loss, candidate search and gradient with the
reference point's group choosing the metric (2.17), the fit, the LOO / kNN rules
against naive loops, labels-as-groups equal to the default bit for bit, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import load_iris

import harness.methods.shared.lmnn_impostors as imp
from harness.methods.shared.mm_lmnn_core import (
    ClassMaps,
    class_maps,
    mm_candidate_pairs,
    mm_loss_over_all_triples,
    mm_target_sq_distances,
    mm_triplet_pass,
)
from harness.methods.mm_lmnn import MMLMNN
from tests.methods.naive_lmnn import naive_mm_knn_predict, naive_mm_loss, naive_targets
from tests.methods.test_mm_lmnn import blobs, random_maps

MU = 0.5


def cut_groups(seed, n, n_groups=4):
    """Groups that cut across the classes (random, every group non-empty)."""
    rng = np.random.default_rng(seed)
    return rng.permutation(np.arange(n) % n_groups).astype(np.intp)


def all_pairs(y):
    a, b = np.nonzero(y[:, None] != y[None, :])
    return a.astype(np.intp), b.astype(np.intp)


@pytest.mark.parametrize("seed", [0, 1])
def test_group_loss_matches_triple_loops(seed):
    X, y = blobs(seed)
    g = cut_groups(seed, len(y))
    T = naive_targets(X, y, 3)
    Ls = random_maps(seed, n_classes=4)
    loss, active = naive_mm_loss(X, y, Ls, T, MU, groups=g)
    exact = mm_loss_over_all_triples(class_maps(X, Ls), y, T, MU, groups=g)
    assert exact.loss == pytest.approx(loss, rel=1e-12)
    assert exact.n_active == active and active > 0
    # the candidate search loses nothing, and the compact layout of a ClassMaps handle
    # (rows of each metric read by the pairs, targets in other groups included) gives
    # the same value and gradient as the full array
    full = mm_triplet_pass(class_maps(X, Ls), g, T, *all_pairs(y), MU)
    assert full.loss == pytest.approx(loss, rel=1e-12) and full.n_active == active
    pairs = mm_candidate_pairs(class_maps(X, Ls), y, T, 0.0, groups=g)
    compact = mm_triplet_pass(ClassMaps(X, Ls), g, T, *pairs, MU)
    assert compact.index.offsets[-1] < 4 * len(X)  # not every row of every metric
    assert compact.loss == pytest.approx(loss, rel=1e-12)
    np.testing.assert_allclose(compact.grad_L(None, X), full.grad_L(class_maps(X, Ls), X),
                               rtol=1e-12, atol=1e-12)
    # the groups matter: the loss with the labels as groups differs
    assert abs(mm_loss_over_all_triples(class_maps(X, random_maps(seed)), y, T, MU).loss
               - loss) > 1e-6


def test_group_candidate_search_matches_brute_force(monkeypatch):
    X, y = blobs(4, n=41, n_classes=3)
    g = cut_groups(4, len(y), n_groups=4)
    T = naive_targets(X, y, 2)
    Ls = random_maps(4, n_classes=4, r=4)
    Z = class_maps(X, Ls)
    monkeypatch.setattr(imp, "TILE", 5)
    slack = 0.7
    a, b = mm_candidate_pairs(Z, y, T, slack, groups=g)
    D = ((Z[:, :, None] - Z[:, None]) ** 2).sum(-1)
    A = D[g[None, :], np.arange(len(y))[:, None], np.arange(len(y))[None, :]]  # metric of b
    radius = mm_target_sq_distances(Z, g, T).max(axis=1) + 1 + slack
    ea, eb = np.nonzero((A <= radius[:, None]) & (y[:, None] != y[None, :]))
    np.testing.assert_array_equal(a, ea)
    np.testing.assert_array_equal(b, eb)
    assert 0 < len(a) < (y[:, None] != y[None, :]).sum()


def test_group_gradient_matches_central_differences():
    X, y = blobs(3)
    g = cut_groups(3, len(y), n_groups=3)
    T = naive_targets(X, y, 2)
    a, b = all_pairs(y)
    Ls = random_maps(3, r=4)
    h = 1e-6

    def loss(Ls):
        return mm_triplet_pass(class_maps(X, Ls), g, T, a, b, MU).loss

    state = mm_triplet_pass(class_maps(X, Ls), g, T, a, b, MU)
    G = state.grad_L(class_maps(X, Ls), X)
    fd = np.zeros_like(Ls)
    for idx in np.ndindex(*Ls.shape):
        E = np.zeros_like(Ls)
        E[idx] = h
        fd[idx] = (loss(Ls + E) - loss(Ls - E)) / (2 * h)
    np.testing.assert_allclose(G, fd, rtol=1e-5, atol=1e-6 * np.abs(G).max())
    assert all(np.abs(G[c]).max() > 0 for c in range(3))


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return X[::2], y[::2]


def test_labels_as_groups_equal_the_class_metrics_bit_for_bit(iris):
    X, y = iris
    default = MMLMNN().fit(X, y)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    for groups in (y, names):  # the labels given as an array, by codes or by names
        given = MMLMNN(groups=groups).fit(X, y)
        np.testing.assert_array_equal(given.components_, default.components_)
        np.testing.assert_array_equal(given.loss_curve_, default.loss_curve_)
        np.testing.assert_array_equal(given.predict_loo(), default.predict_loo())
        np.testing.assert_array_equal(given.predict(X + 0.01), default.predict(X + 0.01))
        assert given.loss_ == default.loss_ and given.n_active_ == default.n_active_
    np.testing.assert_array_equal(default.groups_, y)
    np.testing.assert_array_equal(default.group_ids_, default.classes_)


def test_kmeans_groups_fit(iris):
    X, y = iris
    est = MMLMNN(groups=4, random_state=3).fit(X, y)
    expected = KMeans(n_clusters=4, n_init=10, random_state=3).fit_predict(X)
    np.testing.assert_array_equal(est.groups_, expected)
    assert est.components_.shape == (4, 4, 4)
    np.testing.assert_allclose(est.group_centers_,
                               [X[expected == c].mean(axis=0) for c in range(4)])
    # the loss the fit reports is the naive one with the clusters choosing the metric
    loss, active = naive_mm_loss(X, y, est.components_, est.target_neighbors_, MU,
                                 groups=est.groups_)
    assert est.loss_ == pytest.approx(loss, rel=1e-10) and est.n_active_ == active
    assert est.loss_curve_[0] == pytest.approx(est.single_metric_.loss_, rel=1e-12)
    assert np.all(np.diff(est.loss_curve_) <= 0) and est.loss_ < est.single_metric_.loss_
    # deterministic for a seed
    again = MMLMNN(groups=4, random_state=3).fit(X, y)
    np.testing.assert_array_equal(again.components_, est.components_)


@pytest.mark.parametrize("k", [1, 3])
def test_group_knn_and_loo_match_naive_loops(k):
    X, y = blobs(6, n=36, spread=1.2)
    Xq = blobs(7, n=12, spread=1.2)[0]
    est = MMLMNN(n_neighbors=2, groups=3, random_state=0).fit(X, y)
    g, Ls = est.groups_, est.components_
    assert np.abs(Ls[0] - Ls[1]).max() > 1e-3 and len(np.unique(g)) == 3
    assert any(len(np.unique(y[g == c])) > 1 for c in range(3))  # clusters mix classes
    np.testing.assert_array_equal(est.predict_loo(n_neighbors=k),
                                  naive_mm_knn_predict(X, y, X, Ls, k, exclude_self=True,
                                                       groups=g))
    if k == est.n_neighbors:
        np.testing.assert_array_equal(est.predict(Xq),
                                      naive_mm_knn_predict(X, y, Xq, Ls, k, groups=g))


def test_bad_groups(iris):
    X, y = iris
    with pytest.raises(ValueError, match="groups='clusters' must be 'labels', a number"):
        MMLMNN(groups="clusters").fit(X, y)
    with pytest.raises(ValueError, match=r"groups=0 clusters must lie in \[1, n_samples=75\]"):
        MMLMNN(groups=0).fit(X, y)
    with pytest.raises(ValueError, match=r"groups has shape \(10,\); give one group per "
                                         r"training point, shape \(75,\)"):
        MMLMNN(groups=np.zeros(10)).fit(X, y)
    est = MMLMNN(groups=2, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="energy rule .* needs one metric per class"):
        est.predict_energy(X)
