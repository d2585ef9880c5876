"""The linear cost <C, K> of minimum volume embedding and its certificate
(harness.problems.linear_cost), checked against dense constructions."""

import numpy as np
import pytest

from harness.problems.linear_cost import (
    LinearCost, centred_cost_eigenvalue, certify_cost, mve_cost, spectral_objective,
)
from harness.problems.mvu_problem import MVUProblem, knn_edges
from tests.problems.mvu_data import noisy_roll


def _centred(X):
    return X - X.mean(axis=0)


def test_value_restriction_and_dense_agree():
    rng = np.random.default_rng(0)
    n, r = 12, 3
    P = np.linalg.qr(rng.standard_normal((n, r)))[0]
    cost = LinearCost(0.7, P, np.array([-2.0, 0.5, 1.5]))
    C = 0.7 * np.eye(n) + P @ np.diag(cost.coeffs) @ P.T
    np.testing.assert_allclose(cost.dense(), C, atol=1e-14)
    F = rng.standard_normal((n, 4))
    assert cost.value(F) == pytest.approx(np.trace(C @ F @ F.T), rel=1e-12)
    V = np.linalg.qr(rng.standard_normal((n, n - 2)))[0]
    np.testing.assert_allclose(cost.restricted(V.T @ P), V.T @ C @ V, atol=1e-13)


def test_mve_cost_is_the_pseudocode_step_5():
    X = _centred(noisy_roll(30, 0))
    K = X @ X.T
    lam, V = np.linalg.eigh(K)
    lam, V = lam[::-1], V[:, ::-1]
    B_lecture = -V[:, :2] @ V[:, :2].T + V[:, 2:] @ V[:, 2:].T  # Step 5, all N vectors
    cost = mve_cost(X, 2)
    # equal on the centred subspace (they differ only along the ones vector)
    J = np.eye(30) - 1.0 / 30
    np.testing.assert_allclose(J @ cost.dense() @ J, J @ B_lecture @ J, atol=1e-10)
    # tr(K B) = -g(K) at the K the eigenvectors come from
    assert cost.value(X) == pytest.approx(-spectral_objective(lam, 2), rel=1e-10)
    assert spectral_objective(lam, 2) == pytest.approx(lam[:2].sum() - lam[2:].sum())


def test_mve_cost_fills_missing_directions_reproducibly():
    F = np.zeros((10, 1))
    F[:5], F[5:] = 1.0, -1.0  # rank 1
    a, b = mve_cost(F, 3, seed=4), mve_cost(F, 3, seed=4)
    np.testing.assert_array_equal(a.P, b.P)
    np.testing.assert_allclose(a.P.T @ a.P, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(a.P.sum(axis=0), 0.0, atol=1e-12)  # orthogonal to 1
    assert abs(a.P[:, 0] @ F[:, 0]) == pytest.approx(np.linalg.norm(F), rel=1e-12)
    with pytest.raises(ValueError, match=r"d must lie in \[1, n - 1\] = \[1, 9\], got 10"):
        mve_cost(F, 10)


def test_centred_eigenvalue_matches_a_projected_dense_eigenvalue():
    X = noisy_roll(25, 1)
    P = MVUProblem.from_points(X, 4, connectivity="knn")
    cost = mve_cost(_centred(X), 2)
    w = np.random.default_rng(1).normal(size=P.m)
    L = np.zeros((P.n, P.n))
    for (i, j), we in zip(P.edges, w):
        e = np.zeros(P.n)
        e[i], e[j] = 1.0, -1.0
        L += we * np.outer(e, e)
    Q = np.linalg.qr(np.eye(P.n) - 1.0 / P.n)[0][:, : P.n - 1]  # a basis of the complement
    naive = np.linalg.eigvalsh(Q.T @ (cost.dense() - L) @ Q)[0]
    got = centred_cost_eigenvalue(P, cost, w)
    assert got <= naive and got == pytest.approx(naive, abs=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_the_bound_never_exceeds_a_feasible_value(seed):
    # the centred inputs are feasible for their own distances: any w gives a bound below
    X = noisy_roll(30, seed)
    P = MVUProblem.from_points(X, 4)
    rng = np.random.default_rng(seed)
    cost = mve_cost(rng.standard_normal((30, 3)), 2)
    for scale in (0.1, 1.0, 10.0):
        cert = certify_cost(P, cost, _centred(X), scale * rng.normal(size=P.m))
        assert cert.violation < 1e-12
        assert cert.bound <= cert.value
        assert cert.consistent


def test_knn_edges_match_a_naive_construction():
    X = noisy_roll(20, 2)
    edges, b = knn_edges(X, 3)
    D = ((X[:, None] - X[None]) ** 2).sum(-1)
    naive = {(min(i, j), max(i, j)) for i in range(20)
             for j in np.argsort(D[i], kind="stable")[1:4]}
    assert {tuple(e) for e in edges} == naive and len(edges) == len(naive)
    np.testing.assert_allclose(b, D[edges[:, 0], edges[:, 1]])
    with pytest.raises(ValueError, match="connectivity must be one of"):
        MVUProblem.from_points(X, 3, connectivity="star")
