"""A figure as a user builds it: Snakemake in a subprocess on a tiny profile, one job
per point (rule job) and one write job (rule write_fig_3_28); a gap (disconnected
graph at k = 3) stays marked while the other k goes on; both readings of the roll's
data are measured (the noisy one at its own k); a rerun does nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml

pytestmark = pytest.mark.slow

#: the schema's two readings, the noisy one at k = 4 only (one more small solve)
READINGS = {
    "noise_free": {"dataset_params": {"noise": 0.0}, "description": "noise-free"},
    "section_3_1_5": {"dataset_params": {"noise": 0.0, "extra_noise_dims": 5,
                                         "extra_noise_std": 0.1},
                      "n_neighbors": [4], "description": "five noise dimensions"},
}


def test_fig_3_28_through_snakemake(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / "tiny.yaml").write_text(yaml.safe_dump({
        "profile": "tiny", "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca"]},
                    "fig_3_28": {"n_samples": 40, "n_neighbors": [3, 4], "solver": "clarabel",
                                 "time_limit_seconds": 120, "readings": READINGS}},
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
    for job in ("noise_free/k3", "noise_free/k4", "section_3_1_5/k4"):
        assert f"wildcards: job=fig_3_28/{job}" in run.stderr
    assert "table_3_2" not in run.stderr  # only what the target needs
    figures = work / "results" / "tiny" / "figures"
    records = work / "results" / "tiny" / "records" / "fig_3_28"
    assert sorted(str(p.relative_to(records)) for p in records.rglob("*.json")) == [
        "noise_free/k3.json", "noise_free/k4.json", "section_3_1_5/k4.json"]
    assert (work / "logs" / "tiny" / "fig_3_28" / "section_3_1_5" / "k4.log").exists()
    both = pd.read_csv(figures / "fig_3_28.csv")
    assert list(zip(both["reading"], both["k"])) == [
        ("noise_free", 3), ("noise_free", 4), ("section_3_1_5", 4)]
    assert both["status"].iloc[2] == "ok" and both["solve_status"].iloc[2] == "optimal"
    frame = both[both["reading"] == "noise_free"].set_index("k")
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
