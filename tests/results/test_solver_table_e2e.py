"""The solver table as a user runs it: Snakemake in a subprocess on a tiny profile,
one job per solve (rule job), then the table (rule write_solver_table); a rerun does
nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml

pytestmark = pytest.mark.slow


def test_tiny_solver_table_end_to_end(tmp_path, repo_root):
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / "tiny.yaml").write_text(yaml.safe_dump({
        "profile": "tiny",
        "results": {"solver_table": {"backends": ["native", "clarabel"], "n": [30],
                                     "n_per_backend": {"clarabel": [30, 400]},
                                     "time_limit_seconds": 120}},
    }))

    def snakemake(*args):
        return subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2",
                               "--configfile", "tiny.yaml", *args],
                              cwd=work, capture_output=True, text=True, timeout=600)

    dry = snakemake("-n")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.count("rule job:") == 3 and "rule write_solver_table:" in dry.stdout
    for key in ("equality/native/n30", "equality/clarabel/n30", "equality/clarabel/n400"):
        assert f"job=solver_table/{key}" in dry.stdout, key

    run = snakemake()
    assert run.returncode == 0, run.stderr[-3000:]
    points = work / "results" / "tiny" / "records" / "solver_table" / "equality"
    assert sorted(p.relative_to(points).as_posix() for p in points.rglob("*.json")) == [
        "clarabel/n30.json", "clarabel/n400.json", "native/n30.json"]
    tables = work / "results" / "tiny" / "tables"
    frame = pd.read_csv(tables / "solver_table.csv").set_index(["backend", "n"])
    for backend in ("native", "clarabel"):
        row = frame.loc[(backend, 30)]
        assert row["verdict"] == "optimal" and row["gap"] <= 1e-3 and row["violation"] <= 1e-4
    assert frame.loc[("clarabel", 400), "status"] == "skipped"
    ratio = frame.loc[("clarabel", 30), "time_ratio_to_native"]
    assert ratio == pytest.approx(frame.loc[("clarabel", 30), "wall_seconds"]
                                  / frame.loc[("native", 30), "wall_seconds"], rel=1e-4)
    markdown = (tables / "solver_table.md").read_text()
    assert "optimal" in markdown and "skipped[" in markdown and "dense 400 x 400" in markdown
    assert (work / "logs" / "tiny" / "solver_table" / "equality" / "native" / "n30.log").exists()

    # (a solver source file edited meanwhile would rightly rerun its points)
    again = snakemake()
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr
