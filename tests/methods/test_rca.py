"""RCA (thesis 2.2.1, eqs. 2.23-2.24): chunklets, the within-chunklet covariance and
the map against a naive implementation and metric-learn's RCA; bad parameters.
(The scikit-learn estimator checks run over every plugin in test_sklearn_conventions.)"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from sklearn.datasets import load_wine

from harness.methods.shared.peer import import_peer, peer_call
from harness.methods.rca_knn import RCAKNN, make_chunklets, rca_map, within_chunklet_covariance


def naive_rca(X, chunks, r):
    """Loops over chunklets and points; PCA by the eigenvectors of (2.21);
    C_w_hat^{-1/2} by scipy's matrix square root."""
    n, d = X.shape
    mu = X.mean(axis=0)
    C = sum(np.outer(x - mu, x - mu) for x in X) / n
    values, vectors = np.linalg.eigh(C)
    A_pca = vectors[:, ::-1][:, :r].T
    Cw, count = np.zeros((d, d)), 0
    for label in set(chunks) - {-1}:
        members = X[chunks == label]
        for x in members:
            Cw += np.outer(x - members.mean(axis=0), x - members.mean(axis=0))
            count += 1
    C_hat = A_pca @ (Cw / count) @ A_pca.T
    return np.linalg.inv(np.real(scipy.linalg.sqrtm(C_hat))) @ A_pca


def _assert_same_metric(A, B):
    """A = S B with S a diagonal of signs (each principal direction's sign is
    arbitrary): the same Mahalanobis matrix A^T A and rows equal up to sign."""
    assert np.allclose(A.T @ A, B.T @ B, atol=1e-9 * np.abs(B.T @ B).max())
    signs = np.sign(np.sum(A * B, axis=1))
    assert np.allclose(A, signs[:, None] * B, atol=1e-8 * np.abs(B).max())


def _gaussian_classes(n=120, d=5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    mix = rng.normal(size=(d, d))
    X = rng.normal(size=(n, d)) @ mix + 3.0 * y[:, None] * rng.normal(size=d)
    return X, y


def test_chunklets_are_pure_sized_and_seeded():
    y = np.repeat([0, 1], [500, 500])
    chunks = make_chunklets(y, 0.1, 10, random_state=3)
    ids = chunks[chunks >= 0]
    assert len(ids) == 100 and len(np.unique(ids)) == 10
    assert (np.bincount(ids) == 10).all()
    for c in np.unique(ids):
        assert len(np.unique(y[chunks == c])) == 1  # a chunklet lies in one class
    assert np.array_equal(chunks, make_chunklets(y, 0.1, 10, random_state=3))
    assert not np.array_equal(chunks, make_chunklets(y, 0.1, 10, random_state=4))
    # uneven: 13 points of a class in chunklets of at most 10 -> 7 + 6, no singleton
    odd = make_chunklets(np.repeat([0, 1], [13, 2]), 1.0, 10, random_state=0)
    assert sorted(np.bincount(odd[odd >= 0])) == [2, 6, 7]
    # defaults: every point, one chunklet per class
    assert np.array_equal(make_chunklets(np.array([2, 0, 2, 0, 1, 1])), [2, 0, 2, 0, 1, 1])
    # a class that gives a single point has no chunklet
    assert (make_chunklets(np.repeat([0, 1], [20, 5]), 0.2, 2, 0)[20:] == -1).all()


def test_within_chunklet_covariance_is_eq_2_23():
    X = np.array([[0.0, 0.0], [2.0, 0.0], [5.0, 1.0], [5.0, 3.0], [9.0, 9.0]])
    chunks = np.array([0, 0, 1, 1, -1])
    # deviations (-1, 0), (1, 0), (0, -1), (0, 1) over the 4 points in chunklets
    assert np.allclose(within_chunklet_covariance(X, chunks), 0.5 * np.eye(2))
    with pytest.raises(ValueError, match="no point is in a chunklet"):
        within_chunklet_covariance(X, -np.ones(5, dtype=int))


@pytest.mark.parametrize("fraction, size", [(1.0, None), (0.5, 4)])
def test_rca_matches_naive_and_whitens_the_chunklets(fraction, size):
    X, y = _gaussian_classes()
    chunks = make_chunklets(y, fraction, size, random_state=1)
    A, A_pca, w = rca_map(X, chunks)
    assert A.shape == (5, 5)
    _assert_same_metric(A, naive_rca(X, chunks, 5))
    # eq. 2.24's point: after RCA the within-chunklet covariance is the identity
    assert np.allclose(np.linalg.eigvalsh(within_chunklet_covariance(X @ A.T, chunks)), 1.0)
    assert np.allclose(w, np.linalg.eigvalsh(A_pca @ within_chunklet_covariance(X, chunks)
                                             @ A_pca.T))
    # the PCA step truncates: 3 components
    A3, _, _ = rca_map(X, chunks, n_components=3)
    _assert_same_metric(A3, naive_rca(X, chunks, 3))


def test_plugin_defaults_whiten_the_within_class_covariance():
    X, y = _gaussian_classes(seed=2)
    est = RCAKNN(n_neighbors=3).fit(X, y)
    assert (est.chunklets_ == y).all()  # each class one chunklet
    Cw = within_chunklet_covariance(est.transform(X), y)
    assert np.allclose(np.linalg.eigvalsh(Cw), 1.0)


def test_same_metric_as_metric_learn_rca():
    module, why = import_peer("metric_learn", "metric-learn")
    if module is None:
        pytest.skip(why)
    X, y = load_wine(return_X_y=True)
    ours = RCAKNN().fit(X, y)
    with peer_call("metric_learn"):
        theirs = module.RCA().fit(X, ours.chunklets_)
    M_ours = ours.components_.T @ ours.components_
    M_theirs = theirs.components_.T @ theirs.components_
    assert np.allclose(M_ours, M_theirs, atol=1e-9 * np.abs(M_theirs).max())


def test_degenerate_directions_are_dropped_and_singular_cw_is_an_error():
    X, y = _gaussian_classes(n=60, d=3, seed=4)
    X = np.hstack([X, np.zeros((60, 1))])  # a constant feature: no variance at all
    assert RCAKNN().fit(X, y).components_.shape == (3, 4)
    # a feature constant within each class but not across: C_w_hat is singular
    X[:, 3] = y
    with pytest.raises(ValueError, match="within-chunklet covariance .* is singular.*"
                                         "regularization > 0"):
        RCAKNN().fit(X, y)
    est = RCAKNN(regularization=0.1).fit(X, y)
    assert est.within_eigenvalues_.min() == pytest.approx(
        0.1 * est.within_eigenvalues_.sum() / (1.1 * 4), rel=1e-6)  # trace grew by 1.1


@pytest.mark.parametrize("params, match", [
    ({"n_components": 0}, "n_components=0 must be None"),
    ({"n_components": 1.5}, "n_components=1.5 must be None"),
    ({"chunklet_fraction": 0.0}, r"chunklet_fraction=0.0 must lie in \(0, 1\]"),
    ({"chunklet_size": 1}, "chunklet_size=1 must be at least 2"),
    ({"chunklet_size": 2.5}, "chunklet_size=2.5 must be a positive integer"),
    ({"regularization": -1.0}, "regularization=-1.0 must be a finite real >= 0"),
])
def test_bad_parameters_name_the_value(params, match):
    X, y = _gaussian_classes(n=30, d=2)
    with pytest.raises(ValueError, match=match):
        RCAKNN(**params).fit(X, y)
