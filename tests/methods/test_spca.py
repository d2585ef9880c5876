"""Supervised PCA and kernel supervised PCA (Barshan et al. 2011; lectures 9-10):
against eigen-decompositions written here, PCA for L = I, SPCA for the linear
kernel, HSIC as the objective, and the classification task."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from sklearn.decomposition import PCA as SkPCA

from harness import registry
from harness.config import load_config
from harness.metrics.hsic import hsic_biased
from harness.plugin import Dataset
from harness.tasks.classification import run_classification
from harness.methods.shared.spca import label_factor, spca_map
from harness.methods.kspca_knn import MAX_SAMPLES, KernelSPCAKNN, median_distance
from harness.methods.pca_knn import PCAKNN
from harness.methods.spca_knn import SPCAKNN


def assert_equal_up_to_column_signs(A, B, atol):
    assert A.shape == B.shape
    for j in range(A.shape[1]):
        sign = 1.0 if np.dot(A[:, j], B[:, j]) >= 0 else -1.0
        np.testing.assert_allclose(A[:, j], sign * B[:, j], rtol=0, atol=atol)


def centring(n):
    return np.eye(n) - np.ones((n, n)) / n


def delta(y):
    return (y[:, None] == y[None, :]).astype(float)


@pytest.fixture(scope="module")
def labelled():
    """Four classes of 40 points in 6-D whose means differ only in the first two
    coordinates (6 apart, spread 0.7) while the last three carry class-free noise (spread
    6): PCA's leading directions miss the classes, SPCA's find them. 120 training and
    40 new points."""
    rng = np.random.default_rng(5)
    y = np.repeat(np.arange(4), 40)
    rng.shuffle(y)
    centres = np.array([[0, 0], [6, 0], [0, 6], [6, 6]], dtype=float)
    X = rng.standard_normal((160, 6)) * [0.7, 0.7, 1.0, 6.0, 6.0, 6.0]
    X[:, :2] += centres[y]
    X += 10.0  # an offset: the centring matters
    return X[:120], y[:120], X[120:], y[120:]


# --------------------------------------------------------------------------- #
# SPCA
# --------------------------------------------------------------------------- #
def test_spca_is_the_top_eigenvectors_of_x_h_l_h_x(labelled):
    X, y, _, _ = labelled
    n = len(X)
    H = centring(n)
    Q = X.T @ H @ delta(y) @ H @ X  # lecture 10: Q = X H B H X^T (transposed)
    values, vectors = np.linalg.eigh(Q)
    values, vectors = values[::-1], vectors[:, ::-1]
    est = SPCAKNN(n_neighbors=3).fit(X, y)
    assert est.components_.shape == (3, 6)  # n_classes - 1 directions by default
    np.testing.assert_allclose(est.eigenvalues_, values[:3], rtol=1e-9)
    assert values[3] < 1e-9 * values[0]  # rank(H L H) = n_classes - 1
    assert_equal_up_to_column_signs(est.components_.T, vectors[:, :3], atol=1e-9)
    np.testing.assert_allclose(est.components_ @ est.components_.T, np.eye(3), atol=1e-12)
    # more directions than the rank: the d x d eigenproblem, orthonormal still
    more = SPCAKNN(n_components=5).fit(X, y)
    np.testing.assert_allclose(more.eigenvalues_, np.clip(values[:5], 0, None), rtol=1e-9,
                               atol=1e-9 * values[0])
    assert_equal_up_to_column_signs(more.components_[:3].T, vectors[:, :3], atol=1e-9)
    np.testing.assert_allclose(more.components_ @ more.components_.T, np.eye(5), atol=1e-12)


def test_identity_label_kernel_is_pca(labelled):
    X, y, X_new, _ = labelled
    for r in (2, 6):
        spca = SPCAKNN(n_components=r, label_kernel="identity").fit(X, y)
        pca = PCAKNN(n_components=r).fit(X, y)
        np.testing.assert_allclose(spca.components_, pca.components_, rtol=0, atol=1e-9)
        sk = SkPCA(n_components=r, svd_solver="full").fit(X)
        np.testing.assert_allclose(spca.eigenvalues_, sk.explained_variance_ * (len(X) - 1),
                                   rtol=1e-9)
        np.testing.assert_array_equal(spca.predict(X_new), pca.predict(X_new))
        np.testing.assert_array_equal(spca.predict_loo(), pca.predict_loo())
    # and by the core function: L = I needs no factor
    components, _ = spca_map(X, label_factor(np.zeros(len(X), int), "identity"), 3)
    np.testing.assert_allclose(components, SkPCA(3, svd_solver="full").fit(X).components_,
                               atol=1e-9)


def test_spca_maximises_hsic_with_the_labels(labelled):
    X, y, _, _ = labelled
    n, L = len(X), delta(y)
    est = SPCAKNN(n_components=2).fit(X, y)

    def objective(U):  # tr(U^T X^T H L H X U) = (n - 1)^2 HSIC_b(XU (XU)^T, L)
        Z = X @ U
        return (n - 1) ** 2 * hsic_biased(Z @ Z.T, L)

    best = objective(est.components_.T)
    assert best == pytest.approx(est.eigenvalues_.sum(), rel=1e-9)
    pca = SkPCA(n_components=2).fit(X).components_.T
    assert best > 1.5 * objective(pca)
    rng = np.random.default_rng(0)
    for _ in range(20):
        U = np.linalg.qr(rng.standard_normal((6, 2)))[0]
        assert objective(U) <= best * (1 + 1e-12)


def test_spca_beats_pca_on_the_anisotropic_classes(labelled):
    X, y, X_new, y_new = labelled
    spca = SPCAKNN().fit(X, y).predict(X_new)
    pca = PCAKNN(n_components=3).fit(X, y).predict(X_new)
    assert np.mean(spca != y_new) < np.mean(pca != y_new)


# --------------------------------------------------------------------------- #
# kernel SPCA
# --------------------------------------------------------------------------- #
def test_kernel_spca_is_the_generalised_eigenproblem(labelled):
    X, y, X_new, _ = labelled
    n, sigma, reg = len(X), 3.0, 1e-6
    est = KernelSPCAKNN(sigma=sigma, regularization=reg).fit(X, y)
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    K = np.exp(-D2 / (2 * sigma**2))
    H = centring(n)
    eps = reg * np.trace(K) / n
    values, beta = scipy.linalg.eigh(K @ H @ delta(y) @ H @ K, K + eps * np.eye(n))
    values, beta = values[::-1][:3], beta[:, ::-1][:, :3]
    assert est.regularization_eps_ == pytest.approx(eps, rel=1e-12)
    np.testing.assert_allclose(est.eigenvalues_, values, rtol=1e-7)
    assert_equal_up_to_column_signs(est.dual_coef_, beta, atol=1e-6 * np.abs(beta).max())
    B = est.dual_coef_
    np.testing.assert_allclose(B.T @ (K + eps * np.eye(n)) @ B, np.eye(3), atol=1e-8)
    # projections: z = beta^T k(X_train, x), training and new points
    np.testing.assert_allclose(est.transform(X), K @ B, rtol=0, atol=1e-10)
    D2_new = ((X_new[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(est.transform(X_new), np.exp(-D2_new / (2 * sigma**2)) @ B,
                               rtol=0, atol=1e-10)


def test_linear_kernel_spca_projects_like_spca(labelled):
    X, y, X_new, _ = labelled
    spca = SPCAKNN().fit(X, y)
    kspca = KernelSPCAKNN(kernel="linear").fit(X, y)
    # U = X^T beta is SPCA's basis (up to sign and the ridge): same projections
    Z, Z_new = spca.transform(X), spca.transform(X_new)
    scale = np.abs(Z).max()
    assert_equal_up_to_column_signs(kspca.transform(X), Z, atol=1e-5 * scale)
    assert_equal_up_to_column_signs(kspca.transform(X_new), Z_new, atol=1e-5 * scale)
    U = X.T @ kspca.dual_coef_
    np.testing.assert_allclose(U.T @ U, np.eye(3), atol=1e-5)
    np.testing.assert_allclose(kspca.eigenvalues_, spca.eigenvalues_, rtol=1e-5)
    np.testing.assert_array_equal(kspca.predict(X_new), spca.predict(X_new))


def test_kernel_spca_polynomial_and_identity_label_kernel(labelled):
    X, y, _, _ = labelled
    Xs = X / np.abs(X).max()
    est = KernelSPCAKNN(kernel="polynomial", degree=2, n_components=4,
                        label_kernel="identity").fit(Xs, y)
    K = (1 + Xs @ Xs.T) ** 2
    n = len(Xs)
    H = centring(n)
    eps = 1e-6 * np.trace(K) / n
    values = scipy.linalg.eigh(K @ H @ K, K + eps * np.eye(n), eigvals_only=True)[::-1][:4]
    np.testing.assert_allclose(est.eigenvalues_, values, rtol=1e-7)
    assert np.isnan(est.sigma_)


def test_median_distance_and_default_width(labelled):
    X, y, _, _ = labelled
    d = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    naive = np.median(d[np.triu_indices(len(X), 1)])
    assert median_distance(X) == pytest.approx(naive, rel=1e-9)
    assert KernelSPCAKNN().fit(X, y).sigma_ == median_distance(X)


@pytest.mark.parametrize(("params", "message"), [
    ({"kernel": "rbf"}, r"kernel='rbf' must be one of \('gaussian', 'linear', 'polynomial'\)"),
    ({"sigma": 0.0}, r"sigma=0.0 must be a positive number or 'median'"),
    ({"sigma": "auto"}, r"sigma='auto' must be a positive number or 'median'"),
    ({"degree": 0}, r"degree=0 must be a positive integer"),
    ({"regularization": 0.0}, r"regularization=0.0 must be a positive number"),
    ({"label_kernel": "rbf"}, r"label_kernel='rbf' must be one of \('delta', 'identity'\)"),
    ({"n_components": 121}, r"n_components=121 must be None or an integer with 1 <= "
                            r"n_components <= 120"),
])
def test_kernel_spca_bad_parameters(labelled, params, message):
    X, y, _, _ = labelled
    with pytest.raises(ValueError, match=message):
        KernelSPCAKNN(**params).fit(X, y)


def test_spca_bad_parameters(labelled):
    X, y, _, _ = labelled
    with pytest.raises(ValueError, match=r"n_components=7 must be None or an integer with 1 "
                                         r"<= n_components <= 6 \(SPCA's directions"):
        SPCAKNN(n_components=7).fit(X, y)
    with pytest.raises(ValueError, match=r"label_kernel='x' must be one of"):
        SPCAKNN(label_kernel="x").fit(X, y)
    with pytest.raises(ValueError, match="all identical"):
        KernelSPCAKNN(n_neighbors=1).fit(np.ones((6, 2)), [0, 0, 0, 1, 1, 1])


def test_kernel_spca_skips_large_data_sets():
    small = Dataset(X=np.zeros((MAX_SAMPLES, 1)), y=None, meta={})
    large = Dataset(X=np.zeros((MAX_SAMPLES + 1, 1)), y=None, meta={})
    assert KernelSPCAKNN.skip(small, None) == (False, "")
    skip, why = KernelSPCAKNN.skip(large, None)
    assert skip and f"{MAX_SAMPLES + 1} points" in why and "MAX_SAMPLES" in why
    assert SPCAKNN.skip(large, None) == (False, "")


# --------------------------------------------------------------------------- #
# in the harness
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("cls", [SPCAKNN, KernelSPCAKNN])
def test_runs_in_the_classification_task(cls, labelled):
    X, y, X_new, y_new = labelled
    dataset = Dataset(X=np.vstack([X, X_new]), y=np.concatenate([y, y_new]),
                      meta={"thesis_name": "blobs"})
    params = {"method_params": {"n_neighbors": 3}, "train_fraction": 0.7}
    result = run_classification(cls, dataset, params, seed=0)
    measures = result["measures"]
    assert {"train_knn_loo_error", "test_knn_error", "test_energy_error"} <= set(measures)
    assert 0 <= measures["test_knn_error"] <= 100


def test_registered_as_classifiers_in_both_lmnn_tables(repo_root, monkeypatch):
    found = registry.methods("classification")
    assert found["spca_knn"] is SPCAKNN and found["kspca_knn"] is KernelSPCAKNN
    monkeypatch.chdir(repo_root)
    config = load_config("config/quick.yaml")
    for table in ("table_2_1", "table_2_1_peers"):
        methods = config["results"][table]["methods"]
        assert {"spca_knn", "kspca_knn"} <= set(methods), (table, methods)
