"""The lecture's supervised PCA table (harness.results.lecture_spca): the declaration,
its cells and parameters (the splits of table_2_1_peers), one quick job against SPCA
and kNN computed here from their definitions, and the written table (ours alone, no
thesis values, no verdicts)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.neighbors import KNeighborsClassifier

from harness.datasets.iris import Iris
from harness.config import validate_config
from harness.jobs import Job, job_params, parse_job, read_job_record, result_jobs
from harness.report.build import result_group
from harness.result_registry import get_result, hook, work_module
from harness.results.common.write.tables import build_table
from harness.runner import run_job

RESULT = get_result("lecture_spca")
METHODS = ["pca_knn", "lda_knn", "spca_knn", "kspca_knn", "lmnn"]


@pytest.fixture
def config(tmp_path, repo_root):
    section = {"datasets": ["iris", "digits"], "methods": METHODS, "n_runs": 2,
               "default_n_neighbors": 3, "time_limit_seconds": 120}
    return validate_config({
        "profile": "unit", "results_dir": str(tmp_path),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"lecture_spca": section, "table_2_1_peers": dict(section)},
    })


def test_declaration_and_the_splits_of_the_peers_table(config):
    assert RESULT.KIND == "table" and RESULT.SIDECAR and result_group(RESULT) == "lecture"
    assert work_module(RESULT).__name__ == "harness.results.common.work.grid"
    assert RESULT.SPEC.task == "classification" and not RESULT.SPEC.thesis_values
    assert [j.key for j in result_jobs(config, "lecture_spca")] == [
        f"{d}/{m}" for d in ("iris", "digits") for m in METHODS]
    for key in ("iris/spca_knn", "digits/lmnn"):
        ours = job_params(config, parse_job(f"lecture_spca/{key}"))
        peers = job_params(config, parse_job(f"table_2_1_peers/{key}"))
        assert {k: v for k, v in ours.items() if k != "table"} == {
            k: v for k, v in peers.items() if k != "table"}
    params = job_params(config, parse_job("lecture_spca/iris/spca_knn"))
    assert params["train_fraction"] == pytest.approx(90 / 128)  # thesis Table 2.1's
    assert params["method_params"] == {"n_neighbors": 3} and params["n_runs"] == 2


def _spca_knn_error(X, y, train, test) -> float:
    """SPCA from its definition (top n_classes - 1 eigenvectors of X^T H L H X, L the
    delta kernel of the labels), then 3-NN (scikit-learn's), in % of the test part."""
    Xtr, ytr = X[train], y[train]
    n = len(ytr)
    H = np.eye(n) - 1.0 / n
    L = (ytr[:, None] == ytr[None, :]).astype(float)
    values, vectors = np.linalg.eigh(Xtr.T @ H @ L @ H @ Xtr)
    U = vectors[:, np.argsort(values)[::-1][:len(np.unique(y)) - 1]]
    knn = KNeighborsClassifier(n_neighbors=3).fit(Xtr @ U, ytr)
    return 100.0 * float(np.mean(knn.predict(X[test] @ U) != y[test]))


def test_a_job_matches_spca_and_knn_from_their_definitions(config):
    job = Job("lecture_spca", "iris/spca_knn")
    run_job(config, job)
    record = read_job_record(config, job)
    assert record["status"] == "ok", record["reason"]
    data = Iris().load()
    X, y = data.X, np.asarray(data.y)
    n_train = int(round(record["params"]["train_fraction"] * len(y)))
    for run in record["runs"]:
        split = StratifiedShuffleSplit(n_splits=1, train_size=n_train,
                                       test_size=len(y) - n_train, random_state=run["seed"])
        train, test = next(split.split(np.zeros((len(y), 1)), y))
        assert run["measures"]["test_knn_error"] == pytest.approx(
            _spca_knn_error(X, y, np.sort(train), np.sort(test)), abs=1e-9)
    errors = [r["measures"]["test_knn_error"] for r in record["runs"]]
    assert record["summary"]["test_knn_error"]["mean"] == pytest.approx(np.mean(errors))

    frame = build_table(config, RESULT.SPEC).set_index(["measure", "method",
                                                         "dataset"]).sort_index()
    assert set(frame.index.get_level_values("measure")) == {"test_knn_error",
                                                            "fit_cpu_seconds"}
    assert len(frame) == 2 * 2 * len(METHODS)
    assert frame.loc[("test_knn_error", "spca_knn", "iris"), "ours"] == pytest.approx(
        np.mean(errors))
    # the thesis has PCA, LDA and LMNN rows on iris: none of them is shown or judged
    assert frame["thesis"].isna().all() and frame["within_tolerance"].isna().all()
    assert (frame.loc["test_knn_error", "status"] != "ok").sum() == 2 * len(METHODS) - 1

    paths = hook(RESULT, "write")(config)
    md = next(p for p in paths if p.suffix == ".md").read_text()
    grid = md.split("## kNN test error (%)")[1].split("##")[0]
    assert "| SPCA " in grid and "| kernel SPCA " in grid and "| LMNN " in grid
    assert "4.87" not in md  # the thesis' PCA kNN error on iris
    assert hook(RESULT, "claims")(config) == []
