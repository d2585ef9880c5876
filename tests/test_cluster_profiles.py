"""Cluster execution through existing Snakemake executors (profiles/slurm,
profiles/cluster-generic): both profiles give every batch rule of rules/*.smk its
resources (the per-result write rules are local); the cluster-generic profile runs end to end with a stand-in scheduler that
runs each job script on this machine; the SLURM profile runs as a dry run only."""

from __future__ import annotations

import math
import re
import shlex
import subprocess

import pytest
import yaml

from harness.records import STATUSES, read_record
from tests.test_workflow_e2e import SNAKEMAKE, _workdir

PROFILES = ("slurm", "cluster-generic")
# The named rules the profiles were written for (rules/results.smk defines one local
# rule write_<result> per thesis result); a rule added later is caught by the
# comparison with rules/*.smk below.
KNOWN_RULES = {"job", "report"}
FAKE_SUBMIT = """#!/bin/bash
# A stand-in scheduler: logs its arguments, runs the job script (the last argument) in
# the background on this machine and prints its process id as the job id.
echo "$*" >> "$(dirname "$0")/submitted.log"
jobscript="${@: -1}"
nohup bash "$jobscript" > /dev/null 2>&1 &
echo "$!"
"""


def _profiles(repo_root) -> dict[str, dict]:
    return {name: yaml.safe_load((repo_root / "profiles" / name / "config.yaml").read_text())
            for name in PROFILES}


def _rules(repo_root) -> dict[str, str]:
    """Every rule of rules/*.smk: name -> the text of its block."""
    rules = {}
    for path in sorted((repo_root / "rules").glob("*.smk")):
        parts = re.split(r"^rule (\w+):", path.read_text(), flags=re.M)[1:]
        rules.update(zip(parts[::2], parts[1::2]))
    return rules


def test_the_per_result_rules_are_local(repo_root):
    """rules/results.smk defines one rule per thesis result from one template: local
    (aggregation on the submitting host), so no profile needs an entry for it."""
    template = (repo_root / "rules" / "results.smk").read_text()
    assert re.search(r"^for _result in HARNESS.result_names:", template, flags=re.M)
    assert 'f"write_{_result}"' in template and "localrule: True" in template
    assert not re.search(r"^\s*rule \w+:", template, flags=re.M)  # no fixed-name rule


def test_profiles_give_every_rule_its_resources(repo_root):
    rules = _rules(repo_root)
    assert KNOWN_RULES == set(rules)
    for name, profile in _profiles(repo_root).items():
        assert profile["executor"] == name
        assert profile["rerun-incomplete"] is True
        assert {"mem_mb", "runtime"} <= set(profile["default-resources"]), name
        threads, resources = profile["set-threads"], profile["set-resources"]
        # A rule without an entry (or an entry for a rule that is gone) fails here.
        assert set(threads) == set(rules), f"{name}: set-threads vs rules/*.smk"
        assert set(resources) == set(rules), f"{name}: set-resources vs rules/*.smk"
        for rule, body in rules.items():
            assert isinstance(threads[rule], int) and threads[rule] >= 1, (name, rule)
            wanted = resources[rule]
            # Runtime and memory come from the rule where it declares them (the job's
            # time limit, its result's MEMORY_MB), else from the profile: exactly one.
            for resource in ("runtime", "mem_mb"):
                in_rule = re.search(rf"^\s+{resource}=", body, flags=re.M) is not None
                assert in_rule != (resource in wanted), (name, rule, resource)
            if "mem_mb" in wanted:
                assert isinstance(wanted["mem_mb"], int) and wanted["mem_mb"] > 0, (name, rule)
            if name == "slurm":
                assert wanted["cpus_per_task"] == threads[rule], rule
    slurm, generic = _profiles(repo_root).values()
    assert {"slurm_partition", "slurm_account"} <= set(slurm["default-resources"])
    submit = generic["cluster-generic-submit-cmd"]
    for placeholder in ("{threads}", "{resources.mem_mb}", "{resources.runtime}"):
        assert placeholder in submit


def test_batch_rules_declare_their_runtime(repo_root):
    """Every rule that is sent to a scheduler states its time limit itself."""
    for rule, body in _rules(repo_root).items():
        if "localrule: True" not in body:
            assert re.search(r"^\s+runtime=", body, flags=re.M), rule


