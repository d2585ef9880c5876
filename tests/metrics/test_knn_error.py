"""k-NN errors with the thesis' tie rule (sec. 2.1.6) and LMNN's target neighbours."""

from __future__ import annotations

import numpy as np
import pytest

import harness.metrics.knn_error as knn
from harness.metrics.knn_error import (
    knn_loo_error,
    knn_loo_predict,
    knn_predict,
    knn_test_error,
    same_class_neighbors,
    vote_with_ties,
)
from tests.methods.naive_lmnn import naive_knn_predict, naive_targets


def col(*values):
    return np.array(values, dtype=float)[:, None]


# --------------------------------------------------------------------------- #
# the tie rule on hand-made ties
# --------------------------------------------------------------------------- #
def test_three_classes_one_vote_each_falls_back_to_1nn():
    Xtr, ytr = col(0.0, 1.1, 2.3), np.array(["a", "b", "c"])
    # k=3: one vote each; k=2: a tie of the two nearest; k=1 decides
    pred = knn_predict(Xtr, ytr, col(0.1, 1.0, 2.2, 1.8), n_neighbors=3)
    assert pred.tolist() == ["a", "b", "c", "c"]


def test_k2_tie_goes_to_the_nearest():
    Xtr, ytr = col(0.0, 1.0, 5.0), np.array([7, 9, 7])
    assert knn_predict(Xtr, ytr, col(0.4, 0.6), n_neighbors=2).tolist() == [7, 9]


def test_k4_two_two_tie_shrinks_to_k3_majority():
    Xtr, ytr = col(0.0, 1.0, 2.0, 3.0), np.array([0, 1, 0, 1])
    # at -0.1 the order is 0(a) 1(b) 2(a) 3(b): 2-2 at k=4, 2-1 for class 0 at k=3
    assert knn_predict(Xtr, ytr, col(-0.1), n_neighbors=4).tolist() == [0]
    # at 3.1 the order is 3(b) 2(a) 1(b) 0(a): class 1 at k=3
    assert knn_predict(Xtr, ytr, col(3.1), n_neighbors=4).tolist() == [1]


def test_vote_with_ties_direct():
    codes = np.array([[0, 1, 2], [1, 1, 0], [2, 0, 0], [0, 1, 1]])
    # rows: all tie -> 1-NN; clear majority; clear majority; k=3 majority for 1
    assert vote_with_ties(codes, 3).tolist() == [0, 1, 0, 1]
    codes = np.array([[0, 1, 1, 0], [2, 0, 0, 2]])  # 2-2 ties, then k=3 decides
    assert vote_with_ties(codes, 3).tolist() == [1, 0]


@pytest.mark.parametrize("k", [1, 2, 3, 4, 6])
def test_predict_matches_naive_loops(k):
    rng = np.random.default_rng(k)
    Xtr, Xte = rng.normal(size=(60, 3)), rng.normal(size=(25, 3))
    ytr = rng.integers(0, 4, size=60)
    np.testing.assert_array_equal(knn_predict(Xtr, ytr, Xte, k), naive_knn_predict(Xtr, ytr, Xte, k))


@pytest.mark.parametrize("k", [1, 3, 5])
def test_loo_error_matches_naive_loops(k):
    rng = np.random.default_rng(10 + k)
    X, y = rng.normal(size=(50, 2)), rng.integers(0, 3, size=50)
    loo = naive_knn_predict(X, y, X, k, exclude_self=True)
    np.testing.assert_array_equal(knn_loo_predict(X, y, k), loo)
    expected = np.mean(loo != y)
    assert knn_loo_error(X, y, k) == pytest.approx(expected, abs=0)
    assert 0.0 < expected < 1.0  # random labels: a real error, not a trivial 0


def test_blocked_queries_give_the_same_answer(monkeypatch):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), rng.integers(0, 3, size=40)
    full = (knn_loo_error(X, y, 3), knn_predict(X[:30], y[:30], X[30:], 3))
    monkeypatch.setattr(knn, "BLOCK_ROWS", 7)
    assert knn_loo_error(X, y, 3) == full[0]
    np.testing.assert_array_equal(knn_predict(X[:30], y[:30], X[30:], 3), full[1])


# --------------------------------------------------------------------------- #
# leave-one-out and test errors: values, duplicates, transforms, labels
# --------------------------------------------------------------------------- #
def test_loo_hand_made_value_and_duplicates_count():
    X = col(0.0, 0.1, 0.2, 5.0, 5.1, 5.2, 0.15)
    y = np.array(["a", "a", "a", "b", "b", "b", "b"])
    # only the lone "b" at 0.15 is misclassified (its 3 nearest others are "a")
    assert knn_loo_error(X, y, 3) == pytest.approx(1 / 7)
    # an exact duplicate with another label is a neighbour at distance 0: not excluded
    Xd, yd = col(0.0, 0.0, 5.0, 5.5), np.array([0, 1, 1, 1])
    assert knn_loo_error(Xd, yd, 1) == pytest.approx(2 / 4)  # points 0 and 1 see each other


def test_test_error_value_and_string_labels():
    Xtr, ytr = col(0.0, 0.1, 1.0, 1.1), np.array(["x", "x", "y", "y"])
    Xte, yte = col(0.05, 1.05, 0.9), np.array(["x", "y", "x"])
    assert knn_test_error(Xtr, ytr, Xte, yte, 1) == pytest.approx(1 / 3)
    assert knn_predict(Xtr, ytr, Xte, 1).dtype.kind == "U"


def test_transform_matrix_and_callable_agree_with_pretransformed():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 4)), rng.integers(0, 3, size=40)
    L = rng.normal(size=(2, 4))
    ref = knn_loo_error(X @ L.T, y, 3)
    assert knn_loo_error(X, y, 3, transform=L) == ref
    assert knn_loo_error(X, y, 3, transform=lambda A: A @ L.T) == ref
    # a metric that keeps only the informative coordinate changes the error
    Xi = np.column_stack([y + 0.1 * rng.normal(size=40), 30 * rng.normal(size=40)])
    assert knn_loo_error(Xi, y, 3, transform=np.array([[1.0, 0.0]])) == 0.0
    assert knn_loo_error(Xi, y, 3) > 0.3


@pytest.mark.parametrize("bad_k", [0, 5, 2.5, True])
def test_bad_k(bad_k):
    X, y = col(0, 1, 2, 3, 4), np.array([0, 0, 1, 1, 1])
    with pytest.raises(ValueError, match="n_neighbors"):
        knn_loo_error(X, y, bad_k)


def test_wrong_transform_shape_and_label_count():
    X, y = col(0, 1, 2), np.array([0, 1, 1])
    with pytest.raises(ValueError, match=r"shape \(n_components, 1\)"):
        knn_loo_error(X, y, 1, transform=np.eye(2))
    with pytest.raises(ValueError, match="2 labels"):
        knn_loo_error(X, y[:2], 1)


# --------------------------------------------------------------------------- #
# target neighbours
# --------------------------------------------------------------------------- #
def test_same_class_neighbors_match_naive():
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(45, 3)), rng.integers(0, 3, size=45)
    np.testing.assert_array_equal(same_class_neighbors(X, y, 3), naive_targets(X, y, 3))


def test_same_class_neighbors_small_class_names_class_and_fix():
    X = col(0, 1, 2, 3, 4, 5)
    codes = np.array([0, 0, 0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"class 'rare' has 2 member\(s\).*lower n_neighbors below 2"):
        same_class_neighbors(X, codes, 2, classes=np.array(["common", "rare"]))
