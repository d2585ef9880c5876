"""Figs. 2.9 and 2.12 from fabricated Table 2.1 records: ratios and paired spreads
against a hand computation, zero denominators, gaps, the claims' verdicts (passing and
failing), the thesis' own ratios, and the workflow's dependency on Table 2.1's records."""

from __future__ import annotations

import math

import numpy as np
import pytest

from harness.config import validate_config
from harness.errors import ConfigError
from harness.jobs import Job, record_path, result_input_records
from harness.records import write_json_atomic
from harness.result_registry import get_result
from harness.results.fig_2_9_12.ratios import (
    BETTER, BOTH_ZERO, HIGHER_UNSURE, LOWER_UNSURE, SAME, WORSE, ZERO_BASE, classify, error_ratio, paired_difference,
)
from harness.results.fig_2_9_12 import write as fig_2_9_12_write
from harness.workflow import WorkflowConfig

FIG = get_result("fig_2_9_12")
METHODS = ["pca_lmnn", "mul_lmnn", "mm_lmnn"]


def _profile(tmp_path, repo_root, datasets, methods=METHODS, **section):
    return validate_config({
        "profile": "unit", "results_dir": str(tmp_path / "results"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"table_2_1": {"datasets": datasets, "methods": methods, "n_runs": 3,
                                  "default_n_neighbors": 3},
                    "fig_2_9_12": section},
    })


def _write(config, dataset, method, **per_run):
    """A Table 2.1 record whose runs (seeds 0, 1, ...) have the given errors."""
    n = len(next(iter(per_run.values())))
    runs = [{"seed": s, "measures": {m: float(v[s]) for m, v in per_run.items()}}
            for s in range(n)]
    summary = {m: {"mean": float(np.mean(v)), "std": float(np.std(v, ddof=1)) if n > 1 else 0.0,
                   "n": n} for m, v in per_run.items()}
    body = {"job": f"table_2_1/{dataset}/{method}", "status": "ok", "reason": "",
            "params": {"n_runs": n, "n_runs_source": "profile", "train_fraction": 0.7,
                       "method_params": {"n_neighbors": 3}},
            "provenance": {"git": {"commit": "0123456789", "dirty": False}},
            "timing": {"wall_seconds": 1.0}, "summary": summary, "runs": runs}
    write_json_atomic(record_path(config, Job("table_2_1", f"{dataset}/{method}")), body)


def _errors(knn, energy, train=None):
    train = knn if train is None else train
    return {"test_knn_error": knn, "test_energy_error": energy, "train_knn_loo_error": train}


@pytest.fixture
def small(tmp_path, repo_root):
    config = _profile(tmp_path, repo_root, ["iris", "wine"])
    _write(config, "iris", "pca_lmnn", **_errors([4, 6, 5], [2, 2, 2]))
    _write(config, "iris", "mul_lmnn", **_errors([4, 5, 3], [6, 6, 7]))
    _write(config, "wine", "pca_lmnn", **_errors([0, 0, 0], [0, 0, 0]))
    _write(config, "wine", "mul_lmnn", **_errors([0, 0, 0], [0, 3, 0]))
    return config


def _row(frame, figure, dataset, measure):
    part = frame[(frame["figure"] == figure) & (frame["dataset"] == dataset)
                 & (frame["measure"] == measure)]
    assert len(part) == 1
    return part.iloc[0]


def test_error_ratio_and_paired_spread_by_hand():
    assert error_ratio(3.0, 4.0) == (0.75, "")
    assert error_ratio(0.0, 0.0) == (1.0, BOTH_ZERO)
    assert error_ratio(2.0, 0.0) == (math.inf, ZERO_BASE)
    assert math.isnan(error_ratio(None, 4.0)[0]) and math.isnan(error_ratio(1.0, math.nan)[0])
    with pytest.raises(ValueError, match="error rates must be >= 0"):
        error_ratio(-1.0, 2.0)
    mean, se, n = paired_difference({0: 4, 1: 5, 2: 3, 7: 9}, {0: 4, 1: 6, 2: 5})
    assert (mean, n) == (-1.0, 3) and se == pytest.approx(1 / math.sqrt(3))
    assert paired_difference({0: 1.0}, {0: 3.0}) == (-2.0, 0.0, 1)
    assert paired_difference({0: 1.0}, {1: 3.0})[2] == 0
    # outside the band, within 2 s.e.: undecided, not 'about the same'
    assert classify(0.8, -1.0, 1 / math.sqrt(3), 0.1, 2.0) == LOWER_UNSURE
    assert classify(0.8, -1.0, 1 / math.sqrt(3), 0.1, 1.0) == BETTER
    assert classify(1.5, 5.0, 10.0, 0.1, 2.0) == HIGHER_UNSURE
    assert classify(1.05, 5.0, 0.0, 0.1, 2.0) == SAME  # within the band, whatever the runs
    assert classify(0.9, -0.5, 0.0, 0.1, 2.0) == SAME == classify(1.1, 0.5, 0.0, 0.1, 2.0)
    assert classify(math.inf, 1.0, 0.0, 0.1, 2.0) == WORSE and classify(math.nan, 0, 0, .1, 2) == ""
    # zero denominators: 0 % -> 0 % is identical; 0 % -> 1 % is not, however noisy
    assert classify(error_ratio(0.0, 0.0)[0], 0.0, 0.0, 0.1, 2.0) == SAME
    assert classify(error_ratio(1.0, 0.0)[0], 1.0, 1.0, 0.1, 2.0) == HIGHER_UNSURE


def test_ratios_from_records_match_a_hand_computation(small):
    frame = fig_2_9_12_write.build(small)
    knn = _row(frame, "2.9", "iris", "test_knn_error")
    assert knn["status"] == "ok" and knn["ours_ratio"] == pytest.approx(4 / 5)
    assert knn["diff_mean"] == pytest.approx(-1.0) and knn["n_paired"] == 3
    assert knn["diff_se"] == pytest.approx(1 / math.sqrt(3))
    assert knn["ours_class"] == LOWER_UNSURE  # 0.8: outside the band, within 2 s.e.
    energy = _row(frame, "2.9", "iris", "test_energy_error")
    assert energy["ours_ratio"] == pytest.approx((19 / 3) / 2)
    assert energy["diff_se"] == pytest.approx(np.std([4, 4, 5], ddof=1) / math.sqrt(3))
    assert energy["ours_class"] == WORSE
    # the thesis' ratio is that of its Table 2.1 rows (MUL-LMNN / PCA-LMNN on iris)
    assert knn["thesis_ratio"] == pytest.approx(3.76 / 4.08)
    assert energy["thesis_ratio"] == pytest.approx(3.34 / 4.0) and energy["thesis_class"] == BETTER
    olivetti = _row(frame, "2.9", "olivetti", "test_knn_error")
    assert olivetti["thesis_ratio"] == pytest.approx(4.83 / 3.28)
    assert olivetti["thesis_class"] == WORSE and olivetti["status"] == "unavailable"
    assert "harness fetch olivetti" in olivetti["reason"]


def test_zero_denominators_are_explicit(small):
    frame = fig_2_9_12_write.build(small)
    both = _row(frame, "2.9", "wine", "test_knn_error")
    assert both["ours_ratio"] == 1.0 and both["ours_note"] == BOTH_ZERO
    base_zero = _row(frame, "2.9", "wine", "test_energy_error")
    assert math.isinf(base_zero["ours_ratio"]) and base_zero["ours_note"] == ZERO_BASE
    # 0 % -> 1 %: +1 point on average, standard error 1: within 2 standard errors, so
    # not 'worse', but never 'about the same' (the ratio is infinite)
    assert base_zero["ours_class"] == HIGHER_UNSURE
    assert both["ours_class"] == SAME  # 0 % -> 0 %
    md = next(p for p in fig_2_9_12_write.write(small) if p.suffix == ".md").read_text()
    assert "inf[" in md and ZERO_BASE in md and BOTH_ZERO in md


def test_missing_records_and_methods_are_marked_gaps(tmp_path, repo_root):
    config = _profile(tmp_path, repo_root, ["iris"], methods=["pca_lmnn", "mul_lmnn"])
    _write(config, "iris", "pca_lmnn", **_errors([4, 6, 5], [2, 2, 2]))
    frame = fig_2_9_12_write.build(config)
    gap = _row(frame, "2.9", "iris", "test_knn_error")
    assert gap["status"] == "missing" and math.isnan(gap["ours_ratio"])
    assert "harness job table_2_1/iris/mul_lmnn" in gap["reason"]
    assert gap["thesis_ratio"] == pytest.approx(3.76 / 4.08)  # the thesis' still shown
    mm = _row(frame, "2.12", "iris", "test_knn_error")
    assert mm["status"] == "missing" and "list it under results.table_2_1.methods" in mm["reason"]
    verdicts = [c["verdict"] for c in fig_2_9_12_write.claims(config, frame)[:3]]
    assert verdicts == ["not measured"] * 3
    # a record without the measure (or without shared runs) is a gap, not a pass
    _write(config, "iris", "mul_lmnn", test_knn_error=[4, 5, 3])
    frame = fig_2_9_12_write.build(config)
    gap = _row(frame, "2.9", "iris", "test_energy_error")
    assert gap["status"] == "incomplete" and "has no test_energy_error" in gap["reason"]
    assert _row(frame, "2.9", "iris", "test_knn_error")["status"] == "ok"
    assert "iris energy" not in fig_2_9_12_write.claims(config, frame)[0]["evidence"]


