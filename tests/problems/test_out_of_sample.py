"""The out-of-sample SDP (thesis 3.1.10): the native solver against cvxpy's Clarabel
on the printed SDP, the dual bound against weak duality, exact recovery, scaling,
batch independence and the printed-vs-derived constraint set."""

import numpy as np
import pytest

from harness.problems.out_of_sample import OutOfSampleProblem
from harness.solvers.out_of_sample_native import ENGINES, solve_out_of_sample

CASES = [(r, k, seed) for r, k in [(1, 3), (1, 5), (2, 3), (2, 5), (2, 8), (3, 4), (3, 7),
                                    (5, 11)] for seed in range(3)]


def random_case(r, k, seed, noise=0.3):
    rng = np.random.default_rng(seed)
    anchors = rng.standard_normal((k, r)) * 2 + rng.standard_normal(r)
    y_true = anchors.mean(0) + rng.standard_normal(r)
    d = ((anchors - y_true) ** 2).sum(1) * rng.uniform(1 - noise, 1 + noise, k)
    return anchors, d


def clarabel(problem):
    cp_problem, S = problem.to_cvxpy()
    cp_problem.solve(solver="CLARABEL")
    r = problem.r
    return cp_problem.value, S.value[:r, r], S.value[r, r]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("r, k, seed", CASES)
def test_native_matches_clarabel_on_the_printed_sdp(r, k, seed, engine):
    anchors, d = random_case(r, k, seed)
    problem = OutOfSampleProblem(anchors, d)
    value, y_cp, s_cp = clarabel(problem)
    sol = solve_out_of_sample(anchors[None], d[None], tol=1e-9, mu=50.0,
                              engine=engine)  # accuracy, not speed
    cert = problem.certificate(sol.y[0], sol.s[0], sol.w[0])
    assert sol.status[0] == "optimal" and cert["gap"] <= 1e-6 and cert["violation"] == 0.0
    default = solve_out_of_sample(anchors[None], d[None], engine=engine)  # the speed settings
    assert default.status[0] == "optimal" and default.gap[0] <= 1e-4
    # our recomputation agrees with the solver's own numbers
    assert cert["objective"] == pytest.approx(sol.objective[0], rel=1e-12)
    assert cert["bound"] == pytest.approx(sol.bound[0], rel=1e-9, abs=1e-12)
    # both solvers reach the same optimum, within the certified gap (and Clarabel's)
    assert sol.objective[0] == pytest.approx(value, rel=1e-5, abs=1e-7)
    assert problem.objective(y_cp, s_cp) >= cert["bound"] - 1e-6 * max(1, value)


def test_dual_bound_is_below_the_optimum_for_any_multipliers():
    rng = np.random.default_rng(7)
    for r, k, seed in CASES[::2]:
        anchors, d = random_case(r, k, seed)
        problem = OutOfSampleProblem(anchors, d)
        value = clarabel(problem)[0]
        for _ in range(50):
            w = rng.uniform(-1.5, 1.5, k)  # also outside the box and with nu <= 0
            upper = value * rng.uniform(1, 3)
            assert problem.dual_bound(w, upper) <= value + 1e-7 * max(1, value)


@pytest.mark.parametrize("r, k", [(1, 3), (2, 5), (3, 7)])
def test_consistent_distances_are_reproduced_exactly(r, k):
    rng = np.random.default_rng(r)
    anchors = rng.standard_normal((k, r))
    y_true = 0.3 * rng.standard_normal(r)
    d = ((anchors - y_true) ** 2).sum(1)
    sol = solve_out_of_sample(anchors[None], d[None])
    np.testing.assert_allclose(sol.y[0], y_true, atol=1e-6)
    assert sol.s[0] == pytest.approx(y_true @ y_true, abs=1e-6)  # s = |y_t|^2: (3.33) tight


def test_the_problem_is_homogeneous():
    anchors, d = random_case(2, 6, 0)
    base = solve_out_of_sample(anchors[None], d[None])
    for c in (1e-3, 1e3):
        scaled = solve_out_of_sample(c * anchors[None], c * c * d[None])
        np.testing.assert_allclose(scaled.y[0], c * base.y[0], rtol=1e-5, atol=1e-9 * c)
        assert scaled.objective[0] == pytest.approx(c * c * base.objective[0], rel=1e-6)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_batch_gives_each_point_the_answer_it_gets_alone(engine):
    cases = [random_case(2, 6, seed) for seed in range(12)]
    anchors = np.stack([a for a, _ in cases])
    d = np.stack([x for _, x in cases])
    batch = solve_out_of_sample(anchors, d, engine=engine)
    for i in (0, 5, 11):
        alone = solve_out_of_sample(anchors[i:i + 1], d[i:i + 1], engine=engine)
        np.testing.assert_array_equal(alone.y[0], batch.y[i])
    assert (batch.status == "optimal").all()


@pytest.mark.parametrize("r, k", [(1, 4), (2, 5), (3, 9)])
def test_the_numba_kernel_follows_the_numpy_reference(r, k):
    """Same iteration in both engines: the same Newton step counts (up to rounding
    in a few points), statuses, objectives and certified gaps."""
    cases = [random_case(r, k, seed) for seed in range(60)]
    anchors = np.stack([a for a, _ in cases])
    d = np.stack([x for _, x in cases])
    fast = solve_out_of_sample(anchors, d, engine="numba")
    ref = solve_out_of_sample(anchors, d, engine="numpy")
    np.testing.assert_array_equal(fast.status, ref.status)
    assert (fast.status == "optimal").all()
    assert (fast.newton_steps == ref.newton_steps).mean() >= 0.9
    np.testing.assert_allclose(fast.objective, ref.objective, rtol=1e-6)
    assert np.abs(fast.gap - ref.gap).max() <= 1e-5
    # where the optimum is unique the two land on it; flat optima may differ
    assert np.median(np.abs(fast.y - ref.y).max(1) / np.sqrt(d.mean(1))) <= 1e-6


def test_printed_constraint_set_is_a_relaxation_of_the_derived_one():
    """Constraint (2) as printed fixes only the diagonal of the top-left block, so
    its optimum is at most the derived problem's (top-left = I)."""
    for r, k, seed in [(2, 5, 0), (3, 7, 1)]:
        anchors, d = random_case(r, k, seed)
        derived = clarabel(OutOfSampleProblem(anchors, d))[0]
        printed = clarabel(OutOfSampleProblem(anchors, d, top_left="diagonal"))[0]
        assert printed <= derived + 1e-6


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="anchors must be"):
        OutOfSampleProblem(np.zeros((3, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="non-negative"):
        OutOfSampleProblem(np.zeros((3, 2)), -np.ones(3))
    with pytest.raises(ValueError, match="top_left"):
        OutOfSampleProblem(np.zeros((3, 2)), np.ones(3), top_left="full")
    with pytest.raises(ValueError, match="anchors must be"):
        solve_out_of_sample(np.zeros((3, 2)), np.ones(3))
    with pytest.raises(ValueError, match=r"engine must be one of \('numba', 'numpy'\)"):
        solve_out_of_sample(np.zeros((1, 3, 2)), np.ones((1, 3)), engine="cython")
