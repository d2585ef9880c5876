"""The native MVU solvers' own time limits count CPU seconds of the process
(harness.timelimit.Deadline), the clock of the job's budget: wall time the process
spends waiting (a loaded machine, here a sleep) does not use them up."""

import time

import pytest

from harness import timelimit
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import ipm as ipm_module
from harness.solvers.mvu_sdp.lowrank import solve_lowrank
from harness.solvers.mvu_sdp.native_solver import solve_native

from tests.problems.mvu_data import noisy_roll


def _problem():
    return MVUProblem.from_points(noisy_roll(60, 5), 5)


def _frozen_cpu(monkeypatch):
    """A CPU clock that never advances: no budget is ever used."""
    monkeypatch.setattr(timelimit, "cpu_clock", lambda: 0.0)


def test_wall_time_without_cpu_does_not_end_the_interior_point(monkeypatch):
    _frozen_cpu(monkeypatch)
    step = ipm_module._step

    def slow_step(*args, **kwargs):  # each iteration also waits 20 ms of wall time
        time.sleep(0.02)
        return step(*args, **kwargs)

    monkeypatch.setattr(ipm_module, "_step", slow_step)
    res = solve_native(_problem(), time_limit=0.01, facial="off", method="ipm")
    assert res.status == "optimal" and res.iterations > 1
    assert res.seconds > 0.01  # the wall time is still measured


def test_the_interior_point_stops_when_its_cpu_budget_is_used(monkeypatch):
    clock = iter(range(0, 10**6, 100))  # every reading: 100 more CPU seconds
    monkeypatch.setattr(timelimit, "cpu_clock", lambda: float(next(clock)))
    res = solve_native(_problem(), time_limit=150.0, facial="off", method="ipm")
    assert res.status == "timeout" and res.iterations == 2


@pytest.mark.parametrize("frozen", [True, False])
def test_the_low_rank_method_counts_cpu_seconds(monkeypatch, frozen):
    if frozen:
        _frozen_cpu(monkeypatch)
    else:
        clock = iter(range(0, 10**7, 100))
        monkeypatch.setattr(timelimit, "cpu_clock", lambda: float(next(clock)))
    res = solve_lowrank(_problem(), time_limit=50.0)
    assert (res.status == "timeout") is not frozen


def test_a_stalled_interior_point_hands_the_low_rank_method_a_bounded_share(monkeypatch):
    """After an inaccurate interior point the low-rank fallback gets at most
    FALLBACK_FACTOR x the interior point's CPU seconds (at least the floor), not the
    whole time left (it spent ~480 of 541 CPU-s for nothing on two quick cells)."""
    from harness.solvers.mvu_sdp import native_solver

    clock = iter([0.0] + [90.0] * 100)  # the deadline starts at 0; the IPM used 90 s
    monkeypatch.setattr(timelimit, "cpu_clock", lambda: float(next(clock)))
    given = {}

    class Stalled:
        status, details = "inaccurate", {}

    def fake_ipm(problem, **kw):
        return Stalled()

    def fake_lowrank(problem, time_limit, **kw):
        given["time_limit"] = time_limit
        return Stalled()

    monkeypatch.setattr(native_solver, "solve_ipm", fake_ipm)
    monkeypatch.setattr(native_solver, "solve_lowrank", fake_lowrank)
    monkeypatch.setattr(native_solver, "_better_result", lambda a, b, *args: False)
    problem = _problem()
    native_solver.solve_native(problem, time_limit=600.0, facial="off")
    used = 90.0
    assert given["time_limit"] == pytest.approx(
        max(native_solver.FALLBACK_MIN_SECONDS, native_solver.FALLBACK_FACTOR * used))
    assert given["time_limit"] < 600.0 - used
