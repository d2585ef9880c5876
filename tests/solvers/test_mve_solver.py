"""Minimum volume embedding's iterated SDP (harness.solvers.mve_solver): the objective never
decreases, every SDP is certified, and the cases whose answer is known."""

import numpy as np
import pytest

from harness.datasets.star import Star
from harness.problems.linear_cost import spectral_objective
from harness.problems.mvu_problem import MVUProblem
from harness.solvers import mve_solver as mve
from harness.solvers.mvu_sdp import solve_mvu
from tests.problems.mvu_data import clarabel_value, noisy_roll

TOL = 1e-6


def _certified_and_monotone(result, tol=TOL):
    """Each SDP certified; g(K_t) >= -tr(K_t B_t) >= g(K_{t-1}) up to the certified gap."""
    h = result.history
    assert len(h) >= 2
    for prev, cur in zip(h[1:-1], h[2:]):
        slack = 2 * tol * abs(cur["sdp_value"]) + 1e-9 * abs(prev["objective"])
        assert cur["variational"] >= prev["objective"] - slack, (prev, cur)
    for cur in h[1:]:
        assert cur["sdp_status"] == "optimal" and cur["gap"] <= tol and cur["violation"] <= tol
        # Ky Fan: -tr(K B) <= g(K) for every orthonormal V_d
        assert cur["objective"] >= cur["variational"] - 1e-9 * abs(cur["objective"])
    objectives = [e["objective"] for e in h[1:]]
    assert all(b >= a - 2 * tol * abs(a) for a, b in zip(objectives, objectives[1:]))


def test_objective_is_monotone_and_every_sdp_certified_on_a_roll():
    X = noisy_roll(80, 3)
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 5, "knn")
    result = mve.iterate_mve(problem, F0, 2, eps=1e-3, max_iter=12, tol_gap=TOL,
                             tol_violation=TOL)
    _certified_and_monotone(result)
    assert result.history[-1]["objective"] > 1.5 * result.history[0]["objective"]
    assert result.certified and result.status in ("converged", "max_iter")
    # the recorded objective is the spectrum of the returned kernel
    lam = mve.kernel_eigenvalues(result.F)
    assert result.history[-1]["objective"] == pytest.approx(spectral_objective(lam, 2))


def test_full_dimension_is_mvu():
    # d = n - 1: B = -I on the centred subspace, so the SDP is MVU's maximum trace
    X = noisy_roll(30, 1)
    problem = MVUProblem.from_points(X, 4)
    result = mve.iterate_mve(problem, mve.affinity_factor(X), problem.n - 1, eps=1e-6,
                             max_iter=3, tol_gap=TOL, tol_violation=TOL)
    assert result.history[1]["objective"] == pytest.approx(clarabel_value(problem), rel=1e-5)
    assert result.history[1]["trace"] == pytest.approx(clarabel_value(problem), rel=1e-5)


def test_points_on_a_plane_keep_all_energy_in_two_dimensions():
    rng = np.random.default_rng(0)
    R = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    X = np.column_stack([rng.uniform(-1, 1, (60, 2)), np.zeros(60)]) @ R.T
    F0 = mve.affinity_factor(X)
    result = mve.iterate_mve(mve.points_problem(X, F0, 5), F0, 2, tol_gap=TOL,
                             tol_violation=TOL)
    assert result.certified and result.status == "converged"
    assert mve.fidelity(mve.kernel_eigenvalues(result.F)) > 1 - 1e-6
    # the cliques lock a plane: the kernel is the input's Gram matrix
    assert mve.relative_change(result.F, F0) < 1e-4


def test_same_answer_from_the_affinity_mvu_and_random_starts():
    X = noisy_roll(60, 4)
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 5)
    found = []
    for init in mve.INITS:
        start, _ = mve.initial_factor(init, F0, problem, 2, solver="native", seed=3,
                                      time_limit=60, tol_gap=TOL, tol_violation=TOL)
        result = mve.iterate_mve(problem, start, 2, eps=1e-5, tol_gap=TOL, tol_violation=TOL)
        _certified_and_monotone(result)
        found.append(result.history[-1]["objective"])
    np.testing.assert_allclose(found, found[0], rtol=1e-4)


def test_mvu_stretches_the_star_and_mve_keeps_it_in_two_dimensions():
    X = Star().load(n_samples=81, n_spokes=8).X  # 10 points per spoke
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 8, "knn")
    mvu = solve_mvu(problem, "native", tol_gap=TOL, tol_violation=TOL)
    assert mvu.status == "optimal"
    spread = mve.fidelity(mve.kernel_eigenvalues(mvu.F))
    result = mve.iterate_mve(problem, F0, 2, tol_gap=TOL, tol_violation=TOL)
    kept = mve.fidelity(mve.kernel_eigenvalues(result.F))
    assert mve.fidelity(mve.kernel_eigenvalues(F0)) > 0.999  # a planar star
    assert spread < 0.4 and kept > 0.999, (spread, kept)


