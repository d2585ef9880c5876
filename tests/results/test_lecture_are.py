"""The lecture's ARE table (harness.results.lecture_are): the declaration, its cells
and parameters, one quick job (ARE on 40 views) against SciPy's Procrustes disparity
of ARE fitted here, and the written table (ours alone, no thesis values, no
verdicts)."""

from __future__ import annotations

import math

import pytest
from scipy.spatial import procrustes

from harness.datasets.moving_window import MovingWindow
from harness.config import validate_config
from harness.jobs import Job, job_params, job_sources, parse_job, read_job_record
from harness.jobs import result_jobs
from harness.report.build import result_group
from harness.result_registry import get_result, hook, work_module
from harness.results.common.write.tables import build_table
from harness.results.lecture_are.work import aligned_run
from harness.runner import run_job
from harness.tasks.embedding import BadInputError
from harness.methods.are import ARE

RESULT = get_result("lecture_are")
N, K = 40, 5


@pytest.fixture
def config(tmp_path, repo_root):
    return validate_config({
        "profile": "unit", "results_dir": str(tmp_path),
        "reference_dir": str(repo_root / "results" / "reference"),
        "datasets": {"moving_window": {"n_samples": N}},
        "results": {"lecture_are": {"datasets": ["moving_window"], "methods": ["are", "mvu"],
                                    "n_neighbors": {"moving_window": K},
                                    "time_limit_seconds": 300}},
    })


def test_declaration(config):
    assert RESULT.KIND == "table" and RESULT.SIDECAR and result_group(RESULT) == "lecture"
    assert work_module(RESULT).__name__ == "harness.results.lecture_are.work"
    assert [j.key for j in result_jobs(config, "lecture_are")] == [
        "moving_window/are/native", "moving_window/mvu/native"]
    params = job_params(config, parse_job("lecture_are/moving_window/are/native"))
    assert params["method_params"] == {"n_components": 2, "n_neighbors": K,
                                       "solver": "native"}
    assert params["dataset_params"]["n_samples"] == N
    # the job's code: this work, the alignment measure and the grid's cell helpers
    files = job_sources(config, parse_job("lecture_are/moving_window/mvu/native"))
    assert any(f.endswith("harness/results/lecture_are/work.py") for f in files)
    assert any(f.endswith("harness/metrics/alignment.py") for f in files)


def test_a_data_set_without_true_positions_is_a_marked_cell():
    from harness.datasets.swiss_roll import SwissRoll
    from harness.methods.pca import PCA

    data = SwissRoll().load(n_samples=30)
    with pytest.raises(BadInputError, match="no true positions"):
        aligned_run(PCA, data, {"method_params": {"n_components": 2},
                                "eval_neighbors": 5}, seed=0)


def test_a_job_matches_scipy_procrustes_and_the_table_has_no_verdicts(config):
    job = Job("lecture_are", "moving_window/are/native")
    run_job(config, job)
    record = read_job_record(config, job)
    assert record["status"] == "ok", record["reason"]
    (run,) = record["runs"]
    assert run["info"]["solve_info"]["status"] == "optimal"
    data = MovingWindow().load(n_samples=N)
    embedding = ARE(n_neighbors=K).fit(data.X, actions=data.actions).embedding_
    expected = procrustes(data.positions, embedding)[2]
    assert run["measures"]["alignment_error"] == pytest.approx(expected, abs=1e-4)
    assert run["measures"]["alignment_error"] < 0.05  # measured 0.0285
    assert math.isfinite(run["fit_seconds"]) and run["fit_seconds"] > 0

    frame = build_table(config, RESULT.SPEC).set_index(["measure", "method",
                                                         "dataset"]).sort_index()
    assert set(frame.index.get_level_values("measure")) == {"alignment_error", "fit_seconds"}
    assert set(frame.index.get_level_values("method")) == {"are/native", "mvu/native"}
    cell = frame.loc[("alignment_error", "are/native", "moving_window")]
    assert cell["ours"] == pytest.approx(run["measures"]["alignment_error"])
    assert frame.loc[("fit_seconds", "are/native", "moving_window"), "ours"] == \
        pytest.approx(run["fit_seconds"])
    assert frame.loc[("alignment_error", "mvu/native", "moving_window"), "status"] == "missing"
    assert frame["thesis"].isna().all() and frame["within_tolerance"].isna().all()
    paths = hook(RESULT, "write")(config)
    md = next(p for p in paths if p.suffix == ".md").read_text()
    assert f"{cell['ours']:.3f}" in md and "| ARE " in md
    # its only claims decide the lecture notes' own register entries
    assert {c["register"] for c in hook(RESULT, "claims")(config)} == {"lec-are-captures-trajectory", "lec-are-captures-complicated-trajectory"}
