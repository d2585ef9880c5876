"""MVU's cost (3.1.4, 3.1.12): the steps job and the k sweep on small rolls, the
solver table's records read at write time, and the verdicts on hand-made records (a
holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import pytest

from harness.results.mvu_steps_3_1_4 import register_claims as rc
from harness.results.mvu_steps_3_1_4 import step_sizes
from harness.results.mvu_steps_3_1_4.work import k_sweep, step_times

ROLL = {"dataset": "swiss_roll", "extra_noise_dims": 5, "extra_noise_std": 0.1, "seed": 0,
        "n_neighbors": 5, "repeats": 3}


def test_the_steps_job_times_both_cheap_steps_at_each_size():
    out = step_times({**ROLL, "sizes": [60, 120]})
    assert [r["n"] for r in out["steps"]] == [60, 120] and out["repeats"] == 3
    assert all(r["knn_cpu_seconds"] > 0 and r["eig_cpu_seconds"] > 0 for r in out["steps"])


def test_the_sweep_solves_connected_graphs_and_records_disconnected_ones():
    out = k_sweep({**ROLL, "n": 80, "ks": [1, 4, 6], "solver_time_limit": 60})
    rows = {r["k"]: r for r in out["sweep"]}
    assert rows[1]["components"] > 1 and "status" not in rows[1]
    assert rows[4]["status"] == rows[6]["status"] == "optimal"
    assert rows[4]["constraints"] < rows[6]["constraints"]
    assert rows[6]["sdp_cpu_seconds"] > 0


def test_step_sizes_follow_the_solver_table_up_to_the_interior_points_range(profile):
    config = profile(mvu_steps_3_1_4={"max_step_n": 1000},
                     solver_table={"backends": ["native"], "n": [40], "variants": ["equality"],
                                   "n_per_backend": {"native": [40, 500, 2000]}})
    assert step_sizes(config) == [40, 500]


def _steps(sdp=(5.0, 40.0), knn=0.1, eig=0.2, status="optimal"):
    recs = {"steps": {"status": "ok", "repeats": 3, "steps": [
        {"n": n, "k": 5, "knn_cpu_seconds": knn, "eig_cpu_seconds": eig} for n in (500, 1000)]}}
    for n, s in zip((500, 1000), sdp):
        recs[f"solver_table/n{n}"] = {"status": "ok", "solver_status": status,
                                     "timing": {"cpu_seconds": s}}
    return recs


def test_the_sdp_step_verdicts():
    assert rc.sdp_most_expensive(_steps())["verdict"] == "holds"
    assert rc.sdp_most_expensive(_steps(eig=3.0))["verdict"] == "does not hold"  # 5 < 2 x 3
    assert rc.sdp_most_expensive(_steps(status="inaccurate"))["verdict"] == "not measured"
    assert rc.sdp_most_expensive({})["verdict"] == "not measured"


def _sweep(times, n=1000, statuses=None):
    statuses = statuses or ["optimal"] * len(times)
    rows = [{"k": 3, "constraints": 2000, "components": 4}]
    for i, (t, st) in enumerate(zip(times, statuses)):
        rows.append({"k": 4 + i, "constraints": 4000 * 2 ** i, "components": 1, "status": st,
                     "sdp_cpu_seconds": t})
    return {"k_sweep": {"status": "ok", "n": n, "solver_time_limit": 3600, "sweep": rows}}


def test_the_growth_reading_judges_the_slope_against_one():
    fast = rc.k_intractable(_sweep([10, 40, 160, 640]))  # slope 2
    assert "reading growth (holds)" in fast["evidence"]
    linear = rc.k_intractable(_sweep([10, 20, 40, 80]))  # slope 1: within the noise
    assert "reading growth (undecided (within noise))" in linear["evidence"]
    sub = rc.k_intractable(_sweep([10, 11, 12, 13]))
    assert "reading growth (does not hold)" in sub["evidence"]
    small = rc.k_intractable(_sweep([10, 40, 160, 640], n=500))
    assert "reading growth (not measured)" in small["evidence"]
    # the budget reading needs more than the roll: not measured
    assert "reading budget (not measured)" in fast["evidence"]
    assert fast["verdict"] == "holds"
    assert rc.k_intractable({})["verdict"] == "not measured"
    assert rc.sweep_slope(_sweep([10, 40])["k_sweep"])[1] == pytest.approx(2.0)
