"""Figs. 3.20 and 3.21 (thesis 3.1.8, sensor localisation) from hand-made records:
keys, params, checks, the aggregation, the claims' verdicts and the files; and one
real point of each figure on a small network."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from harness.claims import WITHIN_NOISE

from harness.errors import ConfigError
from harness.jobs import job_params, parse_job
from harness.reference import thesis_claim
from harness.result_registry import get_result
from harness.metrics.alignment import align
from harness.results.common.work.sensor_point import pack, position_errors, sensor_work, unpack
from harness.results.fig_3_20 import write as fig_3_20_write
from harness.results.fig_3_21 import write as fig_3_21_write
from tests.results.conftest import write_point

fig_3_20 = get_result("fig_3_20")
fig_3_21 = get_result("fig_3_21")
SMALL = {"n_samples": 120, "dataset_params": {"radius": 0.3, "max_neighbors": 10}}


def _estimate(X, shift, scale=1.0, loss=1e-3, keep=True):
    rng = np.random.default_rng(int(shift * 1e6) % 1000)
    Y = scale * (X + shift * rng.standard_normal(X.shape))
    out = {"loss": loss, "errors": position_errors(Y, X)}
    if keep:
        out["positions"] = pack(Y)
    return out


def _truth(config):
    from harness.results.common.work.sensor_point import load_network

    return load_network(job_params(config, parse_job("fig_3_20/variational")))


def _common(net):
    return {"n_samples": 120, "n_edges": len(net.edges), "radius": 0.3,
            "loss_true_positions": 2e-3}


def write_variational(config, sdp_status="optimal", relative_gap=1e-12):
    """The variational job's record: the SDP's positions (scaled by 1.6, mean error
    ~1e-2), refined by CG (~1e-3); its SDP solve of the given status."""
    net = _truth(config)
    write_point(config, "fig_3_20/variational", **_common(net), sdp_seconds=0.5,
                cg_seconds=0.7, sdp_cpu_seconds=0.45, line_searches=37,
                sdp={"status": sdp_status, "relative_gap": relative_gap},
                estimates={"sdp": _estimate(net.X, 0.02, scale=1.6, loss=5e-2),
                           "refined": _estimate(net.X, 0.001, loss=1e-3)})


@pytest.fixture
def config20(profile):
    config = profile(fig_3_20=SMALL)
    net = _truth(config)
    write_variational(config)
    write_point(config, "fig_3_20/random", **_common(net), sdp_seconds=0.1,
                cg_seconds=2.0, line_searches=100,
                estimates={"baseline": _estimate(net.X, 0.3, 0.01)})
    return config


def test_position_errors_and_alignment():
    rng = np.random.default_rng(0)
    X = rng.random((50, 2))
    R = np.array([[0.0, -1.0], [1.0, 0.0]])
    Y = 3 * X @ R.T + 5  # rotated, scaled, moved
    moved, factor = align(Y, X, scale=True)
    np.testing.assert_allclose(moved, X, atol=1e-12)
    assert factor == pytest.approx(1 / 3)
    errors = position_errors(Y, X)
    assert errors["mean_similarity"] < 1e-12 and errors["mean_rigid"] > 0.1
    Yr = np.c_[X[:, 0], -X[:, 1]] + 1  # a reflection: rigid
    assert position_errors(Yr, X)["max_rigid"] < 1e-12
    np.testing.assert_allclose(unpack(pack(X)), X, rtol=1e-6)


def test_fig_3_20_keys_params_and_checks(profile):
    config = profile(fig_3_20=SMALL)
    assert fig_3_20.keys(config) == ["variational", "random"]
    p = job_params(config, parse_job("fig_3_20/random"))
    assert p["method_params"]["init"] == "random" and p["keep_positions"]
    assert p["dataset"] == "sensor_network" and p["dataset_params"]["n_samples"] == 120
    assert p["dataset_params"]["radius"] == 0.3 and p["dataset_params"]["noise"] == 0.1
    with pytest.raises(ConfigError, match="the keys are variational, random"):
        fig_3_20.params(config, "sdp")
    with pytest.raises(ConfigError, match="not a sensor network data set"):
        profile(fig_3_20={**SMALL, "dataset": "swiss_roll"})
    with pytest.raises(ConfigError, match="n_basis = 200 must be at most"):
        profile(fig_3_20={**SMALL, "n_basis": 200})


def test_fig_3_20_rows_times_and_verdicts(config20):
    frame = fig_3_20_write.build(config20).set_index("estimate")
    assert list(frame.index) == ["sdp", "refined", "baseline"]
    ref = config20["reference_dir"]
    assert frame.loc["sdp", "thesis_seconds"] == thesis_claim(ref, "varmvu_sensor20k_sdp")["value"]
    assert frame.loc["refined", "thesis_seconds"] == thesis_claim(ref, "varmvu_sensor20k_cg")["value"]
    assert math.isnan(frame.loc["baseline", "thesis_seconds"])
    assert frame.loc["sdp", "scale_factor"] == pytest.approx(1 / 1.6, rel=0.05)
    assert frame.loc["refined", "seconds"] == 0.7 and frame.loc["sdp", "seconds"] == 0.5
    claims = fig_3_20_write.claims(config20)[:4]
    # the time claim compares a 2007 laptop's wall time with ours: not comparable
    # (before: 'holds' because 0.5 s <= 19 s)
    assert [c["verdict"] for c in claims] == ["holds"] * 3 + ["not comparable"]
    assert "(n = 120, the thesis: n = 20000)" in claims[0]["evidence"]
    assert "0.50 s wall, 0.45 s CPU (thesis 19 s; ours / thesis 0.026)" in claims[3]["evidence"]
    assert "ours / thesis 0.013" in claims[3]["evidence"] and "not compared" in claims[3]["evidence"]
    # a refined error above the threshold fails "differ very little"
    frame = fig_3_20_write.build(config20)
    frame.loc[frame["estimate"] == "refined", "error_mean_rigid"] = 0.2 * 0.3
    assert fig_3_20_write.claims(config20, frame)[:4][0]["verdict"] == "does not hold"


def test_fig_3_20_an_uncertified_sdp_does_not_decide_its_own_claim(config20):
    # the SDP's positions (mean error ~1e-2 after scaling) would have been corrected
    # by CG (~1e-3): 'holds'; an inaccurate SDP solve's positions are an iterate's
    write_variational(config20, sdp_status="inaccurate", relative_gap=0.0123)
    claims = fig_3_20_write.claims(config20)[:4]
    assert claims[2]["verdict"] == "not measured"
    assert claims[2]["evidence"] == (
        "(a) variational SDP: SDP solve not certified optimal (inaccurate, relative gap "
        "1.2e-02), not counted (n = 120, the thesis: n = 20000)")
    # the pipeline's claims (after CG, against the baseline) keep their verdicts
    assert [c["verdict"] for c in claims] == ["holds", "holds", "not measured",
                                              "not comparable"]


def test_fig_3_20_gaps_and_files(config20):
    write_point(config20, "fig_3_20/random", status="timeout",
                reason="time limit of 600 s reached (time_limit_seconds)")
    claims = fig_3_20_write.claims(config20)[:4]
    assert claims[1]["verdict"] == "not measured" and claims[0]["verdict"] == "holds"
    csv_path, png_path, md_path, sidecar = fig_3_20_write.write(config20)
    csv = pd.read_csv(csv_path)
    assert {"error_mean_rigid", "error_mean_similarity", "scale_factor", "loss_326",
            "seconds", "thesis_seconds", "sdp_gap"} <= set(csv.columns)
    md = md_path.read_text()
    assert "timeout[1]" in md and "[1] time limit of 600 s" in md
    assert "'10% uniform noise'" in md and "1028" in md
    assert png_path.stat().st_size > 10_000
    assert json.loads(sidecar.read_text())["title"] == fig_3_20.TITLE


M_LIST = [2, 4, 6, 8]
WALL = [0.01, 0.02, 0.018, 0.05]


LOSSES = [0.05, 0.045, 0.046, 0.04]


def write_m(config, m, loss, seconds, sdp_status="optimal", relative_gap=1e-11):
    """The record of Fig. 3.21's point at ``m``: its loss, SDP seconds and solve."""
    write_point(config, f"fig_3_21/m{m}", n_samples=300, sdp_seconds=seconds,
                sdp_cpu_seconds=seconds, loss_true_positions=1e-3,
                sdp={"status": sdp_status, "relative_gap": relative_gap},
                estimates={"sdp": {"loss": loss, "loss_basis": 0.9 * loss}})


