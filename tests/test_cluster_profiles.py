"""Cluster execution through existing Snakemake executors: the cluster-generic
profile end to end with a stand-in scheduler that runs each job script on this
machine, the SLURM profile as a dry run, and every rule's resources covered."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import yaml

from tests.test_workflow_e2e import _workdir

SNAKEMAKE = [sys.executable, "-m", "snakemake"]
FAKE_SUBMIT = """#!/bin/bash
# A stand-in scheduler: runs the job script (the last argument) in the background on
# this machine and prints its process id as the job id.
jobscript="${@: -1}"
nohup bash "$jobscript" > /dev/null 2>&1 &
echo "$!"
"""


def _profiles(repo_root):
    return {name: yaml.safe_load((repo_root / "profiles" / name / "config.yaml").read_text())
            for name in ("slurm", "cluster-generic")}


def test_profiles_name_their_executor_and_cover_every_remote_rule(repo_root):
    profiles = _profiles(repo_root)
    assert profiles["slurm"]["executor"] == "slurm"
    assert profiles["cluster-generic"]["executor"] == "cluster-generic"
    assert "{resources.mem_mb}" in profiles["cluster-generic"]["cluster-generic-submit-cmd"]
    rules_text = "\n".join(p.read_text() for p in (repo_root / "rules").glob("*.smk"))
    blocks = re.split(r"^rule (\w+):", rules_text, flags=re.M)[1:]
    remote = {name for name, body in zip(blocks[::2], blocks[1::2])
              if "localrule: True" not in body}
    assert remote == {"cell", "solver_point", "figure_point"}
    for name, body in zip(blocks[::2], blocks[1::2]):
        if name in remote:  # a job sent to a scheduler says what it needs
            assert "threads:" in body and "runtime=" in body and "mem_mb=" in body, name


@pytest.mark.slow
def test_cluster_generic_profile_end_to_end(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    work = _workdir(tmp_path, repo_root, ["swiss_roll"], ["pca", "isomap"])
    submit = work / "fake_submit.sh"
    submit.write_text(FAKE_SUBMIT)
    submit.chmod(0o755)
    run = subprocess.run(
        [*SNAKEMAKE, "--workflow-profile", str(repo_root / "profiles" / "cluster-generic"),
         "--configfile", "tiny.yaml", "--cluster-generic-submit-cmd", str(submit),
         "--latency-wait", "5", "--jobs", "2"],
        cwd=work, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(re.findall(r"Submitted job \d+ with external jobid '\d+'", run.stderr)) == 2
    for method in ("pca", "isomap"):
        record = json.loads((work / f"results/tiny/cells/t3_2/swiss_roll/{method}.json")
                            .read_text())
        assert record["status"] == "ok"
    assert "swiss_roll" in (work / "results/tiny/tables/table_3_2.md").read_text()


@pytest.mark.slow
def test_slurm_profile_dry_run(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    work = _workdir(tmp_path, repo_root, ["swiss_roll"], ["pca", "isomap"])
    run = subprocess.run(
        [*SNAKEMAKE, "-n", "--workflow-profile", str(repo_root / "profiles" / "slurm"),
         "--configfile", "tiny.yaml"],
        cwd=work, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "cell" in run.stdout and "table_3_2" in run.stdout
    assert "slurm_partition=CHANGE-ME" in run.stdout
