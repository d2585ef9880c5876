"""Fig. 3.23 (thesis 3.1.10): the alignment error of (3.34), one real point on a
tiny Swiss roll, and the aggregation, gaps and claim verdicts from hand-made records."""

from __future__ import annotations

import math

import numpy as np
import pytest

from harness.config import ConfigError
from harness.jobs import Job, job_sources
from harness.records import read_record
from harness.result_registry import get_result
from harness.results.fig_3_23 import work as fig_3_23_work
from harness.results.fig_3_23 import write as fig_3_23_write
from harness.runner import run_job
from tests.results.conftest import write_point

fig_3_23 = get_result("fig_3_23")

SECTION = {"datasets": ["swiss_roll", "teapot_standin", "teapot"],
           "n_samples": {"swiss_roll": 60, "teapot_standin": 60},
           "default_split": [20, 15], "n_trials": 2, "time_limit_seconds": 120}
EXT = ("oos_sdp", "oos_sdp_cg", "oos_lle")


def test_alignment_error_is_the_least_squares_residual():
    rng = np.random.default_rng(0)
    Y = rng.standard_normal((30, 2))
    Q = np.array([[0.3, -2.0], [1.5, 0.7]])
    assert fig_3_23_work.alignment_error(Y @ Q.T, Y) == pytest.approx(0.0, abs=1e-10)
    shifted = Y @ Q.T + 1.0
    assert fig_3_23_work.alignment_error(shifted, Y) > 1.0  # linear Q cannot translate
    assert fig_3_23_work.alignment_error(shifted, Y, "affine") == pytest.approx(0.0, abs=1e-10)
    X = rng.standard_normal((30, 2))
    expected = np.linalg.norm(X - Y @ np.linalg.lstsq(Y, X, rcond=None)[0])
    assert fig_3_23_work.alignment_error(X, Y) == pytest.approx(expected)


def test_one_point_runs_four_mvu_solves_and_every_extension(profile):
    config = profile(fig_3_23={**SECTION, "datasets": ["swiss_roll"],
                               "n_samples": {"swiss_roll": 60},
                               "dataset_params": {"swiss_roll": {"noise": 0.0}}})
    record = read_record(run_job(config, Job("fig_3_23", "swiss_roll/trial0")))
    assert record["status"] == "ok", record["reason"]
    assert set(record["mvu_solves"]) == {"AC", "BC", "A", "B"}
    assert set(record["measures"]) == set(EXT) and record["denominator"] > 0
    for name in EXT:
        ratio = record["measures"][name]
        assert ratio == pytest.approx(record["numerators"][name] / record["denominator"])
    sdp = record["extension_info"]["oos_sdp"][0]
    assert sdp["n_points"] == sdp["n_optimal"] == 15 and sdp["max_gap"] <= 1e-4
    assert record["params"]["n_ab"] == 20 and record["params"]["n_c"] == 15


def test_splits_that_do_not_fit_are_refused(profile):
    with pytest.raises(ConfigError, match="exceeds n_samples.swiss_roll = 60"):
        profile(fig_3_23={**SECTION, "default_split": [30, 15]})
    with pytest.raises(ConfigError, match="unknown extension 'nystrom'"):
        profile(fig_3_23={**SECTION, "extensions": ["nystrom"]})


def _ok(ratios: dict) -> dict:
    return {"measures": dict(ratios), "numerators": dict(ratios), "denominator": 1.0, "mvu_certified": True, "n_samples": 60}


@pytest.fixture
def config(profile):
    config = profile(fig_3_23=SECTION)
    for t, scale in enumerate((1.0, 3.0)):
        write_point(config, f"fig_3_23/swiss_roll/trial{t}", **_ok(
            {"oos_sdp": 4.0 * scale, "oos_sdp_cg": 2.0 * scale, "oos_lle": 1.5 * scale}))
        write_point(config, f"fig_3_23/teapot/trial{t}", **_ok(
            {"oos_sdp": 0.8, "oos_sdp_cg": 0.9, "oos_lle": 0.5}))
    write_point(config, "fig_3_23/teapot_standin/trial0", **_ok(
        {"oos_sdp": 9.0, "oos_sdp_cg": 9.0, "oos_lle": 9.0}))
    write_point(config, "fig_3_23/teapot_standin/trial1", status="failed",
                reason="MVU on A: the k-nearest-neighbour graph has 2 components")
    return config


def test_harmonic_mean_over_trials_and_marked_gaps(config):
    frame = fig_3_23_write.build(config).set_index(["dataset", "extension"])
    row = frame.loc[("swiss_roll", "oos_sdp")]
    assert row.ratio_harmonic_mean == pytest.approx(2 / (1 / 4 + 1 / 12))
    assert (row.ratio_min, row.ratio_max, row.n_trials) == (4.0, 12.0, 2)
    partial = frame.loc[("teapot_standin", "oos_lle")]
    assert partial.n_trials == 1 and "2 components" in partial.reason
    gap = frame.loc[("mnist_fives", "oos_sdp")]
    assert gap.status == "unavailable" and math.isnan(gap.ratio_harmonic_mean)


def test_a_trial_with_an_uncertified_solve_is_left_out(config):
    """A trial whose MVU solve (or an extension's SDP) is not certified gives the
    ratio of an iterate: shown as left out, not averaged, not counted."""
    write_point(config, "fig_3_23/teapot/trial1", **{
        **_ok({"oos_sdp": 3.0, "oos_sdp_cg": 0.9, "oos_lle": 0.5}), "mvu_certified": False})
    write_point(config, "fig_3_23/swiss_roll/trial1", **{
        **_ok({"oos_sdp": 12.0, "oos_sdp_cg": 6.0, "oos_lle": 4.5}),
        "extension_info": {"oos_sdp": [{"n_optimal": 59, "n_points": 60}]}})
    frame = fig_3_23_write.build(config).set_index(["dataset", "extension"])
    tea = frame.loc[("teapot", "oos_sdp")]
    assert (tea.ratio_harmonic_mean, tea.n_trials, tea.n_trials_not_certified) == (0.8, 1, 1)
    assert "trial1: an MVU or extension SDP solve not certified optimal" in tea.reason
    assert frame.loc[("swiss_roll", "oos_sdp"), "n_trials"] == 1  # one point uncertified
    assert frame.loc[("swiss_roll", "oos_lle"), "n_trials"] == 2  # no SDP of its own
    verdicts = {c["claim"].split(" (3.1.10)")[0]: c for c in fig_3_23_write.claims(config)}
    assert verdicts["On teapot all three ratios are below 1"]["verdict"] == "holds"  # not 3.0
    for t in (0, 1):
        write_point(config, f"fig_3_23/teapot/trial{t}", **{
            **_ok({"oos_sdp": 0.8, "oos_sdp_cg": 0.9, "oos_lle": 0.5}), "mvu_certified": False})
    frame = fig_3_23_write.build(config).set_index(["dataset", "extension"])
    assert frame.loc[("teapot", "oos_lle"), "status"] == "incomplete"
    verdicts = {c["claim"].split(" (3.1.10)")[0]: c for c in fig_3_23_write.claims(config)}
    assert verdicts["On teapot all three ratios are below 1"]["verdict"] == "not measured"


def test_claims_get_verdicts_and_stand_ins_never_count(config):
    verdicts = {c["claim"].split(" (3.1.10)")[0]: c for c in fig_3_23_write.claims(config)}
    below2 = verdicts["On real data (MNIST fives, frey, teapot) every ratio is below 2"]
    # below 2 on the teapot, but MNIST fives and frey are not measured: a claim about
    # every real data set is not decided by one of them (the stand-in never counts)
    assert below2["verdict"] == "not measured" and "teapot_standin" not in below2["evidence"]
    assert ("no verdict: the claim is about every one of mnist_fives, frey, teapot, 1 of 3 "
            "measured") in below2["evidence"]
    assert verdicts["On teapot all three ratios are below 1"]["verdict"] == "holds"
    lle = verdicts["'lle' has the lowest ratio on every data set"]
    assert lle["verdict"] == "not measured" and "2 of 4 measured" in lle["evidence"]
    def starting(text):
        return next(c for claim, c in verdicts.items() if claim.startswith(text))

    # the roll's 6 -> 3 meets the effect size, but two trials cannot make a one-sided
    # Wilcoxon test significant (smallest p 0.25): the readings disagree (issue 51)
    cg = starting("The conjugate gradient post-processing improves")
    assert cg["verdict"] == "partly holds"
    assert "reading paired test (undecided (within noise))" in cg["evidence"]
    assert "reading effect size (holds)" in cg["evidence"]
    assert starting("The CG post-processing does not improve")["verdict"] == "not measured"
    worse = starting("All out-of-sample extension methods have a significantly worse")
    assert worse["register"] == "s3-1-10-swiss-significantly-worse"
    assert worse["verdict"] == "undecided (within noise)"  # 2 trials; 1 of 3 real sets
    assert {c["source"] for c in verdicts.values()} == {"fig_3_23"}


def test_the_significance_tests_over_the_trials():
    from harness.claims import WITHIN_NOISE
    from harness.results.fig_3_23.significance import paired_lower, sign_test, significant

    above, p_above, p_below = sign_test([1.2] * 9 + [0.9])
    assert above == 9 and p_above < 0.05 and p_below > 0.5
    assert significant(p_above, p_below) is True
    assert significant(p_below, p_above) is False
    lower, higher = paired_lower([1.0] * 10, [1.5 + 0.1 * i for i in range(10)])
    assert lower < 0.01 and higher > 0.9
    assert significant(*paired_lower([1.0, 2.0], [1.5, 2.5])) is WITHIN_NOISE


def test_a_scaled_down_run_says_its_verdicts_are_no_reproduction(config):
    """Two trials of 20/20/15 points: every verdict's evidence says the run is scaled
    down against the thesis' ten trials; at ten trials it does not."""
    for claim in fig_3_23_write.claims(config):
        assert ("scaled down: 2 trials (|A| = |B| = 20, |C| = 15) where the thesis "
                "averages 10 trials") in claim["evidence"], claim
        assert "not a reproduction" in claim["evidence"]
    full = dict(config, results={"fig_3_23": dict(config["results"]["fig_3_23"],
                                                  n_trials=10)})
    assert fig_3_23_write.scale_note(full) == ""
    assert not any("scaled down" in c["evidence"] for c in fig_3_23_write.claims(full))


def test_figure_files_name_claims_gaps_and_choices(config):
    paths = fig_3_23_write.write(config)
    md = paths[2].read_text()
    for text in ("**holds**", "stand-in", "(1/2 trials)", "2 components", "MNIST fives",
                 "top-left block of S is I", "harmonic mean"):
        assert text in md
    assert paths[1].stat().st_size > 5_000


def test_editing_the_figure_module_or_an_extension_reruns_its_points(profile):
    config = profile(fig_3_23=SECTION)
    files = job_sources(config, Job("fig_3_23", "swiss_roll/trial0"))
    for name in ("fig_3_23/work.py", "fig_3_23/__init__.py", "oos_sdp.py", "oos_sdp_cg.py",
                 "oos_lle.py", "mvu.py", "swiss_roll.py", "shared/oos_sdp_core.py",
                 "shared/out_of_sample_core.py",
                 "problems/out_of_sample.py", "solvers/out_of_sample_native.py",
                 "solvers/_out_of_sample_kernel.py"):
        assert any(f.endswith("/" + name) for f in files), name
    # one rule for every job (harness.sources): what its code imports, not the other
    # results of the harness.results package, nor the report
    assert any(f.endswith("/harness/registry.py") for f in files)
    assert not any(any(f"/results/{other}/" in f for other in (
                       "fig_3_24", "fig_3_28", "solver_table", "table_3_2", "table_2_1"))
                   or "/report/" in f or f.endswith("/fig_3_23/write.py") for f in files)

