"""Dual PCA (lecture 3) equals PCA: the embedding, the basis, the variances, the
encoding of new points and the reconstruction, for d > n and d < n."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import PCA as SkPCA

from harness.plugin import Dataset
from harness.tasks.embedding import run_embedding
from harness.methods.dual_pca import DualPCA
from harness.methods.pca import PCA


def assert_equal_up_to_column_signs(A, B, atol):
    assert A.shape == B.shape
    for j in range(A.shape[1]):
        sign = 1.0 if np.dot(A[:, j], B[:, j]) >= 0 else -1.0
        np.testing.assert_allclose(A[:, j], sign * B[:, j], rtol=0, atol=atol)


def data(n, d, seed):
    """Random data with a decaying spectrum (distinct, well separated variances)."""
    rng = np.random.default_rng(seed)
    scales = 1.0 / np.arange(1, d + 1) ** 0.7
    return rng.standard_normal((n, d)) * scales + 3.0  # an offset: the mean matters


SHAPES = {"d_gt_n": (30, 200), "d_lt_n": (200, 10), "d_eq_teapot_ratio": (40, 2303)}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_equals_pca_up_to_sign(shape):
    n, d = SHAPES[shape]
    X = data(n, d, seed=1)
    X_new = data(7, d, seed=2)
    r = 5
    dual = DualPCA(n_components=r).fit(X)
    pca = PCA(n_components=r).fit(X)
    scale = np.abs(pca.embedding_).max()
    assert_equal_up_to_column_signs(dual.embedding_, pca.embedding_, atol=1e-9 * scale)
    assert_equal_up_to_column_signs(dual.components_.T, pca.components_.T, atol=1e-9)
    np.testing.assert_allclose(dual.explained_variance_, pca.explained_variance_, rtol=1e-9)
    np.testing.assert_allclose(dual.mean_, X.mean(axis=0), rtol=1e-12)
    # new points encode alike
    assert_equal_up_to_column_signs(dual.transform(X_new), pca.transform(X_new),
                                    atol=1e-9 * scale)
    # and the training points encode to the embedding (Y = V Sigma = U^T Xc)
    np.testing.assert_allclose(dual.transform(X), dual.embedding_, rtol=0, atol=1e-9 * scale)


def test_signs_follow_scikit_learn_pca():
    X = data(25, 120, seed=3)
    dual = DualPCA(n_components=4).fit(X)
    sk = SkPCA(n_components=4, svd_solver="full").fit(X)
    np.testing.assert_allclose(dual.components_, sk.components_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(dual.embedding_, sk.transform(X), rtol=0, atol=1e-8)
    np.testing.assert_allclose(dual.singular_values_, sk.singular_values_, rtol=1e-10)


def test_basis_is_orthonormal_and_from_the_gram_matrix():
    X = data(20, 300, seed=4)
    dual = DualPCA(n_components=6).fit(X)
    U = dual.components_.T
    np.testing.assert_allclose(U.T @ U, np.eye(6), atol=1e-10)
    # lecture 3: V = top eigenvectors of Xc Xc^T, Sigma their square roots, U = Xc V Sigma^-1
    Xc = X - X.mean(axis=0)
    values, V = np.linalg.eigh(Xc @ Xc.T)
    values, V = values[::-1][:6], V[:, ::-1][:, :6]
    assert_equal_up_to_column_signs(U, Xc.T @ V / np.sqrt(values), atol=1e-9)
    np.testing.assert_allclose(dual.kernel_eigenvalues_[:6], values, rtol=1e-10)


def test_reconstruction_matches_pca():
    X = data(15, 80, seed=5)
    X_new = data(3, 80, seed=6)
    dual = DualPCA(n_components=4).fit(X)
    pca = SkPCA(n_components=4, svd_solver="full").fit(X)
    np.testing.assert_allclose(dual.inverse_transform(dual.transform(X_new)),
                               pca.inverse_transform(pca.transform(X_new)), atol=1e-9)
    # with every component of the centred data (rank n - 1) the training set comes back
    full = DualPCA(n_components=14).fit(X)
    np.testing.assert_allclose(full.inverse_transform(full.embedding_), X, atol=1e-9)
    with pytest.raises(ValueError, match=r"codes of shape \(m, 4\); got shape \(3, 5\)"):
        dual.inverse_transform(np.zeros((3, 5)))


def test_more_components_than_the_rank_are_zero():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((12, 2)) @ rng.standard_normal((2, 50))  # rank 2 (centred: 2)
    dual = DualPCA(n_components=4).fit(X)
    assert np.isfinite(dual.embedding_).all()
    np.testing.assert_array_equal(dual.embedding_[:, 2:], 0.0)
    np.testing.assert_array_equal(dual.components_[2:], 0.0)
    assert dual.explained_variance_[2:].tolist() == [0.0, 0.0]
    pca = PCA(n_components=2).fit(X)
    assert_equal_up_to_column_signs(dual.embedding_[:, :2], pca.embedding_, atol=1e-9)


def test_transform_checks_the_number_of_features():
    dual = DualPCA(n_components=2).fit(data(10, 30, seed=8))
    with pytest.raises(ValueError, match="X has 29 features, but DualPCA is expecting 30"):
        dual.transform(np.zeros((2, 29)))


def test_runs_in_the_embedding_task_like_pca():
    X = data(60, 500, seed=9)
    dataset = Dataset(X=X, y=None, meta={"thesis_name": "random"})
    params = {"method_params": {"n_components": 2}, "eval_neighbors": 5}
    dual = run_embedding(DualPCA, dataset, params, seed=0)
    pca = run_embedding(PCA, dataset, params, seed=0)
    for measure, value in pca["measures"].items():
        assert dual["measures"][measure] == pytest.approx(value, rel=1e-9)
    assert dual["info"]["explained_variance"] == pytest.approx(
        pca["info"]["explained_variance"], rel=1e-9)
