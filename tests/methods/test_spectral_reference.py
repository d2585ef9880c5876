"""Each Table 3.2 method plugin against an independent naive implementation of its
defining equations (thesis 2.2.1 and 3.2.1; Donoho & Grimes 2003 for hLLE), on small
curved data (n = 100-150), compared up to what the method leaves free:

* PCA, Isomap: exact up to a sign per column (relative tolerance 1e-6);
* LLE, hLLE: the spanned subspace (largest principal angle), plus matched columns;
* Laplacian eigenmaps: up to a sign per column (its scale is fixed by Y^T D Y = I).

Every comparison also has a *negative control*: the same comparison against a
reference with one ingredient changed (k, the regulariser, the weights) must fail by
orders of magnitude, so the tolerances are known to discriminate.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg

from harness.methods.hlle import HessianLLE
from harness.methods.isomap import Isomap
from harness.methods.laplacian_eigenmaps import LaplacianEigenmaps
from harness.methods.lle import LLE
from harness.methods.pca import PCA
from tests.methods.naive_spectral import (
    curved_sheet,
    flat_patch,
    floyd_warshall,
    knn_adjacency,
    naive_hessian_lle,
    naive_isomap,
    naive_laplacian_eigenmaps,
    naive_lle,
    naive_pca,
    pairwise_distances,
    swiss_roll,
)

DATA = {
    "swiss_roll": lambda: swiss_roll(n=120, noise=0.05, seed=0)[0],
    "curved_sheet": lambda: curved_sheet(n=100, seed=0)[0],
}
K = 8  # connected on both data sets (the reference raises otherwise)


# --------------------------------------------------------------------------- #
# comparison helpers
# --------------------------------------------------------------------------- #
def sign_aligned(Y: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Y with each column's sign flipped to agree with the same column of ref."""
    signs = np.sign(np.einsum("ij,ij->j", Y, ref))
    signs[signs == 0] = 1.0
    return Y * signs


def assert_equal_up_to_column_signs(Y, ref, rtol=1e-6):
    assert Y.shape == ref.shape
    np.testing.assert_allclose(
        sign_aligned(Y, ref), ref, rtol=0, atol=rtol * np.abs(ref).max()
    )


def max_principal_angle(A, B) -> float:
    """Largest principal angle (radians) between the column spaces of A and B."""
    return float(np.max(scipy.linalg.subspace_angles(A, B)))


def matched_abs_correlations(Y, ref) -> np.ndarray:
    """|correlation| of column j of Y with column j of ref."""
    r = Y.shape[1]
    return np.abs(np.diag(np.corrcoef(Y.T, ref.T)[:r, r:]))


# --------------------------------------------------------------------------- #
# PCA (thesis 2.2.1): SVD of the centred data
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("data", sorted(DATA))
def test_pca_matches_svd_of_centred_data(data):
    X = DATA[data]()
    est = PCA(n_components=2)
    Y = est.fit_transform(X)
    ref = naive_pca(X, 2)
    assert_equal_up_to_column_signs(Y, ref, rtol=1e-6)
    S = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
    np.testing.assert_allclose(est.explained_variance_, S[:2] ** 2 / (len(X) - 1), rtol=1e-10)
    # negative control: scores of the uncentred data are far off
    U, S0, _ = np.linalg.svd(X, full_matrices=False)
    assert not np.allclose(sign_aligned(U[:, :2] * S0[:2], ref), ref, atol=1e-3 * np.abs(ref).max())


def test_pca_three_components_on_anisotropic_gaussian():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((80, 5)) * np.array([5.0, 3.0, 2.0, 0.5, 0.1]) + 7.0
    assert_equal_up_to_column_signs(PCA(n_components=3).fit_transform(X), naive_pca(X, 3))


# --------------------------------------------------------------------------- #
# Isomap (thesis 3.2.1, steps 1-3)
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("eigen_solver", ["dense", "arpack", "auto"])
@pytest.mark.parametrize("data", sorted(DATA))
def test_isomap_matches_floyd_warshall_and_classical_mds(data, eigen_solver):
    X = DATA[data]()
    est = Isomap(n_neighbors=K, n_components=2, eigen_solver=eigen_solver)
    Y = est.fit_transform(X)
    ref, eigenvalues = naive_isomap(X, K, 2)
    # premise: the two leading eigenvalues are distinct and separated from the third
    assert eigenvalues[0] > 1.1 * eigenvalues[1] > 1.1 * eigenvalues[2] > 0
    assert_equal_up_to_column_signs(Y, ref, rtol=1e-6)
    # step 2: the geodesic distances themselves
    G = np.where(knn_adjacency(X, K), pairwise_distances(X), np.inf)
    np.testing.assert_allclose(est.model_.dist_matrix_, floyd_warshall(G), rtol=1e-12, atol=1e-12)
    # step 3: columns scaled by the square roots of the eigenvalues
    np.testing.assert_allclose((Y**2).sum(axis=0), eigenvalues[:2], rtol=1e-8)
    # negative control: another k gives a clearly different embedding
    other, _ = naive_isomap(X, K + 3, 2)
    assert np.abs(sign_aligned(other, ref) - ref).max() > 1e-2 * np.abs(ref).max()


