"""PCA-LMNN, LDA-LMNN and MUL-LMNN (Table 2.1 rows, thesis 2.1.6 and 2.1.8): each is
LMNN trained in a pre-processed space, with the product map as its metric."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_wine

from harness.metrics.knn_error import knn_predict, same_class_neighbors
from harness.methods.shared.lmnn_core import loss_over_all_triples
from harness.methods.lda_knn import lda_map
from harness.methods.lda_lmnn import LDALMNN
from harness.methods.lmnn import LMNN
from harness.methods.mul_lmnn import MULLMNN
from harness.methods.pca_knn import pca_map
from harness.methods.pca_lmnn import PCALMNN


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(X))
    X = (X - X.mean(0)) / X.std(0)  # standardised: LMNN's PCA start is then sensible
    return X[idx[:120]], y[idx[:120]], X[idx[120:]], y[idx[120:]]


def test_pca_lmnn_with_every_component_is_lmnn(wine):
    X, y, Xt, _ = wine
    ours, plain = PCALMNN().fit(X, y), LMNN().fit(X, y)
    # PCA with every component is a rotation: the same problem, the same loss
    assert ours.loss_ == pytest.approx(plain.loss_, rel=2e-3)
    np.testing.assert_array_equal(ours.target_neighbors_, plain.target_neighbors_)
    agree = np.mean(ours.predict(Xt) == plain.predict(Xt))
    assert agree >= 0.95


def test_pca_lmnn_map_is_the_product_and_trains_in_the_pca_space(wine):
    X, y, Xt, _ = wine
    est = PCALMNN(n_components=5).fit(X, y)
    P = pca_map(X, 5)[0]
    np.testing.assert_allclose(est.preprocessing_, P)
    np.testing.assert_allclose(est.components_, est.lmnn_.components_ @ P, rtol=1e-12)
    assert est.components_.shape == (5, X.shape[1])
    # target neighbours: Euclidean in the PCA space, not in the input
    np.testing.assert_array_equal(est.target_neighbors_,
                                  same_class_neighbors(X @ P.T, y, 3))
    # loss_ and n_active_ are the exact values of (2.11) at the final map
    exact = loss_over_all_triples(X @ est.components_.T, y, est.target_neighbors_, 0.5)
    assert est.loss_ == pytest.approx(float(exact.loss), rel=1e-10)
    assert est.n_active_ == int(exact.n_active)
    np.testing.assert_array_equal(est.predict(Xt),
                                  knn_predict(X, y, Xt, 3, est.components_))


def test_lda_lmnn_learns_in_the_lda_space(wine):
    X, y, Xt, yt = wine
    est = LDALMNN().fit(X, y)
    P = lda_map(X, y)
    assert P.shape == (2, X.shape[1])  # n_classes - 1
    np.testing.assert_allclose(est.preprocessing_, P)
    np.testing.assert_allclose(est.components_, est.lmnn_.components_ @ P, rtol=1e-12)
    assert np.mean(est.predict(Xt) != yt) < 0.1  # wine is nearly separable after LDA


def test_mul_lmnn_one_round_is_pca_lmnn(wine):
    X, y, Xt, _ = wine
    one, pca = MULLMNN(n_rounds=1).fit(X, y), PCALMNN().fit(X, y)
    np.testing.assert_array_equal(one.components_, pca.components_)
    np.testing.assert_array_equal(one.predict_energy(Xt), pca.predict_energy(Xt))


def test_mul_lmnn_rounds_reassign_target_neighbours_under_the_learned_metric(wine):
    X, y, _, _ = wine
    two = MULLMNN(n_rounds=2).fit(X, y)
    first = PCALMNN().fit(X, y)
    # round 2's targets: Euclidean neighbours after round 1's map (thesis 2.1.8)
    np.testing.assert_array_equal(two.target_neighbors_,
                                  same_class_neighbors(X @ first.components_.T, y, 3))
    assert len(two.loss_per_round_) == 2
    assert two.loss_per_round_[0] == pytest.approx(first.loss_, rel=1e-12)
    assert two.n_iter_ == first.n_iter_ + two.lmnn_.n_iter_
    np.testing.assert_allclose(two.components_,
                               two.lmnn_.components_ @ first.components_, rtol=1e-10)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_mul_lmnn_rejects_bad_rounds(bad, wine):
    X, y, _, _ = wine
    with pytest.raises(ValueError, match=rf"n_rounds={bad!r} must be a positive integer"):
        MULLMNN(n_rounds=bad).fit(X, y)


def test_mul_lmnn_chooses_its_rounds_on_a_validation_split(wine):
    """Issue 51 defect 4: the thesis chose MUL-LMNN's number of runs on a validation
    split; by default so does ours: the rounds with the lowest held-out kNN error
    (ties: fewer), recomputed here by hand, then refitted on all the training data."""
    from sklearn.model_selection import train_test_split

    from harness.metrics.knn_error import knn_predict

    X, y, _, _ = wine
    est = MULLMNN(max_rounds=3, random_state=0).fit(X, y)
    codes = np.searchsorted(np.unique(y), y)
    inner, held = train_test_split(np.arange(len(y)), test_size=0.3, stratify=codes,
                                   random_state=0)
    errors = []
    for r in (1, 2, 3):
        L = MULLMNN(n_rounds=r).fit(X[inner], y[inner]).components_
        errors.append(100 * np.mean(knn_predict(X[inner] @ L.T, y[inner], X[held] @ L.T, 3)
                                    != y[held]))
    np.testing.assert_allclose(est.validation_errors_, errors)
    assert est.n_rounds_ == 1 + int(np.argmin(errors))
    fixed = MULLMNN(n_rounds=est.n_rounds_).fit(X, y)
    np.testing.assert_allclose(est.components_, fixed.components_, rtol=1e-10)
    assert len(est.loss_per_round_) == est.n_rounds_
    with pytest.raises(ValueError, match="max_rounds=0 must be a positive integer"):
        MULLMNN(max_rounds=0).fit(X, y)