def test_fig_2_9_claim_fails_on_a_worse_data_set_and_holds_without(small):
    claim = fig_2_9_12_write.claims(small)[0]
    # iris energy worse; iris kNN 0.8 and wine energy 0 % -> 1 % outside the band and
    # within the runs' spread: neither improved nor almost identical; wine kNN 0/0
    assert claim["verdict"] == "does not hold"  # iris energy worse: a counterexample
    assert "iris energy 3.167 (worse, 3 runs)" in claim["evidence"]
    assert "iris kNN testing 0.800 (lower, within the spread, 3 runs)" in claim["evidence"]
    assert "wine energy inf (higher, within the spread, 3 runs)" in claim["evidence"]
    assert "wine kNN testing 1.000 (about the same, 3 runs)" in claim["evidence"]
    # the thesis' own rows: olivetti (kNN, energy) and bal (energy) are worse than 1.1
    assert "15 of 18 no worse" in claim["evidence"]
    _write(small, "iris", "mul_lmnn", **_errors([4, 5, 3], [2, 2, 1]))
    # 0.8 and inf stay n.s.: inside the noise, no counterexample left, and a subset of
    # the data sets without a counterexample decides nothing
    assert fig_2_9_12_write.claims(small)[0]["verdict"] == "not measured"
    _write(small, "iris", "mul_lmnn", **_errors([5, 6, 4], [1, 1, 1]))  # 1.0 and 0.5
    _write(small, "wine", "mul_lmnn", **_errors([0, 0, 0], [0, 0, 0]))
    # no worse on both measured data sets, but the claim is about every data set of
    # Table 2.1 and seven are not measured here: no verdict (a worse one decides)
    claim = fig_2_9_12_write.claims(small)[0]
    assert claim["verdict"] == "not measured"
    assert ("(no verdict: the claim is about every one of iris, wine, mnist, 20news, "
            "letters, isolet, yalefaces, bal, olivetti, 2 of 9 measured)") in claim["evidence"]


def test_a_claim_about_every_data_set_passes_its_checks_once_all_are_measured():
    import pandas as pd

    part = pd.DataFrame({"dataset": ["iris", "wine", "wine_standin"],
                         "stand_in": [False, False, True]})
    everything = part[~part["stand_in"]]
    assert fig_2_9_12_write._about_every(part, everything, [True, True]) == ([True, True], "")
    assert fig_2_9_12_write._about_every(part, everything.iloc[:1], [True, False]) == (
        [True, False], "")  # a worse one decides even with wine missing
    checks, note = fig_2_9_12_write._about_every(part, everything.iloc[:1], [True])
    assert checks == [] and "1 of 2 measured" in note


def test_fig_2_12_claims_on_the_large_data_sets(tmp_path, repo_root):
    config = _profile(tmp_path, repo_root, ["mnist", "letter", "isolet", "newsgroups", "yale_b"])
    for dataset, mm in (("mnist", 3.0), ("letter", 4.0), ("isolet", 2.0),
                        ("newsgroups", 10.2), ("yale_b", 9.5)):
        _write(config, dataset, "pca_lmnn", **_errors([10.0], [10.0]))
        _write(config, dataset, "mm_lmnn", **_errors([mm], [10.0]))
    several, little = fig_2_9_12_write.claims(config)[1:3]
    assert several["verdict"] == "holds" and "3 of 5 large data sets improve" in several["evidence"]
    assert little["verdict"] == "holds"  # 1.02 and 0.95: within 1 +- 0.1
    _write(config, "letter", "mm_lmnn", **_errors([9.5], [10.0]))
    _write(config, "yale_b", "mm_lmnn", **_errors([15.0], [10.0]))
    several, little = fig_2_9_12_write.claims(config)[1:3]
    assert several["verdict"] == "does not hold"  # 2 < several = 3
    assert little["verdict"] == "does not hold"  # yalefaces 1.5 on one run: worse
    config["results"]["fig_2_9_12"]["several"] = 2
    assert fig_2_9_12_write.claims(config)[1]["verdict"] == "holds"


