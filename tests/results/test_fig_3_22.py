"""Fig. 3.22 (thesis 3.1.9): the r sweep's metrics, one real job on a tiny teapot
stand-in, the profile checks, and the aggregation, gaps and claim verdicts from
hand-made records."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.config import ConfigError
from harness.jobs import Job, job_params
from harness.metrics import (embedding_quality, local_continuity, local_trust,
                             neighborhood_intersection)
from harness.records import read_record
from harness.result_registry import get_result
from harness.results.common.work.mvu_point import measures_by_dimension
from harness.runner import run_job
from harness.results.fig_3_22 import write as fig_3_22_write
from tests.results.conftest import write_point

fig_3_22 = get_result("fig_3_22")

MEASURES = ("local_continuity", "local_trust", "neighborhood_intersection")
# a tiny stand-in: 40 frames of 8 x 10 pixels (native interior point, well under 1 s)
TINY = {"datasets": ["teapot_standin"], "dataset_params": {
    "teapot_standin": {"n_frames": 40, "height": 8, "width": 10}},
    "max_dimension": 5, "eval_neighbors": 5, "time_limit_seconds": 120}


# ---- the sweep ----------------------------------------------------------------------
def test_sweep_equals_the_metric_functions_per_r():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 6))
    Y = X @ rng.standard_normal((6, 4)) + 0.1 * rng.standard_normal((30, 4))
    rows = measures_by_dimension(X, Y, [1, 2, 3, 4], 5)
    assert [row["n_components"] for row in rows] == [1, 2, 3, 4]
    for row in rows:
        r = row["n_components"]
        assert row["local_continuity"] == local_continuity(X, Y[:, :r], 5)
        assert row["local_trust"] == local_trust(X, Y[:, :r], 5)
        assert row["neighborhood_intersection"] == neighborhood_intersection(X, Y[:, :r], 5)
    assert rows[0]["local_trust"] != rows[3]["local_trust"]  # r matters
    with pytest.raises(ValueError, match=r"r = 5 is outside 1..4.*n_components >= 5"):
        measures_by_dimension(X, Y, [2, 5], 5)


def test_one_job_solves_once_and_sweeps_r(profile):
    from harness import registry
    from harness.methods.mvu import MVU

    config = profile(fig_3_22=TINY)
    record = read_record(run_job(config, Job("fig_3_22", "teapot_standin")))
    assert record["status"] == "ok", record["reason"]
    assert record["solve"]["status"] == "optimal" and record["n_samples"] == 40
    sweep = record["measures_by_dimension"]
    assert [row["n_components"] for row in sweep] == [1, 2, 3, 4, 5]
    # the widest r is the embedding the point measured
    assert {q: sweep[-1][q] for q in MEASURES} == record["measures"]
    assert [row["normalised_eigenvalue"] for row in sweep] == pytest.approx(
        record["normalised_eigenvalues"][:5])
    assert [row["eigenvalue"] for row in sweep] == pytest.approx(record["eigenvalues"][:5])
    # recomputed outside the harness: the same MVU, its leading r columns, the metrics
    X = registry.get_dataset("teapot_standin")().load(n_frames=40, height=8, width=10).X
    Y = MVU(n_neighbors=5, n_components=5, random_state=0).fit_transform(X)
    for row in sweep:
        r = row["n_components"]
        assert row["local_trust"] == pytest.approx(local_trust(X, Y[:, :r], 5), abs=1e-6)
        assert row["local_continuity"] == pytest.approx(local_continuity(X, Y[:, :r], 5),
                                                        abs=1e-6)
    # a point without sweep_dimensions (Figs. 3.24, 3.28) records no sweep
    config = profile(fig_3_24={"datasets": ["teapot_standin"], "dataset_params":
                               TINY["dataset_params"], "n_components": {"teapot_standin": 2},
                               "eval_neighbors": 5, "time_limit_seconds": 120})
    plain = read_record(run_job(config, Job("fig_3_24", "teapot_standin/max_trace")))
    assert plain["status"] == "ok" and "measures_by_dimension" not in plain
    assert "sweep_seconds" not in plain


def test_unavailable_data_is_a_record(profile, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    record = read_record(run_job(profile(fig_3_22={}), Job("fig_3_22", "frey")))
    assert record["status"] == "unavailable" and "harness fetch frey" in record["reason"]


# ---- the profile -------------------------------------------------------------------
def test_defaults_keys_and_params(profile):
    config = profile(fig_3_22={})
    conf = config["results"]["fig_3_22"]
    assert conf["datasets"] == ["frey", "olivetti"] and conf["max_dimension"] == 20
    assert conf["n_neighbors"] == 5 and conf["eval_neighbors"] == 15
    assert fig_3_22.keys(config) == ["frey", "olivetti"]
    p = job_params(config, Job("fig_3_22", "olivetti"))
    assert p["sweep_dimensions"] == list(range(1, 21))
    assert p["method_params"]["n_components"] == 20
    assert p["method_params"]["n_neighbors"] == 5 and p["method_params"]["variant"] == "equality"
    assert p["subsample"] is None and p["thesis_dataset"] == "olivetti"


@pytest.mark.parametrize("section, message", [
    ({"bogus": 1}, r"config entry results/fig_3_22: Additional properties are not allowed"),
    ({"max_dimension": 1}, r"config entry results/fig_3_22/max_dimension: 1 is less than"),
    ({"plateau_eigenvalue": 1.5}, r"config entry results/fig_3_22/plateau_eigenvalue"),
    ({"datasets": ["freyy"]}, r"results.fig_3_22.datasets: unknown dataset 'freyy'; valid"),
    ({"solver": "cplex"}, r"results.fig_3_22.solver: unknown solver 'cplex'"),
    ({"n_samples": {"teapot_standin": 50}},
     r"results.fig_3_22.n_samples: key 'teapot_standin' names no dataset of results.fig_3_22.datasets"),
    ({"n_samples": {"frey": 20}},
     r"results.fig_3_22.max_dimension = 20 must be below n_samples.frey = 20"),
])
def test_bad_sections_are_refused_naming_the_entry(profile, section, message):
    with pytest.raises(ConfigError, match=message):
        profile(fig_3_22=section)


def test_bad_job_keys_are_refused(profile):
    config = profile(fig_3_22={})
    with pytest.raises(ConfigError, match=r"fig_3_22/frey/x: must be fig_3_22/DATASET"):
        job_params(config, Job("fig_3_22", "frey/x"))
    with pytest.raises(ConfigError, match=r"job fig_3_22/nope: unknown dataset 'nope'"):
        job_params(config, Job("fig_3_22", "nope"))


# ---- aggregation and claims from hand-made records ----------------------------------------
SHARES = [0.5, 0.3, 0.15, 0.04, 0.006, 0.003, 0.001]


def _sweep_body(curves: dict, shares=SHARES, solve_status="optimal") -> dict:
    n_r = len(next(iter(curves.values())))
    rows = [{"n_components": r + 1, **{q: curves[q][r] for q in MEASURES},
             "eigenvalue": 100 * shares[r], "normalised_eigenvalue": shares[r]}
            for r in range(n_r)]
    return {"measures": {q: curves[q][-1] for q in MEASURES}, "n_samples": 400,
            "n_features": 1178, "measures_by_dimension": rows,
            "solve": {"status": solve_status, "gap": 1e-5, "violation": 1e-8}}


RISING = [0.50, 0.70, 0.85, 0.93, 0.94, 0.945, 0.946]
SECTION = {"datasets": ["frey", "olivetti", "teapot_standin"], "max_dimension": 7}


def _config(profile, frey=RISING, standin=RISING):
    config = profile(fig_3_22=SECTION)
    write_point(config, "fig_3_22/frey", **_sweep_body({q: frey for q in MEASURES}))
    write_point(config, "fig_3_22/olivetti", status="unavailable",
                reason="olivetti is not available offline; run `harness fetch olivetti`")
    write_point(config, "fig_3_22/teapot_standin", **_sweep_body({q: standin for q in MEASURES}))
    return config


def test_monotone_curves_that_plateau_hold(profile):
    config = _config(profile)
    frame = fig_3_22_write.build(config)
    assert len(frame) == 3 * 7 and list(frame.columns[:2]) == ["dataset", "r"]
    frey = frame[frame.dataset == "frey"]
    assert list(frey.r) == list(range(1, 8)) and list(frey.local_trust) == RISING
    assert bool(frey.counted.iloc[0]) and not bool(frey.stand_in.iloc[0])
    standin = frame[frame.dataset == "teapot_standin"]
    assert bool(standin.stand_in.iloc[0]) and not bool(standin.counted.iloc[0])
    a = fig_3_22_write.assess(frey, config["results"]["fig_3_22"])
    # shares >= 0.01 up to r = 4; after it the curves rise by 0.946 - 0.93 = 0.016 <= 0.02
    assert a["plateau_r"] == 4
    assert a["plateau"]["local_trust"] == (True, pytest.approx(0.016))
    assert a["monotone"]["local_continuity"] == (True, 0.0, None)
    mono, plateau, *_ = fig_3_22_write.claims(config, frame)
    assert mono["verdict"] == "holds" and plateau["verdict"] == "holds"
    assert "not measured: olivetti (n/a)" in mono["evidence"]
    assert "shown, not counted: teapot_standin" in mono["evidence"]


def test_a_dip_or_a_late_rise_fails_and_stand_ins_never_count(profile):
    dip = [0.50, 0.70, 0.65, 0.93, 0.94, 0.945, 0.946]   # drops 0.05 at r = 3
    late = [0.50, 0.70, 0.85, 0.86, 0.90, 0.93, 0.96]    # rises 0.10 after r0 = 4
    config = _config(profile, frey=dip, standin=late)
    mono, plateau, *_ = fig_3_22_write.claims(config)
    assert mono["verdict"] == "does not hold"
    assert "largest drop 0.0500 at r = 3" in mono["evidence"]
    assert plateau["verdict"] == "holds"  # after r0 = 4 the dip curve rises 0.016
    config = _config(profile, frey=late, standin=dip)
    mono, plateau, *_ = fig_3_22_write.claims(config)
    assert mono["verdict"] == "holds"  # the stand-in's dip does not count
    assert plateau["verdict"] == "does not hold"
    assert "after r = 4; rise beyond it: continuity 0.1000" in plateau["evidence"]


def test_an_uncertified_data_set_is_left_out_and_named(profile):
    # olivetti's solve is inaccurate and its curves dip by 0.05 at r = 3 and rise late:
    # before, both claims did not hold on that iterate; now frey's certified curves decide
    dip_late = [0.50, 0.70, 0.65, 0.86, 0.90, 0.93, 0.96]
    config = _config(profile)
    write_point(config, "fig_3_22/olivetti", **_sweep_body(
        {q: dip_late for q in MEASURES}, solve_status="inaccurate"))
    frame = fig_3_22_write.build(config)
    assert frame.loc[frame.dataset == "olivetti", "solve_certificate"].iloc[0] == "gap 1.0e-05"
    mono, plateau, *_ = fig_3_22_write.claims(config, frame)
    assert mono["verdict"] == "holds" and plateau["verdict"] == "holds"
    left_out = ("olivetti: MVU solve not certified optimal (inaccurate, gap 1.0e-05), "
                "not counted")
    assert left_out in mono["evidence"] and left_out in plateau["evidence"]
    assert "largest drop 0.0500" not in mono["evidence"]
    # frey not measured: the uncertified olivetti alone decides nothing
    write_point(config, "fig_3_22/frey", status="timeout", reason="killed")
    mono, plateau, *_ = fig_3_22_write.claims(config)
    assert mono["verdict"] == plateau["verdict"] == "not measured"
    assert left_out in mono["evidence"] and "not measured: frey (timeout)" in mono["evidence"]


def test_monotone_tolerance_and_untestable_plateau(profile):
    wobble = [0.50, 0.70, 0.85, 0.849, 0.94, 0.945, 0.946]  # a step of -0.001 at r = 4
    config = profile(fig_3_22={**SECTION, "datasets": ["frey"]})
    write_point(config, "fig_3_22/frey", **_sweep_body(
        {q: wobble for q in MEASURES}, shares=[0.2, 0.2, 0.15, 0.15, 0.1, 0.1, 0.1]))
    mono, plateau, *_ = fig_3_22_write.claims(config)
    assert mono["verdict"] == "holds"  # within the default tolerance 0.005
    # no normalised eigenvalue falls below 0.01 within r <= 7: nothing to test
    assert plateau["verdict"] == "not measured" and "(untested)" in plateau["evidence"]
    strict = profile(fig_3_22={**SECTION, "datasets": ["frey"], "monotone_tolerance": 0.0})
    frame = fig_3_22_write.build(config)
    a = fig_3_22_write.assess(frame[frame.dataset == "frey"], strict["results"]["fig_3_22"])
    assert a["monotone"]["local_trust"] == (False, pytest.approx(0.001), 4)
    assert a["plateau_r"] is None and a["plateau"] == {}
    flat = pd.DataFrame({"r": range(1, 8), "normalised_eigenvalue": SHARES,
                         **{q: [0.5] * 7 for q in MEASURES}})
    a = fig_3_22_write.assess(flat, strict["results"]["fig_3_22"])
    assert a["monotone"]["local_trust"] == (True, 0.0, None)  # flat is non-decreasing
    assert a["plateau"]["local_trust"] == (True, 0.0)


def test_no_real_data_is_not_measured_and_gaps_name_the_fetch(profile):
    config = profile(fig_3_22={**SECTION, "datasets": ["teapot_standin"]})
    write_point(config, "fig_3_22/teapot_standin", **_sweep_body({q: RISING for q in MEASURES}))
    frame = fig_3_22_write.build(config)
    missing = frame[frame.dataset.isin(["frey", "olivetti"])]
    assert len(missing) == 2 * 7 and (missing.status == "unavailable").all()
    assert "not in results.fig_3_22.datasets; plugins that provide it: frey" in \
        missing.reason.iloc[0]
    for claim in fig_3_22_write.claims(config, frame)[:2]:
        assert claim["verdict"] == "not measured"
        assert "shown, not counted: teapot_standin" in claim["evidence"]
    for claim in fig_3_22_write.claims(config, frame)[2:]:  # the register's spectra entries
        assert claim["verdict"] == "not measured"
    # a listed data set without a record yet is a gap naming the command
    config = profile(fig_3_22={})
    frame = fig_3_22_write.build(config)
    assert (frame.status == "missing").all()
    assert "harness job fig_3_22/frey" in frame.reason.iloc[0]


def test_files_show_curves_gaps_stand_in_and_choices(profile):
    config = _config(profile)
    paths = fig_3_22_write.write(config)
    assert [p.suffix for p in paths] == [".csv", ".png", ".md", ".json"]
    csv = pd.read_csv(paths[0])
    assert len(csv) == 3 * 7 and set(csv.dataset) == {"frey", "olivetti", "teapot_standin"}
    assert csv.loc[(csv.dataset == "frey") & (csv.r == 3), "local_trust"].item() == 0.85
    assert paths[1].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = paths[2].read_text()
    assert "**Our verdict (monotone in r):** holds" in md
    assert "## Olivetti faces" in md and "n/a[1]" in md and "harness fetch olivetti" in md
    assert "teapot_standin is a synthetic stand-in" in md and "NOT one of the thesis' two" in md
    assert "|   3 |        0.85  |" in md
    assert "'Plateau as the eigenvalues tend to zero' is read as" in md


def test_the_sweep_searches_the_input_once(monkeypatch):
    """A high-dimensional input (scikit-learn's brute-force search, as the teapot's
    23,028 pixels): X is searched once for all r, Y once per r, and every score is
    exactly that of the metric functions called per r."""
    import importlib

    eq = importlib.import_module("harness.metrics.embedding_quality")
    rng = np.random.default_rng(2)
    X = rng.standard_normal((60, 40))
    Y = X @ rng.standard_normal((40, 6)) + 0.3 * rng.standard_normal((60, 6))
    expected = [{"n_components": r, **embedding_quality(X, Y[:, :r], 7)} for r in range(1, 7)]
    searched = []
    original = eq._neighbor_indices
    monkeypatch.setattr(eq, "_neighbor_indices",
                        lambda Z, l: searched.append(Z.shape) or original(Z, l))
    rows = measures_by_dimension(X, Y, range(1, 7), 7)
    assert rows == expected
    assert searched == [(60, 40)] + [(60, r) for r in range(1, 7)]
