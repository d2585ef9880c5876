"""Variational MVU (thesis 3.1.8): the small SDP, the CG objective's gradient, and
the four plugins."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from harness.datasets.swiss_roll import SwissRoll
from harness import registry
from harness.problems.mvu_problem import clique_edges
from harness.methods.shared.variational_mvu import (
    PAIR_COUNT, laplacian_basis, lle_basis, refine_objective, solve_variational_sdp,
)

pytest.importorskip("cvxpy")
VARIANTS = ["var_mvu_lap", "var_mvu_lle", "var_mvu_cg_lap", "var_mvu_cg_lle"]


@pytest.fixture(scope="module")
def roll():
    return SwissRoll().load(n_samples=300, noise=0.05, seed=2).X


def test_refine_gradient_matches_finite_differences(roll):
    X = roll[:60]
    edges, b = clique_edges(X, 5)
    rng = np.random.default_rng(0)
    Y = rng.standard_normal((60, 2))
    f, g = refine_objective(Y.ravel(), 60, 2, edges, b, 0.7)
    numeric = approx_fprime(Y.ravel(), lambda y: refine_objective(y, 60, 2, edges, b, 0.7)[0],
                            1e-6)
    np.testing.assert_allclose(g, numeric, rtol=1e-4, atol=1e-4 * np.abs(g).max())


def test_refine_objective_against_a_naive_loop(roll):
    X = roll[:30]
    edges, b = clique_edges(X, 4)
    Y = np.random.default_rng(1).standard_normal((30, 2))
    variance = ((Y - Y.mean(0)) ** 2).sum()
    penalty = sum(PAIR_COUNT * (((Y[i] - Y[j]) ** 2).sum() - be) ** 2
                  for (i, j), be in zip(edges, b))
    f, _ = refine_objective(Y.ravel(), 30, 2, edges, b, 0.3)
    assert -f == pytest.approx(0.7 * variance - 0.3 * penalty, rel=1e-12)


@pytest.mark.parametrize("basis", [laplacian_basis, lle_basis])
def test_bases_are_orthonormal_and_centred(roll, basis):
    Q = basis(roll, 8, 10, seed=0)
    assert Q.shape == (300, 10)
    np.testing.assert_allclose(Q.T @ Q, np.eye(10), atol=1e-8)
    np.testing.assert_allclose(Q.sum(axis=0), 0, atol=1e-8)


def test_variational_sdp_recovers_an_exact_solution():
    # If the distances come from points in the span of Q, Z reproduces them.
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((40, 4)) - 0.0)
    Q -= Q.mean(0)
    Q, _ = np.linalg.qr(Q)
    Y = Q @ np.diag([3.0, 2.0, 0, 0]) @ rng.standard_normal((4, 4))
    edges = np.array([(i, j) for i in range(40) for j in range(i + 1, min(40, i + 6))])
    b = ((Y[edges[:, 0]] - Y[edges[:, 1]]) ** 2).sum(1)
    Z, status = solve_variational_sdp(Q, edges, b, omega=0.999)
    d = np.einsum("ea,ab,eb->e", Q[edges[:, 0]] - Q[edges[:, 1]], Z,
                  Q[edges[:, 0]] - Q[edges[:, 1]])
    assert np.abs(d - b).max() < 1e-2 * b.max()
    assert np.linalg.eigvalsh(Z).min() > -1e-8


@pytest.mark.parametrize("name", VARIANTS)
def test_plugins_embed_and_report(roll, name):
    est = registry.get_method(name)(n_neighbors=8, n_components=2, random_state=0)
    Y = est.fit_transform(roll)
    assert Y.shape == (300, 2) and np.isfinite(Y).all()
    assert est.Z_.shape == (10, 10) and est.sdp_status_.startswith("optimal")
    assert (est.cg_iterations_ > 0) == ("_cg_" in name)
    # CG raises the objective it optimises, starting from the SDP solution
    if "_cg_" in name:
        plain = registry.get_method(name.replace("_cg", ""))(n_neighbors=8, random_state=0)
        Yp = plain.fit_transform(roll)
        scale = est.sq_lengths_.mean()
        args = (300, 2, est.edges_, est.sq_lengths_ / scale, 0.9)
        assert refine_objective((Y / np.sqrt(scale)).ravel(), *args)[0] < \
            refine_objective((Yp / np.sqrt(scale)).ravel(), *args)[0]
