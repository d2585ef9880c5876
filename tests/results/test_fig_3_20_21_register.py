"""Figs. 3.20/3.21's register claims on hand-made frames and positions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.claims import about_most
from harness.results.fig_3_20.register_claims import (
    derived_columns, geometry, register_claims,
)
from harness.results.fig_3_21.register_claims import (
    kneedle_knee, knee_columns, rate_knee, register_claims as knee_claims,
)


def _frame(sdp_loss=0.07, refined_loss=2e-4, base_loss=2e-3, rms=0.03, boundary=2.4,
           refined_rms=7e-4, sdp_scale=0.6, base_scale=500.0):
    common = {"status": "ok", "radius": 0.06, "diameter": 1.4, "boundary_sensors": 10,
              "boundary_median_error": 0.04, "interior_median_error": 0.02}
    rows = [
        {**common, "estimate": "sdp", "sdp_status": "optimal", "sdp_gap": 1e-9,
         "loss_326": sdp_loss, "rms_similarity": rms, "rms_rigid": 0.2,
         "rms_similarity_over_diameter": rms / 1.4, "rms_rigid_over_diameter": 0.2 / 1.4,
         "boundary_over_interior": boundary, "scale_factor": sdp_scale},
        {**common, "estimate": "refined", "sdp_status": None, "loss_326": refined_loss,
         "rms_similarity": refined_rms, "rms_rigid": refined_rms,
         "rms_similarity_over_diameter": refined_rms / 1.4,
         "rms_rigid_over_diameter": refined_rms / 1.4, "boundary_over_interior": 1.0,
         "scale_factor": 1.0},
        {**common, "estimate": "baseline", "sdp_status": None, "loss_326": base_loss,
         "rms_similarity": 0.3, "rms_rigid": 0.3, "rms_similarity_over_diameter": 0.2,
         "rms_rigid_over_diameter": 0.2, "boundary_over_interior": 1.0,
         "scale_factor": base_scale}]
    return derived_columns(pd.DataFrame(rows))


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(frame)}


def test_passes_on_n20000_alone_decide_nothing_but_the_decidable_hold():
    v = _verdicts(_frame())
    for entry in ("s3-1-8-factorisation-accurate-then-refined",
                  "s3-1-8-variational-only-approximation",
                  "s3-1-8-variational-highly-accurate-init",
                  "s3-1-8-us-sdp-distorts-near-boundary", "s3-1-8-us-cg-differs-very-little"):
        assert v[entry] == "not measured", entry
    assert v["s3-1-8-n20000-scale-factors"] == "holds"
    assert v["lec-sensor-localization-almost-perfect"] == "holds"


def test_failures_on_n20000_decide():
    v = _verdicts(_frame(sdp_loss=2.01e-4, rms=0.5, boundary=1.0, refined_rms=0.2,
                         base_scale=4.5))
    assert v["s3-1-8-factorisation-accurate-then-refined"] == "does not hold"
    assert v["s3-1-8-variational-only-approximation"] == "does not hold"
    assert v["s3-1-8-us-sdp-distorts-near-boundary"] == "does not hold"
    assert v["s3-1-8-variational-highly-accurate-init"] == "does not hold"
    assert v["s3-1-8-n20000-scale-factors"] == "partly holds"
    assert v["lec-sensor-localization-almost-perfect"] == "does not hold"


def test_geometry_of_a_boundary_distortion():
    rng = np.random.default_rng(0)
    X = rng.uniform(-0.5, 0.5, (2000, 2))
    Y = X * (1 - 0.3 * (np.abs(X).max(axis=1, keepdims=True) > 0.45))  # pull the rim in
    g = geometry(Y, X)
    assert abs(g["diameter"] - np.sqrt(2)) < 0.05
    assert g["boundary_over_interior"] > 1.2
    assert geometry(X, X)["rms_rigid"] < 1e-12


def test_about_most():
    assert about_most({"a": True, "b": True}, ["a", "b", "c"]) == ([True], "")
    assert about_most({"a": False, "b": False}, ["a", "b", "c"]) == ([False], "")
    assert about_most({"a": True}, ["a", "b"])[0] == []


def test_knees():
    m = [2, 4, 6, 8, 10, 12]
    assert kneedle_knee(m, [10, 3, 1.2, 1.0, 0.9, 0.85]) == 4
    assert rate_knee(m, [10, 3, 1.2, 1.0, 0.9, 0.85]) == 6
    assert np.isnan(rate_knee(m, [12, 10, 8, 6, 4, 2]))


def _knee_frame(losses, stand_in=False):
    return knee_columns(pd.DataFrame({"m": [2, 4, 6, 8, 10, 12], "status": "ok",
                                      "sdp_status": "optimal", "loss_326": losses,
                                      "stand_in": stand_in}))


def test_sweet_spot_claim():
    late = [10, 9, 8, 3, 2.9, 2.85]  # knee at 8 under both rules
    assert knee_claims(_knee_frame(late), "x")[0]["verdict"] == "holds"
    early = [10, 1, 0.99, 0.98, 0.97, 0.96]  # knee at 2 or 4
    assert knee_claims(_knee_frame(early), "x")[0]["verdict"] == "does not hold"
    assert knee_claims(_knee_frame(late, True), "x")[0]["verdict"] == "not measured (stand-in)"
