"""A job whose data set was missing reruns once its files are fetched: the workflow
adds ``data_files_missing`` to the job's Snakemake params only while the files are
absent (harness.workflow.WorkflowConfig.job_params_json)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from harness.config import load_config
from harness.workflow import WorkflowConfig
from tests.datasets.test_mnist import FAKE, install_fake_mnist

MNIST_JOB = "fig_3_24/mnist_fives/max_trace"   # reads MNIST's IDX files
ROLL_JOB = "fig_3_28/section_3_1_5/k5"   # generated data: never missing


def _params(job_id: str):
    workflow = WorkflowConfig("config/quick.yaml", load_config("config/quick.yaml"))
    return workflow, json.loads(workflow.job_params_json(SimpleNamespace(job=job_id)))


def test_missing_files_mark_the_params_and_fetched_files_unmark_them(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty"))
    workflow, missing = _params(MNIST_JOB)
    assert missing.pop("data_files_missing") is True
    assert missing == workflow.params_of(MNIST_JOB)

    install_fake_mnist(FAKE, tmp_path, monkeypatch)
    workflow, present = _params(MNIST_JOB)
    assert "data_files_missing" not in present
    assert present == workflow.params_of(MNIST_JOB)


def test_generated_data_never_marks_the_params(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty"))
    workflow, params = _params(ROLL_JOB)
    assert params == workflow.params_of(ROLL_JOB)
    assert params["dataset"] == "swiss_roll"


def test_jobs_start_longest_first_by_the_reference_runs_cpu(tmp_path, monkeypatch, repo_root):
    """Snakemake's priority of a job is its CPU seconds in the profile's reference run
    (results/reference_runs/<profile>/records.csv); 0 without one."""
    monkeypatch.chdir(tmp_path)
    workflow = WorkflowConfig("q.yaml", load_config(repo_root / "config/quick.yaml"))
    assert workflow.job_priority(SimpleNamespace(job=ROLL_JOB)) == 0.0
    kept = tmp_path / "results/reference_runs/quick"
    kept.mkdir(parents=True)
    (kept / "records.csv").write_text(
        "job,result,cpu_seconds\n"
        f"{ROLL_JOB},fig_3_28,175.5\n{MNIST_JOB},fig_3_24,\n")
    workflow = WorkflowConfig("q.yaml", load_config(repo_root / "config/quick.yaml"))
    assert workflow.job_priority(SimpleNamespace(job=ROLL_JOB)) == 175.5
    assert workflow.job_priority(SimpleNamespace(job=MNIST_JOB)) == 0.0  # no CPU recorded
    assert workflow.job_priority(SimpleNamespace(job="fig_2_20/trial0")) == 0.0


def test_a_corrupt_file_marks_the_params_until_it_is_repaired(tmp_path, monkeypatch):
    # issue 53: a corrupt MNIST file gave an unavailable record, and after `harness
    # fetch mnist` repaired the cache nothing reran (only existence was compared)
    install_fake_mnist(FAKE, tmp_path, monkeypatch)
    workflow, good = _params(MNIST_JOB)
    assert "data_files_missing" not in good
    files = sorted(p for p in (tmp_path).rglob("*") if p.is_file() and "idx" in p.name)
    assert files, "the fake MNIST's files"
    kept = files[0].read_bytes()
    files[0].write_bytes(kept[: len(kept) // 2])
    workflow, corrupt = _params(MNIST_JOB)
    assert corrupt.pop("data_files_missing") is True and corrupt == good
    files[0].write_bytes(kept)
    workflow, repaired = _params(MNIST_JOB)
    assert repaired == good
