"""`harness export-run`: a reference run holds every result's CSV, Markdown and
sidecar, the report's Markdown, records.csv and run.json (from the records), no PNG,
arrays, LaTeX or HTML; it is written atomically and refuses what is not a run."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from harness.cli import main
from harness.runs.export import export_run
from harness.runs.layout import NotARunError, open_run

# a finished quick run (results/quick of a `make reproduce`), e.g. a fresh clone's:
# HARNESS_TEST_QUICK_RUN=/path/to/clone/results/quick; without it the test is skipped
FRESH = Path(os.environ.get("HARNESS_TEST_QUICK_RUN", "/nonexistent/results/quick"))


def test_export_writes_the_reference_run(run_dir, tmp_path):
    dest = export_run(run_dir, tmp_path / "ref")
    files = sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
    assert files == ["figures/fig_3_28.csv", "figures/fig_3_28.json", "figures/fig_3_28.md",
                     "records.csv", "report.md", "run.json",
                     "tables/table_2_1.csv", "tables/table_2_1.json", "tables/table_2_1.md",
                     "tables/table_3_2.csv", "tables/table_3_2.json", "tables/table_3_2.md"]
    assert (dest / "tables/table_3_2.csv").read_bytes() == (
        run_dir / "tables/table_3_2.csv").read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["results", "ref"]  # no temp dir left
    assert open_run(dest).kind == "reference"


def test_records_csv_has_one_line_per_record(run_dir, tmp_path):
    dest = export_run(run_dir, tmp_path / "ref")
    rows = {r["job"]: r for r in csv.DictReader((dest / "records.csv").open())}
    assert sorted(rows) == ["fig_3_28/noise_free/k5", "solver_table/equality/native/n40",
                            "table_2_1/iris/pca_knn", "table_2_1/wine/svm"]
    solve = rows["solver_table/equality/native/n40"]
    # the harness' certificate, not the solver's report (gap 1.0)
    assert (float(solve["gap"]), float(solve["violation"]), solve["n_certificates"]) == (
        2.5e-4, 3e-11, "1")
    point = rows["fig_3_28/noise_free/k5"]  # the worst of its two solves
    assert (float(point["gap"]), float(point["violation"]), point["n_certificates"]) == (
        3e-4, 5e-9, "2")
    failed = rows["table_2_1/wine/svm"]
    assert (failed["status"], failed["reason"], failed["gap"]) == ("failed", "solver error", "")
    assert (float(failed["cpu_seconds"]), float(failed["wall_seconds"]),
            float(failed["peak_memory_mb"])) == (2.5, 3.0, 200.0)


def test_run_json_comes_from_the_records(run_dir, tmp_path):
    info = json.loads((export_run(run_dir, tmp_path / "ref") / "run.json").read_text())
    assert info["commit"] == "abcdef0123456789" and info["profile"] == "mini"
    assert info["jobs"] == 4 and info["statuses"] == {"ok": 3, "failed": 1}
    assert info["machines"] == [{"node": "box", "processor": "x86_64", "cpu_count": 2,
                                 "platform": "Linux", "records": 4}]
    assert info["date"]["first_record"] <= info["date"]["last_record"]
    assert "modification times" in info["date"]["source"]
    assert info["results"] == ["fig_3_28", "table_2_1", "table_3_2"]


def test_export_refuses_what_is_not_a_run_and_an_existing_dest(run_dir, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotARunError, match=str(tmp_path / "empty")):
        export_run(tmp_path / "empty", tmp_path / "ref")
    assert main(["export-run", str(tmp_path / "nowhere"), str(tmp_path / "ref")]) == 2
    assert f"{tmp_path / 'nowhere'} is not a directory" in capsys.readouterr().err
    dest = export_run(run_dir, tmp_path / "ref")
    with pytest.raises(NotARunError, match="already a reference run"):
        export_run(dest, tmp_path / "ref2")
    assert main(["export-run", str(run_dir), str(dest)]) == 2
    assert "exists; remove it or pass --force" in capsys.readouterr().err
    (run_dir / "tables/table_2_1.csv").write_text("measure,ours\nx,1\n")
    assert main(["export-run", str(run_dir), str(dest), "--force"]) == 0
    assert (dest / "tables/table_2_1.csv").read_text() == "measure,ours\nx,1\n"
    assert sorted(os.listdir(tmp_path)) == ["empty", "ref", "results"]


@pytest.mark.skipif(not (FRESH / "records").is_dir(),
                    reason="no finished quick run: set HARNESS_TEST_QUICK_RUN to the "
                           "results/quick of a finished `make reproduce`")
def test_export_of_a_real_quick_run(tmp_path):
    dest = export_run(FRESH, tmp_path / "ref")
    info = json.loads((dest / "run.json").read_text())
    records = [p for p in (FRESH / "records").rglob("*.json")]
    assert info["jobs"] == len(records) == sum(1 for _ in (dest / "records.csv").open()) - 1
    # one commit, or none with the commits listed (a job rerun at a later commit)
    assert info["profile"] == "quick" and (info["commit"] or len(info["commits"]) > 1)
    assert not list(dest.rglob("*.png")) and not list(dest.rglob("*.npz"))
    assert main(["compare", str(FRESH), str(dest)]) == 0
