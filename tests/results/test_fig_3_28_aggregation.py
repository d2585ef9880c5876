"""Fig. 3.28 from hand-made records: harmonic means, normalised spectra, the lock-up
verdict beside the thesis' k = 7, gaps, and the n and solver in the CSV."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from harness.results import get_result
from harness.results.common.figure_files import harmonic_mean
from harness.results.fig_3_28 import write as written
from tests.results.conftest import ok_body, write_point

fig_3_28 = get_result("fig_3_28")

SECTION = {"n_samples": 40, "k": [3, 4, 5, 6], "solver": "clarabel", "lock_threshold": 0.1}
UNFOLDED = (10.0, 2.0, 0.05)      # third normalised eigenvalue 0.004
LOCKED = (4.0, 3.0, 3.0)          # 0.3
MEASURES = {"local_continuity": 0.9, "local_trust": 0.6, "neighborhood_intersection": 0.45}


@pytest.fixture
def config(profile):
    config = profile(fig_3_28=SECTION)
    write_point(config, "fig_3_28/k3", status="failed",
                reason="the k-nearest-neighbour graph (k=3) of the 40 inputs has 2 "
                       "connected components")
    write_point(config, "fig_3_28/k4", **ok_body(MEASURES, UNFOLDED))
    write_point(config, "fig_3_28/k5", **ok_body(MEASURES, LOCKED))
    write_point(config, "fig_3_28/k6", **ok_body(MEASURES, LOCKED))
    return config


def test_harmonic_mean():
    assert harmonic_mean([0.9, 0.6, 0.45]) == pytest.approx(3 / (1 / 0.9 + 1 / 0.6 + 1 / 0.45))
    assert harmonic_mean([0.5, 0.5, 0.5]) == pytest.approx(0.5)
    assert harmonic_mean([0.9, 0.0, 0.5]) == 0.0
    assert math.isnan(harmonic_mean([0.9, math.nan, 0.5]))


def test_rows_hold_metrics_spectra_lock_test_and_verdict(config):
    frame = written.build(config).set_index("k")
    assert list(frame.index) == [3, 4, 5, 6]
    assert frame.loc[4, "harmonic_mean"] == pytest.approx(0.6)  # 3/(10/9+5/3+20/9) = 0.6
    assert frame.loc[4, "ev1"] == pytest.approx(10 / 12.05)
    assert frame.loc[4, "ev4"] == 0.0 and frame.loc[4, "ev5"] == 0.0  # rank 3: zeros
    assert not frame.loc[4, "locked"] and frame.loc[5, "locked"]
    assert frame.loc[5, "ev3"] == pytest.approx(0.3)
    assert frame.loc[3, "status"] == "failed" and math.isnan(frame.loc[3, "harmonic_mean"])
    assert (frame["our_lock_k"] == 5).all() and (frame["thesis_lock_k"] == 7).all()
    assert frame.loc[4, "verdict"] == (
        "locks at k = 5 (first measured k with third normalised eigenvalue > 0.1); "
        "differs from the thesis' k = 7 (k = 3 not measured)")
    assert (frame["n_samples"] == 40).all() and (frame["solver"] == "clarabel").all()
    assert frame.loc[4, "input_pca_ev1"] == 0.41


def test_no_lock_up_and_agreement_verdicts():
    frame = pd.DataFrame({"k": [5, 7, 8], "status": ["ok"] * 3,
                          "locked": [False, True, True]})
    assert written.lock_verdict(frame, 0.1) == (
        7.0, "locks at k = 7 (first measured k with third normalised eigenvalue > 0.1); "
             "agrees with the thesis' k = 7")
    frame["locked"] = False
    k, text = written.lock_verdict(frame, 0.1)
    assert math.isnan(k) and text.startswith("no lock-up for k = 5, 7, 8")


def test_outputs_say_n_solver_claim_verdict_and_gaps(config):
    csv_path, png_path, md_path, sidecar = written.write(config)
    assert json.loads(sidecar.read_text())["title"] == fig_3_28.TITLE
    csv = pd.read_csv(csv_path)
    assert {"n_samples", "solver", "harmonic_mean", "ev1", "ev5", "locked", "our_lock_k",
            "thesis_lock_k", "verdict", "solve_status", "solve_gap"} <= set(csv.columns)
    assert png_path.stat().st_size > 10_000
    md = md_path.read_text()
    assert "n = 40, solver `clarabel`" in md
    assert "**Thesis' claim:** the Swiss roll (n = 1000) locks at k = 7" in md
    assert "**Our verdict:** locks at k = 5" in md
    assert "failed[1]" in md and "[1] the k-nearest-neighbour graph (k=3)" in md
    assert "n = 40 is not the thesis' n = 1000" in md
    assert "'Figure 3.29'" in md  # the thesis' own mislabel is noted
    assert "Best harmonic mean: k = 4" in md


def test_uncertified_solves_are_named_in_the_verdict(profile):
    config = profile(fig_3_28={"n_samples": 40, "k": [4, 5]})
    write_point(config, "fig_3_28/k4", **ok_body(MEASURES, UNFOLDED, solve_status="timeout"))
    write_point(config, "fig_3_28/k5", **ok_body(MEASURES, LOCKED))
    verdict = written.build(config)["verdict"].iloc[0]
    assert verdict.endswith("(k = 4: certified gap 1.0e-06 from solves not certified optimal)")
