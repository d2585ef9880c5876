"""Section 3.1.8's CG checks: the worst-placed nodes' RMS, the line searches to within 1 %
on a hand-made loss trace, the IQR, the noise level, a small run of a job on a tiny
network (and a gap), the declaration's keys, and the verdicts on hand-made records (a
holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from harness.results import sensor_cg_3_1_8 as decl
from harness.results.sensor_cg_3_1_8 import register_claims as rc
from harness.results.sensor_cg_3_1_8 import work as w


def test_worst_patch_takes_the_worst_before_and_follows_them():
    before = np.array([0.1, 0.2, 3.0, 4.0, 0.3, 0.1, 0.2, 0.1, 0.1, 0.2])
    after = np.array([0.1, 2.0, 0.5, 1.0, 0.3, 0.1, 0.2, 0.1, 0.1, 0.2])
    p = w.worst_patch(before, after, 0.2)  # the two worst before: nodes 3 and 2
    assert p["count"] == 2
    assert p["rms_before"] == pytest.approx(np.sqrt((16 + 9) / 2))
    assert p["rms_after"] == pytest.approx(np.sqrt((1 + 0.25) / 2))
    assert p["rms_after_own_worst"] == pytest.approx(np.sqrt((4 + 1) / 2))  # nodes 1 and 3
    assert p["overlap"] == 1
    assert w.worst_patch(np.ones(5), np.ones(5), 0.01)["count"] == 1  # at least one node
    assert w.worst_patch(np.arange(30.0), np.arange(30.0), 0.1)["count"] == 3


def test_line_searches_to_within_one_percent_of_a_hand_made_trace():
    trace = [100.0, 40.0, 12.0, 5.0, 2.5, 2.03, 2.015, 2.005, 2.0]
    assert w.searches_to_within(trace.__getitem__, 8, 0.01) == 6  # 2.015 <= 2.02 < 2.03
    assert w.searches_to_within(trace.__getitem__, 8, 0.3) == 4  # 2.5 <= 2.6
    linear = next(k for k, v in enumerate(trace) if v <= 1.01 * trace[-1])
    assert linear == 6
    assert w.searches_to_within([1.0, 1.0].__getitem__, 1, 0.01) == 0  # at the start already
    assert w.searches_to_within([3.0].__getitem__, 0, 0.01) == 0  # no line search


def test_iqr_and_the_noise_level():
    assert rc.iqr([1.0, 2.0, 3.0, 4.0, 5.0]) == pytest.approx(2.0)
    assert rc.iqr([4.0, 1.0, 3.0, 2.0]) == pytest.approx(1.5)
    net = w.Network(np.zeros((3, 2)), np.array([[0, 1], [1, 2]]), np.array([1.0, 2.0]),
                    np.array([1.1, 1.8]), {})
    level = w.noise_level(net)
    assert level["rms_distance_error"] == pytest.approx(np.sqrt((0.01 + 0.04) / 2))
    assert level["mean_edge_length"] == pytest.approx(1.5)
    assert level["rms_relative_error"] == pytest.approx(0.1)


def _params(**extra):
    return {"kind": "generated", "region": "square", "dataset": "sensor_network",
            "n_samples": 150, "seed": 3, "radius": decl.radius_for(150), "max_neighbors": 12,
            "noise": 0.1, "n_basis": 6, "omega": 0.9, "cg_omega": 1.0,
            "first_stage_maxiter": 20, "cg_maxiter": 400, "restarts": 2,
            "restart_seed": 1000, "worst_fraction": 0.1, "within": 0.01,
            "large_basis": None, "speed": False, "blas_threads": 1, **extra}


def test_a_job_on_a_tiny_square_and_l_network():
    out = w.work(_params(large_basis=8, speed=True))
    assert out["status"] == "ok" and out["n_samples"] == 150
    assert out["sdp"]["m"] == 6 and out["large"]["sdp"]["m"] == 8
    assert [x["seed"] for x in out["restarts"]] == [1000, 1001]
    assert out["first_stage"]["line_searches"] <= 20
    # the one-step CG never raises the SDP start's loss; the count is within the run
    assert out["one_step"]["loss"] <= out["sdp_estimate"]["loss"]
    assert 0 <= out["speed"]["one_step"] <= out["one_step"]["line_searches"]
    assert 0 <= out["speed"]["random"] <= out["restarts"][0]["line_searches"]
    assert out["patches"]["count"] == 15
    assert out["noise"]["rms_relative_error"] == pytest.approx(0.1 / np.sqrt(3), rel=0.25)
    ell = w.work(_params(region="l_shape", restarts=0))
    assert ell["status"] == "ok" and "restarts" not in ell and "speed" not in ell


def test_a_disconnected_network_and_a_missing_data_set_are_gaps(monkeypatch):
    tiny = w.work(_params(n_samples=200, radius=0.03))
    assert tiny["status"] != "ok" and "connected components" in tiny["reason"]
    from harness.plugin import DataUnavailableError

    def unavailable(self, **kw):
        raise DataUnavailableError("not fetched: run `harness fetch us_cities`")

    plugin = w.registry.get_dataset("us_cities_network")
    monkeypatch.setattr(plugin, "load", unavailable)
    gap = w.work({**_params(), "kind": "dataset", "dataset": "us_cities_network",
                  "dataset_params": {}})
    assert gap["status"] != "ok" and "harness fetch us_cities" in gap["reason"]


def test_the_declaration_s_keys_and_sizes():
    conf = {"region_sizes": [1000, 2000], "region_seeds": [1, 2], "fig_3_20_n_samples": 20000,
            "networks": ["us_cities_network"], "network_params": {}, "noise": 0.1,
            "max_neighbors": 20, "n_basis": 10, "large_basis": 20, "omega": 0.9,
            "cg_omega": 1.0, "first_stage_maxiter": 100, "cg_maxiter": 2000,
            "random_restarts": 20, "restart_seed": 1000, "worst_fraction": 0.1,
            "time_limit_seconds": 60}
    config = {"results": {decl.NAME: conf}, "blas_threads": 1}
    decl.check(config)
    assert decl.keys(config) == ["square_s1", "square_s2", "l_shape_s1", "l_shape_s2",
                                 "fig_3_20_network", "network_us_cities_network"]
    sq = decl.params(config, "square_s2")
    assert sq["n_samples"] == 2000 and sq["restarts"] == 20 and not sq["speed"]
    assert decl.params(config, "l_shape_s1")["restarts"] == 0
    fig = decl.params(config, "fig_3_20_network")
    assert fig["radius"] == pytest.approx(0.06) and fig["speed"] and fig["large_basis"] == 20
    assert decl.radius_for(5000) == pytest.approx(0.12)


# ---- the verdicts on hand-made records -------------------------------------------------

def _rec(one=1.0, two=1.0, true=1.5, restarts=(5.0, 6.0), rms=0.5, noise=1.0, status="optimal",
         patch=(1.0, 0.5), large=None, speed=None, n=1000, stand_in=None):
    r = {"status": "ok", "n_samples": n, "stand_in_for": stand_in,
         "graph": {"radius": 0.1, "n_edges": 10, "mean_degree": 20.0, "min_degree": 20},
         "noise": {"rms_distance_error": noise, "mean_edge_length": 10.0,
                   "rms_relative_error": 0.06},
         "loss_true_positions": true, "sdp": {"m": 10, "status": status, "rank": 4},
         "sdp_estimate": {"loss": 9.0, "rms_rigid": 1.0, "rms_similarity": 1.0},
         "one_step": {"loss": one, "rms_rigid": rms, "rms_similarity": rms, "line_searches": 40},
         "first_stage": {"loss_m_dimensions": 0.9, "line_searches": 100,
                         "positions_2d": {"loss": 2.0, "rms_rigid": 1.0, "rms_similarity": 1.0}},
         "two_step": {"loss": two, "rms_rigid": rms, "rms_similarity": rms, "line_searches": 30},
         "patches": {"fraction": 0.1, "count": 100, "rms_before": patch[0],
                     "rms_after": patch[1], "rms_after_own_worst": patch[1], "overlap": 50}}
    if restarts:
        r["restarts"] = [{"seed": 1000 + i, "loss": v, "rms_rigid": 2.0, "rms_similarity": 2.0,
                          "line_searches": 300} for i, v in enumerate(restarts)]
    if large is not None:
        r["large"] = {"sdp": {"m": 20, "status": large[1], "rank": 4}, "loss": large[0],
                      "rms_rigid": 1.0, "rms_similarity": 1.0, "line_searches": 40}
    if speed is not None:
        r["speed"] = {"within": 0.01, "one_step": speed[0], "random": speed[1],
                      "two_step_2d": 5}
    return r


def _squares(count=4, **kw):
    return {f"square_s{s}": _rec(**kw) for s in range(1, count + 1)}


def _verdict(claim):
    return claim["verdict"]


def test_init_in_basin():
    cities = {rc.CITIES: _rec()}
    assert _verdict(rc.init_in_basin({**_squares(), **cities})) == "holds"
    # the variational start ends 20 % above the best random start, error above the noise
    worse = {**_squares(one=6.0, restarts=(5.0,), rms=2.0), **cities}
    assert _verdict(rc.init_in_basin(worse)) == "does not hold"
    # readings disagree: at the best loss, but the error above the noise level
    split = rc.init_in_basin({**_squares(rms=2.0), **cities})
    assert _verdict(split) == "partly holds"
    # two of five named measured: no verdict; an uncertified city is not counted
    missing = {f"square_s{s}": {"status": "missing", "reason": "no record"} for s in (3, 4)}
    few = {**_squares(2), **missing, rc.CITIES: _rec(status="inaccurate")}
    assert _verdict(rc.init_in_basin(few)) == "not measured"
    assert "not certified, not counted" in rc.init_in_basin(few)["evidence"]
    # a stand-in is shown, never counted
    shown = {**_squares(2), **missing, "network_us_cities_standin": _rec(stand_in="us_cities")}
    assert "stand-in, not counted" in rc.init_in_basin(shown)["evidence"]
    assert _verdict(rc.init_in_basin(shown)) == "not measured"
    assert "scaled down" in rc.init_in_basin({**_squares(), **cities})["evidence"]


def _regions(sq: dict, ell: dict, count=4):
    out = {f"square_s{s}": _rec(**sq) for s in range(1, count + 1)}
    out.update({f"l_shape_s{s}": _rec(**ell) for s in range(1, count + 1)})
    return out


def test_two_step_robust():
    same = {**_regions({}, {}), rc.CITIES: _rec()}
    assert _verdict(rc.two_step_robust(same)) == "holds"
    worse = {**_regions({"two": 1.5}, {"two": 1.5}), rc.CITIES: _rec(two=1.5)}
    assert _verdict(rc.two_step_robust(worse)).startswith(("does not", "partly"))
    assert "reading loss (does not hold)" in rc.two_step_robust(worse)["evidence"]
    # the spread: the two-step's normalised losses spread more than the one-step's
    spread = {f"square_s{s}": _rec(two=1.0 - 0.1 * s) for s in range(1, 5)}
    spread.update({f"l_shape_s{s}": _rec(one=1.0 + 0.01 * s, two=0.5) for s in range(1, 5)})
    s = rc._spread(spread)
    assert s["networks"] == 8 and s["iqr_two_step"] > 1.1 * s["iqr_one_step"]
    assert "reading spread (does not hold)" in rc.two_step_robust(spread)["evidence"]
    assert _verdict(rc.two_step_robust({})) == "not measured"


def test_first_step_helps_nonconvex():
    helps = _regions({"one": 1.0, "two": 1.0}, {"one": 1.0, "two": 0.8})
    assert _verdict(rc.first_step_nonconvex(helps)) == "holds"
    hurts = _regions({"one": 1.0, "two": 0.8}, {"one": 1.0, "two": 1.0})
    assert _verdict(rc.first_step_nonconvex(hurts)) == "does not hold"
    equal = _regions({"one": 1.0, "two": 1.0}, {"one": 1.0, "two": 0.995})
    assert _verdict(rc.first_step_nonconvex(equal)) == "undecided (within noise)"
    assert _verdict(rc.first_step_nonconvex({})) == "not measured"
    summary = rc.summary(helps)
    assert summary["pair_s1.gain_difference"] == pytest.approx(0.2)
    assert summary["threshold.gain_difference"] == pytest.approx(0.01)


def test_second_step_corrects_patches():
    good = {rc.CITIES: _rec(patch=(1.0, 0.5)), decl.FIG_3_20: _rec(patch=(2.0, 1.0), n=20000)}
    assert _verdict(rc.second_step_patches(good)) == "holds"
    bad = {rc.CITIES: _rec(patch=(1.0, 0.5)), decl.FIG_3_20: _rec(patch=(2.0, 1.95), n=20000)}
    assert _verdict(rc.second_step_patches(bad)) == "does not hold"
    # the cities' SDP uncertified: a pass on Fig. 3.20's network alone decides nothing
    half = copy.deepcopy(good)
    half[rc.CITIES]["sdp"]["status"] = "inaccurate"
    assert _verdict(rc.second_step_patches(half)) == "not measured"
    half[decl.FIG_3_20]["patches"]["rms_after"] = 1.95  # a counterexample decides
    assert _verdict(rc.second_step_patches(half)) == "does not hold"
    assert "scaled down" not in rc.second_step_patches(good)["evidence"]
    small = {**good, decl.FIG_3_20: _rec(patch=(2.0, 1.0), n=1000)}
    assert "scaled down: Fig. 3.20's network at n = 1000" in rc.second_step_patches(small)["evidence"]


def test_m10_rapid_convergence():
    def pair(large, speed, status="optimal"):
        kw = {"large": large, "speed": speed}
        return {rc.CITIES: _rec(status=status, **kw), decl.FIG_3_20: _rec(n=20000, **kw)}

    assert _verdict(rc.m10_rapid(pair((1.0, "optimal"), (10, 100)))) == "holds"
    assert _verdict(rc.m10_rapid(pair((0.5, "optimal"), (60, 100)))) == "does not hold"
    split = rc.m10_rapid(pair((1.0, "optimal"), (60, 100)))
    assert _verdict(split) == "partly holds"
    # the largest m uncertified: the quality reading is not measured
    uncert = rc.m10_rapid(pair((1.0, "inaccurate"), (10, 100)))
    assert "reading final quality (not measured)" in uncert["evidence"]
    assert _verdict(uncert) == "holds"
    # the m = 10 SDP uncertified on the cities: one of two, no verdict
    assert _verdict(rc.m10_rapid(pair((1.0, "optimal"), (10, 100), "inaccurate"))) == "not measured"
    assert _verdict(rc.m10_rapid({})) == "not measured"


def test_derived_rows_carry_the_ratios():
    r = _rec(one=2.0, two=1.0, restarts=(4.0, 8.0), large=(1.0, "optimal"), speed=(10, 50))
    rows = dict(rc.derived(r, ""))
    assert rows["derived.two_over_one_step_loss"] == pytest.approx(0.5)
    assert rows["derived.two_step_gain"] == pytest.approx(0.5)
    assert rows["derived.one_step_over_best_random"] == pytest.approx(0.5)
    assert rows["derived.m_over_large_m_loss"] == pytest.approx(2.0)
    assert rows["derived.random_over_one_step_searches"] == pytest.approx(5.0)
    assert rows["derived.patch_relative_decrease"] == pytest.approx(0.5)
    assert rc.derived(r, "one_step") == []