def test_a_disconnected_subset_is_linked_as_the_thesis_does(profile, monkeypatch):
    """A far cluster of 6 points in A and 6 in B makes the k = 5 graphs of the subsets
    disconnected:
    by default MVU adds the thesis' artificial links (3.1.12, as Table 3.2) and the
    record lists them; with connect_components = null the trial is a marked failure
    naming the components (what 4 of 10 frey trials were)."""
    from harness.plugin import Dataset

    rng = np.random.default_rng(3)
    t = np.sort(rng.uniform(0, 3 * np.pi, 54))
    roll = np.c_[t * np.cos(t), rng.uniform(0, 5, 54), t * np.sin(t)]
    far = 100.0 + rng.standard_normal((12, 3))  # its own component in every subset
    data = Dataset(np.vstack([roll, far]), None, {"source": "generated",
                                                  "stand_in_for": None})
    monkeypatch.setattr(fig_3_23_work, "load_dataset", lambda params: data)
    monkeypatch.setattr(fig_3_23_work, "_split_rows", lambda params, n: {
        "A": np.r_[0:20:2, 54:60], "B": np.r_[1:20:2, 60:66], "C": np.arange(20, 54)})
    config = profile(fig_3_23={**SECTION, "datasets": ["swiss_roll"],
                               "default_split": [16, 34], "n_samples": {"swiss_roll": 66}})
    body = fig_3_23_work.work(fig_3_23.params(config, "swiss_roll/trial0"))
    assert body["status"] == "ok", body["reason"]
    assert all(len(body["mvu_solves"][fit]["linked_edges"]) >= 1 for fit in ("A", "B"))
    config = profile(fig_3_23={**SECTION, "datasets": ["swiss_roll"],
                               "default_split": [16, 34], "n_samples": {"swiss_roll": 66},
                               "connect_components": None})
    body = fig_3_23_work.work(fig_3_23.params(config, "swiss_roll/trial0"))
    assert body["status"] == "failed" and "connected components" in body["reason"]


def _mvu_err(config, dataset: str, err: float, scale: float | None = 1.0) -> None:
    for t in (0, 1):
        write_point(config, f"fig_3_23/{dataset}/trial{t}", **{
            **_ok({"oos_sdp": 2.0, "oos_sdp_cg": 2.0, "oos_lle": 2.0}),
            "denominator": err, **({"denominator_scale": scale} if scale else {})})


def _consistent(config) -> dict:
    return next(c for c in fig_3_23_write.claims(config)
                if c["register"] == "s3-1-10-mvu-very-consistent-swiss")


def test_mvu_very_consistent_on_the_roll_reads_its_own_relative_error(config):
    # records without the norm predate the measure: not measured
    assert _consistent(config)["verdict"] == "not measured"
    _mvu_err(config, "swiss_roll", 0.02)
    _mvu_err(config, "teapot", 0.3)
    # below 0.05 and below the teapot, but MNIST fives and frey unmeasured
    assert _consistent(config)["verdict"] == "not measured"
    for d in ("mnist_fives", "frey"):
        _mvu_err(config, d, 0.2)
    config["results"]["fig_3_23"]["datasets"] += ["mnist_fives", "frey"]
    made = _consistent(config)
    assert made["verdict"] == "holds", made["evidence"]
    assert "Swiss roll 0.02" in made["evidence"] and "teapot 0.3" in made["evidence"]
    # a real data set more consistent than the roll is a counterexample
    _mvu_err(config, "frey", 0.01)
    assert _consistent(config)["verdict"] == "does not hold"
    # above the bound decides by itself, whatever is measured
    _mvu_err(config, "swiss_roll", 0.08)
    _mvu_err(config, "frey", 0.2)
    made = _consistent(config)
    assert made["verdict"] == "does not hold" and "not below 0.05" in made["evidence"]
