"""`harness compare`: two runs (run directories or reference runs) agree cell by cell
within each result's tolerance, rows matched by their key, not their order; timing
columns are ignored; changed cells and verdicts, and what only one run has, are
listed, and the exit code says whether anything differs."""

from __future__ import annotations

import json
import shutil

import pytest

from harness.cli import main
from harness.runs.compare import (
    DEFAULT_TOLERANCE, cells_differ, compare_runs, ignored_column, key_columns,
    tolerance_of,
)
from harness.runs.export import export_run
from harness.runs.layout import read_report_claims


@pytest.fixture
def twin(run_dir, tmp_path):
    """A copy of the run to edit."""
    return shutil.copytree(run_dir, tmp_path / "twin")


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_run_agrees_with_itself_and_with_its_export(run_dir, tmp_path, capsys):
    comparison = compare_runs(run_dir, run_dir)
    assert not comparison.differs
    by_name = {r.name: r for r in comparison.results}
    # table_2_1: 4 rows less the timing row (fit_cpu_seconds), 13 value columns
    assert by_name["table_2_1"].cells == 3 * 13 and by_name["table_2_1"].claims == 1
    assert by_name["table_2_1"].keys == ["measure", "method", "dataset"]
    assert by_name["fig_3_28"].keys == ["reading", "k", "dataset"]
    assert by_name["fig_3_28"].ignored_columns == ["wall_seconds"]
    assert comparison.summary().startswith("runs agree: 3 shared results, ")
    assert main(["compare", str(run_dir), str(export_run(run_dir, tmp_path / "ref"))]) == 0
    assert "runs agree" in capsys.readouterr().out


def test_a_cell_beyond_the_tolerance_is_listed(run_dir, twin, capsys):
    # table_2_1 has the default tolerance (rtol 1e-6): 3.90476 -> 3.90500
    _edit(twin / "tables/table_2_1.csv", "3.90476", "3.905")
    assert main(["compare", str(run_dir), str(twin)]) == 1
    out = capsys.readouterr().out
    assert "runs DIFFER: 3 shared results" in out and "1 differing" in out
    assert ("| measure=train_knn_loo_error, method=pca_knn, dataset=iris | ours | 3.90476 "
            "| 3.905 |") in out
    assert "## table_2_1: differs" in out and "## table_3_2: agrees" in out


def test_a_cell_within_the_tolerance_is_not_listed(run_dir, twin):
    # table_3_2 declares rtol 1e-2 (its MVU rows are SDP solves): 0.5 -> 0.5004 is inside
    assert tolerance_of("table_3_2") == ({"rtol": 1e-2, "atol": 1e-3}, "declared")
    _edit(twin / "tables/table_3_2.csv", "0.5,0,-0.4", "0.5004,0,-0.4")
    # and the default tolerance lets a printing difference through: 4.22222 vs 4.222220001
    _edit(twin / "tables/table_2_1.csv", "4.22222", "4.222220001")
    assert not compare_runs(run_dir, twin).differs
    _edit(twin / "tables/table_3_2.csv", "0.5004,0,-0.4", "0.52,0,-0.4")  # beyond it
    [diff] = [d for r in compare_runs(run_dir, twin).results for d in r.diffs]
    assert (diff.column, diff.a, diff.b) == ("ours", "0.5", "0.52")


def test_timing_columns_and_rows_are_ignored(run_dir, twin):
    _edit(twin / "figures/fig_3_28.csv", "12.5", "99.0")            # wall_seconds
    _edit(twin / "tables/table_2_1.csv", "0.0123", "0.5")          # fit_cpu_seconds row
    assert not compare_runs(run_dir, twin).differs


def test_a_changed_verdict_is_listed(run_dir, twin, capsys):
    path = twin / "tables/table_3_2.json"
    sidecar = json.loads(path.read_text())
    sidecar["claims"][1]["verdict"] = "holds"
    path.write_text(json.dumps(sidecar))
    comparison = compare_runs(run_dir, twin)
    [result] = [r for r in comparison.results if r.differs]
    assert result.name == "table_3_2" and result.cells and not result.diffs
    assert result.verdicts == [("table_3_2/isomap-performs-best-on-average",
                                "Isomap performs best on average (3.1.9)",
                                "not measured", "holds")]
    assert main(["compare", str(run_dir), str(twin)]) == 1
    assert "| not measured | holds |" in capsys.readouterr().out


def test_rows_in_another_order_do_not_differ(run_dir, twin):
    path = twin / "tables/table_2_1.csv"
    header, *rows = path.read_text().splitlines()
    path.write_text("\n".join([header, *reversed(rows)]) + "\n")
    assert not compare_runs(run_dir, twin).differs


