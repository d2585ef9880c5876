"""A result's claims are not decided while some of its jobs have not run
(:mod:`harness.result_claims`), in the report and in the sidecar alike."""

from __future__ import annotations

from harness.jobs import parse_job, record_path
from harness.report import build_report
from harness.outputs import read_sidecar, result_outputs
from harness.result_claims import result_claims, withhold
from harness.result_write import write_result
from harness.result_registry import get_result, hook
from harness.results.table_3_2.write import QUALITY
from tests.results.conftest import figure_profile, ok_body, write_point

FIG_3_28 = get_result("fig_3_28")
MEASURES = dict(zip(QUALITY, (0.9, 0.8, 0.5)))
#: k = 6 does not lock, k = 7 does (third normalised eigenvalue 0.3)
SPECTRA = {"k6": (10.0, 2.0, 0.05), "k7": (4.0, 3.0, 3.0)}


def _profile(tmp_path, repo_root):
    return figure_profile(tmp_path, repo_root,
                          fig_3_28={"n_samples": 40, "n_neighbors": [6, 7], "solver": "clarabel"})


def _write(config, reading, status="ok"):
    for k, spectrum in SPECTRA.items():
        if status == "ok":
            write_point(config, f"fig_3_28/{reading}/{k}", **ok_body(MEASURES, spectrum))
        else:
            write_point(config, f"fig_3_28/{reading}/{k}", status=status, reason="budget")


def test_a_verdict_from_half_the_jobs_is_withheld_and_says_why(tmp_path, repo_root):
    """One of Fig. 3.28's two readings run: its claims decide on it alone (the bug);
    withheld, they name the jobs that have not run and keep what was measured."""
    config = _profile(tmp_path, repo_root)
    _write(config, "noise_free")
    raw = hook(FIG_3_28, "claims")(config)
    # k = 6, 7 only: "k = 4, 5, 6 are the best" is not measured, the lock-up holds
    assert [c["verdict"] for c in raw[:2]] == ["holds", "not measured"]
    claims = result_claims(config, FIG_3_28)
    # every decided verdict withheld, the figure's own two and its register entries'
    assert {c["verdict"] for c in claims} == {"not measured"} and len(claims) == len(raw)
    for claim, before in zip(claims[:1], raw[:1]):  # the decided one is withheld
        assert claim["evidence"].startswith(
            "no verdict: 2 of the 4 jobs this result is built from have not run "
            "(fig_3_28/section_3_1_5/k6, fig_3_28/section_3_1_5/k7); decided on a run "
            "with every job. So far (holds on the records there are): ")
        assert claim["evidence"].endswith(before["evidence"])


def test_every_job_run_gives_the_hooks_verdict(tmp_path, repo_root):
    config = _profile(tmp_path, repo_root)
    for reading in ("noise_free", "section_3_1_5"):
        _write(config, reading)
    claims = result_claims(config, FIG_3_28)
    assert claims == hook(FIG_3_28, "claims")(config)
    assert [c["verdict"] for c in claims[:2]] == ["holds", "not measured"]


def test_a_failed_job_has_run(tmp_path, repo_root):
    """A timeout or an unavailable data set is a record the claims judge, not a job
    that has not run."""
    config = _profile(tmp_path, repo_root)
    _write(config, "noise_free")
    _write(config, "section_3_1_5", status="timeout")
    assert record_path(config, parse_job("fig_3_28/section_3_1_5/k7")).exists()
    claims = result_claims(config, FIG_3_28)
    assert claims == hook(FIG_3_28, "claims")(config)
    assert "section_3_1_5" in claims[0]["evidence"]


def test_the_report_and_the_sidecar_withhold_alike(tmp_path, repo_root):
    config = _profile(tmp_path, repo_root)
    _write(config, "noise_free")
    write_result(config, FIG_3_28)
    sidecar = read_sidecar(result_outputs(config, FIG_3_28)["json"])["claims"]
    in_report = [c for c in build_report(config).claims if c["source"] == "fig_3_28"]
    assert [c["verdict"] for c in sidecar] == [c["verdict"] for c in in_report]
    assert {c["verdict"] for c in sidecar} == {"not measured"}
    assert [c["evidence"] for c in sidecar] == [c["evidence"] for c in in_report]


def test_stand_in_and_not_comparable_claims_are_left_as_they_are():
    for verdict in ("not measured (stand-in)", "not comparable", "not measured"):
        claim = {"source": "fig_x", "claim": "c (1.1)", "verdict": verdict, "evidence": "e"}
        assert withhold(claim, ["fig_x/a"], 2) is claim


def test_the_grid_tables_state_their_unmeasured_cells_themselves():
    for name in ("table_2_1", "table_3_2", "table_3_3", "fig_2_9_12"):
        assert get_result(name).CLAIMS_PER_CELL is True
    assert not getattr(FIG_3_28, "CLAIMS_PER_CELL", False)