@pytest.mark.slow
def test_cluster_generic_profile_end_to_end(tmp_path, repo_root, monkeypatch):
    empty = tmp_path / "empty-cache"
    empty.mkdir()
    monkeypatch.setenv("HARNESS_DATA_DIR", str(empty))
    work = _workdir(tmp_path, repo_root, ["swiss_roll"], ["pca", "isomap"])
    submit = work / "fake_submit.sh"
    submit.write_text(FAKE_SUBMIT)
    submit.chmod(0o755)
    # The profile's own submit command, with the stand-in in place of sbatch.
    command = _profiles(repo_root)["cluster-generic"]["cluster-generic-submit-cmd"]
    assert command.startswith("sbatch ")
    command = shlex.quote(str(submit)) + command[len("sbatch"):]
    run = subprocess.run(
        [*SNAKEMAKE, "--workflow-profile", str(repo_root / "profiles" / "cluster-generic"),
         "--configfile", "tiny.yaml", "--cluster-generic-submit-cmd", command,
         "--latency-wait", "5", "--jobs", "2", "--seconds-between-status-checks", "1"],
        cwd=work, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]

    # Two cells went through the scheduler, the table was written locally.
    assert len(re.findall(r"Submitted job \d+ with external jobid '\d+'", run.stderr)) == 2
    submitted = (work / "submitted.log").read_text().splitlines()
    # the rule's runtime: the wall cap of tiny.yaml's CPU budget, max(3 x 120, 120 + 600)
    runtime = math.ceil(720 / 60) + 1
    assert len(submitted) == 2
    for line in submitted:  # resources from the profile (cpus) and the rule (time, memory)
        assert f"--cpus-per-task=1 --mem=4000 --time={runtime} " in line, line
        assert line.endswith(".sh")  # the job script comes last
    for method in ("pca", "isomap"):
        record = read_record(work / f"results/tiny/records/table_3_2/swiss_roll/{method}.json")
        assert record["status"] == "ok" and record["status"] in STATUSES
        assert record["job"] == f"table_3_2/swiss_roll/{method}"
        measures = record["runs"][0]["measures"]
        assert all(0 <= measures[m] <= 1 for m in
                   ("local_continuity", "local_trust", "neighborhood_intersection"))
    assert not [p for p in (work / "results").rglob("*") if p.name.endswith(".tmp")]
    table = (work / "results/tiny/tables/table_3_2.md").read_text()
    assert "swiss_roll" in table and "isomap" in table


@pytest.mark.slow
def test_slurm_profile_dry_run(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    work = _workdir(tmp_path, repo_root, ["swiss_roll"], ["pca", "isomap"])
    run = subprocess.run(
        [*SNAKEMAKE, "-n", "--workflow-profile", str(repo_root / "profiles" / "slurm"),
         "--configfile", "tiny.yaml"],
        cwd=work, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "table_3_2/swiss_roll/pca" in run.stdout and "table_3_2/swiss_roll/isomap" in run.stdout
    assert re.search(r"^write_table_3_2\s+1$", run.stdout, flags=re.M), run.stdout
    assert re.search(r"^job\s+2$", run.stdout, flags=re.M), run.stdout
    # What each job would ask SLURM for: runtime and memory from the rule (the cells'
    # time limit, Table 3.2's MEMORY_MB), CPUs from the profile. The write and report
    # jobs are local rules (test_the_per_result_rules_are_local): never submitted.
    asked = {}
    for rule, block in re.findall(r"^rule (\w+):\n(.*?)(?=^\S|\Z)", run.stdout,
                                  flags=re.M | re.S):
        found = re.search(r"resources: (.*)", block)
        asked.setdefault(rule, []).append(dict(kv.split("=", 1)
                                               for kv in found.group(1).split(", ")))
    runtime = str(math.ceil(720 / 60) + 1)  # the wall cap of the 120 s CPU budget
    assert len(asked["job"]) == 2 and len(asked["write_table_3_2"]) == 1
    for job in asked["job"]:
        assert (job["runtime"], job["mem_mb"], job["cpus_per_task"]) == (runtime, "4000", "1")
        assert job["slurm_partition"] == job["slurm_account"] == "CHANGE-ME"
