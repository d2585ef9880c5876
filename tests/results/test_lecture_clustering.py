"""The lecture's spectral clustering table (harness.results.lecture_clustering): the
declaration, its cells and parameters, one quick job against scikit-learn's scores
computed here, and the written table (ours alone, no thesis values, no verdicts)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.cluster import SpectralClustering
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from harness.datasets.digits import Digits
from harness.config import validate_config
from harness.jobs import Job, job_params, parse_job, read_job_record, result_jobs
from harness.report.build import result_group
from harness.result_registry import get_result, hook, work_module
from harness.results.common.write.tables import build_table
from harness.runner import run_job

RESULT = get_result("lecture_clustering")
AFFINITY = {"affinity": "nearest_neighbors", "n_neighbors": 10}


@pytest.fixture
def config(tmp_path, repo_root):
    return validate_config({
        "profile": "unit", "results_dir": str(tmp_path),
        "reference_dir": str(repo_root / "results" / "reference"),
        "methods": {"spectral_clustering": AFFINITY, "sklearn_spectral_clustering": AFFINITY},
        "results": {"lecture_clustering": {
            "datasets": ["two_moons", "digits"],
            "methods": ["spectral_clustering", "sklearn_spectral_clustering"],
            "n_runs": 2, "time_limit_seconds": 120}},
    })


def test_declaration(config):
    assert RESULT.KIND == "table" and RESULT.SIDECAR and result_group(RESULT) == "lecture"
    assert work_module(RESULT).__name__ == "harness.results.common.work.grid"
    assert RESULT.SPEC.task == "clustering" and RESULT.SPEC.reference_file is None
    assert not RESULT.SPEC.thesis_values
    assert [j.key for j in result_jobs(config, "lecture_clustering")] == [
        "two_moons/spectral_clustering", "two_moons/sklearn_spectral_clustering",
        "digits/spectral_clustering", "digits/sklearn_spectral_clustering"]
    params = job_params(config, parse_job("lecture_clustering/digits/spectral_clustering"))
    assert params["method_params"] == AFFINITY and params["n_runs"] == 2
    assert params["time_limit_seconds"] == 120 and params["dataset_params"] == {}
    assert RESULT.inputs(config)[0].endswith("known_deviations.yaml")  # no reference CSV


def test_a_job_scores_as_scikit_learn_does_and_the_table_has_no_thesis_values(config):
    run_job(config, Job("lecture_clustering", "digits/sklearn_spectral_clustering"))
    record = read_job_record(config, Job("lecture_clustering",
                                         "digits/sklearn_spectral_clustering"))
    assert record["status"] == "ok", record["reason"]
    data = Digits().load()
    for run in record["runs"]:  # scikit-learn on the same data with the run's seed
        labels = SpectralClustering(n_clusters=10, random_state=run["seed"],
                                    **AFFINITY).fit_predict(data.X)
        assert run["measures"]["adjusted_rand_index"] == pytest.approx(
            adjusted_rand_score(data.y, labels), abs=1e-12)
        assert run["measures"]["normalized_mutual_info"] == pytest.approx(
            normalized_mutual_info_score(data.y, labels), abs=1e-12)
        assert 0.5 < run["measures"]["adjusted_rand_index"] < 1
        assert math.isfinite(run["fit_cpu_seconds"]) and run["fit_cpu_seconds"] > 0

    frame = build_table(config, RESULT.SPEC).set_index(["measure", "method", "dataset"])
    cell = frame.loc[("adjusted_rand_index", "sklearn_spectral_clustering", "digits")]
    assert cell["ours"] == pytest.approx(record["summary"]["adjusted_rand_index"]["mean"])
    # the fit's CPU seconds, kept beside the measures by the task, are a row too
    cpu = frame.loc[("fit_cpu_seconds", "sklearn_spectral_clustering", "digits")]
    assert cpu["ours"] == pytest.approx(np.mean([r["fit_cpu_seconds"]
                                                 for r in record["runs"]]))
    assert cpu["n_runs"] == 2
    assert frame.loc[("normalized_mutual_info", "spectral_clustering", "two_moons"),
                     "status"] == "missing"
    assert frame["thesis"].isna().all() and frame["within_tolerance"].isna().all()
    assert set(frame.index.get_level_values("measure")) == {
        "adjusted_rand_index", "normalized_mutual_info", "fit_cpu_seconds"}
    assert len(frame) == 3 * 4  # measures x cells

    paths = hook(RESULT, "write")(config)
    md = next(p for p in paths if p.suffix == ".md").read_text()
    assert "## adjusted Rand index" in md and "no thesis number" in md
    ari = record["summary"]["adjusted_rand_index"]
    assert f"{ari['mean']:.3f}±{ari['std']:.3f}" in md and " / " not in md.split("## Notes")[0]
    # its only claims decide the lecture notes' own register entries
    assert {c["register"] for c in hook(RESULT, "claims")(config)} == {"lec-spectral-clustering-groups-like-person", "lec-multiclass-spectral-clustering"}
