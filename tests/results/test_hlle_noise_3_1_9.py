"""hLLE's weakness on noisy data (3.1.9): the parameters are Table 3.2's, a small real
job (tiny n) fits both methods on both rolls, and the verdicts on hand-made records
(holding, failing, within noise, unmeasured)."""

from __future__ import annotations

from harness.config import load_config
from harness.results import table_3_2
from harness.results.hlle_noise_3_1_9 import keys, params
from harness.results.hlle_noise_3_1_9 import register_claims as rc
from harness.results.hlle_noise_3_1_9.work import work
from harness.results.hlle_noise_3_1_9.write import derived, paired_rows


def test_the_fits_take_table_3_2s_parameters_with_the_samples_seed(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    config = load_config("config/quick.yaml")
    assert keys(config) == [f"sample{s}" for s in range(5)]
    p = params(config, "sample3")
    for method in ("hlle", "isomap"):
        for level, cell in (("clean", "swiss_roll"), ("noisy", "swiss_roll_3_1_5")):
            cell_params = table_3_2.params(config, f"{cell}/{method}")
            fit = p["fits"][method][level]
            assert fit["method_params"] == cell_params["method_params"]
            assert fit["eval_neighbors"] == cell_params["eval_neighbors"]
            assert fit["dataset_params"] == {**cell_params["dataset_params"], "seed": 3}
    assert p["fits"]["hlle"]["noisy"]["dataset_params"]["extra_noise_dims"] > 0
    assert p["fits"]["hlle"]["clean"]["dataset_params"]["extra_noise_dims"] == 0


def test_a_tiny_job_fits_both_methods_on_both_rolls():
    spec = {"dataset": "swiss_roll", "method_params": {"n_neighbors": 8, "n_components": 2},
            "eval_neighbors": 5}
    fits = {m: {"clean": {**spec, "dataset_params": {"n_samples": 150, "seed": 1}},
                "noisy": {**spec, "dataset_params": {"n_samples": 150, "seed": 1,
                                                     "extra_noise_dims": 5}}}
            for m in ("hlle", "isomap")}
    out = work({"seed": 1, "blas_threads": 1, "fits": fits})
    assert out["status"] == "ok"
    for method in ("hlle", "isomap"):
        clean, noisy = out["fits"][method]["clean"], out["fits"][method]["noisy"]
        assert (clean["n_features"], noisy["n_features"]) == (3, 8)
        for r in (clean, noisy):
            three = [r["local_continuity"], r["local_trust"], r["neighborhood_intersection"]]
            assert all(0 <= v <= 1 for v in three)
            assert abs(r["mean"] - sum(three) / 3) < 1e-12
    assert {p for p, _ in derived(out, "")} == {
        "drop.hlle_drop", "drop.isomap_drop", "drop.hlle_minus_isomap"}


def _records(hlle_drops, isomap_drops):
    def fit(drop):
        return {"clean": {"mean": 0.8}, "noisy": {"mean": 0.8 - drop}}
    return {f"sample{i}": {"status": "ok", "fits": {
                "hlle": {"clean": {"mean": 0.8, "n_samples": 2000, "n_features": 3},
                         "noisy": {"mean": 0.8 - h, "n_samples": 2000, "n_features": 8}},
                "isomap": fit(d)}}
            for i, (h, d) in enumerate(zip(hlle_drops, isomap_drops))}


def _verdicts(records):
    claim = rc.hlle_noise_weakness(records)
    return claim["verdict"], claim["evidence"]


def test_the_verdicts_on_hand_made_records():
    holding = _records([0.20, 0.22, 0.19, 0.21, 0.20], [0.01, 0.02, 0.0, 0.01, 0.02])
    verdict, evidence = _verdicts(holding)
    assert verdict == "holds"
    assert "reading noise hurts hLLE (holds)" in evidence
    assert "reading more than Isomap (holds)" in evidence
    failing = _records([0.0, 0.001, -0.001, 0.0, 0.0], [0.004, 0.005, 0.003, 0.004, 0.004])
    assert _verdicts(failing)[0] == "does not hold"
    # a large but noisy drop: at least 0.1 on average, not beyond twice its standard error
    noisy = _records([0.5, -0.3, 0.4, -0.2, 0.1], [0.0] * 5)
    assert _verdicts(noisy)[0] == "undecided (within noise)"
    # hLLE hurt by 0.1 or more, no more than Isomap: the readings disagree
    both = _records([0.20, 0.22, 0.19, 0.21, 0.20], [0.20, 0.23, 0.18, 0.22, 0.19])
    assert _verdicts(both)[0] == "partly holds"
    unmeasured = {**holding, "sample4": {"status": "timeout", "reason": "CPU budget"}}
    verdict, evidence = _verdicts(unmeasured)
    assert verdict == "not measured" and "sample4" in evidence
    assert _verdicts({})[0] == "not measured"


def test_the_first_readings_bounds_and_the_paired_rows():
    assert rc.noise_hurts(0.12, 0.01) is True
    assert rc.noise_hurts(0.05, 0.01) is False
    assert rc.noise_hurts(0.12, 0.2) is rc.WITHIN_NOISE
    assert rc.noise_hurts(0.095, 0.01) is rc.WITHIN_NOISE
    recs = _records([0.2, 0.3], [0.1, 0.1])
    rows = paired_rows(recs).set_index("path")["value"]
    assert abs(rows["hlle_drop.mean"] - 0.25) < 1e-12
    assert abs(rows["hlle_drop.se"] - 0.05) < 1e-12
    assert rows["hlle_drop.samples"] == 2 and rows["effect_size"] == rc.EFFECT
    assert list(paired_rows({"sample0": {"status": "failed"}})["path"]) == ["effect_size"]
