"""Profiles and hand-made point records for the figure tests."""

from __future__ import annotations

import pytest

from harness.config import validate_config
from harness.jobs import job_params, parse_job, record_path
from harness.records import write_json_atomic


def figure_profile(tmp_path, repo_root, **figures) -> dict:
    """A validated profile with the given figure sections under ``results:`` (and a
    minimal table)."""
    return validate_config({
        "profile": "unit", "results_dir": str(tmp_path / "results"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca"]},
                    **figures},
    })


def write_point(config: dict, job_id: str, status: str = "ok", reason: str = "",
                **body) -> dict:
    """Write a hand-made record for the job ``job_id`` (e.g. ``fig_3_28/noise_free/k7``) as
    :func:`harness.runner.run_job` would."""
    job = parse_job(job_id)
    record = {"job": job.id, "result": job.result, "key": job.key,
              "profile": config["profile"], "params": job_params(config, job),
              "status": status, "reason": reason,
              "provenance": {"git": {"commit": "0123456789abcdef", "dirty": False}},
              "timing": {"wall_seconds": 1.5}, **body}
    write_json_atomic(record_path(config, job), record)
    return record


def ok_body(measures: dict, eigenvalues=(3.0, 1.0, 0.0), solve_status="optimal",
            n=40) -> dict:
    """The body of a successful MVU point with the given metric values."""
    total = float(sum(eigenvalues))
    return {"measures": measures, "n_samples": n, "trace": total,
            "eigenvalues": list(eigenvalues),
            "normalised_eigenvalues": [v / total for v in eigenvalues],
            "input_spectrum": [0.41, 0.31, 0.28],
            "solve": {"status": solve_status, "gap": 1e-6, "violation": 1e-7}}


@pytest.fixture
def profile(tmp_path, repo_root):
    def make(**figures):
        return figure_profile(tmp_path, repo_root, **figures)
    return make