def test_little_impact_needs_the_ratio_in_its_band(tmp_path, repo_root):
    """An undecided test is not an equivalence: yalefaces at 1.5x with noisy runs (the
    increase within 2 standard errors) is not 'little impact' -- nor a counterexample:
    the claim is undecided (within noise); the evidence names the runs."""
    config = _profile(tmp_path, repo_root, ["newsgroups", "yale_b"])
    _write(config, "newsgroups", "pca_lmnn", **_errors([10.0, 10.0, 10.0], [10.0] * 3))
    _write(config, "newsgroups", "mm_lmnn", **_errors([10.0, 10.5, 10.1], [10.0] * 3))
    _write(config, "yale_b", "pca_lmnn", **_errors([10.0, 10.0, 10.0], [10.0] * 3))
    _write(config, "yale_b", "mm_lmnn", **_errors([0.0, 30.0, 15.0], [10.0] * 3))
    little = fig_2_9_12_write.claims(config)[2]
    assert little["verdict"] == "undecided (within noise)"
    assert "yale_b kNN testing 1.500 (higher, within the spread, 3 runs)" in little["evidence"]
    assert "newsgroups kNN testing 1.020 (about the same, 3 runs)" in little["evidence"]


def test_too_few_large_data_sets_give_no_verdict(small):
    several = fig_2_9_12_write.claims(small)[1]
    assert several["verdict"] == "not measured"
    assert ("no verdict: 0 improve and 5 of the 5 are not measured; at least 3 must "
            "improve") in several["evidence"]
    assert "mnist (n/a)" in several["evidence"]


def test_several_is_decided_by_what_the_unmeasured_could_change(tmp_path, repo_root):
    """'On several (3) of the 5 large data sets': none of 2 measured improving says
    nothing while 3 are open; none of 3 leaves 2 open, too few: does not hold."""
    config = _profile(tmp_path, repo_root, ["mnist", "letter", "isolet"])
    for dataset in ("mnist", "letter"):
        _write(config, dataset, "pca_lmnn", **_errors([10.0], [10.0]))
        _write(config, dataset, "mm_lmnn", **_errors([10.0], [10.0]))
    several = fig_2_9_12_write.claims(config)[1]
    assert several["verdict"] == "not measured"
    assert "0 improve and 3 of the 5 are not measured" in several["evidence"]
    _write(config, "isolet", "pca_lmnn", **_errors([10.0], [10.0]))
    _write(config, "isolet", "mm_lmnn", **_errors([10.0], [10.0]))
    assert fig_2_9_12_write.claims(config)[1]["verdict"] == "does not hold"


def test_the_figure_needs_table_2_1_and_depends_on_its_records(tmp_path, repo_root, small):
    with pytest.raises(ConfigError, match="add a results.table_2_1 section"):
        validate_config({"profile": "u", "results": {"fig_2_9_12": {}}})
    assert FIG.keys(small) == []
    with pytest.raises(ConfigError, match="has no jobs"):
        FIG.params(small, "iris")
    expected = [record_path(small, Job("table_2_1", f"{d}/{m}"))
                for d in ("iris", "wine") for m in METHODS]
    assert result_input_records(small, "fig_2_9_12") == expected
    assert WorkflowConfig("p.yaml", small).result_records("fig_2_9_12") == [
        str(p) for p in expected]
    # a result with jobs: its own records only
    assert result_input_records(small, "table_2_1") == expected


def test_write_makes_the_four_files_with_the_records_read(small):
    paths = fig_2_9_12_write.write(small)
    assert sorted(p.suffix for p in paths) == [".csv", ".json", ".md", ".png"]
    md = next(p for p in paths if p.suffix == ".md").read_text()
    assert "## Fig. 2.9: MUL-LMNN over PCA-LMNN" in md and "## Fig. 2.12" in md
    assert "`table_2_1/iris/mul_lmnn: ok" in md  # provenance of the records read
    assert "0.800 (-1.00±0.58 pts, 3 runs) lower (n.s.)" in md
    assert "within the band 1 +- 0.1" in md and "never almost identical" in md
    assert "Choices where the thesis is ambiguous" in md