@pytest.fixture
def config21(profile):
    config = profile(fig_3_21={"m": M_LIST, "n_samples": 300, "repeats": 1})
    for m, loss, seconds in zip(M_LIST, LOSSES, WALL):
        write_m(config, m, loss, seconds)
    return config


def _set_cpu(config, cpu, wall=WALL):
    for m, c, w in zip(M_LIST, cpu, wall):
        record = json.loads((path := _record_path(config, m)).read_text())
        record.update(sdp_cpu_seconds=c, sdp_seconds=w)
        path.write_text(json.dumps(record))


def _record_path(config, m):
    from harness.jobs import record_path

    return record_path(config, parse_job(f"fig_3_21/m{m}"))


def test_trend_checks():
    assert fig_3_21_write.trend_checks([3, 2, 2.01, 1], 0.01, increasing=False) == [True] * 4
    assert fig_3_21_write.trend_checks([3, 2, 2.5, 1], 0.01, increasing=False) == [True, False, True, True]
    assert fig_3_21_write.trend_checks([1, 1], 0.0, increasing=False) == [True, False]
    assert fig_3_21_write.trend_checks([1, 2, 1.6, 3], 0.25, increasing=True) == [True] * 4
    assert fig_3_21_write.trend_checks([1, 2, 1.4, 3], 0.25, increasing=True) == [True, False, True, True]
    assert fig_3_21_write.trend_checks([1], 0.1, increasing=True) == []


def test_spearman_trend():
    checks, text = fig_3_21_write.spearman_trend([2, 4, 6, 8, 10], [1, 2, 3, 4, 5], True, 0.05)
    assert checks == [True, True] and "rho +1.00" in text
    # a 25 % drop in the middle: rho 0.8 over 4 points is not significant either way,
    # inside the noise (issue 51: neither a counterexample nor a confirmation)
    checks, _ = fig_3_21_write.spearman_trend(M_LIST, [0.01, 0.02, 0.015, 0.05], True, 0.05)
    assert checks == [WITHIN_NOISE, True]
    # significant the other way: a counterexample
    checks, _ = fig_3_21_write.spearman_trend([2, 4, 6, 8, 10], [5, 4, 3, 2, 1], True, 0.05)
    assert checks == [False, False]
    checks, _ = fig_3_21_write.spearman_trend([2, 4, 6, 8, 10], [5, 4, 3, 2, 1], False, 0.05)
    assert checks == [True, True]
    assert fig_3_21_write.spearman_trend([2, 4], [1, 2], True, 0.05)[0] == []


def test_fig_3_21_keys_params_and_checks(profile):
    config = profile(fig_3_21={"m": [10, 2, 4]})
    assert fig_3_21.keys(config) == ["m2", "m4", "m10"]
    p = job_params(config, parse_job("fig_3_21/m4"))
    assert p["method_params"]["n_basis"] == 4 and not p["method_params"]["refine"]
    assert p["dataset"] == "us_cities_standin" and p["dataset_params"]["n_samples"] == 1097
    with pytest.raises(ConfigError, match="must be fig_3_21/m<M>"):
        fig_3_21.params(config, "k4")
    with pytest.raises(ConfigError, match="m = 40 exceeds n_samples - 2 = 28"):
        profile(fig_3_21={"m": [2, 40], "n_samples": 30})


def test_fig_3_21_rows_claims_stand_in_and_files(config21):
    frame = fig_3_21_write.build(config21).set_index("m")
    assert list(frame.index) == M_LIST
    assert (frame["stand_in_for"] == "us_cities").all() and (frame["noise"] == 0.1).all()
    assert frame["stand_in"].all()
    assert frame.loc[6, "loss_326"] == 0.046 and frame.loc[6, "loss_326_K"] == pytest.approx(0.0414)
    loss_claim, time_claim = fig_3_21_write.claims(config21)[:2]
    # stand-in data is shown, never counted (before: 'partly holds' on the stand-in)
    assert loss_claim["verdict"] == "not measured (stand-in)"
    assert "measured on the stand-in us_cities_standin only" in loss_claim["evidence"]
    assert "m = 6: 4.600e-02" in loss_claim["evidence"]
    assert "a uniform stand-in" in loss_claim["evidence"]
    # the time claim too (before: 'holds' on the stand-in, a 10 % drop 0.02 -> 0.018
    # counted as increasing within a 25 % tolerance); both readings' numbers are shown
    assert time_claim["verdict"] == "not measured (stand-in)"
    assert "reading trend: Spearman rho +0.80" in time_claim["evidence"]
    assert "reading every step: 1 of 3 steps break" in time_claim["evidence"]
    assert "CPU time of the process" in time_claim["evidence"]
    write_point(config21, "fig_3_21/m8", status="failed", reason="the measurement graph "
                "of 300 nodes has 2 connected components")
    loss_claim, _ = fig_3_21_write.claims(config21)[:2]
    assert "m = 8 not measured" in loss_claim["evidence"]
    csv_path, png_path, md_path, _ = fig_3_21_write.write(config21)
    csv = pd.read_csv(csv_path)
    assert {"m", "loss_326", "loss_326_K", "sdp_seconds", "sdp_cpu_seconds", "stand_in_for",
            "thesis_sdp_seconds_m10"} <= set(csv.columns)
    md = md_path.read_text()
    assert "failed[1]" in md and "connected components" in md
    assert "not measured (stand-in)" in md and "Spearman" in md
    assert png_path.stat().st_size > 10_000


def test_fig_3_21_time_is_cpu_when_recorded(config21, monkeypatch):
    # wall times that fall (a loaded machine) do not count when CPU times rise; read as
    # real data (a stand-in is never counted)
    from harness import registry

    monkeypatch.setattr(registry.get_dataset("us_cities_standin"), "stand_in_for", None)
    _set_cpu(config21, [0.010, 0.020, 0.030, 0.040], wall=[0.05, 0.04, 0.03, 0.01])
    _, time_claim = fig_3_21_write.claims(config21)[:2]
    assert time_claim["verdict"] == "holds" and "m = 6: 0.03 s" in time_claim["evidence"]
    # records without CPU time: the wall time, and the claim says so
    for m in M_LIST:
        record = json.loads((path := _record_path(config21, m)).read_text())
        del record["sdp_cpu_seconds"]
        path.write_text(json.dumps(record))
    _, time_claim = fig_3_21_write.claims(config21)[:2]
    assert time_claim["verdict"] == "does not hold"
    assert "wall time (these records have no CPU time" in time_claim["evidence"]


