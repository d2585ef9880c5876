"""Section 3.1.10's out-of-sample SDP checks: one small job end to end, and the verdicts
on hand-made records (holding, failing, undecided, unmeasured)."""

from __future__ import annotations

import pytest

from harness.results.oos_sdp_3_1_10 import register_claims as rc
from harness.results.oos_sdp_3_1_10.work import work


@pytest.mark.slow
def test_a_small_job_end_to_end():
    out = work({"dataset": "swiss_roll", "dataset_params": {"extra_noise_dims": 0},
                "n_train": 150, "n_test": 10, "mvu_neighbors": 6, "dimension": 2,
                "tight_k": [5], "small_k": [2], "timing_k": [5, 10], "timing_points": 3,
                "second_solver": "clarabel", "solver_time_limit": 120, "seed": 0,
                "blas_threads": 1})
    assert out["status"] == "ok" and out["mvu_status"] == "optimal"
    assert out["tight"][0]["certified"] == 10 and len(out["tight"][0]["gaps"]) == 10
    assert all(g >= -1e-9 for g in out["tight"][0]["gaps"])  # S >= 0: s >= |y_t|^2
    assert out["unique"][0]["max_relative_deviation"] < 1e-3
    assert [c["k"] for c in out["cost"]] == [5, 10]


def _record(gaps=(1e-9, 2e-9), small=(1e-9, 1e-9), deviation=5e-5, power=0.1):
    return {"points": {
        "status": "ok", "n_train": 800, "n_test": len(gaps), "r": 2, "mvu_status": "optimal",
        "second_solver": "clarabel",
        "tight": [{"k": 5, "points": len(gaps), "certified": len(gaps), "gaps": list(gaps),
                   "max_gap": max(gaps)}],
        "small": [{"k": k, "points": len(small), "certified": len(small), "gaps": list(small),
                   "max_gap": max(small)} for k in (2, 3)],
        "unique": [{"k": 5, "both_certified": len(gaps), "max_relative_deviation": deviation}],
        "cost": [{"k": k, "cpu_seconds": 0.001 * k ** power, "solver_seconds": 1e-4, "points": 20}
                 for k in (5, 10, 20, 40, 70, 100)]}}


def test_the_verdicts():
    good = {c["register"]: c["verdict"] for c in rc.register_claims(_record())}
    assert set(good.values()) == {"holds"}
    assert rc.tight(_record(gaps=(1e-9, 0.02)))["verdict"] == "does not hold"
    assert rc.unique(_record(deviation=1e-3))["verdict"] == "does not hold"
    assert rc.small_k(_record(small=(0.5, 1e-9, 1e-9)))["verdict"] == "partly holds"
    assert rc.small_k(_record(small=(0.5, 0.5, 1e-9)))["verdict"] == "does not hold"
    assert rc.complexity(_record(power=5.0))["verdict"] == "does not hold"
    assert rc.complexity(_record(power=3.6))["verdict"] == "undecided (within noise)"
    assert rc.tight({})["verdict"] == "not measured"
