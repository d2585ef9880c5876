"""min <C, K> over MVU's feasible set (minimum volume embedding's SDP): the native
interior point against Clarabel, each answer certified here."""

import numpy as np
import pytest

from harness.datasets.star import Star
from harness.problems.linear_cost import LinearCost, certify_cost, mve_cost
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import solve_mvu
from harness.solvers.mvu_sdp.ipm import run_ipm
from tests.problems.mvu_data import clarabel_value, noisy_roll

cp = pytest.importorskip("cvxpy")
TOL = 1e-7


def _problems():
    roll = noisy_roll(36, 0)
    star = Star().load(n_samples=33, n_spokes=4, hub_radius=6.0, seed=1).X
    rng = np.random.default_rng(5)
    return [
        pytest.param(MVUProblem.from_points(roll, 5), mve_cost(roll - roll.mean(0), 2),
                     id="roll-clique"),
        pytest.param(MVUProblem.from_points(roll, 4, connectivity="knn"),
                     mve_cost(rng.standard_normal((36, 2)), 2), id="roll-knn"),
        pytest.param(MVUProblem.from_points(star, 4, connectivity="knn"),
                     mve_cost(star - star.mean(0), 2), id="star-knn"),
    ]


@pytest.mark.parametrize("problem, cost", _problems())
def test_native_matches_clarabel_and_both_are_certified(problem, cost):
    native = solve_mvu(problem, "native", tol_gap=TOL, tol_violation=TOL, cost=cost)
    dense = solve_mvu(problem, "clarabel", tol_gap=1e-5, tol_violation=1e-6, cost=cost,
                      time_limit=120)
    for result in (native, dense):
        cert = certify_cost(problem, cost, result.F, result.w)  # recomputed here
        assert cert.consistent and cert.bound <= cert.value + 1e-9 * abs(cert.value)
        assert cert.violation <= 1e-6
        assert cert.value == pytest.approx(result.certificate.value, rel=1e-12)
        assert cert.bound == pytest.approx(result.certificate.bound, rel=1e-12)
    assert native.status == "optimal" and native.certificate.gap <= TOL
    assert dense.status == "optimal", dense.reason
    assert native.certificate.value == pytest.approx(dense.certificate.value, rel=1e-5)


def test_minus_identity_is_maximum_trace():
    problem = MVUProblem.from_points(noisy_roll(30, 2), 4)
    minus_trace = LinearCost(-1.0, np.zeros((30, 0)), np.zeros(0))
    result = solve_mvu(problem, "native", tol_gap=TOL, tol_violation=TOL, cost=minus_trace)
    assert result.status == "optimal"
    assert -result.certificate.value == pytest.approx(clarabel_value(problem), rel=1e-6)


def test_a_perturbed_solution_is_not_certified():
    problem = MVUProblem.from_points(noisy_roll(30, 3), 4)
    cost = mve_cost(np.random.default_rng(0).standard_normal((30, 2)), 2)
    res = solve_mvu(problem, "native", tol_gap=TOL, tol_violation=TOL, cost=cost)
    assert certify_cost(problem, cost, res.F, 1.05 * res.w).gap > 1e-3
    assert certify_cost(problem, cost, 1.02 * res.F, res.w).violation > 1e-3


def test_a_cost_needs_the_equality_variant_and_the_native_interior_point():
    problem = MVUProblem.from_points(noisy_roll(20, 4), 4, variant="inequality")
    cost = mve_cost(np.ones((20, 1)) * np.arange(20)[:, None], 1)
    with pytest.raises(ValueError, match="equality variant"):
        run_ipm(problem, cost=cost)
    equality = MVUProblem.from_points(noisy_roll(20, 4), 4)
    skipped = solve_mvu(equality, "native_lowrank", cost=cost)
    assert skipped.status == "skipped" and "not by native_lowrank" in skipped.reason
    assert "native interior point" in skipped.reason