def test_fig_3_21_real_data_gets_verdicts(config21, monkeypatch):
    # a plugin that is not a stand-in goes through the same code and is counted
    from harness import registry

    monkeypatch.setattr(registry.get_dataset("us_cities_standin"), "stand_in_for", None)
    _set_cpu(config21, [0.010, 0.020, 0.030, 0.040])
    loss_claim, time_claim = fig_3_21_write.claims(config21)[:2]
    # losses 0.05, 0.045, 0.046, 0.04: rho -0.8 (p > 0.05) and one step up by 2.2 % > 1 %;
    # the fixture's 10 % time drop 0.02 -> 0.018 is not 'increasing' in either reading
    assert loss_claim["verdict"] == "partly holds"
    assert "reading trend (undecided (within noise))" in loss_claim["evidence"]
    assert "reading every step (does not hold)" in loss_claim["evidence"]
    assert "stand-in" not in loss_claim["evidence"]
    assert time_claim["verdict"] == "holds"
    assert "counted although" not in time_claim["evidence"]


def test_fig_3_21_an_uncertified_m_is_left_out_of_the_loss_claim(config21, monkeypatch):
    # real data (a stand-in is never counted); m = 6's loss 0.046 is the one step up
    # that made the loss claim 'partly holds': its SDP solve inaccurate, it is left out
    # and the certified m = 2, 4, 8 (0.05, 0.045, 0.04) decide
    from harness import registry

    monkeypatch.setattr(registry.get_dataset("us_cities_standin"), "stand_in_for", None)
    _set_cpu(config21, [0.010, 0.020, 0.030, 0.040])
    write_m(config21, 6, LOSSES[2], 0.030, sdp_status="inaccurate", relative_gap=0.0123)
    loss_claim, time_claim = fig_3_21_write.claims(config21)[:2]
    assert loss_claim["verdict"] == "holds"
    assert loss_claim["evidence"].startswith(
        "loss of the 2-D output m = 2: 5.000e-02, m = 4: 4.500e-02, m = 8: 4.000e-02; "
        "m = 6: SDP solve not certified optimal (inaccurate, relative gap 1.2e-02), not "
        "counted; reading trend (holds)")
    assert "0 of 2 steps break" in loss_claim["evidence"]
    # the time claim measures the procedure: m = 6 counts there
    assert time_claim["verdict"] == "holds" and "m = 6: 0.03 s" in time_claim["evidence"]


def test_real_points_on_a_small_network(profile):
    config = profile(fig_3_20=SMALL, fig_3_21={"m": [2, 4], **SMALL, "repeats": 2})
    body = sensor_work(job_params(config, parse_job("fig_3_20/variational")))
    assert body["status"] == "ok" and body["sdp"]["status"] == "optimal"
    refined = body["estimates"]["refined"]
    assert refined["errors"]["mean_rigid"] < 0.1 * body["radius"]
    assert refined["loss"] < body["estimates"]["sdp"]["loss"]
    assert unpack(refined["positions"]).shape == (120, 2)
    body = sensor_work(job_params(config, parse_job("fig_3_21/m4")))
    assert len(body["timings"]) == 2 and body["cg_seconds"] == 0.0
    assert 0 < body["sdp_cpu_seconds"] == min(t["basis_cpu"] + t["sdp_cpu"]
                                              for t in body["timings"])
    assert "positions" not in body["estimates"]["sdp"]


def test_no_records_yet_is_not_measured_and_still_writes(profile):
    config = profile(fig_3_20=SMALL, fig_3_21={"m": [2, 4], "n_samples": 300})
    assert {c["verdict"] for c in fig_3_20_write.claims(config)[:4]} == {"not measured"}
    assert {c["verdict"] for c in fig_3_21_write.claims(config)[:2]} == {"not measured"}
    # the register's entries too (register_claims): nothing measured, nothing decided
    assert {c["verdict"] for c in fig_3_20_write.claims(config)} == {"not measured"}
    assert {c["verdict"] for c in fig_3_21_write.claims(config)} == {"not measured"}
    for module in (fig_3_20_write, fig_3_21_write):
        md = module.write(config)[2].read_text()
        assert "no record yet: run `harness job" in md
