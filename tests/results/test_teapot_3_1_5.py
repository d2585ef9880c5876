"""The teapot checks (3.1.5, Fig. 3.31): one job on a small stand-in, a missing
teapot as a gap, and the verdicts on hand-made records (a holding, a failing and an
unmeasured case each; a stand-in never counts)."""

from __future__ import annotations

import math

from harness.results.teapot_3_1_5 import register_claims as rc
from harness.results.teapot_3_1_5.work import work

PARAMS = {"seed": 0, "blas_threads": 1, "solver_time_limit": 120, "k": 4,
          "half_turn": math.pi, "embedding_dims": 3}


def test_a_stand_in_job_measures_every_part():
    out = work({**PARAMS, "dataset": "teapot_standin",
                "dataset_params": {"n_frames": 80, "height": 12, "width": 16}})
    assert out["status"] == "ok" and out["stand_in_for"] == "teapot"
    assert out["n_features"] == 12 * 16 * 3 and out["half_turn"]["n_frames"] == 40
    assert 0 < out["half_turn"]["top_share"] <= 1
    assert 0 <= out["half_turn"]["abs_spearman_angle"] <= 1
    assert out["isomap_vs_mvu"]["procrustes_residual"] >= 0


def _record(components=1, features=23028, top=0.99, ratio=0.01, rho=1.0, residual=0.5,
            status="optimal", stand_in=None):
    return {"status": "ok", "n_samples": 400, "n_features": features, "k": 4,
            "components": components, "stand_in_for": stand_in,
            "half_turn": {"n_frames": 200, "status": status, "top_share": top,
                          "second_over_first": ratio, "abs_spearman_angle": rho},
            "isomap_vs_mvu": {"mvu": {"status": status}, "procrustes_residual": residual}}


def _verdicts(records):
    return {c["register"]: c["verdict"] for c in rc.register_claims(records)}


def test_the_teapot_decides_and_the_stand_in_never_does():
    held = _verdicts({"teapot": _record()})
    assert set(held.values()) == {"holds"} and len(held) == 5
    failed = _verdicts({"teapot": _record(components=2, features=560, top=0.6, ratio=0.4,
                                          rho=0.5, residual=0.01)})
    assert set(failed.values()) == {"does not hold"}
    near = _verdicts({"teapot": _record(rho=0.995)})
    assert near["s3-1-5-teapot-180-ordered-by-angle"] == "partly holds"
    only_stand_in = rc.register_claims({"teapot": {"status": "unavailable", "reason": "offline"},
                                        "teapot_standin": _record(stand_in="teapot")})
    assert {c["verdict"] for c in only_stand_in} == {"not measured"}
    assert all("stand-in, not counted" in c["evidence"] and "harness fetch teapot" in c["evidence"]
               for c in only_stand_in)
    uncertified = _verdicts({"teapot": _record(status="inaccurate")})
    assert uncertified["s3-1-5-teapot-180-one-dimensional"] == "not measured"
    assert uncertified["s3-2-1-isomap-teapot-different"] == "not measured"
