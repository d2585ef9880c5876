"""Section 3.2.1's side-by-side spectra: LLE's weights, the gap rules, one small job end
to end, and the verdicts on hand-made records (holding, failing, unmeasured)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from harness.results.spectral_3_2_1 import register_claims as rc
from harness.results.spectral_3_2_1.work import bottom_gap, lle_weights, top_gap, work


def test_lle_weights_sum_to_one_and_reconstruct_points_in_the_span():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    X[0] = 0.2 * X[1] + 0.5 * X[2] + 0.3 * X[3]  # an affine combination of three others
    neighbours = np.array([[1, 2, 3]] + [[(i + 1) % 30, (i + 2) % 30, (i + 3) % 30]
                                         for i in range(1, 30)])
    W = lle_weights(X, neighbours, reg=1e-12)
    np.testing.assert_allclose(W.sum(axis=1), 1.0)
    np.testing.assert_allclose(W[0, [1, 2, 3]], [0.2, 0.5, 0.3], atol=1e-6)
    assert np.count_nonzero(W[0]) == 3


def test_gap_rules():
    assert top_gap(np.array([10.0, 9.0, 0.1, 0.09, -5.0]), 4) == 2
    assert top_gap(np.array([10.0, 1.0, 0.9]), 3) == 1
    # the zero is dropped; the bottom spectrum's largest jump is after the first two
    assert bottom_gap(np.array([0.0, 1e-3, 1.1e-3, 0.5, 0.6]), 4) == 2


@pytest.mark.slow
def test_a_small_roll_end_to_end():
    out = work({"kind": "spectra", "dataset": "swiss_roll", "dataset_params": {"n_samples": 200},
                "dimension": 2, "n_neighbors": 8, "n_eigenvalues": 6,
                "solver_time_limit": 120, "blas_threads": 1, "seed": 0})
    assert out["status"] == "ok" and out["n"] == 200
    assert abs(out["lle"]["min_over_max"]) < 1e-10 and out["lle"]["constant_deviation"] < 1e-3
    assert out["laplacian"]["min_over_max"] > -1e-10
    assert len(out["lle"]["bottom"]) == 6 and 1 <= out["isomap"]["estimate"] <= 5
    assert out["mvu"]["status"] in ("optimal", "inaccurate")


def _record(lle_gap=1.5, lap_gap=1.5, iso=0.95, mvu=0.999, est=(1, 1, 2, 2), rot=0.05,
            sim=0.01, status="optimal", stand_in=None):
    return {"status": "ok", "stand_in_for": stand_in, "n": 800, "k": 6, "dimension": 2,
            "lle": {"gap_at_dimension": lle_gap, "estimate": est[0], "min_over_max": 0.0,
                    "constant_deviation": 1e-8},
            "laplacian": {"gap_at_dimension": lap_gap, "estimate": est[1], "min_over_max": 0.0},
            "isomap": {"top_share": iso, "top_two_share": iso, "estimate": est[2]},
            "mvu": {"status": status, "top_share": mvu, "top_two_share": mvu,
                    "estimate": est[3], "procrustes_rotation": rot, "procrustes_similarity": sim}}


def _verdicts(**roll):
    recs = {"swiss_roll": _record(**roll), "swiss_roll_3_1_5": _record(**roll),
            "teapot": _record(), "teapot_standin": _record(stand_in="teapot")}
    return {c["register"]: c for c in rc.register_claims(recs)}


def test_the_verdicts_hold_and_fail():
    good = _verdicts()
    assert good["s3-2-1-lle-lap-spectra-unreliable"]["verdict"] == "holds"
    assert good["s3-2-2-lle-eigenvalues-no-dimension"]["verdict"] == "holds"
    assert good["s3-2-1-isomap-eigenvalues-estimate-dim"]["verdict"] == "undecided (within noise)"
    assert good["s3-2-1-mvu-isomap-same-solution"]["verdict"] == "holds"
    assert good["s3-2-1-laplacian-psd"]["verdict"] == "not measured"  # by construction
    assert "by construction" in good["s3-2-1-lle-m-bottom-constant-psd"]["evidence"]
    bad = _verdicts(lle_gap=3.0, iso=0.8, rot=0.5, sim=0.5, est=(2, 2, 1, 2))
    for entry in ("s3-2-1-lle-lap-spectra-unreliable", "s3-2-2-lle-eigenvalues-no-dimension",
                  "s3-2-1-isomap-eigenvalues-estimate-dim", "s3-2-1-mvu-isomap-same-solution"):
        assert bad[entry]["verdict"] == "does not hold", entry
    assert _verdicts(iso=0.99)["s3-2-1-isomap-eigenvalues-estimate-dim"]["verdict"] == "holds"


def test_an_uncertified_mvu_and_the_missing_teapot_decide_nothing():
    uncertified = _verdicts(status="inaccurate")
    assert uncertified["s3-2-1-mvu-isomap-same-solution"]["verdict"] == "not measured"
    recs = {"swiss_roll": _record(), "swiss_roll_3_1_5": _record(),
            "teapot": {"status": "unavailable", "reason": "fetch it"}}
    no_teapot = {c["register"]: c for c in rc.register_claims(recs)}
    # most of (roll, teapot): a passing roll alone decides nothing, a failing one does
    assert no_teapot["s3-2-2-lle-eigenvalues-no-dimension"]["verdict"] == "not measured"
    failing = copy.deepcopy(recs)
    failing["swiss_roll"]["lle"]["gap_at_dimension"] = 3.0
    failing["swiss_roll_3_1_5"]["lle"]["gap_at_dimension"] = 3.0
    found = {c["register"]: c for c in rc.register_claims(failing)}
    assert found["s3-2-2-lle-eigenvalues-no-dimension"]["verdict"] == "does not hold"


def _scaling(iso_power=3.0, lle_power=1.0, mvu_stop=None, budget=3600.0):
    sizes = (500, 1000, 2000, 4000)

    def fits(power, scale):
        return [{"n": n, "status": "ok", "seconds": scale * (n / 500) ** power, "repeats": 3}
                for n in sizes]
    stopped = {} if mvu_stop is None else {"mvu": mvu_stop}
    return {"scaling": {
        "status": "ok", "k": 6, "budget_seconds": budget, "stopped_at": stopped,
        "fits": {"lle": fits(1.0, 0.03), "laplacian_eigenmaps": fits(1.0, 0.01),
                 "isomap": fits(2.0, 0.03), "mvu": fits(2.5, 2.0)},
        "eigensolves": [{"n": n, "lle_sparse_seconds": 0.005 * (n / 1000) ** lle_power,
                         "isomap_dense_seconds": 0.1 * (n / 1000) ** iso_power,
                         "lle_nonzeros": 15 * n} for n in (1000, 2000, 4000)]}}


def test_the_speed_entries():
    found = {c["register"]: c for c in rc.register_claims(_scaling())}
    assert found["s3-2-1-lle-sparse-efficient"]["verdict"] == "holds"
    # every fit finished at the register's budget: the 'largest n' reading decides nothing
    assert found["s3-2-1-sparse-scale-better"]["verdict"] == "holds"
    assert "did not reach where they stop" in found["s3-2-1-sparse-scale-better"]["evidence"]
    slow = {c["register"]: c for c in rc.register_claims(_scaling(iso_power=1.0, lle_power=3.0))}
    assert slow["s3-2-1-lle-sparse-efficient"]["verdict"] == "does not hold"
    stops = {c["register"]: c for c in rc.register_claims(_scaling(mvu_stop=4000))}
    assert "reading largest n (holds)" in stops["s3-2-1-sparse-scale-better"]["evidence"]
    short = {c["register"]: c for c in rc.register_claims(_scaling(mvu_stop=4000, budget=600))}
    assert "no verdict at this profile's" in short["s3-2-1-sparse-scale-better"]["evidence"]
    assert rc.speed_numbers(_scaling()["scaling"])["eigensolve_ratio.n1000"] == pytest.approx(20.0)