def test_helpers_match_dense_constructions():
    rng = np.random.default_rng(2)
    F, G = rng.standard_normal((9, 3)), rng.standard_normal((9, 4))
    dense = np.linalg.norm(F @ F.T - G @ G.T) / np.linalg.norm(G @ G.T)
    assert mve.relative_change(F, G) == pytest.approx(dense, rel=1e-10)
    assert mve.fidelity([3.0, 1.0, 0.5, 0.5], 2) == pytest.approx(0.8)
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]])
    C = mve.commute_time_factor(4, edges)
    L = np.diag([3.0, 2, 3, 2]) - np.array([[0, 1, 1, 1], [1, 0, 1, 0], [1, 1, 0, 1], [1, 0, 1, 0]])
    np.testing.assert_allclose(C @ C.T, np.linalg.pinv(L), atol=1e-12)
    X = rng.standard_normal((12, 3))
    A = np.exp(-0.3 * ((X[:, None] - X[None]) ** 2).sum(-1))
    J = np.eye(12) - 1.0 / 12
    Fr = mve.affinity_factor(X, "rbf", 0.3)
    np.testing.assert_allclose(Fr @ Fr.T, J @ A @ J, atol=1e-10)
    problem = mve.graph_problem(4, edges[:, ::-1])
    assert problem.edges.tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]
    assert (problem.sq_lengths == 1).all()


def test_bad_arguments_name_the_value():
    X = noisy_roll(20, 0)
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 4)
    with pytest.raises(ValueError, match=r"d must lie in \[1, n - 1\] = \[1, 19\], got 20"):
        mve.iterate_mve(problem, F0, 20)
    with pytest.raises(ValueError, match="eps must be positive"):
        mve.iterate_mve(problem, F0, 2, eps=0)
    with pytest.raises(ValueError, match="kernel must be one of"):
        mve.affinity_factor(X, "poly")
    with pytest.raises(ValueError, match="init must be one of"):
        mve.initial_factor("zeros", F0, problem, 2, solver="native", seed=0,
                           time_limit=1, tol_gap=TOL, tol_violation=TOL)
    with pytest.raises(ValueError, match="distinct nodes below n = 3"):
        mve.graph_problem(3, np.array([[0, 3]]))
    with pytest.raises(ValueError, match="MVE keeps MVU's equality"):
        mve.iterate_mve(MVUProblem.from_points(X, 4, variant="min_trace"), F0, 2)


def _failing_second_sdp(monkeypatch, status="timeout"):
    """Patch the solver so that the second SDP returns no kernel (as a timed-out or
    failed solve does)."""
    from harness.solvers.mvu_sdp.result import SolveResult

    calls = []

    def solve(problem, solver, **kw):
        calls.append(1)
        if len(calls) == 2:
            return SolveResult(status, "made to fail by the test", solver)
        return solve_mvu(problem, solver, **kw)

    monkeypatch.setattr(mve, "solve_mvu", solve)


def test_a_failed_last_sdp_is_recorded_and_not_certified(monkeypatch):
    # before: the failed SDP was not in the history and `certified` was True
    X = noisy_roll(60, 4)
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 5, "knn")
    _failing_second_sdp(monkeypatch)
    result = mve.iterate_mve(problem, F0, 2, eps=1e-12, max_iter=5, tol_gap=TOL,
                             tol_violation=TOL)
    assert result.status == "timeout" and "SDP 2" in result.reason
    assert result.attempted == 2 and result.iterations == 1
    last = result.history[-1]
    assert last["iteration"] == 2 and last["sdp_status"] == "timeout"
    assert last["accepted"] is False and "made to fail" in last["reason"]
    assert "objective" not in last and "cpu_seconds" in last
    assert result.history[1]["sdp_status"] == "optimal" and result.history[1]["accepted"]
    assert not result.certified
    assert result.failed_sdps == [{"iteration": 2, "sdp_status": "timeout",
                                   "reason": "made to fail by the test", "accepted": False}]


def test_no_sdp_is_not_certified():
    result = mve.MVEResult(F=np.zeros((3, 1)), history=[{"iteration": 0}], status="timeout")
    assert not result.certified and result.iterations == 0 and result.attempted == 0


def test_deadline_is_cpu_time(monkeypatch):
    # the limit is CPU seconds of the process: a CPU clock that jumps 100 s per
    # reading stops the iteration after one SDP, whatever the wall clock says
    from harness import timelimit

    ticks = iter(range(0, 10_000, 100))

    def fake_clock():
        return float(next(ticks))

    monkeypatch.setattr(mve, "cpu_clock", fake_clock)
    monkeypatch.setattr(timelimit, "cpu_clock", fake_clock)  # Deadline's clock
    X = noisy_roll(40, 4)
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 5, "knn")
    result = mve.iterate_mve(problem, F0, 2, eps=1e-12, max_iter=5, time_limit=250.0)
    assert result.status == "timeout" and "CPU time limit of 250 s" in result.reason
    # the SDP's own deadline reads the same fake clock (Deadline), so it used >= 100 s
    assert result.attempted == 1 and result.history[1]["cpu_seconds"] >= 100.0


def test_mvu_start_falls_back_to_the_affinity_kernel_and_says_so(monkeypatch):
    from harness.solvers.mvu_sdp.result import SolveResult

    X = noisy_roll(40, 4)
    F0 = mve.affinity_factor(X)
    problem = mve.points_problem(X, F0, 5)
    monkeypatch.setattr(mve, "solve_mvu",
                        lambda problem, solver, **kw: SolveResult("failed", "boom", solver))
    start, info = mve.initial_factor("mvu", F0, problem, 2, solver="native", seed=0,
                                     time_limit=10, tol_gap=TOL, tol_violation=TOL)
    assert start is F0
    assert info["init_requested"] == "mvu" and info["init_used"] == "affinity"
    assert "failed: boom" in info["fallback_reason"] and info["solve"]["status"] == "failed"
    _, info = mve.initial_factor("random", F0, problem, 2, solver="native", seed=0,
                                 time_limit=10, tol_gap=TOL, tol_violation=TOL)
    assert info == {"init_requested": "random", "init_used": "random", "fallback_reason": ""}
