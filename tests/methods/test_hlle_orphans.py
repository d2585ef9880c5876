"""hLLE with points no neighbourhood contains ("orphans", issue 52): their rows of the
Hessian form are zero, so each is an exact null vector, and an embedding read as the
form's eigenvectors 2..r+1 is made of orphan indicators (Frey's faces at k = 15: six
orphans, continuity 0.003 where a random embedding scores 0.8). The plugin leaves them
out of the eigenproblem and places them at their neighbours' mean."""

from __future__ import annotations

import numpy as np
import scipy.linalg
import pytest
from sklearn.manifold import LocallyLinearEmbedding

from harness.methods.hlle import HessianLLE
from tests.methods.naive_spectral import knn_indices, naive_hessian_lle, swiss_roll

K = 10


@pytest.fixture(scope="module")
def roll_with_outlier():
    """A small roll and one far point: its 10 neighbours are on the roll, and it is
    nobody's neighbour."""
    X = swiss_roll(n=120, noise=0.05, seed=0)[0]
    return np.vstack([X, X.mean(axis=0) + [0.0, 60.0, 0.0]])


def _angle(A, B) -> float:
    return float(np.degrees(np.max(scipy.linalg.subspace_angles(A, B))))


def test_the_outlier_is_an_orphan_and_in_no_neighbourhood(roll_with_outlier):
    nbrs = knn_indices(roll_with_outlier, K)
    assert not np.isin(120, nbrs) and not np.isin(120, nbrs[120])


@pytest.mark.parametrize("eigen_solver", ["dense", "arpack"])
def test_orphans_are_left_out_of_the_eigenproblem(roll_with_outlier, eigen_solver):
    fitted = HessianLLE(n_neighbors=K, eigen_solver=eigen_solver,
                        random_state=0).fit(roll_with_outlier)
    assert fitted.orphans_ == [120] and "1 point(s) in no other point's" in fitted.fit_note_
    keep = np.arange(121) != 120
    reference, _ = naive_hessian_lle(roll_with_outlier, K, 2, variant="scikit_learn",
                                     keep=keep)
    Y = fitted.embedding_
    assert _angle(Y[keep] - Y[keep].mean(axis=0), reference) < 1e-4
    # the orphan sits at its neighbours' mean (an affine map keeps means)
    nbrs = knn_indices(roll_with_outlier, K)[120]
    np.testing.assert_allclose(Y[120], Y[nbrs].mean(axis=0), atol=1e-10)


def test_the_old_embedding_is_an_orphan_indicator(roll_with_outlier):
    # negative control: scikit-learn's hessian LLE on the same input (what the plugin
    # ran before) takes a vector of the null space {1, e_orphan} as a coordinate: one
    # axis on which every roll point has the same value
    Y = LocallyLinearEmbedding(n_neighbors=K, n_components=2, method="hessian",
                               eigen_solver="dense").fit_transform(roll_with_outlier)
    indicator = (np.arange(121) == 120) - 1 / 121
    Yc = Y - Y.mean(axis=0)
    cosine = np.abs(indicator @ Yc) / (np.linalg.norm(indicator) * np.linalg.norm(Yc, axis=0))
    assert cosine.max() > 0.99
    fitted = HessianLLE(n_neighbors=K, eigen_solver="dense").fit_transform(roll_with_outlier)
    assert (np.abs(indicator @ fitted) / np.linalg.norm(indicator)).max() < 0.5


def test_no_orphans_means_the_papers_embedding():
    X = swiss_roll(n=120, noise=0.05, seed=0)[0]
    fitted = HessianLLE(n_neighbors=K, eigen_solver="dense").fit(X)
    assert fitted.orphans_ == [] and fitted.fit_note_ is None
    reference, values = naive_hessian_lle(X, K, 2, variant="scikit_learn")
    assert _angle(fitted.embedding_, reference) < 1e-4
    np.testing.assert_allclose(fitted.eigenvalues_, values[:4], atol=1e-10)


def test_the_donoho_grimes_estimator_is_its_naive_reference():
    X = swiss_roll(n=120, noise=0.05, seed=0)[0]
    fitted = HessianLLE(n_neighbors=K, estimator="donoho_grimes", eigen_solver="dense").fit(X)
    reference, _ = naive_hessian_lle(X, K, 2, variant="donoho_grimes")
    assert _angle(fitted.embedding_, reference) < 1e-4


def test_an_unknown_estimator_is_refused():
    with pytest.raises(ValueError, match="estimator must be one of"):
        HessianLLE(estimator="paper").fit(swiss_roll(n=60)[0])
