"""Bad input at the command line (issue 53): an unreadable record is an error naming
the file and the fix, never a traceback, and the report and the audit go on with the
other results; a job that cannot write is refused before it runs; a folder given as a
file is named so; a status is said once."""

from __future__ import annotations

import json
import os

import pytest

from harness.cli import main
from harness.record_check import CorruptRecordError, quarantine_corrupt
from harness.record_check import read_checked as read_record
from harness.report.runinfo import run_info


@pytest.fixture
def truncated(tmp_path):
    path = tmp_path / "records" / "fig_2_20" / "trial0.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"status": "ok", "runs": [1, 2, 3]})[:15])
    return path


def test_reading_a_truncated_record_names_the_file_and_the_fix(truncated):
    with pytest.raises(CorruptRecordError, match=r"trial0.json is not a readable record "
                       r"\(JSONDecodeError.*delete it and run snakemake"):
        read_record(truncated)


@pytest.mark.parametrize("text", ["[1, 2]", '{"runs": []}', "\udcff".encode(
    "utf-8", "surrogateescape").decode("latin-1")])
def test_json_that_is_no_record_is_refused(tmp_path, text):
    path = tmp_path / "r.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(CorruptRecordError):
        read_record(path)


def test_quarantine_moves_only_unreadable_records(truncated):
    good = truncated.with_name("trial1.json")
    good.write_text('{"status": "ok"}')
    assert quarantine_corrupt([truncated, good, truncated.with_name("absent.json")]) == [truncated]
    assert not truncated.exists() and truncated.with_name("trial0.json.corrupt").exists()
    assert good.exists()


def test_run_info_counts_an_unreadable_record_and_reads_the_others(truncated):
    good = truncated.with_name("trial1.json")
    good.write_text('{"status": "ok"}')
    info, records = run_info([truncated, good])
    assert info.statuses == {"ok": 1, "unreadable": 1} and len(records) == 1


def test_the_command_line_says_one_line_not_a_traceback(tmp_path, capsys, repo_root):
    profile = tmp_path / "p.yaml"
    profile.write_text(json.dumps({
        "profile": "p", "results_dir": str(tmp_path / "results"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"fig_2_20": {"n_samples": 100, "n_trials": 1}}}))
    record = tmp_path / "results" / "p" / "records" / "fig_2_20" / "trial0.json"
    record.parent.mkdir(parents=True)
    record.write_text('{"status": "ok", "ru')
    assert main(["write", "fig_2_20", "--config", str(profile)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("harness: error: ") and "trial0.json is not a readable record" in err
    assert "Traceback" not in err
    assert main(["audit", "--config", str(profile)]) == 1  # not written: a finding
    out = capsys.readouterr().out
    assert "fig_2_20" in out and "does not exist: run `harness write fig_2_20`" in out


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_job_whose_folder_is_read_only_is_refused_before_it_runs(tmp_path, capsys,
                                                                   repo_root):
    profile = tmp_path / "p.yaml"
    profile.write_text(json.dumps({
        "profile": "p", "results_dir": str(tmp_path / "results"),
        "results": {"fig_2_20": {"n_samples": 100, "n_trials": 1}}}))
    folder = tmp_path / "results" / "p" / "records" / "fig_2_20"
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    try:
        assert main(["job", "--config", str(profile), "fig_2_20/trial0"]) == 2
    finally:
        folder.chmod(0o700)
    err = capsys.readouterr().err
    assert "cannot write records in" in err and "Traceback" not in err


def test_writability_is_checked_by_creating_a_file(tmp_path, monkeypatch):
    from harness.cli import _check_writable

    _check_writable(tmp_path / "new" / "folder")  # its ancestor tmp_path is writable
    assert not (tmp_path / "new").exists()  # nothing created
    blocked = tmp_path / "file"
    blocked.write_text("x")
    with pytest.raises(PermissionError, match="cannot write records in"):
        _check_writable(blocked / "below")  # a file where a folder should be


def test_a_job_that_cannot_write_is_refused_before_it_runs(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("x")  # a file where the results folder would be: even root fails
    profile = tmp_path / "p.yaml"
    profile.write_text(json.dumps({
        "profile": "p", "results_dir": str(blocked / "results"),
        "results": {"fig_2_20": {"n_samples": 100, "n_trials": 1}}}))
    assert main(["job", "--config", str(profile), "fig_2_20/trial0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("harness: error: cannot write records in") and "Traceback" not in err


def test_fetch_file_names_a_folder_as_a_folder(tmp_path, capsys):
    # issue 53: `harness fetch olivetti --file DIR` said "does not exist"
    assert main(["fetch", "olivetti", "--file", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a folder; give the file itself" in err and "does not exist" not in err


def test_a_solver_point_line_says_its_status_once():
    # issue 53: footnotes read "timeout (timeout)"
    import pandas as pd

    from harness.results.solver_table.frame import _point_lines

    row = {"variant": "equality", "backend": "native", "n": 1000, "m": 5733, "rank": 21,
           "wall_seconds": 756.0, "peak_memory_mb": float("nan"), "solver_status": "timeout",
           "commit": "abc", "process_wall_seconds": 757.0, "cpu_seconds": 604.0}
    lines = _point_lines(pd.DataFrame([{**row, "status": "timeout", "verdict": "timeout"},
                                       {**row, "status": "ok", "verdict": "inaccurate"}]))
    assert lines[0].startswith("equality/native/n1000: timeout, m=5733")
    assert lines[1].startswith("equality/native/n1000: ok (inaccurate), m=5733")
