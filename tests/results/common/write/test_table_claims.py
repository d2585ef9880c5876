"""A grid table shows one thesis data set under two readings of its data (the profile's
``readings``): each column runs its own data, has its own average, and a claim that
involves the data set is checked under each reading ("partly holds" when they
disagree)."""

import pytest

from harness.config import validate_config
from harness.errors import ConfigError
from harness.jobs import Job, record_path
from harness.records import write_json_atomic
from harness.result_registry import get_result
from harness.results.common.write.table_claims import table_claims
from harness.results.common.write.tables import build_table, column_readings, write_table
from harness.results.table_3_2.write import CLAIMS

RESULT = get_result("table_3_2")
SPEC = RESULT.SPEC
MEASURES = ("local_continuity", "local_trust", "neighborhood_intersection")
READINGS = {
    "swiss_roll": {"description": "the 3-D roll"},
    "roll_p8": {"dataset": "swiss_roll",
                "dataset_params": {"extra_noise_dims": 5, "extra_noise_std": 0.1},
                "description": "the roll of 3.1.5"},
}


def _config(tmp_path, repo_root, datasets=("olivetti", "teapot", "swiss_roll", "roll_p8",
                                             "frey"), readings=None):
    return validate_config({
        "profile": "tab", "results_dir": str(tmp_path),
        "reference_dir": str(repo_root / "results" / "reference"),
        "datasets": {"swiss_roll": {"n_samples": 60, "noise": 0.0}},
        "results": {"table_3_2": {
            "datasets": list(datasets), "methods": ["mvu", "isomap"],
            "readings": READINGS if readings is None else readings}},
    })


@pytest.fixture
def config(tmp_path, repo_root):
    return _config(tmp_path, repo_root)


def _write(config, key, value):
    body = {"status": "ok", "reason": "",
            "params": {"n_runs": 1, "method_params": {"n_components": 2}},
            "provenance": {"git": {"commit": "abc", "dirty": False}},
            "summary": {m: {"mean": value, "std": 0.0, "n": 1} for m in MEASURES},
            "runs": [{"seed": 0, "measures": {m: value for m in MEASURES}, "info": {}}]}
    write_json_atomic(record_path(config, Job("table_3_2", key)), body)


def test_a_reading_column_runs_its_plugin_with_its_own_data(config):
    keys = RESULT.keys(config)
    assert "roll_p8/mvu/native" in keys and "swiss_roll/mvu/native" in keys
    plain = RESULT.params(config, "swiss_roll/mvu/native")
    read = RESULT.params(config, "roll_p8/mvu/native")
    assert read["dataset"] == "swiss_roll" and read["reading"] == "roll_p8"
    assert read["dataset_params"] == {**plain["dataset_params"], "extra_noise_dims": 5,
                                      "extra_noise_std": 0.1}
    assert read["dataset_params"]["n_samples"] == 60  # the profile's datasets: entry
    assert "reading" not in plain  # a plain column's params (and its job) do not move
    assert read["method_params"] == plain["method_params"]  # MVU's k = 5 for both


def test_bad_readings_are_refused_naming_the_entry(tmp_path, repo_root):
    with pytest.raises(ConfigError, match=r"readings\.roll_p8\.dataset.*unknown dataset "
                                          r"'no_such'"):
        _config(tmp_path, repo_root, readings={
            "roll_p8": {"dataset": "no_such", "description": "x"}})
    with pytest.raises(ConfigError, match=r"readings\.roll_p8: not a column"):
        _config(tmp_path, repo_root, datasets=("swiss_roll",))
    with pytest.raises(ConfigError, match="unknown dataset 'roll_p9'"):
        _config(tmp_path, repo_root, datasets=("swiss_roll", "roll_p9"))


def _fill(config, mvu_roll, mvu_p8):
    """Every column measured: MVU 0.99 on olivetti, teapot and frey, the given values
    on the two rolls; Isomap 0.5 everywhere."""
    for column in ("olivetti", "teapot", "frey"):
        _write(config, f"{column}/mvu/native", 0.99)
    _write(config, "swiss_roll/mvu/native", mvu_roll)
    _write(config, "roll_p8/mvu/native", mvu_p8)
    for column in ("olivetti", "teapot", "swiss_roll", "roll_p8", "frey"):
        _write(config, f"{column}/isomap", 0.5)


def test_each_reading_has_its_own_average(config):
    _fill(config, mvu_roll=0.4, mvu_p8=0.8)
    frame = build_table(config, SPEC)
    readings = column_readings(frame)
    assert [(r.name, r.average, r.thesis_dataset) for r in readings] == [
        ("swiss_roll", "average", ""), ("roll_p8", "average (roll_p8)", "swiss_roll")]
    assert readings[1].columns == {"olivetti", "teapot", "roll_p8", "frey"}
    rows = frame.set_index(["measure", "method", "dataset"])
    p8 = rows.loc[("local_trust", "mvu/native", "roll_p8")]
    assert p8["thesis_dataset"] == "swiss_roll" and p8["thesis"] == 0.990  # same column
    assert rows.loc[("local_trust", "mvu/native", "average"), "ours"] == pytest.approx(
        (3 * 0.99 + 0.4) / 4)
    assert rows.loc[("local_trust", "mvu/native", "average (roll_p8)"), "ours"] == \
        pytest.approx((3 * 0.99 + 0.8) / 4)
    paths = write_table(config, SPEC)
    md = next(p for p in paths if p.suffix == ".md").read_text()
    assert "| average (roll_p8) " in md  # a column of the wide table
    assert "under 2 readings of its data" in md and "roll_p8 (the roll of 3.1.5)" in md


