"""Spectral clustering (Ng, Jordan & Weiss 2002; statwiki STAT 841 F14 lectures 7-8):
our NJW plugin against scikit-learn's SpectralClustering and the truth on
well-separated data, its embedding step against a naive reference written here from
the paper's steps, and clear errors for bad input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score, confusion_matrix

from harness.datasets.cluster_shapes import Blobs, Circles, TwoMoons
from harness.datasets.digits import Digits
from harness import registry
from harness.methods.sklearn_spectral_clustering import SklearnSpectralClustering
from harness.methods.spectral_clustering import (NJWSpectralClustering, affinity_matrix,
                                         njw_embedding, normalized_affinity)

PLUGINS = (NJWSpectralClustering, SklearnSpectralClustering)


def same_partition(a, b) -> bool:
    """Equal up to renaming the clusters: every row and column of the contingency table
    has exactly one non-zero entry."""
    table = confusion_matrix(a, b)
    return bool(((table > 0).sum(axis=0) == 1).all() and ((table > 0).sum(axis=1) == 1).all())


# --------------------------------------------------------------------------- #
# well-separated data: ours == scikit-learn's == the truth, up to relabelling
# --------------------------------------------------------------------------- #
CASES = [
    ("two_moons", TwoMoons, {}, "rbf", {"gamma": 20.0}),
    ("two_moons", TwoMoons, {"seed": 3}, "rbf", {"gamma": 50.0}),
    ("two_moons", TwoMoons, {}, "nearest_neighbors", {"n_neighbors": 10}),
    ("circles", Circles, {}, "rbf", {"gamma": 50.0}),
    ("circles", Circles, {"seed": 5}, "rbf", {"gamma": 20.0}),
    ("circles", Circles, {}, "nearest_neighbors", {"n_neighbors": 10}),
    ("blobs", Blobs, {}, "rbf", {"gamma": 1.0}),
    ("blobs", Blobs, {"centers": 5, "n_features": 3, "seed": 1}, "rbf", {"gamma": 1.0}),
    ("blobs", Blobs, {}, "nearest_neighbors", {"n_neighbors": 10}),
]


@pytest.mark.parametrize(("data", "cls", "load", "affinity", "params"), CASES,
                         ids=[f"{c[0]}-{c[1]().load(**c[2]).meta['params']['seed']}-{c[3]}"
                              f"-{list(c[4].values())[0]:g}" for c in CASES])
def test_ours_equals_sklearn_and_the_truth(data, cls, load, affinity, params):
    ds = cls().load(**load)
    k = len(np.unique(ds.y))
    ours = NJWSpectralClustering(n_clusters=k, affinity=affinity, random_state=0,
                                 **params).fit_predict(ds.X)
    peer = SklearnSpectralClustering(n_clusters=k, affinity=affinity, random_state=0,
                                     **params).fit_predict(ds.X)
    assert adjusted_rand_score(ours, peer) == 1.0
    assert adjusted_rand_score(ds.y, ours) == 1.0
    assert same_partition(ours, peer) and same_partition(ds.y, ours)
    assert set(ours) == set(range(k))


def test_kmeans_on_the_inputs_fails_where_spectral_clustering_succeeds():
    # the point of the method (NJW Fig. 1): the moons are not linearly separable
    ds = TwoMoons().load()
    km = KMeans(n_clusters=2, n_init=10, random_state=0).fit_predict(ds.X)
    assert adjusted_rand_score(ds.y, km) < 0.5


# --------------------------------------------------------------------------- #
# the embedding step against a naive reference
# --------------------------------------------------------------------------- #
def naive_njw_embedding(X, k, affinity="rbf", gamma=1.0, n_neighbors=10):
    """NJW steps 1-4 written out: loops for A, D and L, a full eigendecomposition."""
    n = len(X)
    A = np.zeros((n, n))
    if affinity == "rbf":
        for i in range(n):
            for j in range(n):
                if i != j:
                    A[i, j] = np.exp(-gamma * np.sum((X[i] - X[j]) ** 2))
    else:
        dist = np.array([[np.sqrt(np.sum((X[i] - X[j]) ** 2)) for j in range(n)]
                         for i in range(n)])
        for i in range(n):
            order = [j for j in np.argsort(dist[i], kind="stable") if j != i][:n_neighbors]
            for j in order:
                A[i, j] = A[j, i] = 1.0
    d = [sum(A[i]) for i in range(n)]
    L = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            L[i, j] = A[i, j] / np.sqrt(d[i] * d[j])
    values, vectors = np.linalg.eigh(L)
    top = vectors[:, ::-1][:, :k]
    Y = np.array([row / np.sqrt(np.sum(row**2)) for row in top])
    return A, Y, values[::-1][:k]


@pytest.mark.parametrize(("affinity", "params", "k"),
                         [("rbf", {"gamma": 0.5}, 3), ("rbf", {"gamma": 3.0}, 2),
                          ("nearest_neighbors", {"n_neighbors": 6}, 3)])
def test_embedding_matches_naive_reference(affinity, params, k):
    # overlapping blobs: a real eigengap but no exact block structure
    X = Blobs().load(n_samples=45, centers=3, radius=1.5, cluster_std=0.8, seed=4).X
    est = NJWSpectralClustering(n_clusters=k, affinity=affinity, random_state=0,
                                **params).fit(X)
    A, Y, values = naive_njw_embedding(X, k, affinity, **{
        "gamma": params.get("gamma", 1.0), "n_neighbors": params.get("n_neighbors", 10)})
    dense_A = est.affinity_matrix_
    if affinity == "nearest_neighbors":  # the k-NN affinity is kept sparse
        assert sp.issparse(dense_A)
        dense_A = dense_A.toarray()
    np.testing.assert_allclose(dense_A, A, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(est.eigenvalues_, values, rtol=1e-10, atol=1e-12)
    # eigenvectors are unique only up to a rotation within the top-k eigenspace (and
    # signs): compare the Gram matrices of the unit rows, which are rotation-invariant
    np.testing.assert_allclose(est.embedding_ @ est.embedding_.T, Y @ Y.T, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(est.embedding_, axis=1), 1.0, rtol=1e-12)
    # step 5: the labels are k-means (same seed) on those rows
    again = KMeans(n_clusters=k, n_init=10, random_state=0).fit(est.embedding_).labels_
    np.testing.assert_array_equal(est.labels_, again)


def test_arpack_and_dense_agree():
    ds = TwoMoons().load(n_samples=400, seed=2)
    dense = NJWSpectralClustering(n_clusters=2, gamma=30.0, eigen_solver="dense",
                                  random_state=0).fit(ds.X)
    arpack = NJWSpectralClustering(n_clusters=2, gamma=30.0, eigen_solver="arpack",
                                   random_state=0).fit(ds.X)
    np.testing.assert_allclose(arpack.eigenvalues_, dense.eigenvalues_, rtol=1e-9)
    assert same_partition(arpack.labels_, dense.labels_)


# --------------------------------------------------------------------------- #
# the sparse k-NN path (ARPACK shift-invert, LOBPCG) against the dense reference
# --------------------------------------------------------------------------- #
#: (blobs, n_neighbors, k, number of graph components): connected (c = 1 < k), as many
#: components as clusters (c = k: the embedding is the component vectors alone), fewer
#: (1 < c < k: exact component vectors plus a solve in their complement)
SPARSE_CASES = [
    ({"n_samples": 120, "centers": 4, "radius": 1.5, "cluster_std": 0.8, "seed": 4}, 6, 4, 1),
    ({"n_samples": 120, "centers": 3, "seed": 1}, 5, 3, 3),
    ({"n_samples": 120, "centers": 3, "seed": 1}, 5, 5, 3),
]


@pytest.mark.parametrize("solver", ["arpack", "lobpcg"])
@pytest.mark.parametrize(("load", "n_neighbors", "k", "components"), SPARSE_CASES,
                         ids=["connected", "c_equals_k", "c_below_k"])
def test_sparse_path_matches_dense_reference(solver, load, n_neighbors, k, components):
    X = Blobs().load(**load).X
    kw = {"n_clusters": k, "affinity": "nearest_neighbors", "n_neighbors": n_neighbors,
          "random_state": 0}
    dense = NJWSpectralClustering(eigen_solver="dense", **kw).fit(X)
    fast = NJWSpectralClustering(eigen_solver=solver, **kw).fit(X)
    assert sp.issparse(fast.affinity_matrix_)
    assert connected_components(fast.affinity_matrix_)[0] == components
    # the eigengap the comparison relies on
    full = np.linalg.eigvalsh(normalized_affinity(dense.affinity_matrix_).toarray())[::-1]
    assert full[k - 1] - full[k] > 1e-3
    np.testing.assert_allclose(fast.eigenvalues_, dense.eigenvalues_, rtol=0, atol=1e-10)
    # the same top-k subspace (unit rows keep it: both are scaled by the same row norms)
    assert scipy.linalg.subspace_angles(fast.embedding_, dense.embedding_).max() < 1e-6
    np.testing.assert_allclose(fast.embedding_ @ fast.embedding_.T,
                               dense.embedding_ @ dense.embedding_.T, atol=1e-8)
    assert adjusted_rand_score(fast.labels_, dense.labels_) == 1.0


def test_sparse_path_matches_dense_reference_on_digits():
    # the lecture table's setting: digits, 10-NN graph (connected), 10 clusters
    X = Digits().load().X
    kw = {"n_clusters": 10, "affinity": "nearest_neighbors", "n_neighbors": 10,
          "random_state": 0}
    dense = NJWSpectralClustering(eigen_solver="dense", **kw).fit(X)
    fast = NJWSpectralClustering(**kw).fit(X)  # auto: ARPACK on the sparse M
    np.testing.assert_allclose(fast.eigenvalues_, dense.eigenvalues_, rtol=0, atol=1e-10)
    assert scipy.linalg.subspace_angles(fast.embedding_, dense.embedding_).max() < 1e-6
    np.testing.assert_array_equal(fast.labels_, dense.labels_)


def test_more_components_than_clusters_falls_back_to_dense():
    # 3 components, 2 clusters: the top-2 eigenspace of the eigenvalue 1 (multiplicity
    # 3) is not unique, so the sparse solvers hand over to the dense reference
    X = Blobs().load(n_samples=120, centers=3, seed=1).X
    kw = {"n_clusters": 2, "affinity": "nearest_neighbors", "n_neighbors": 5,
          "random_state": 0}
    dense = NJWSpectralClustering(eigen_solver="dense", **kw).fit(X)
    for solver in ("auto", "arpack", "lobpcg"):
        fast = NJWSpectralClustering(eigen_solver=solver, **kw).fit(X)
        np.testing.assert_array_equal(fast.embedding_, dense.embedding_)


def test_sparse_embedding_needs_the_degrees():
    X = Blobs().load(n_samples=60, seed=0).X
    M = normalized_affinity(affinity_matrix(X, "nearest_neighbors", n_neighbors=5))
    with pytest.raises(ValueError, match=r"needs sqrt_d"):
        njw_embedding(M, 3, "arpack")
    Y, _ = njw_embedding(M, 3, "dense")  # the dense reference takes M alone
    assert Y.shape == (60, 3)


def test_plugins_are_registered_as_clusterers():
    found = registry.methods("clustering")
    assert found["spectral_clustering"] is NJWSpectralClustering
    assert found["sklearn_spectral_clustering"] is SklearnSpectralClustering
    assert {"two_moons", "circles", "blobs", "digits"} <= set(registry.datasets("clustering"))


# --------------------------------------------------------------------------- #
# bad input
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def X():
    return Blobs().load(n_samples=30, seed=0).X


@pytest.mark.parametrize("cls", PLUGINS)
def test_non_finite_input_names_the_rows(cls, X):
    bad = X.copy()
    bad[4, 0] = np.nan
    bad[9, 1] = np.inf
    with pytest.raises(ValueError, match=r"X contains NaN or infinity in 2 of 30 rows "
                                         r"\(first: row 4\); remove or impute them"):
        cls(n_clusters=3).fit(bad)


@pytest.mark.parametrize("cls", PLUGINS)
@pytest.mark.parametrize("n_clusters", [0, 31, -1, 2.5, "3"])
def test_bad_n_clusters_names_the_bound(cls, n_clusters, X):
    with pytest.raises(ValueError, match=r"n_clusters=.* 1 <= n_clusters <= n_samples=30"):
        cls(n_clusters=n_clusters).fit(X)


@pytest.mark.parametrize("cls", PLUGINS)
@pytest.mark.parametrize("gamma", [0.0, -1.0, float("nan"), float("inf"), None])
def test_bad_gamma(cls, gamma, X):
    with pytest.raises(ValueError, match=r"gamma must be positive and finite"):
        cls(n_clusters=3, gamma=gamma).fit(X)


@pytest.mark.parametrize("cls", PLUGINS)
def test_unknown_affinity_lists_the_valid_ones(cls, X):
    with pytest.raises(ValueError, match=r"affinity must be one of \('rbf', "
                                         r"'nearest_neighbors'\), got 'cosine'"):
        cls(n_clusters=3, affinity="cosine").fit(X)


@pytest.mark.parametrize("cls", PLUGINS)
@pytest.mark.parametrize("k", [0, 30, 40])
def test_bad_n_neighbors(cls, k, X):
    with pytest.raises(ValueError, match=rf"n_neighbors={k} must satisfy 1 <= n_neighbors "
                                         rf"< n_samples=30; lower n_neighbors"):
        cls(n_clusters=3, affinity="nearest_neighbors", n_neighbors=k).fit(X)


@pytest.mark.parametrize("cls", PLUGINS)
def test_one_sample_is_an_error(cls):
    with pytest.raises(ValueError, match=r"1 sample\(s\).*minimum of 2 is required"):
        cls(n_clusters=1).fit(np.ones((1, 2)))


def test_underflowing_gaussian_names_gamma(X):
    far = np.vstack([X, [[1e3, 1e3]]])  # exp(-gamma * 1e6) underflows to 0
    with pytest.raises(ValueError, match=r"1 point\(s\) \(first: row 30\) have zero "
                                         r"affinity .* lower gamma"):
        NJWSpectralClustering(n_clusters=3, gamma=1.0).fit(far)


def test_unknown_eigen_solver(X):
    with pytest.raises(ValueError, match=r"eigen_solver must be one of \('auto', 'dense', "
                                         r"'arpack', 'lobpcg'\), got 'lapack'"):
        NJWSpectralClustering(n_clusters=3, eigen_solver="lapack").fit(X)