def test_what_only_one_run_has_is_listed(run_dir, twin, capsys):
    (twin / "figures/fig_3_28.csv").unlink()
    for suffix in ("csv", "md", "json"):
        (twin / f"tables/table_3_2.{suffix}").unlink()
    path = twin / "tables/table_2_1.csv"
    path.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")
    comparison = compare_runs(run_dir, twin)
    assert comparison.only == {"a": ["table_3_2"], "b": []}
    by_name = {r.name: r for r in comparison.results}
    assert by_name["fig_3_28"].csv_only == "a"
    assert by_name["table_2_1"].rows_only == {
        "a": ["measure=test_knn_error, method=svm, dataset=wine"], "b": []}
    assert main(["compare", str(run_dir), str(twin), "--results", "table_2_1"]) == 1
    out = capsys.readouterr().out
    assert "rows only in A: measure=test_knn_error, method=svm, dataset=wine" in out
    assert "fig_3_28" not in out
    assert main(["compare", str(run_dir), str(twin), "--results", "fig_2_10"]) == 2
    assert "neither run has fig_2_10" in capsys.readouterr().err


def test_bad_input_names_the_path(tmp_path, capsys):
    assert main(["compare", str(tmp_path), str(tmp_path)]) == 2
    assert f"{tmp_path} is not a run" in capsys.readouterr().err


def test_verdicts_of_a_run_without_claims_in_its_sidecars_come_from_report_md(run_dir, twin):
    report = ("# R\n\n## The thesis' claims and our verdicts\n\n"
              "| source | verdict | claim (thesis section) | evidence |\n"
              "|---|---|---|---|\n"
              "| table_3_2 | does not hold | MVU has the highest average ranking (3.1.9) "
              "| a \\| b |\n"
              "| table_3_2 | not measured | Isomap performs best on average (3.1.9) | none |\n"
              "\n## Next\n\n| x | y | z | w |\n")
    (twin / "report.md").write_text(report)
    path = twin / "tables/table_3_2.json"
    path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items()
                                if k != "claims"}))
    claims = read_report_claims(twin / "report.md")
    assert [(c["id"], c["verdict"], c["evidence"]) for c in claims] == [
        ("table_3_2/mvu-has-the-highest-average-ranking", "does not hold", "a | b"),
        ("table_3_2/isomap-performs-best-on-average", "not measured", "none")]
    [result] = [r for r in compare_runs(run_dir, twin).results if r.name == "table_3_2"]
    assert result.claims == 2 and not result.verdicts
    assert result.claims_read_from == ("sidecar", "report.md")


def test_the_rules():
    assert ignored_column("peak_memory_mb") and ignored_column("fit_cpu_seconds")
    assert ignored_column("speedup") and ignored_column("tree_spread")
    assert not ignored_column("work_speedup") and not ignored_column("local_trust")
    tol = DEFAULT_TOLERANCE
    assert not cells_differ("", "", tol) and cells_differ("", "1", tol)
    assert not cells_differ("nan", "NaN", tol) and cells_differ("nan", "1", tol)
    assert cells_differ("True", "False", tol) and cells_differ("ok", "failed", tol)
    assert not cells_differ("1e-12", "0", tol)   # atol 1e-9
    import pandas as pd
    frame = pd.DataFrame({"dataset": ["a", "a", "b"], "k": ["1", "2", "1"], "x": ["1"] * 3})
    assert key_columns([frame]) == (["dataset", "k"], True)
    assert key_columns([frame], declared=("dataset",)) == (["dataset"], False)


def test_a_differing_cell_of_a_table_without_key_columns_is_listed():
    """Rows matched by position alone (no key column) and a cell that differs: its label
    is the row's number (it crashed with a TypeError on the scalar index)."""
    import pandas as pd

    from harness.runs.compare import ResultComparison, _compare_csv

    out = ResultComparison("keyless", DEFAULT_TOLERANCE, "default")
    a = pd.DataFrame({"x": ["1.0", "2.0"]})
    b = pd.DataFrame({"x": ["1.0", "2.5"]})
    _compare_csv(out, a, b)
    assert out.keys == [] and out.cells == 2
    assert [(d.row, d.column, str(d.a), str(d.b)) for d in out.diffs] == [
        ("row 2", "x", "2.0", "2.5")]


def test_a_long_tables_rows_are_matched_by_their_path_and_its_timing_rows_ignored():
    """A long table (``key, path, value``) is keyed by what each value is, and a row whose
    path measures time is left out like a timing column."""
    import pandas as pd

    from harness.runs.compare import ResultComparison, _compare_csv

    out = ResultComparison("long", DEFAULT_TOLERANCE, "default")
    a = pd.DataFrame({"key": ["s", "s"], "path": ["fit.cpu_seconds", "ari.mean"],
                      "value": ["0.5", "0.9"]})
    b = pd.DataFrame({"key": ["s", "s"], "path": ["ari.mean", "fit.cpu_seconds"],
                      "value": ["0.8", "0.7"]})
    _compare_csv(out, a, b)
    assert out.keys == ["key", "path"] and out.keys_unique and out.cells == 1
    assert [(d.row, d.a, d.b) for d in out.diffs] == [("key=s, path=ari.mean", "0.9", "0.8")]
