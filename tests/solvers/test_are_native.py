"""The action respecting embedding on the native interior point
(harness.solvers.are_native, backend ``native`` of harness.solvers.are_solver): its rows
are the problem's constraints and its multipliers the certificate's (w, v); it
reaches Clarabel's optimum, both certified by certify_are, on the moving window
(inequality distances, equality actions), a random walk of translations and an
instance with equalities only; without action pairs it is native MVU; the
inequality multipliers' sign and the action rows' equality both matter; and
contradicting equalities are proven infeasible."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from harness.datasets.moving_window import MovingWindow
from harness.problems.are_problem import DISTANCES, AREProblem, certify_are
from harness.problems.mvu_problem import MVUProblem
from harness.solvers import are_solver as are_solvers
from harness.solvers.are_solver import ARE_SOLVERS, DEFAULT_ARE_SOLVER, solve_are
from harness.solvers.are_native import are_constraints, split_multipliers
from harness.solvers.mvu_sdp.ipm import run_ipm, solve_ipm

from tests.problems.mvu_data import noisy_roll

pytest.importorskip("cvxpy")

TOL = 1e-6  # both solvers' certified gap and violation here


def window_problem(n: int = 30, seed: int = 1) -> AREProblem:
    data = MovingWindow().load(n_samples=n, seed=seed)
    return AREProblem.from_points(data.X, data.actions, 5)


def translation_walk(n: int = 30, n_actions: int = 6, dim: int = 10, seed: int = 0
                     ) -> AREProblem:
    """A random walk whose actions are fixed translations of R^dim (every action
    constraint holds in the data), inequality distances, k = 4."""
    rng = np.random.default_rng(seed)
    steps = rng.standard_normal((n_actions, dim))
    actions = rng.integers(n_actions, size=n - 1)
    X = np.vstack([np.zeros(dim), np.cumsum(steps[actions], axis=0)])
    return AREProblem.from_points(X, actions, 4)


def two_copies(half: int = 15, pairs: int = 15, seed: int = 0) -> AREProblem:
    """Equalities only: a noisy roll and its translate (distance 3), MVU's equality
    distances on their joint k = 5 graph, and ``pairs`` action rows ``|y_i' - y_j'| =
    |y_i - y_j|`` between a non-edge of the first copy and its translate. The data
    satisfy every row, and the SDP has an interior (as for MVU on noisy data; the
    translation walks' equality SDPs have none: both solvers stall there)."""
    X = noisy_roll(half, seed)
    rng = np.random.default_rng(seed)
    t = rng.standard_normal(X.shape[1])
    Y = np.vstack([X, X + 3.0 * t / np.linalg.norm(t)])
    base = MVUProblem.from_points(Y, 5, variant="equality")
    edges = {tuple(e) for e in base.edges}
    rows = []
    for i, j in zip(*np.triu_indices(half, 1)):
        if (i, j) not in edges and (i + half, j + half) not in edges:
            rows.append((i, j, i + half, j + half))
    chosen = rng.choice(len(rows), pairs, replace=False)
    problem = AREProblem(base=base, pairs=np.array(rows, dtype=np.int64)[np.sort(chosen)])
    assert problem.violation(Y) < 1e-12
    return problem


CASES = {"moving_window": window_problem, "translation_walk": translation_walk,
         "equalities_only": two_copies}


def dense_A(n: int, i: int, j: int) -> np.ndarray:
    a = np.zeros(n)
    a[i], a[j] = 1.0, -1.0
    return np.outer(a, a)


@pytest.fixture(scope="module")
def window():
    problem = window_problem()
    return problem, solve_are(problem, "native", tol_gap=TOL, tol_violation=TOL)


def test_the_rows_are_the_constraints_and_the_multipliers_the_certificates():
    problem = window_problem(n=14)
    system = are_constraints(problem)
    n, m = problem.n, problem.m
    assert system.m == m + problem.c and problem.c > 0
    for r, (i, j) in enumerate(problem.base.edges):
        np.testing.assert_array_equal(system.matrix(r), dense_A(n, i, j))
    for q, (i, j, i1, j1) in enumerate(problem.pairs):  # <A_i'j' - A_ij, K> = 0
        np.testing.assert_array_equal(system.matrix(m + q), dense_A(n, i1, j1) - dense_A(n, i, j))
    np.testing.assert_array_equal(system.b[m:], 0.0)
    np.testing.assert_array_equal(system.inequality, np.arange(m))  # distances only
    # the iteration's multipliers combine the rows into certify_are's L(w, v)
    mult = np.random.default_rng(0).standard_normal(system.m)
    w, v = split_multipliers(problem, mult)
    combined = sum(x * system.matrix(r) for r, x in enumerate(mult))
    np.testing.assert_allclose(problem.dual_laplacian(w, v).toarray(), combined, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_native_and_clarabel_reach_the_same_certified_optimum(case):
    problem = CASES[case]()
    native = solve_are(problem, "native", tol_gap=TOL, tol_violation=TOL)
    clarabel = solve_are(problem, "clarabel", tol_gap=TOL, tol_violation=TOL)
    for result in (native, clarabel):
        assert result.status == "optimal", (result.solver, result.reason)
        again = certify_are(problem, result.F, result.w, result.v)  # recomputed here
        assert again.gap <= TOL and again.violation <= TOL and again.consistent
    a, b = native.certificate, clarabel.certificate
    assert a.value == pytest.approx(b.value, rel=1e-5)
    # each value below the other's dual bound (up to what its violation moves)
    assert a.value <= b.bound * (1 + 1e-5) and b.value <= a.bound * (1 + 1e-5)
    assert native.details["method"] == "ipm" and native.v.shape == (problem.c,)


@pytest.mark.parametrize("distances", DISTANCES)
def test_without_action_pairs_it_is_native_mvu(distances):
    data = MovingWindow().load(n_samples=30, seed=1)
    problem = AREProblem.from_points(data.X, None, 5, distances=distances)
    assert problem.c == 0
    are = solve_are(problem, "native", tol_gap=1e-7, tol_violation=1e-7)
    mvu = solve_ipm(problem.base, tol_gap=1e-7, tol_violation=1e-7)
    assert are.status == mvu.status == "optimal"
    assert are.certificate.value == pytest.approx(mvu.certificate.value, rel=1e-12)
    np.testing.assert_allclose(are.w, mvu.w, rtol=1e-12, atol=0)
    assert are.v.shape == (0,)


def test_the_inequality_multipliers_are_signed_and_the_action_rows_equalities(window):
    problem, native = window
    w, v = native.w, native.v
    # distance rows: w >= 0, inactive ones ~ 0; action rows: free, both signs
    assert (w >= 0).all() and (w < 1e-6 * w.max()).any() and (w > 1e-2 * w.max()).any()
    assert (v > 1e-2 * np.abs(v).max()).any() and (v < -1e-2 * np.abs(v).max()).any()
    # v clipped at 0 (the sign of an inequality) or w flipped (then clipped to 0 by
    # certify_are) certify nothing
    assert certify_are(problem, native.F, w, np.maximum(v, 0.0)).gap > 1e-2
    assert certify_are(problem, native.F, -w, v).gap > 0.5
    # slacks on the action rows too (<A_i'j' - A_ij, K> <= 0) is another problem: a
    # larger trace, above ARE's certified bound, that violates the action rows
    system = are_constraints(problem)
    loose = dataclasses.replace(system, inequality=np.arange(system.m))
    relaxed = run_ipm(loose, tol=1e-9)
    assert relaxed.status == "converged"
    assert problem.objective(relaxed.F) > native.certificate.bound * (1 + 1e-3)
    residuals = problem.action_residuals(relaxed.F)
    assert residuals.max() <= 1e-6 * problem.base.sq_lengths.max()
    assert problem.violation(relaxed.F) > 1e-3


def test_contradicting_equalities_are_proven_infeasible():
    # 0 -> 1 -> 3 on a line with the same action twice: the action must map the
    # pair (0, 1) (distance 1) onto (1, 2) (distance 2), which equalities forbid
    problem = AREProblem.from_points(np.array([[0.0], [1.0], [3.0]]), [0, 0], 2,
                                     distances="equality")
    result = solve_are(problem, "native", time_limit=60)
    assert result.status == "infeasible" and "negative" in result.reason
    assert result.certificate.bound < 0  # tr K <= bound < 0: no PSD K is feasible
    relaxed = solve_are(AREProblem.from_points(np.array([[0.0], [1.0], [3.0]]), [0, 0], 2),
                        "native", time_limit=60)
    assert relaxed.status == "optimal", relaxed.reason
    # the moving window with equality distances: Clarabel says infeasible too
    data = MovingWindow().load(n_samples=30, seed=1)
    window_eq = AREProblem.from_points(data.X, data.actions, 5, distances="equality")
    assert solve_are(window_eq, "native").status == "infeasible"


def test_native_is_the_default_backend_and_keeps_to_its_memory_budget(window, monkeypatch):
    problem, native = window
    assert DEFAULT_ARE_SOLVER == "native" == ARE_SOLVERS[0]
    assert solve_are.__defaults__[0] == "native"
    assert native.solver == "native" and native.compile_seconds == 0.0
    import harness.solvers.mvu_sdp.ipm as ipm_module

    monkeypatch.setattr(ipm_module, "IPM_MEMORY_BUDGET", 1000)
    skipped = are_solvers.solve_are(problem, "native")
    assert skipped.status == "skipped" and "budget" in skipped.reason and skipped.F is None
    with pytest.raises(ValueError, match="unknown ARE solver 'csdp'"):
        solve_are(problem, "csdp")
