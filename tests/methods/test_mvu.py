"""The MVU estimator: fitted attributes that certify the solve on their own, the
thesis' three steps, and clear errors."""

import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.plugin import Dataset, DisconnectedGraphError
from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import certify
from harness.solvers.backend import DENSE_MAX_N
from harness.methods.mvu import MVU

pytest.importorskip("cvxpy")


@pytest.fixture(scope="module")
def fitted():
    X = SwissRoll().load(n_samples=40, extra_noise_dims=2, extra_noise_std=0.1, seed=1).X
    return X, MVU(n_neighbors=4, solver="clarabel").fit(X)


def test_fitted_attributes_certify_the_solve_without_our_solver(fitted):
    X, mvu = fitted
    assert mvu.solve_info_["status"] == "optimal" and mvu.solve_info_["solver"] == "clarabel"
    m = len(mvu.edges_)
    assert mvu.dual_.shape == (m,) and mvu.sq_lengths_.shape == (m,)
    # anyone can rebuild the SDP from edges_ and sq_lengths_ and check the certificate
    problem = MVUProblem(n=len(X), edges=mvu.edges_, sq_lengths=mvu.sq_lengths_)
    cert = certify(problem, mvu.kernel_factor_, mvu.dual_)
    assert cert.gap <= 1e-3 and cert.violation <= 1e-4
    assert cert.value == pytest.approx(mvu.eigenvalues_.sum(), rel=1e-9)  # tr K


def test_embedding_is_top_eigenvectors_scaled(fitted):
    X, mvu = fitted
    Y = mvu.embedding_
    assert Y.shape == (40, 2)
    np.testing.assert_allclose(Y.T @ Y, np.diag(mvu.eigenvalues_[:2]), atol=1e-6 * mvu.eigenvalues_[0])
    assert np.all(np.diff(mvu.eigenvalues_) <= 1e-9)  # largest first
    # few appreciable eigenvalues (40 points with k = 4 do not unroll fully: 3 here)
    assert mvu.eigenvalues_[:3].sum() / mvu.eigenvalues_.sum() > 0.99


def test_local_distances_are_preserved(fitted):
    X, mvu = fitted
    F = mvu.kernel_factor_
    d = ((F[mvu.edges_[:, 0]] - F[mvu.edges_[:, 1]]) ** 2).sum(1)
    np.testing.assert_allclose(d, mvu.sq_lengths_, rtol=1e-4, atol=1e-6 * mvu.sq_lengths_.max())


def test_duplicate_points_are_named():
    X = SwissRoll().load(n_samples=60, seed=0).X
    X[7] = X[3]
    with pytest.raises(ValueError, match=r"duplicate points \(rows 3 and 7"):
        MVU(n_neighbors=6, solver="clarabel").fit(X)


def test_disconnected_graph_is_named():
    X = np.random.default_rng(0).standard_normal((30, 3))
    X[15:] += 100
    with pytest.raises(DisconnectedGraphError, match="2 connected components"):
        MVU(n_neighbors=4, solver="clarabel").fit(X)


def test_disconnected_graph_is_linked_by_the_thesis_rule_when_asked():
    """3.1.12's artificial link: the two clouds 100 apart get one edge, preserved like
    every other, and the solve is certified on the linked graph."""
    X = np.random.default_rng(0).standard_normal((30, 3))
    X[15:] += 100
    mvu = MVU(n_neighbors=4, solver="native", connect_components="thesis",
              random_state=0).fit(X)
    assert mvu.linked_edges_.shape == (1, 2)
    i, j = mvu.linked_edges_[0]
    assert i < 15 <= j
    assert mvu.solve_info_["linked_edges"] == [[i, j]]
    assert mvu.solve_info_["status"] == "optimal" and mvu.solve_info_["gap"] <= 1e-3
    F = mvu.kernel_factor_
    assert np.sum((F[i] - F[j]) ** 2) == pytest.approx(np.sum((X[i] - X[j]) ** 2), rel=1e-4)
    # the hinge lets the clouds swing apart: more variance than the input's
    assert mvu.eigenvalues_.sum() > np.sum((X - X.mean(0)) ** 2)
    assert MVU(n_neighbors=4).requires_connected_graph
    assert not mvu.requires_connected_graph


def test_unknown_solver():
    X = SwissRoll().load(n_samples=30, seed=0).X
    with pytest.raises(ValueError, match="solver must be one of"):
        MVU(n_neighbors=4, solver="gurobi").fit(X)


def test_dense_solvers_are_skipped_beyond_their_reach():
    big = Dataset(np.zeros((DENSE_MAX_N + 1, 3)), None, {})
    skip, why = MVU.skip(big, "clarabel")
    assert skip and "dense" in why
    assert MVU.skip(big, "native") == (False, "")
    assert MVU.skip(Dataset(np.zeros((50, 3)), None, {}), "scs") == (False, "")
