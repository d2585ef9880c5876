"""Kernel PCA plugins (thesis 3.1.9, eqs. 3.46-3.49) and classical MDS.

References: scikit-learn's ``KernelPCA`` for the linear, polynomial and Gaussian
kernels (same eigenvalues, same embeddings up to the sign of each column), MVU's own
embedding for the MVU kernel (with its certificate rechecked here from the learned
kernel), and an exact Euclidean configuration for MDS (recovered up to a rigid motion,
measured by an orthogonal Procrustes fit).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import orthogonal_procrustes
from sklearn.decomposition import KernelPCA

import harness.methods.mvu as mvu_module
from harness.solvers.backend import DENSE_MAX_N
from harness.solvers.mvu_sdp.result import SolveResult
from harness.kernels import neighbourhood_scale as neighbourhood_sigma
from harness.methods.shared.kernel_pca import center_kernel, kernel_pca
from harness.methods.kpca_gaussian import KernelPCAGaussian
from harness.methods.kpca_linear import KernelPCALinear
from harness.methods.kpca_mvu import KernelPCAMVU
from harness.methods.kpca_polynomial import KernelPCAPolynomial
from harness.methods.mds import ClassicalMDS
from harness.methods.mvu import MVU, SolverFailedError
from tests.methods.naive_spectral import pairwise_distances, swiss_roll

D = 4  # embedding dimensions compared


@pytest.fixture(scope="module")
def roll():
    return swiss_roll(n=120, noise=0.05, seed=3)[0] / 5.0  # |x . y| ~ 1: a tame (1 + x.y)^p


def assert_equal_up_to_column_signs(Y, Z, atol):
    assert Y.shape == Z.shape
    for j in range(Y.shape[1]):
        sign = 1.0 if np.dot(Y[:, j], Z[:, j]) >= 0 else -1.0
        np.testing.assert_allclose(Y[:, j], sign * Z[:, j], rtol=0, atol=atol)


CASES = {
    "linear": (lambda: KernelPCALinear(n_components=D), dict(kernel="linear")),
    "polynomial": (lambda: KernelPCAPolynomial(degree=3, n_components=D),
                   dict(kernel="poly", gamma=1.0, coef0=1.0, degree=3)),
    "polynomial_p1": (lambda: KernelPCAPolynomial(degree=1, n_components=D),
                      dict(kernel="poly", gamma=1.0, coef0=1.0, degree=1)),
    "gaussian": (lambda: KernelPCAGaussian(sigma=0.7, n_components=D),
                 dict(kernel="rbf", gamma=1.0 / (2 * 0.7**2))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_scikit_learn_kernel_pca(case, roll):
    make, sk_params = CASES[case]
    ours = make().fit(roll)
    theirs = KernelPCA(n_components=D, eigen_solver="dense", **sk_params)
    Z = theirs.fit_transform(roll)
    scale = theirs.eigenvalues_[0]
    np.testing.assert_allclose(ours.kernel_eigenvalues_[:D], theirs.eigenvalues_,
                               rtol=1e-9, atol=1e-12 * scale)
    assert_equal_up_to_column_signs(ours.embedding_, Z, atol=1e-8 * np.sqrt(scale))
    # the whole spectrum: n values, descending, summing to the centred trace
    ev = ours.kernel_eigenvalues_
    assert ev.shape == (len(roll),) and np.all(np.diff(ev) <= 1e-9 * scale)
    assert ours.kernel_trace_ == pytest.approx(ev.sum(), rel=1e-9)
    np.testing.assert_allclose(ours.normalised_eigenvalues_, ev / ev.sum(), rtol=1e-9)


def test_gaussian_auto_sigma_is_the_rms_distance_to_the_k_nearest_neighbours(roll):
    D2 = pairwise_distances(roll) ** 2
    for k in (1, 4, 7):
        nearest = np.sort(D2 + np.diag(np.full(len(roll), np.inf)), axis=1)[:, :k]
        naive = np.sqrt(nearest.mean())
        assert neighbourhood_sigma(roll, k) == pytest.approx(naive, rel=1e-12)
    est = KernelPCAGaussian(sigma="auto", n_components=2).fit(roll)
    assert est.sigma_ == pytest.approx(neighbourhood_sigma(roll, 4), rel=1e-15)
    fixed = KernelPCAGaussian(sigma=est.sigma_, n_components=2).fit(roll)
    np.testing.assert_array_equal(fixed.embedding_, est.embedding_)
    assert fixed.sigma_auto_ == est.sigma_ and fixed.sigma_ == est.sigma_
    assert KernelPCAGaussian(sigma="auto", sigma_neighbors=8).fit(roll).sigma_ > est.sigma_


def test_centring_is_the_gram_matrix_of_the_centred_features(roll):
    # (3.49), derived: the inner products of Phi(x_i) - mean_j Phi(x_j); for the linear
    # kernel Phi is the identity
    centred = roll - roll.mean(axis=0)
    np.testing.assert_allclose(center_kernel(roll @ roll.T), centred @ centred.T,
                               rtol=0, atol=1e-12 * np.abs(roll).max() ** 2)
    # and kernel PCA of the linear kernel is PCA: singular values squared
    s = np.linalg.svd(centred, compute_uv=False)
    np.testing.assert_allclose(kernel_pca(roll @ roll.T, 3).eigenvalues[:3], s[:3] ** 2,
                               rtol=1e-10)


def test_top_eigenvalues_only_beyond_the_dense_limit(roll, monkeypatch):
    import harness.methods.shared.kernel_pca as core

    full = kernel_pca(roll @ roll.T + 1.0, 2)
    monkeypatch.setattr(core, "DENSE_SPECTRUM_MAX_N", 50)
    monkeypatch.setattr(core, "N_TOP_EIGENVALUES", 10)
    top = core.kernel_pca(roll @ roll.T + 1.0, 2)
    assert top.eigenvalues.shape == (10,)
    np.testing.assert_allclose(top.eigenvalues, full.eigenvalues[:10], rtol=1e-10, atol=1e-10)
    assert top.trace == pytest.approx(full.trace)
    assert_equal_up_to_column_signs(top.embedding, full.embedding, atol=1e-9)


# --------------------------------------------------------------------------- #
# the MVU kernel
# --------------------------------------------------------------------------- #
def test_mvu_kernel_gives_mvus_embedding_and_is_certified():
    X = swiss_roll(n=60, noise=0.05, seed=4)[0]
    ours = KernelPCAMVU(n_neighbors=4, n_components=3).fit(X)
    theirs = MVU(n_neighbors=4, n_components=3).fit(X)
    info = ours.solve_info_
    assert info["status"] == "optimal" and info["gap"] <= 1e-3 and info["violation"] <= 1e-4
    scale = np.sqrt(theirs.eigenvalues_[0])
    assert_equal_up_to_column_signs(ours.embedding_, theirs.embedding_, atol=1e-6 * scale)
    # the learned kernel, checked here: PSD, centred, and the clique distances kept
    F = ours.kernel_factor_
    K = F @ F.T
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * np.trace(K)
    assert abs(K.sum()) <= 1e-6 * np.trace(K) * len(K)
    i, j = theirs.edges_.T
    kept = K[i, i] + K[j, j] - 2 * K[i, j]
    assert np.abs(kept - theirs.sq_lengths_).max() <= 1e-4 * theirs.sq_lengths_.max()
    # its spectrum: MVU's eigenvalues, then zeros; two dimensions carry the variance
    np.testing.assert_allclose(ours.kernel_eigenvalues_[:3], theirs.eigenvalues_[:3],
                               rtol=1e-6)
    assert ours.normalised_eigenvalues_[:2].sum() > 0.9


def test_mvu_solver_failure_raises_with_the_solve_report(monkeypatch):
    def failing(problem, solver, **kwargs):
        return SolveResult(status="failed", reason="the test's solver gave up", solver=solver)

    monkeypatch.setattr(mvu_module, "solve_mvu", failing)
    est = KernelPCAMVU(n_neighbors=4)
    with pytest.raises(SolverFailedError, match="the test's solver gave up") as info:
        est.fit(swiss_roll(n=30, seed=1)[0])
    assert info.value.status == "failed"
    assert est.solve_info_["status"] == "failed" and not hasattr(est, "embedding_")


def test_mvu_kernel_skips_what_mvu_skips():
    from harness.plugin import Dataset

    big = Dataset(np.zeros((DENSE_MAX_N + 1, 2)), None, {})
    assert KernelPCAMVU.skip(big, "clarabel") == MVU.skip(big, "clarabel")
    assert KernelPCAMVU.skip(big, "clarabel")[0]
    assert not KernelPCAMVU.skip(big, "native")[0]


# --------------------------------------------------------------------------- #
# classical MDS
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def configuration():
    """An exact 3-D configuration, rotated and shifted into 5-D."""
    rng = np.random.default_rng(7)
    Y = rng.standard_normal((40, 3)) * [5.0, 2.0, 0.7]
    Q, _ = np.linalg.qr(rng.standard_normal((5, 5)))
    return Y, np.hstack([Y, np.zeros((40, 2))]) @ Q + rng.standard_normal(5) * 10


def procrustes_residual(Y, Z):
    """Largest distance after the best rotation/reflection and translation of Z onto Y."""
    Yc, Zc = Y - Y.mean(axis=0), Z - Z.mean(axis=0)
    R, _ = orthogonal_procrustes(Zc, Yc)
    return np.abs(Zc @ R - Yc).max()


@pytest.mark.parametrize("source", ["points", "precomputed"])
def test_mds_recovers_an_exact_configuration(source, configuration):
    Y, X = configuration
    if source == "points":
        est = ClassicalMDS(n_components=3).fit(X)
    else:
        est = ClassicalMDS(n_components=3, dissimilarity="precomputed").fit(
            pairwise_distances(X))
    assert procrustes_residual(Y, est.embedding_) < 1e-10 * np.abs(Y).max()
    ev = est.kernel_eigenvalues_
    assert ev[3] < 1e-10 * ev[0]  # rank 3
    assert est.normalised_eigenvalues_[:3].sum() == pytest.approx(1.0, abs=1e-12)


def test_mds_of_points_is_linear_kernel_pca(configuration):
    _, X = configuration
    np.testing.assert_allclose(ClassicalMDS(n_components=3).fit(X).embedding_,
                               KernelPCALinear(n_components=3).fit(X).embedding_,
                               rtol=0, atol=1e-9)


# --------------------------------------------------------------------------- #
# bad parameters name the value
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("sigma", [0.0, -1.5, float("nan"), float("inf"), "wide", True])
def test_bad_sigma_is_named(sigma, roll):
    with pytest.raises(ValueError, match=r"sigma=.*must be a positive number or 'auto'") as info:
        KernelPCAGaussian(sigma=sigma).fit(roll)
    assert repr(sigma) in str(info.value)


@pytest.mark.parametrize("degree", [0, -2, 2.5, "4", True])
def test_bad_degree_is_named(degree, roll):
    with pytest.raises(ValueError, match=r"must be an integer >= 1") as info:
        KernelPCAPolynomial(degree=degree).fit(roll)
    assert f"degree={degree!r}" in str(info.value)


def test_numpy_integer_degree_is_fine(roll):
    a = KernelPCAPolynomial(degree=np.int64(2)).fit(roll).embedding_
    np.testing.assert_array_equal(a, KernelPCAPolynomial(degree=2).fit(roll).embedding_)


def test_auto_sigma_needs_distinct_neighbours():
    X = np.repeat(np.arange(6.0)[:, None], 5, axis=0)  # every point five times
    with pytest.raises(ValueError, match=r"sigma \(k = 4\) is 0.0.*duplicate points"):
        KernelPCAGaussian(sigma="auto").fit(X)
    with pytest.raises(ValueError, match=r"sigma_neighbors=30 must satisfy"):
        KernelPCAGaussian(sigma="auto", sigma_neighbors=30).fit(X)
    # a given width needs no estimate
    est = KernelPCAGaussian(sigma=1.0).fit(X)
    assert np.isnan(est.sigma_auto_) and est.sigma_ == 1.0 and np.isfinite(est.embedding_).all()


def test_bad_precomputed_matrices_are_named(configuration):
    _, X = configuration
    Dm = pairwise_distances(X)
    mds = ClassicalMDS(dissimilarity="precomputed")
    with pytest.raises(ValueError, match=r"square n x n distance matrix; got shape \(40, 39\)"):
        mds.fit(Dm[:, :39])
    asym = Dm.copy()
    asym[2, 5] += 0.5
    with pytest.raises(ValueError, match=r"not symmetric: D\[2, 5\] = .* but D\[5, 2\]"):
        mds.fit(asym)
    neg = -Dm
    with pytest.raises(ValueError, match=r"negative entries: D\[0, 1\]"):
        mds.fit(neg)
    diag = Dm + np.eye(len(Dm))
    with pytest.raises(ValueError, match=r"non-zero diagonal: D\[0, 0\] = 1;"):
        mds.fit(diag)
    with pytest.raises(ValueError, match=r"dissimilarity='cosine' must be one of"):
        ClassicalMDS(dissimilarity="cosine").fit(X)


def test_the_skeleton_needs_a_kernel():
    """KernelPCAEmbedding is abstract: a plugin that does not say its kernel cannot be
    built (instead of failing at fit time)."""
    from harness.methods.shared.kernel_pca import KernelPCAEmbedding

    class NoKernel(KernelPCAEmbedding):
        def __init__(self, *, n_components=2):
            self.n_components = n_components

    with pytest.raises(TypeError, match="abstract method _kernel"):
        NoKernel()
