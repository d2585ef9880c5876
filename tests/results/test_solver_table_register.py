"""The solver table's claims-register entries on hand-made frames: each decides both
ways (harness.results.solver_table.register_claims)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.claims import WITHIN_NOISE
from harness.results.solver_table import register_claims as rc


def _solve(backend="csdp", n=100, **kw):
    row = {"variant": "equality", "backend": backend, "n": n, "k": 5, "status": "ok",
           "verdict": "optimal", "reason": "", "solver_status": "optimal",
           "objective": 100.0, "bound": 100.0, "gap": 0.0, "violation": 0.0,
           "max_sq_length": 1.0, "max_edge_residual": 1e-6, "edge_error_2d": 0.01,
           "spectrum": np.array([0.6, 0.4]), "trace": 100.0, "input_variance": 50.0,
           "method": "ipm" if backend == "native" else "", "solve_seconds": 1.0,
           "cpu_seconds": 1.0}
    row.update(kw)
    return row


def _frame(*rows):
    return pd.DataFrame(list(rows))


def test_checks():
    a, b = {"objective": 1.0, "bound": 1.0}, {"objective": 1.5, "bound": 1.5}
    assert rc.same_optimum(a, a) is True and rc.same_optimum(a, b) is False
    assert rc.at_least(b, a) is True and rc.at_least(a, b) is False
    assert rc.timing_ratio_check(10.0, 1.5) is True and rc.timing_ratio_check(0.5, 1.5) is False
    assert rc.timing_ratio_check(2.0, 1.5) is WITHIN_NOISE
    assert rc.most_of({"a": False, "b": False}, ["a", "b", "c"])[0] == [False]


def test_feasible_holds_and_fails():
    assert rc._feasible(_frame(_solve()))["verdict"] == "holds"
    bad = _frame(_solve(), _solve("scs", status="failed", verdict="failed",
                                  solver_status="infeasible"))
    assert rc._feasible(bad)["verdict"] == "does not hold"
    # dual infeasible is unboundedness, not infeasibility
    dual = _frame(_solve(solver_status="2: dual infeasible"))
    assert rc._feasible(dual)["verdict"] == "holds"
    assert rc._gram_feasible(bad)["verdict"] == "does not hold"


def test_bounded_needs_every_named_data_set_but_a_report_decides():
    assert rc._bounded(_frame(_solve()), 5)["verdict"] == "not measured"
    unbounded = _frame(_solve(solver_status="unbounded"))
    assert rc._bounded(unbounded, 5)["verdict"] == "does not hold"


def test_bound_312_both_ways():
    # n = 10, largest squared length 1: scaled by s the trace is s^2 v; the squared
    # reading's limit 1000 s^4 / 2 (at s = 0.01: v <= 0.05), the distance reading's
    # 1000 s^2 / 2 (v <= 500)
    ok = _frame(_solve(n=10, objective=0.01, bound=0.01))
    assert rc._bound_312(ok)["verdict"] == "holds"
    # a trace far above: at scale 0.01 the squared reading's limit is 1000 * 1e-8 / 2
    high = _frame(_solve(n=10, objective=400.0, bound=400.0))
    claim = rc._bound_312(high)
    assert claim["verdict"] in ("partly holds", "does not hold")
    assert "reading tau squared distance (does not hold)" in claim["evidence"]


def test_convex_same_optimum_both_ways():
    same = _frame(_solve("csdp"), _solve("clarabel", objective=100.000001, bound=100.000001))
    assert rc._convex(same)["verdict"] == "holds"
    apart = _frame(_solve("csdp"), _solve("clarabel", objective=101.0, bound=101.0))
    assert rc._convex(apart)["verdict"] == "does not hold"


def test_fig_3_5_needs_its_point():
    assert rc._fig_3_5(_frame(_solve()), 5)["verdict"] == "not measured"
    assert rc._fig_3_5(_frame(_solve(n=800, k=6)), 6)["verdict"] == "holds"
    assert rc._fig_3_5(_frame(_solve(n=800, k=6, max_edge_residual=0.01)), 6)["verdict"] \
        == "does not hold"


def test_relaxed_variance_counterexample_decides():
    strict = _solve()
    loose = _solve(variant="inequality", objective=90.0, bound=90.0)
    assert rc._relaxed_variance(_frame(strict, loose))["verdict"] == "does not hold"
    wider = _solve(variant="inequality", objective=110.0, bound=110.0)
    assert rc._relaxed_variance(_frame(strict, wider))["verdict"] == "not measured"


def test_slack_slower_some():
    strict = _solve(n=200, cpu_seconds=1.0)
    slow = _solve(variant="slack", n=200, cpu_seconds=10.0)
    fast = _solve(variant="slack", n=200, cpu_seconds=0.5)
    assert rc._slack_slower(_frame(strict, slow), 6)["verdict"] == "holds"
    assert rc._slack_slower(_frame(strict, fast), 6)["verdict"] == "does not hold"
    assert rc._slack_slower(_frame(strict, slow), 5)["verdict"] == "not measured"


@pytest.mark.parametrize("power, verdict", [(3.0, "holds"), (1.0, "does not hold")])
def test_csdp_scaling(power, verdict):
    rows = [_solve("csdp", n=n, solve_seconds=(n / 100) ** power) for n in (100, 200, 400, 800)]
    assert rc._csdp_scaling(_frame(*rows))["verdict"] == verdict


@pytest.mark.parametrize("power, verdict", [(2.0, "holds"), (6.0, "does not hold")])
def test_ipm_complexity(power, verdict):
    rows = [_solve("native", n=n, solve_seconds=(n / 100) ** power) for n in (100, 200, 400)]
    assert rc._ipm_complexity(_frame(*rows), 5)["verdict"] == verdict


def test_finite_size_and_local_guarantees():
    assert rc._finite_size(_frame(_solve()))["verdict"] == "holds"
    assert rc._finite_size(_frame(_solve(edge_error_2d=0.2)))["verdict"] == "partly holds"
    assert rc._local_convex(_frame(_solve(), _solve("clarabel")))["verdict"] == "holds"
    assert rc._local_convex(_frame(_solve(max_edge_residual=0.1)))["verdict"] != "holds"


def test_lecture_stretched():
    args = ("lec-sde-unfolds-preserves-distances", "SDE unfolds", 1e-3)
    assert rc._stretched(_frame(_solve()), *args)["verdict"] == "holds"
    assert rc._stretched(_frame(_solve(trace=50.0)), *args)["verdict"] == "does not hold"


def test_kernel_numbers():
    F = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    edges = np.array([[0, 1], [1, 2]])
    out = rc.kernel_numbers(F, edges, np.array([1.0, 1.0]))
    assert out["max_edge_residual"] == pytest.approx(0.0, abs=1e-12)
    out = rc.kernel_numbers(F, edges, np.array([2.0, 1.0]))
    assert out["max_edge_residual"] == pytest.approx(0.5)