# --------------------------------------------------------------------------- #
# LLE (thesis 3.37-3.39)
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("eigen_solver", ["dense", "arpack"])
@pytest.mark.parametrize("data", sorted(DATA))
def test_lle_matches_dense_bottom_eigenvectors(data, eigen_solver):
    X = DATA[data]()
    est = LLE(n_neighbors=K, n_components=2, eigen_solver=eigen_solver, random_state=0)
    Y = est.fit_transform(X)
    ref, eigenvalues = naive_lle(X, K, 2, reg=1e-3)
    # premise: the constant vector has eigenvalue 0; the wanted ones are separated
    assert abs(eigenvalues[0]) < 1e-12
    assert eigenvalues[2] > 2 * eigenvalues[1] > 0 and eigenvalues[3] > 2 * eigenvalues[2]
    assert max_principal_angle(Y, ref) < 1e-6
    assert matched_abs_correlations(Y, ref).min() > 0.999999
    # the thesis' constraints: centred, uncorrelated outputs (sklearn: unit norm)
    np.testing.assert_allclose(Y.sum(axis=0), 0.0, atol=1e-6)
    np.testing.assert_allclose(Y.T @ Y, np.eye(2), atol=1e-8)
    # reconstruction_error_ is the value of (3.39), the sum of the two eigenvalues
    np.testing.assert_allclose(est.reconstruction_error_, eigenvalues[1:3].sum(), rtol=1e-6)
    # negative controls: another regulariser / another k span other subspaces
    assert max_principal_angle(naive_lle(X, K, 2, reg=1e-1)[0], ref) > 1e-2
    assert max_principal_angle(naive_lle(X, K + 2, 2)[0], ref) > 1e-2


# --------------------------------------------------------------------------- #
# Laplacian eigenmaps (thesis 3.40-3.45)
# --------------------------------------------------------------------------- #
def _check_laplacian(est, X, ref, eigenvalues, W):
    Y = est.fit_transform(X)
    np.testing.assert_array_equal(est.affinity_.toarray(), W)  # same W, bit for bit
    assert eigenvalues[2] > 1.2 * eigenvalues[1] > 0 and eigenvalues[3] > 1.2 * eigenvalues[2]
    assert_equal_up_to_column_signs(Y, ref, rtol=1e-6)
    # the constraint Y D Y^T = I of (3.45), and D-orthogonality to the constant
    D = np.diag(W.sum(axis=1))
    np.testing.assert_allclose(Y.T @ D @ Y, np.eye(2), atol=1e-8)
    np.testing.assert_allclose(np.ones(len(X)) @ D @ Y, 0.0, atol=1e-8)
    # and the generalised eigen-equation L y = lambda D y itself
    np.testing.assert_allclose((D - W) @ Y, D @ Y * eigenvalues[1:3], atol=1e-8)
    return Y


@pytest.mark.parametrize("data", sorted(DATA))
def test_laplacian_eigenmaps_binary_matches_generalised_eigh(data):
    X = DATA[data]()
    ref, eigenvalues, W = naive_laplacian_eigenmaps(X, K, 2, weights="binary")
    assert set(np.unique(W)) == {0.0, 1.0} and (W == W.T).all()
    est = LaplacianEigenmaps(n_neighbors=K, n_components=2, random_state=0)
    Y = _check_laplacian(est, X, ref, eigenvalues, W)
    # negative control: heat-kernel weights give a different embedding
    heat, _, _ = naive_laplacian_eigenmaps(X, K, 2, weights="heat", sigma=1.0)
    assert max_principal_angle(Y, heat) > 1e-2


@pytest.mark.parametrize(("data", "sigma"), [("curved_sheet", 0.5), ("swiss_roll", 3.0)])
def test_laplacian_eigenmaps_heat_kernel_with_explicit_sigma(data, sigma):
    X = DATA[data]()
    ref, eigenvalues, W = naive_laplacian_eigenmaps(X, K, 2, weights="heat", sigma=sigma)
    est = LaplacianEigenmaps(n_neighbors=K, weights="heat", sigma=sigma, random_state=0)
    _check_laplacian(est, X, ref, eigenvalues, W)
    # negative control: the width matters
    other, _, _ = naive_laplacian_eigenmaps(X, K, 2, weights="heat", sigma=sigma / 4)
    assert max_principal_angle(other, ref) > 1e-3


def test_laplacian_eigenmaps_heat_kernel_default_sigma_is_median_edge_length():
    X = DATA["curved_sheet"]()
    A = knn_adjacency(X, K)
    sigma = float(np.median(pairwise_distances(X)[np.triu(A)]))  # each edge once
    ref, eigenvalues, W = naive_laplacian_eigenmaps(X, K, 2, weights="heat", sigma=sigma)
    est = LaplacianEigenmaps(n_neighbors=K, weights="heat", sigma=None, random_state=0)
    _check_laplacian(est, X, ref, eigenvalues, W)


