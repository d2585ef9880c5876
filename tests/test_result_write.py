"""`harness write` puts the verdicts of a result's claims into its JSON sidecar
(harness.result_write): the same claims the report shows, with a stable id, and no
change to any Markdown the result writes."""

from __future__ import annotations

import json

import pytest

from harness.claims import claim_ids, structured_claims
from harness.cli import main
from harness.outputs import result_outputs
from harness.result_write import write_result
from harness.result_registry import get_result, hook
from tests.results.conftest import figure_profile, ok_body, write_point
from tests.results.test_fig_3_28_aggregation import LOCKED, MEASURES, SECTION, UNFOLDED

FIG = get_result("fig_3_28")


@pytest.fixture
def profile(tmp_path, repo_root):
    def make(**figures):
        return figure_profile(tmp_path, repo_root, **figures)
    return make


def _records(config):
    for reading, lock_k in (("noise_free", 5), ("section_3_1_5", 6)):
        for k in SECTION["n_neighbors"]:
            write_point(config, f"fig_3_28/{reading}/k{k}",
                        **ok_body(MEASURES, LOCKED if k >= lock_k else UNFOLDED))


def test_the_sidecar_holds_the_claims_the_report_shows(profile):
    config = profile(fig_3_28=SECTION)
    _records(config)
    paths = result_outputs(config, FIG)
    hook(FIG, "write")(config)
    markdown = paths["md"].read_text()
    plain = json.loads(paths["json"].read_text())
    assert "claims" not in plain

    written = write_result(config, FIG)
    assert paths["md"] in written and paths["md"].read_text() == markdown
    sidecar = json.loads(paths["json"].read_text())
    assert {k: v for k, v in sidecar.items() if k != "claims"} == plain
    expected = hook(FIG, "claims")(config)
    assert len(sidecar["claims"]) == len(expected) >= 2
    for stored, claim in zip(sidecar["claims"], expected):
        assert set(stored) == {"id", "source", "claim", "verdict", "evidence", "register",
                               "counted"}
        assert stored["source"] == "fig_3_28"
        assert (stored["claim"], stored["verdict"], stored["evidence"]) == (
            claim["claim"], claim["verdict"], claim["evidence"])
    assert [c["id"] for c in sidecar["claims"]] == claim_ids(expected)


def test_harness_write_adds_the_claims_of_a_table(profile, tmp_path, capsys):
    config = profile()
    write_point(config, "table_3_2/swiss_roll/pca", summary={
        m: {"mean": 0.5, "std": 0.0, "n": 1} for m in MEASURES},
        runs=[{"measures": MEASURES, "info": {}}])
    profile_file = tmp_path / "p.yaml"
    profile_file.write_text(json.dumps({
        "profile": config["profile"], "results_dir": config["results_dir"],
        "reference_dir": config["reference_dir"],
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca"]}}}))
    assert main(["write", "--config", str(profile_file), "table_3_2"]) == 0
    sidecar = json.loads(result_outputs(config, get_result("table_3_2"))["json"].read_text())
    verdicts = [c["verdict"] for c in sidecar["claims"]]
    # the five statements (one data set measured: none decided), then one claim per
    # register entry of a row the thesis prints (PCA's three rows have the roll's
    # cell), then the register entries its register_claims decides
    assert len(verdicts) > 5 + 30 and set(verdicts[:5]) == {"not measured"}
    rows = {c["register"]: c["verdict"] for c in sidecar["claims"][5:5 + 30]}
    assert {v for r, v in rows.items() if not r.endswith("-pca")} == {"not measured"}
    assert rows["s3-1-9-table-3-2-trust-pca"] == "does not hold"  # 0.5 vs 0.389
    assert sidecar["claims"][0]["id"] == (
        "table_3_2/mvu-has-the-highest-average-ranking-according-to")


def test_claim_ids_are_stable_across_sizes_and_unique():
    claims = [{"source": "f", "claim": "On N = 953 twos the kernel wins (3.1.9)"},
              {"source": "f", "claim": "On N = 400 twos the kernel wins (3.1.9)"},
              {"source": "g", "claim": "x", "id": "own_id"}]
    assert claim_ids(claims) == ["f/on-n-twos-the-kernel-wins", "f/on-n-twos-the-kernel-wins-2",
                                 "g/own_id"]
    stated = structured_claims([{"source": "f", "claim": "A holds (1.2)", "verdict": "holds",
                                 "evidence": "3 of 3", "extra": 1}])
    assert stated == [{"id": "f/a-holds", "source": "f", "claim": "A holds (1.2)",
                       "verdict": "holds", "evidence": "3 of 3", "register": "",
                       "counted": True}]
