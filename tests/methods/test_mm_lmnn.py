"""MM-LMNN, one metric per class (thesis 2.1.8): loss, gradient, candidate search, the
fit from the single-metric solution, predictions with the asymmetric distance (2.17),
the concentric-circles example, and bad input."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning

import harness.methods.shared.lmnn_impostors as imp
from harness.metrics.knn_error import knn_loo_error
from harness.methods.shared.lmnn_core import loss_over_all_triples, triplet_pass
from harness.methods.shared.mm_lmnn_core import (
    class_maps,
    mm_candidate_pairs,
    mm_loss_over_all_triples,
    mm_target_sq_distances,
    mm_triplet_pass,
)
from harness.methods.lmnn import LMNN
from harness.methods.mm_lmnn import MMLMNN
from tests.methods.naive_lmnn import (
    naive_mm_energies,
    naive_mm_knn_predict,
    naive_mm_loss,
    naive_targets,
)

MU = 0.5


def blobs(seed, n=30, d=4, n_classes=3, spread=0.9):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    return rng.normal(size=(n, d)) + spread * y[:, None], y


def random_maps(seed, n_classes=3, r=3, d=4, scale=0.8):
    return np.random.default_rng(seed).normal(size=(n_classes, r, d)) * scale


def all_pairs(y):
    a, b = np.nonzero(y[:, None] != y[None, :])
    return a.astype(np.intp), b.astype(np.intp)


def mm_hinges(X, y, Ls, T):
    """Every hinge argument 1 + D(i, j) - D(i, l) of the loss, by dense arrays."""
    Z = class_maps(X, Ls)
    D = ((Z[:, :, None] - Z[:, None]) ** 2).sum(-1)  # D[c, a, b]
    A = D[y[None, :].repeat(len(y), 0), np.arange(len(y))[:, None], np.arange(len(y))[None]]
    dt = np.take_along_axis(A, T, 1)  # A[a, b] = D^(y_b)(a, b)
    H = 1 + dt[:, :, None] - A[:, None, :]
    return H[np.broadcast_to((y[:, None] != y[None, :])[:, None, :], H.shape)]


# --------------------------------------------------------------------------- #
# loss, active count, candidates, gradient
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_loss_and_active_count_match_triple_loops(seed):
    X, y = blobs(seed)
    T = naive_targets(X, y, 3)
    Ls = random_maps(seed)
    loss, active = naive_mm_loss(X, y, Ls, T, MU)
    exact = mm_loss_over_all_triples(class_maps(X, Ls), y, T, MU)
    assert exact.loss == pytest.approx(loss, rel=1e-12)
    assert exact.n_active == active and 0 < active < len(mm_hinges(X, y, Ls, T))
    # the candidate search loses nothing: the same value over every (i, l) pair
    full = mm_triplet_pass(class_maps(X, Ls), y, T, *all_pairs(y), MU)
    assert full.loss == pytest.approx(loss, rel=1e-12) and full.n_active == active


def test_candidate_search_matches_brute_force(monkeypatch):
    X, y = blobs(4, n=41, n_classes=4)
    T = naive_targets(X, y, 2)
    Ls = random_maps(4, n_classes=4, r=4)
    Z = class_maps(X, Ls)
    monkeypatch.setattr(imp, "TILE", 5)  # many tiles per class pair
    slack = 0.7
    a, b = mm_candidate_pairs(Z, y, T, slack)
    D = ((Z[:, :, None] - Z[:, None]) ** 2).sum(-1)
    A = D[y[None, :], np.arange(len(y))[:, None], np.arange(len(y))[None, :]]  # metric of b
    radius = mm_target_sq_distances(Z, y, T).max(axis=1) + 1 + slack
    ea, eb = np.nonzero((A <= radius[:, None]) & (y[:, None] != y[None, :]))
    np.testing.assert_array_equal(a, ea)
    np.testing.assert_array_equal(b, eb)
    assert 0 < len(a) < (y[:, None] != y[None, :]).sum()


def test_gradient_matches_central_differences():
    X, y = blobs(3)
    T = naive_targets(X, y, 2)
    a, b = all_pairs(y)
    Ls = random_maps(3, r=4)
    h = 1e-6
    # away from kinks: no hinge argument within 1e-3 of 0, far above the step's effect
    assert np.abs(mm_hinges(X, y, Ls, T)).min() > 1e-3

    def loss(Ls):
        return mm_triplet_pass(class_maps(X, Ls), y, T, a, b, MU).loss

    state = mm_triplet_pass(class_maps(X, Ls), y, T, a, b, MU)
    G = state.grad_L(class_maps(X, Ls), X)
    assert G.shape == Ls.shape
    fd = np.zeros_like(Ls)
    for idx in np.ndindex(*Ls.shape):
        E = np.zeros_like(Ls)
        E[idx] = h
        fd[idx] = (loss(Ls + E) - loss(Ls - E)) / (2 * h)
    np.testing.assert_allclose(G, fd, rtol=1e-6, atol=1e-6 * np.abs(G).max())
    # dE/dL_c = 2 L_c dE/dM^c
    np.testing.assert_allclose(G, 2 * Ls @ state.grad_M(X), rtol=1e-10, atol=1e-10)
    assert all(np.abs(G[c]).max() > 0 for c in range(3))


def test_equal_metrics_give_the_single_lmnn_loss_and_gradient():
    X, y = blobs(5)
    T = naive_targets(X, y, 3)
    L = np.random.default_rng(5).normal(size=(3, 4)) * 0.8
    Ls = np.repeat(L[None], 3, axis=0)
    single = loss_over_all_triples(X @ L.T, y, T, MU)
    multi = mm_loss_over_all_triples(class_maps(X, Ls), y, T, MU)
    assert multi.loss == pytest.approx(single.loss, rel=1e-12)
    assert multi.n_active == single.n_active
    # moving all maps together is moving the single map: the gradients sum to its one
    a, b = all_pairs(y)
    g1 = triplet_pass(X @ L.T, T, a, b, MU).grad_L(X @ L.T, X)
    gm = mm_triplet_pass(class_maps(X, Ls), y, T, a, b, MU).grad_L(class_maps(X, Ls), X)
    np.testing.assert_allclose(gm.sum(axis=0), g1, rtol=1e-10, atol=1e-10)


# --------------------------------------------------------------------------- #
# the fit
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def iris_fit(iris):
    return MMLMNN().fit(*iris)


def test_fitted_attributes(iris_fit, iris):
    X, y = iris
    est = iris_fit
    assert est.components_.shape == (3, 4, 4)
    np.testing.assert_array_equal(est.classes_, [0, 1, 2])
    assert est.target_neighbors_.shape == (150, 3) and est.n_features_in_ == 4
    assert isinstance(est.single_metric_, LMNN) and est.single_metric_.components_.shape == (4, 4)
    np.testing.assert_array_equal(est.target_neighbors_, est.single_metric_.target_neighbors_)
    assert est.n_iter_ >= 1 and est.converged_
    assert not hasattr(est, "transform")  # no single map
    loss, active = naive_mm_loss(X, y, est.components_, est.target_neighbors_, MU)
    assert est.loss_ == pytest.approx(loss, rel=1e-10) and est.n_active_ == active


def test_fit_starts_from_the_single_metric_and_decreases(iris_fit):
    est = iris_fit
    # the first point of the curve is the MM loss with every L_c = the single L, i.e.
    # the single-metric loss (2.11) at the single-metric solution
    assert est.loss_curve_[0] == pytest.approx(est.single_metric_.loss_, rel=1e-12)
    assert np.all(np.diff(est.loss_curve_) <= 0)
    assert est.loss_curve_[-1] == pytest.approx(est.loss_, rel=1e-10)
    # a real decrease (iris: 226.8 -> 184.8), and the maps differ from each other
    assert est.loss_ < 0.9 * est.single_metric_.loss_
    assert np.abs(est.components_[0] - est.components_[1]).max() > 0.1


def test_rectangular_maps_and_string_labels(iris):
    X, y = iris
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    est = MMLMNN(n_components=2).fit(X[::2], names[::2])
    assert est.components_.shape == (3, 2, 4)
    assert est.loss_ <= est.single_metric_.loss_
    pred = est.predict(X[1::2])
    assert pred.dtype.kind == "U" and np.mean(pred == names[1::2]) > 0.9


def test_convergence_warning(iris):
    X, y = iris
    with pytest.warns(ConvergenceWarning, match="stopped at max_iter=1 "):
        MMLMNN(max_iter=1).fit(X[::3], y[::3])


# --------------------------------------------------------------------------- #
# predictions with the asymmetric distance (2.17)
# --------------------------------------------------------------------------- #
def test_predictions_match_naive_rules():
    X, y = blobs(6, n=36, spread=1.2)
    Xq = blobs(7, n=12, spread=1.2)[0]
    est = MMLMNN(n_neighbors=3).fit(X, y)
    Ls, T = est.components_, est.target_neighbors_
    assert np.abs(Ls[0] - Ls[1]).max() > 1e-3  # really different metrics
    np.testing.assert_array_equal(est.predict(Xq), naive_mm_knn_predict(X, y, Xq, Ls, 3))
    np.testing.assert_array_equal(est.predict_loo(),
                                  naive_mm_knn_predict(X, y, X, Ls, 3, exclude_self=True))
    E = naive_mm_energies(X, y, Xq, Ls, 3, MU, T)
    np.testing.assert_allclose(est.energies(Xq), E, rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(est.predict_energy(Xq), E.argmin(axis=1))


def test_equal_metrics_predict_like_lmnn(iris_fit, iris):
    X, _ = iris
    est = copy.deepcopy(iris_fit)
    single = est.single_metric_
    est.components_ = np.repeat(single.components_[None], 3, axis=0)
    rng = np.random.default_rng(0)
    Xq = X[::3] + rng.normal(scale=0.05, size=X[::3].shape)  # no equidistant neighbours
    np.testing.assert_array_equal(est.predict(Xq), single.predict(Xq))
    np.testing.assert_array_equal(est.predict_energy(Xq), single.predict_energy(Xq))
    # leave-one-out on iris' training set, whose duplicates tie: compare where the
    # 4th-nearest distance is not tied with the 3rd
    Z = X @ single.components_.T
    D = np.sort(((Z[:, None] - Z[None]) ** 2).sum(-1), axis=1)[:, 1:5]
    clear = D[:, 3] - D[:, 2] > 1e-9
    assert clear.mean() > 0.8
    np.testing.assert_array_equal(est.predict_loo()[clear], single.predict_loo()[clear])


# --------------------------------------------------------------------------- #
# concentric circles (thesis 2.1.8, Figure 2.10)
# --------------------------------------------------------------------------- #
def rings(n_inner, n_outer, r_inner=1.0, r_outer=1.25, jitter=0.01, seed=0):
    """Two concentric rings, evenly spaced at a random phase, a little noise."""
    rng = np.random.default_rng(seed)
    a = np.linspace(0, 2 * np.pi, n_inner, endpoint=False) + rng.uniform(0, 2 * np.pi)
    b = np.linspace(0, 2 * np.pi, n_outer, endpoint=False) + rng.uniform(0, 2 * np.pi)
    X = np.vstack([r_inner * np.c_[np.cos(a), np.sin(a)], r_outer * np.c_[np.cos(b), np.sin(b)]])
    X += jitter * rng.normal(size=X.shape)
    return X, np.r_[np.zeros(n_inner, int), np.ones(n_outer, int)]


@pytest.mark.parametrize("seed", [0, 1])
def test_concentric_circles_class_metrics_beat_one_metric(seed):
    # Inner ring: 50 points on radius 1 (spacing 0.13); outer ring: 25 points on
    # radius 1.25 (spacing 0.31), 0.25 apart. Every outer point's nearest neighbour is
    # on the inner ring, so Euclidean 1-NN misses the whole outer class (1/3); no
    # linear map fixes that (it would have to shrink all directions of the outer
    # ring's spacing relative to the radial gap). One metric per class does: shrinking
    # the outer class' metric by a factor in (0.13/0.25, 0.25/0.31) makes each
    # point's nearest neighbour its own ring's.
    X, y = rings(50, 25, seed=seed)
    assert knn_loo_error(X, y, 1) > 0.3
    est = MMLMNN(n_neighbors=1).fit(X, y)
    single_err = np.mean(est.single_metric_.predict_loo() != y)
    mm_err = np.mean(est.predict_loo() != y)
    assert single_err > 0.3 and mm_err < 0.03
    s = [np.linalg.svd(L, compute_uv=False) for L in est.components_]
    assert s[1].max() < 0.85 * s[0].min()  # the outer class' metric shrank


def test_equally_dense_circles_need_clusters_not_classes():
    # The thesis' Figure 2.10 rings (100 % leave-one-out error, every nearest
    # neighbour across the gap) are fixed in the thesis by k-means *clusters*. With one
    # metric per *class* the outer point at angle a needs |L_1 v| s < |L_0 u| g and the
    # inner one |L_0 v| s < |L_1 u| g (u radial, v tangential, s spacing > g gap);
    # taking a and a + 90 degrees and multiplying gives s < g: impossible.
    X, y = rings(40, 40, r_outer=1.05, jitter=0.0)
    assert knn_loo_error(X, y, 1) == 1.0
    assert np.mean(MMLMNN(n_neighbors=1).fit(X, y).predict_loo() != y) > 0.9


# --------------------------------------------------------------------------- #
# bad input
# --------------------------------------------------------------------------- #
def test_bad_input():
    X, y = blobs(0)
    with pytest.raises(ValueError, match="single class 'a'; a classifier needs"):
        MMLMNN().fit(X, np.array(["a"] * len(X)))
    Xn = X.copy()
    Xn[4, 1] = np.nan
    with pytest.raises(ValueError, match=r"NaN or infinity in 1 of 30 rows \(first: row 4\)"):
        MMLMNN().fit(Xn, y)
    with pytest.raises(ValueError, match=r"class 0 has 10 members.*lower n_neighbors below 10"):
        MMLMNN(n_neighbors=10).fit(X, y)
    with pytest.raises(ValueError, match=r"n_neighbors=30 must be an integer with 1 <= n_neighbors"):
        MMLMNN(n_neighbors=30).fit(X, y)
    with pytest.raises(ValueError, match=r"mu=1.5 must lie in \[0, 1\]"):
        MMLMNN(mu=1.5).fit(X, y)
    with pytest.raises(ValueError, match="n_components=5 must satisfy"):
        MMLMNN(n_components=5).fit(X, y)
    est = MMLMNN().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but MMLMNN is expecting 4"):
        est.predict(X[:, :3])


def test_a_loss_that_reaches_zero_stops_once_below_tol():
    """With one metric per class and few points per class in many dimensions the
    MM-LMNN loss can reach 0 (each class metric collapses its class). The stopping
    rule measures a run's decrease relative to max(|loss|, 1) (one hinge margin), so
    the fit stops once the loss is below ``tol`` instead of chasing it to 1e-30 in
    one-iteration runs (measured here: 12 iterations and 6 runs, against 69 and 63
    with the plain relative change)."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 30)), np.repeat(np.arange(8), 5)
    fit = MMLMNN(n_neighbors=2, max_iter=1000, tol=1e-4).fit(X, y)
    assert fit.converged_ and fit.loss_ < 1e-4
    assert fit.n_iter_ <= 20 and len(fit.loss_curve_) <= 10
    assert fit.loss_curve_[0] > 1.0  # the single-metric start is far from 0