def _claims(config):
    frame = build_table(config, SPEC)
    descriptions = {c: r["description"] for c, r in READINGS.items()}
    return {c["claim"]: c for c in table_claims(SPEC, CLAIMS, frame, "", descriptions)}


def test_a_claim_on_the_roll_partly_holds_when_its_readings_disagree(config):
    _fill(config, mvu_roll=0.4, mvu_p8=0.99)
    claims = _claims(config)
    perfect = next(c for text, c in claims.items() if text.startswith("MVU obtains almost"))
    assert perfect["verdict"] == "partly holds"
    assert perfect["evidence"].startswith("reading swiss_roll (does not hold): the 3-D "
                                          "roll: swiss_roll continuity 0.400")
    assert "reading roll_p8 (holds): the roll of 3.1.5: swiss_roll continuity 0.990" in \
        perfect["evidence"]
    # a claim about the other data sets only is checked once, as before
    cg = next(c for text, c in claims.items() if text.startswith("The conjugate-gradient"))
    assert "reading roll_p8" in cg["evidence"]  # it names all four data sets
    # the average's claim reads each reading's own average
    iso = next(c for text, c in claims.items() if text.startswith("Of all non-MVU"))
    assert "reading swiss_roll" in iso["evidence"] and "reading roll_p8" in iso["evidence"]


def test_agreeing_readings_give_the_common_verdict(config):
    _fill(config, mvu_roll=0.99, mvu_p8=0.98)
    perfect = next(c for text, c in _claims(config).items()
                   if text.startswith("MVU obtains almost"))
    assert perfect["verdict"] == "holds"


def test_a_table_with_one_reading_is_unchanged(tmp_path, repo_root):
    config = _config(tmp_path, repo_root, datasets=("olivetti", "teapot", "swiss_roll",
                                                      "frey"), readings={})
    for column in ("olivetti", "teapot", "swiss_roll", "frey"):
        _write(config, f"{column}/mvu/native", 0.99)
    frame = build_table(config, SPEC)
    assert [r.name for r in column_readings(frame)] == [""]
    assert set(frame["dataset"]) == {"olivetti", "teapot", "swiss_roll", "frey", "average"}
    perfect = next(c for c in table_claims(SPEC, CLAIMS, frame)
                   if c["claim"].startswith("MVU obtains almost"))
    assert perfect["verdict"] == "holds" and "reading" not in perfect["evidence"]


def test_a_claim_about_every_data_set_is_not_decided_by_a_subset(config):
    """"Almost perfect on the Swiss roll and the teapot" (coverage "all") and "the
    highest average ranking" (coverage "average") with the teapot not measured: a roll
    that passes decides nothing, a roll that fails is a counterexample; a mean rank
    over three of the four data sets decides nothing whatever it is."""
    _fill(config, mvu_roll=0.4, mvu_p8=0.99)
    (record_path(config, Job("table_3_2", "teapot/mvu/native"))).unlink()
    (record_path(config, Job("table_3_2", "teapot/isomap"))).unlink()
    claims = _claims(config)
    perfect = next(c for text, c in claims.items() if text.startswith("MVU obtains almost"))
    # reading swiss_roll fails on the roll (decided); reading roll_p8 passes on the
    # roll but the teapot is missing (undecided): the claim's verdict is the decided one
    assert perfect["verdict"] == "does not hold"
    assert "reading roll_p8 (not measured)" in perfect["evidence"]
    assert ("no verdict: the claim is about every one of swiss_roll, teapot, 1 of 2 "
            "measured") in perfect["evidence"]
    ranks = next(c for text, c in claims.items() if text.startswith("MVU has the highest"))
    assert ranks["verdict"] == "not measured"
    assert "no verdict: the claim is about the mean over" in ranks["evidence"]
    # measured everywhere, the same claims are decided as before
    _fill(config, mvu_roll=0.99, mvu_p8=0.98)
    claims = _claims(config)
    assert next(c for text, c in claims.items()
                if text.startswith("MVU obtains almost"))["verdict"] == "holds"
    assert next(c for text, c in claims.items()
                if text.startswith("MVU has the highest"))["verdict"] != "not measured"


def test_a_coverage_must_be_known():
    from harness.results.common.write.table_claims import TableClaim

    with pytest.raises(ValueError, match="coverage 'most'"):
        TableClaim("x", lambda values, datasets: [], coverage="most")