def test_laplacian_eigenmaps_lobpcg_agrees_closely():
    X = DATA["curved_sheet"]()
    ref, _, _ = naive_laplacian_eigenmaps(X, K, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # lobpcg's tolerance chatter
        Y = LaplacianEigenmaps(n_neighbors=K, eigen_solver="lobpcg", random_state=0).fit_transform(X)
    assert matched_abs_correlations(Y, ref).min() > 0.999
    assert max_principal_angle(Y, ref) < 1e-3


# --------------------------------------------------------------------------- #
# Hessian LLE (Donoho & Grimes 2003)
# --------------------------------------------------------------------------- #
HLLE_CASES = {
    "swiss_roll": lambda: swiss_roll(n=120, noise=0.05, seed=0)[0],
    "curved_sheet": lambda: curved_sheet(n=100, seed=0)[0],
    "flat_patch": lambda: flat_patch(n=150, seed=0)[0],
}


@pytest.mark.parametrize("eigen_solver", ["dense", "arpack"])
@pytest.mark.parametrize("data", sorted(HLLE_CASES))
def test_hlle_output_is_centred_and_orthonormal(data, eigen_solver):
    # Donoho & Grimes: the embedding coordinates span the null space orthogonal to
    # the constant functions. (Before the fix in harness/methods/hlle.py, on the flat patch
    # the columns summed to ~10 of a possible sqrt(150) = 12.2.)
    X = HLLE_CASES[data]()
    Y = HessianLLE(n_neighbors=12, eigen_solver=eigen_solver, random_state=0).fit_transform(X)
    np.testing.assert_allclose(Y.sum(axis=0), 0.0, atol=1e-8)
    np.testing.assert_allclose(Y.T @ Y, np.eye(2), atol=1e-8)


@pytest.mark.parametrize("eigen_solver", ["dense", "arpack"])
@pytest.mark.parametrize("n_neighbors", [8, 12])
def test_hlle_recovers_flat_patch_up_to_an_affine_map(n_neighbors, eigen_solver):
    X, uv = flat_patch(n=150, seed=0)
    Y = HessianLLE(n_neighbors=n_neighbors, eigen_solver=eigen_solver,
                   random_state=0).fit_transform(X)
    design = np.column_stack([Y, np.ones(len(Y))])
    coef, *_ = np.linalg.lstsq(design, uv, rcond=None)
    resid = uv - design @ coef
    r2 = 1.0 - (resid**2).sum(axis=0) / ((uv - uv.mean(axis=0)) ** 2).sum(axis=0)
    assert r2.min() > 0.9999
    # sharper: the embedding spans exactly the centred true coordinates
    assert max_principal_angle(Y, uv - uv.mean(axis=0)) < 1e-6
    # negative control: PCA's leading pair on a curled-up version does not
    Xc, truth = swiss_roll(n=150, noise=0.0, seed=1)
    T = np.column_stack(truth)
    assert max_principal_angle(naive_pca(Xc, 2), T - T.mean(axis=0)) > 0.1


@pytest.mark.parametrize("data", ["curved_sheet", "swiss_roll"])
def test_hlle_matches_naive_reference_of_the_scikit_learn_hessian_estimator(data):
    X = HLLE_CASES[data]()
    Y = HessianLLE(n_neighbors=K, eigen_solver="dense").fit_transform(X)
    ref, eigenvalues = naive_hessian_lle(X, K, 2, variant="scikit_learn")
    assert abs(eigenvalues[0]) < 1e-12 and eigenvalues[2] > 1.5 * eigenvalues[1] > 0
    assert eigenvalues[3] > 1.3 * eigenvalues[2]
    assert max_principal_angle(Y, ref) < 1e-6
    assert matched_abs_correlations(Y, ref).min() > 0.999


def test_hlle_naive_references_agree_on_flat_data():
    # On isometric flat data both Hessian estimators annihilate exactly the affine
    # functions, so both references must recover the true span: a check of the
    # references themselves.
    X, uv = flat_patch(n=150, seed=0)
    for variant in ("donoho_grimes", "scikit_learn"):
        ref, _ = naive_hessian_lle(X, 10, 2, variant=variant)
        assert max_principal_angle(ref, uv - uv.mean(axis=0)) < 1e-6, variant


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason=(
        "scikit-learn's Hessian LLE (wrapped by harness/methods/hlle.py) builds the local "
        "Hessian estimator from all k-1-d columns of the *complete* QR factor of "
        "[1, U, U_a U_b] (scipy.linalg.qr, mode='full'), i.e. the d(d+1)/2 quadratic "
        "columns plus the orthogonal complement of the design; Donoho & Grimes' "
        "paper and hlle.m use only the d(d+1)/2 quadratic columns. On curved data "
        "the embeddings differ (largest principal angle 0.2-5 degrees here)."
    ),
)
@pytest.mark.parametrize("data", ["curved_sheet", "swiss_roll"])
def test_hlle_matches_donoho_grimes_hessian_estimator(data):
    X = HLLE_CASES[data]()
    Y = HessianLLE(n_neighbors=K, eigen_solver="dense").fit_transform(X)
    ref, _ = naive_hessian_lle(X, K, 2, variant="donoho_grimes")
    assert max_principal_angle(Y, ref) < 1e-3
