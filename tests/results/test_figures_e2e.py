"""A figure as a user builds it: Snakemake in a subprocess on a tiny profile, one job
per point (rule job) and one write job (rule write_fig_3_28); a gap (disconnected
graph at k = 3) stays marked while the other k goes on; a rerun does nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml

pytestmark = pytest.mark.slow


def test_fig_3_28_through_snakemake(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / "tiny.yaml").write_text(yaml.safe_dump({
        "profile": "tiny", "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca"]},
                    "fig_3_28": {"n_samples": 40, "k": [3, 4], "solver": "clarabel",
                                 "time_limit_seconds": 120}},
    }))
    target = "results/tiny/figures/fig_3_28.csv"

    def snakemake(*args):
        # --configfile takes several values: the targets go before it
        return subprocess.run([sys.executable, "-m", "snakemake", *args, "--cores", "2",
                               "--configfile", "tiny.yaml"], cwd=work,
                              capture_output=True, text=True, timeout=300)

    run = snakemake(target)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "rule job:" in run.stderr and "rule write_fig_3_28:" in run.stderr
    assert "wildcards: job=fig_3_28/k3" in run.stderr
    assert "wildcards: job=fig_3_28/k4" in run.stderr
    assert "table_3_2" not in run.stderr  # only what the target needs
    figures = work / "results" / "tiny" / "figures"
    records = work / "results" / "tiny" / "records" / "fig_3_28"
    assert sorted(p.name for p in records.glob("*.json")) == ["k3.json", "k4.json"]
    assert (work / "logs" / "tiny" / "fig_3_28" / "k4.log").exists()
    frame = pd.read_csv(figures / "fig_3_28.csv").set_index("k")
    assert frame.loc[3, "status"] == "failed" and frame.loc[4, "status"] == "ok"
    assert frame.loc[4, "solve_status"] == "optimal"
    assert (frame["n_samples"] == 40).all() and (frame["solver"] == "clarabel").all()
    # measured: at n = 40 the roll is rigid already at k = 4 (the input's spectrum)
    assert 0 < frame.loc[4, "harmonic_mean"] <= 1 and frame.loc[4, "locked"]
    assert frame.loc[4, "our_lock_k"] == 4 and frame.loc[4, "thesis_lock_k"] == 7
    md = (figures / "fig_3_28.md").read_text()
    assert "**Our verdict:** locks at k = 4" in md and "failed[1]" in md
    assert (figures / "fig_3_28.png").stat().st_size > 10_000

    again = snakemake(target)
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr
