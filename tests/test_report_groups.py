"""The report's parts: a result whose declaration says ``GROUP = "lecture"`` (the
lecture methods on the thesis' data) is shown after the thesis' results under its own
heading, with no thesis legend, and may state only claims deciding lecture register
entries."""

from __future__ import annotations

import types

import pytest

from harness.claims import make_claim
from harness.config import validate_config
from harness.jobs import Job, record_path
from harness.records import write_json_atomic
from harness.report import build_report
from harness.report.build import GROUPS, collect_claims, result_group
from harness.report.html import render_html
from harness.report.markdown import LEGEND, render_markdown
from harness.result_registry import get_result, hook, write_module

HEADING = GROUPS["lecture"][0]


@pytest.fixture
def config(tmp_path, repo_root):
    # the lecture table listed first: the report still puts it after the thesis' results
    config = validate_config({
        "profile": "rep", "results_dir": str(tmp_path / "results"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {
            "lecture_clustering": {"datasets": ["blobs"],
                                   "methods": ["spectral_clustering"], "n_runs": 2},
            "table_2_1": {"datasets": ["iris"], "methods": ["pca_knn"], "n_runs": 2},
        },
    })
    body = {"status": "ok", "reason": "", "params": {"n_runs": 2, "method_params": {}},
            "provenance": {"git": {"commit": "abc", "dirty": False}},
            "summary": {"adjusted_rand_index": {"mean": 0.9, "std": 0.1, "n": 2},
                        "normalized_mutual_info": {"mean": 0.8, "std": 0.05, "n": 2}},
            "runs": [{"fit_cpu_seconds": 0.5}, {"fit_cpu_seconds": 0.7}]}
    write_json_atomic(record_path(config, Job("lecture_clustering",
                                              "blobs/spectral_clustering")), body)
    hook(get_result("lecture_clustering"), "write")(config)
    return config


def test_group_of_a_declaration():
    assert result_group(get_result("lecture_spca")) == "lecture"
    assert result_group(get_result("table_2_1")) == ""
    with pytest.raises(ValueError, match="GROUP = 'bogus'"):
        result_group(types.SimpleNamespace(__name__="x", GROUP="bogus"))


def test_lecture_results_come_last_under_their_heading(config):
    report = build_report(config)
    assert [s.key for s in report.sections] == ["table_2_1", "lecture_clustering"]
    assert [(g, h, [s.key for s in ss]) for g, h, ss in report.parts()] == [
        ("", "", ["table_2_1"]), ("lecture", HEADING, ["lecture_clustering"])]
    lecture = report.sections[1]
    assert lecture.group == "lecture" and not lecture.missing
    assert lecture.summary == "3 cells measured; no thesis values, nothing compared"
    cells = [str(v) for grid in lecture.grids for v in grid.frame.to_numpy().ravel()]
    assert "0.900±0.100" in cells and "0.600±0.141" in cells  # ARI; CPU s over the runs
    assert not any(" / " in c for c in cells)  # no thesis / ours / delta

    md = render_markdown(report)
    part = md.split(f"## {HEADING}")[1]
    assert f"## {report.sections[1].title}" in part and "## Provenance" in part
    assert f"## {report.sections[0].title}" not in part  # the thesis' table before it
    assert LEGEND not in part.split("## Provenance")[0]
    assert f"{HEADING}:\n\n- {lecture.title}" in md  # the summary's part
    page = render_html(report)
    assert f'<section id="part-lecture" class="part"><h2>{HEADING}</h2>' in page
    assert page.index('id="part-lecture"') < page.index('<section id="lecture_clustering">')
    assert page.index('<section id="table_2_1">') < page.index('id="part-lecture"')


def test_a_lecture_result_states_only_lecture_register_claims(config, monkeypatch):
    stated = [c for c in collect_claims(config) if c["source"] == "lecture_clustering"]
    assert stated and {c["register"] for c in stated} == {
        "lec-spectral-clustering-groups-like-person", "lec-multiclass-spectral-clustering"}
    thesis = make_claim("lecture_clustering", "ours wins", [True], "0.9",
                        register="s2-1-1-knn-often-competitive")
    loose = make_claim("lecture_clustering", "ours wins (lecture)", [True], "0.9")
    for wrong in (thesis, loose):
        monkeypatch.setattr(write_module(get_result("lecture_clustering")), "claims",
                            lambda config, wrong=wrong: [*stated, wrong])
        with pytest.raises(ValueError, match="decide no lecture entry"):
            collect_claims(config)
