"""A lost or unreadable record is made again: after deleting one record of an
up-to-date run (or truncating it: it is moved aside to ``<record>.corrupt``),
``snakemake -n`` schedules exactly its job, the write steps that read it and the
report (harness.workflow.WorkflowConfig.all_records: every record is an input of the
default target, whose missing inputs Snakemake does not ignore).

The up-to-date run is fabricated, not computed: minimal records and empty outputs, then
``snakemake --touch``, which stamps them in the workflow's order and writes
Snakemake's metadata as a real run would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from harness.config import load_config
from harness.workflow import WorkflowConfig

pytestmark = pytest.mark.slow

RECORDS = Path("results/tiny/records")
REPORT = {("report", None), ("reproduce_all", None)}


@pytest.fixture(scope="module")
def up_to_date(tmp_path_factory) -> Path:
    repo_root = Path(__file__).resolve().parent.parent
    work = tmp_path_factory.mktemp("lost") / "work"
    work.mkdir()
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / "tiny.yaml").write_text(yaml.safe_dump({
        "profile": "tiny", "reference_dir": str(repo_root / "results" / "reference"),
        "results": {
            "table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca", "isomap"]},
            "table_2_1": {"datasets": ["iris", "wine"], "methods": ["pca_knn", "pca_lmnn"],
                          "n_runs": 2},
            "fig_2_9_12": {},  # no jobs: reads table_2_1's records
            "fig_2_20": {"n_samples": 100, "n_trials": 3},
            "solver_table": {"backends": ["native"], "n": [30, 40]},
        },
    }))
    workflow = WorkflowConfig("tiny.yaml", load_config(work / "tiny.yaml"))
    for path in workflow.all_records() + workflow.all_outputs():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).touch()
    for path in workflow.all_records():
        (work / path).write_text('{"status": "ok"}\n')
    assert len(workflow.all_records()) == 2 + 4 + 3 + 2
    touched = _snakemake(work, "--touch")
    assert touched.returncode == 0, touched.stderr[-3000:]
    assert _scheduled(work) == set()  # up to date: "Nothing to be done"
    return work


def _snakemake(work: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "snakemake", *args, "--cores", "1",
                           "--configfile", "tiny.yaml"], cwd=work, capture_output=True,
                          text=True, timeout=600)


def _scheduled(work: Path) -> set[tuple[str, str | None]]:
    """``(rule, job wildcard or None)`` of every job ``snakemake -n`` would run."""
    dry = _snakemake(work, "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    jobs = set()
    for block in re.split(r"^\[.*\]$", dry.stdout, flags=re.M):  # "[date]" opens a job
        rule = re.search(r"^(?:local)?rule (\w+):", block, flags=re.M)
        if rule:
            job = re.search(r"wildcards: job=(\S+)", block)
            jobs.add((rule.group(1), job.group(1) if job else None))
    if not jobs:
        assert "Nothing to be done" in dry.stdout + dry.stderr, dry.stdout[-3000:]
    return jobs


@pytest.mark.parametrize("lost, expected", [
    # a table
    (["table_3_2/swiss_roll/isomap"], {"write_table_3_2"}),
    # a table that another result reads: Figs. 2.9/2.12 are rewritten too
    (["table_2_1/wine/pca_lmnn"], {"write_table_2_1", "write_fig_2_9_12"}),
    # a figure
    (["fig_2_20/trial1"], {"write_fig_2_20"}),
    # the solver table
    (["solver_table/equality/native/n40"], {"write_solver_table"}),
    # a whole folder: all of Table 2.1's wine records
    (["table_2_1/wine/pca_knn", "table_2_1/wine/pca_lmnn"],
     {"write_table_2_1", "write_fig_2_9_12"}),
])
def test_a_deleted_record_reruns_its_job_and_the_writes_that_read_it(up_to_date, lost,
                                                                     expected):
    work = up_to_date
    aside = work.parent / "aside"
    aside.mkdir(exist_ok=True)
    moved = [(work / RECORDS / f"{job}.json", aside / job.replace("/", "+")) for job in lost]
    for record, kept in moved:
        record.rename(kept)  # keeps its mtime: put back, the run is up to date again
    try:
        scheduled = _scheduled(work)
    finally:
        for record, kept in moved:
            kept.rename(record)
    assert scheduled == {("job", job) for job in lost} | {(w, None) for w in expected} | REPORT


def test_a_truncated_record_is_moved_aside_and_its_job_reruns(up_to_date):
    work = up_to_date
    record = work / RECORDS / "fig_2_20/trial1.json"
    good = record.read_text()
    stamp = record.stat().st_mtime_ns
    record.write_text(good[: len(good) // 2])
    try:
        dry = _snakemake(work, "-n")
        assert "fig_2_20/trial1.json is not a readable record; moved to" in dry.stderr
        corrupt = record.with_name("trial1.json.corrupt")
        assert corrupt.exists() and not record.exists()
        scheduled = _scheduled(work)
    finally:
        record.write_text(good)
        os.utime(record, ns=(stamp, stamp))
        record.with_name("trial1.json.corrupt").unlink(missing_ok=True)
    assert scheduled == {("job", "fig_2_20/trial1"), ("write_fig_2_20", None)} | REPORT
