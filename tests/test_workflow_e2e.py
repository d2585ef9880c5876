"""The workflow as a user runs it: Snakemake in a subprocess on a tiny profile.

A method author drops one file into harness/methods/ and sees a new row; a rerun does
nothing; a run killed with SIGKILL resumes without redoing finished cells and leaves
no half-written file in results/.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.conftest import BAD_DATASETS, NOISY_METHOD

pytestmark = pytest.mark.slow
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


def _workdir(tmp_path: Path, repo_root: Path, datasets, methods, n=300,
             profile="tiny.yaml") -> Path:
    work = tmp_path / "work"
    (work / profile).parent.mkdir(parents=True)
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / profile).write_text(yaml.safe_dump({
        "profile": "tiny",
        "reference_dir": str(repo_root / "results" / "reference"),
        "datasets": {"swiss_roll": {"n_samples": n}},
        "results": {"table_3_2": {"datasets": datasets, "methods": methods,
                                 "time_limit_seconds": 120}},
    }))
    return work


def _jobservers_in(work: Path, wait: float = 5.0) -> list:
    """Job servers (harness.jobserver) still running in ``work`` after ``wait`` s."""
    import psutil

    deadline = time.monotonic() + wait
    while True:
        found = []
        for process in psutil.process_iter(["cmdline", "cwd"]):
            if "harness.jobserver" in " ".join(process.info["cmdline"] or []) and \
                    process.info["cwd"] == str(work):
                found.append(process)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _snakemake(work: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "2", "--configfile", "tiny.yaml", *args],
        cwd=work, capture_output=True, text=True, timeout=600, **kwargs,
    )


def test_tiny_profile_end_to_end(tmp_path, repo_root, drop_plugin, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    drop_plugin("methods", "random_projection_test", NOISY_METHOD)
    drop_plugin("datasets", "bad_datasets_test", BAD_DATASETS)
    work = _workdir(tmp_path, repo_root,
                    ["swiss_roll", "olivetti", "two_clusters_test"],
                    ["pca", "isomap", "random_projection_test"])

    dry = _snakemake(work, "-n")
    assert dry.returncode == 0, dry.stderr
    assert re.search(r"^job\s+9$", dry.stdout, flags=re.M) and "write_table_3_2" in dry.stdout
    assert "table_3_2/swiss_roll/random_projection_test" in dry.stdout  # the dropped-in row

    run = _snakemake(work, "--keep-going")
    assert run.returncode == 0, run.stderr[-3000:]
    tables = work / "results" / "tiny" / "tables"
    frame = pd.read_csv(tables / "table_3_2.csv")
    assert set(frame["method"]) == {"pca", "isomap", "random_projection_test"}
    swiss = frame[(frame["dataset"] == "swiss_roll") & (frame["status"] == "ok")]
    assert len(swiss) == 9 and swiss["ours"].between(0, 1).all()
    pca_c = swiss[(swiss.method == "pca") & (swiss.measure == "local_continuity")].iloc[0]
    assert pca_c["thesis"] == 0.836 and abs(pca_c["delta"] - (pca_c["ours"] - 0.836)) < 2e-6  # CSV keeps 6 digits
    olivetti = frame[frame["dataset"] == "olivetti"]
    assert (olivetti["status"] == "unavailable").all()
    assert olivetti["reason"].str.contains("harness fetch olivetti").all()
    clusters = frame[frame["dataset"] == "two_clusters_test"].set_index(["method", "measure"])
    assert clusters.loc[("isomap", "local_trust"), "status"] == "failed"
    assert clusters.loc[("pca", "local_trust"), "status"] == "ok"  # other cells go on
    markdown = (tables / "table_3_2.md").read_text()
    assert "n/a[" in markdown and "harness fetch olivetti" in markdown
    assert "random_projection_test" in markdown
    assert (tables / "table_3_2.tex").read_text().count("\\toprule") == 3
    # a local run forks its jobs from one warm job server (harness.jobserver)
    records = list((work / "results" / "tiny" / "records").rglob("*.json"))
    assert records and {json.loads(p.read_text())["provenance"]["started_by"]
                        for p in records} == {"job server"}
    assert not _jobservers_in(work)  # and stopped it at the end

    again = _snakemake(work)  # a no-op: how long it takes is for benchmarks, not tests
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr
    assert "Finished job" not in again.stdout + again.stderr


def test_kill_and_resume(tmp_path, repo_root):
    work = _workdir(tmp_path, repo_root, ["swiss_roll"],
                    ["pca", "isomap", "lle", "hlle", "laplacian_eigenmaps"], n=1500)
    cells = work / "results" / "tiny" / "records" / "table_3_2" / "swiss_roll"
    proc = subprocess.Popen(
        [*SNAKEMAKE, "--cores", "1", "--configfile", "tiny.yaml", "--rerun-incomplete"],
        cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list(cells.glob("*.json"))) < 2:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = {p.name: p.stat().st_mtime_ns for p in cells.glob("*.json")}
    assert 2 <= len(done) < 5, "the kill should land mid-run"
    results = work / "results"
    assert not [p for p in results.rglob("*") if p.name.endswith(".tmp")]

    # Snakemake keeps its directory lock after SIGKILL; --unlock is its documented way
    # out (README), then the rerun finishes only what is missing.
    assert _snakemake(work, "--unlock").returncode == 0
    rerun = _snakemake(work, "--rerun-incomplete")
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    after = {p.name: p.stat().st_mtime_ns for p in cells.glob("*.json")}
    assert len(after) == 5
    # A record written in the instant before the kill, before Snakemake noted the job
    # as finished, is marked incomplete and redone; with one core that is at most one.
    redone = [name for name, mtime in done.items() if after[name] != mtime]
    assert len(redone) <= 1, f"finished cells redone: {redone}"
    assert not [p for p in results.rglob("*") if p.name.endswith(".tmp")]


def test_reruns_only_what_changed(tmp_path, repo_root):
    """The profile's path and the interpreter's are not parameters: after a run,
    `snakemake -n` with or without `--configfile`, relative or absolute, with the
    Makefile's workflow profile, and after moving the whole working directory, has
    nothing to do; editing one method's value in the profile reruns exactly its cells.
    Every written file has the mode the umask gives (not mkstemp's 0600)."""
    work = _workdir(tmp_path, repo_root, ["swiss_roll"], ["pca", "isomap"], n=150,
                    profile="config/quick.yaml")  # the Snakefile's default profile

    def snakemake(cwd, *args):
        old = os.umask(0o022)
        try:
            return subprocess.run([*SNAKEMAKE, "--cores", "2", *args], cwd=cwd,
                                  capture_output=True, text=True, timeout=600)
        finally:
            os.umask(old)

    run = snakemake(work, "--configfile", "config/quick.yaml")
    assert run.returncode == 0, run.stderr[-3000:]
    written = [p for p in (work / "results").rglob("*") if p.is_file()]
    assert len(written) >= 5
    assert {p.stat().st_mode & 0o777 for p in written} == {0o644}

    invocations = [(), ("--configfile", "config/quick.yaml"),
                   ("--configfile", str(work / "config" / "quick.yaml")),
                   ("--workflow-profile", str(repo_root / "profiles" / "local"),
                    "--configfile", "config/quick.yaml")]
    for args in invocations:
        dry = snakemake(work, "-n", *args)
        assert dry.returncode == 0, dry.stderr[-3000:]
        assert "Nothing to be done" in dry.stdout + dry.stderr, (args, dry.stdout[-2000:])

    moved = tmp_path / "moved"
    work.rename(moved)
    dry = snakemake(moved, "-n")
    assert "Nothing to be done" in dry.stdout + dry.stderr, dry.stdout[-2000:]

    profile_file = moved / "config" / "quick.yaml"
    profile = yaml.safe_load(profile_file.read_text())
    profile["methods"] = {"isomap": {"n_neighbors": 9}}
    profile_file.write_text(yaml.safe_dump(profile))
    dry = snakemake(moved, "-n")
    jobs = re.findall(r"job=(\S+)", dry.stdout)
    assert jobs == ["table_3_2/swiss_roll/isomap"], dry.stdout[-3000:]


def test_a_dropped_in_method_joins_the_default_profile(tmp_path, repo_root, drop_plugin):
    """README's promise, with the Makefile's own profile (config/quick.yaml): a copy
    of harness/methods/isomap.py under a new name is scheduled in Table 3.2 with no edit."""
    source = (repo_root / "harness" / "methods" / "isomap.py").read_text()
    assert 'name = "isomap"' in source
    drop_plugin("methods", "isomap_copy_test",
                source.replace('name = "isomap"', 'name = "isomap_copy_test"')
                      .replace('thesis_label = "Isomap"', 'thesis_label = ""'))
    work = tmp_path / "work"
    for part in ("Snakefile", "rules", "config", "results/reference"):
        copy = shutil.copytree if (repo_root / part).is_dir() else shutil.copy
        (work / part).parent.mkdir(parents=True, exist_ok=True)
        copy(repo_root / part, work / part)
    dry = subprocess.run([*SNAKEMAKE, "-n", "--cores", "2"], cwd=work, capture_output=True,
                         text=True, timeout=600)
    assert dry.returncode == 0, dry.stderr[-3000:]
    cells = set(re.findall(r"job=(table_3_2/\S+)", dry.stdout))
    assert {f"table_3_2/{d}/isomap_copy_test" for d in ("swiss_roll", "teapot_standin")} <= cells
    assert "table_3_2/swiss_roll/isomap" in cells
