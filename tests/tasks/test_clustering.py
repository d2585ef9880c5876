"""The clustering task: a partition scored against the labels by the adjusted Rand
index and normalised mutual information (sklearn.metrics), n_clusters from the labels
unless the profile sets it, and marked records for unusable cells."""

import numpy as np
import pytest

from harness.datasets.cluster_shapes import Blobs, TwoMoons
from harness.plugin import Dataset
from harness.tasks import MEASURES, TASKS
from harness.tasks.clustering import (ClusteringInputError, N_CLUSTERS_FROM_LABELS,
                                      partition_scores, run_clustering)
from harness.methods.sklearn_spectral_clustering import SklearnSpectralClustering
from harness.methods.spectral_clustering import NJWSpectralClustering


def test_the_task_is_registered():
    assert TASKS["clustering"] is run_clustering
    assert MEASURES["clustering"] == ("adjusted_rand_index", "normalized_mutual_info")


def test_scores_are_one_for_a_renamed_partition_and_low_for_a_random_one():
    y = np.repeat([0, 1, 2], 20)
    assert partition_scores(y, np.repeat([7, 3, 5], 20)) == {
        "adjusted_rand_index": 1.0, "normalized_mutual_info": 1.0}
    rng = np.random.default_rng(0)
    scores = partition_scores(y, rng.integers(0, 3, 60))
    assert abs(scores["adjusted_rand_index"]) < 0.1 and scores["normalized_mutual_info"] < 0.1


def test_scores_need_equal_lengths():
    with pytest.raises(ValueError, match="same length"):
        partition_scores([0, 1, 1], [0, 1])


@pytest.mark.parametrize("cls", [NJWSpectralClustering, SklearnSpectralClustering])
def test_run_on_two_moons_finds_the_moons(cls):
    ds = TwoMoons().load()
    out = run_clustering(cls, ds, {"method_params": {"gamma": 20.0}}, seed=0)
    assert out["measures"] == {"adjusted_rand_index": 1.0, "normalized_mutual_info": 1.0}
    assert out["info"] == {"n_clusters": 2, "n_clusters_source": "number of distinct labels",
                           "n_clusters_found": 2}
    assert out["fit_seconds"] >= 0 and out["fit_cpu_seconds"] >= 0


def test_n_clusters_from_the_profile_wins():
    ds = Blobs().load(centers=4)
    out = run_clustering(NJWSpectralClustering, ds,
                         {"method_params": {"n_clusters": 2}}, seed=0)
    assert out["info"]["n_clusters"] == 2 and out["info"]["n_clusters_source"] == "profile"
    assert out["info"]["n_clusters_found"] == 2
    assert out["measures"]["adjusted_rand_index"] < 1.0
    same = run_clustering(NJWSpectralClustering, ds,
                          {"method_params": {"n_clusters": N_CLUSTERS_FROM_LABELS}}, seed=0)
    assert same["info"]["n_clusters"] == 4 and same["measures"]["adjusted_rand_index"] == 1.0


def test_seed_reaches_the_method():
    ds = Blobs().load()
    a = run_clustering(NJWSpectralClustering, ds, {"method_params": {}}, seed=3)
    b = run_clustering(NJWSpectralClustering, ds, {"method_params": {}}, seed=3)
    assert a["measures"] == b["measures"]


def test_unlabelled_data_is_a_marked_cell():
    ds = Dataset(np.random.default_rng(0).standard_normal((20, 2)), None,
                 {"thesis_name": "noise"})
    with pytest.raises(ClusteringInputError, match="noise has no labels"):
        run_clustering(NJWSpectralClustering, ds, {"method_params": {}}, seed=0)


def test_rejected_input_is_a_marked_cell():
    ds = Blobs().load(n_samples=10)
    with pytest.raises(ClusteringInputError,
                       match=r"spectral_clustering rejected the input: n_clusters=11"):
        run_clustering(NJWSpectralClustering, ds, {"method_params": {"n_clusters": 11}},
                       seed=0)


def test_a_clustering_table_cell_runs_through_the_grid(tmp_path):
    # a future clustering table needs no other edit: the grid resolves its cells'
    # parameters and runs this task
    from harness.results.common.declare import grid_profile
    from harness.results.common.work import grid
    from harness.results.common.declare.table_spec import TableSpec

    spec = TableSpec(name="clustering_demo", task="clustering", title="demo",
                     reference_file=None, measures=(), thesis_datasets=())
    config = {"seed": 0, "blas_threads": 1, "reference_dir": str(tmp_path),
              "datasets": {"blobs": {"n_samples": 90}}, "methods": {},
              "results": {"clustering_demo": {
                  "time_limit_seconds": 60, "n_runs": 2,
                  "method_params": {"blobs": {"spectral_clustering": {"gamma": 2.0}}}}}}
    cell = grid_profile.Cell("clustering_demo", "blobs", "spectral_clustering")
    params = grid_profile.cell_params(config, spec, cell)
    assert params["method_params"] == {"gamma": 2.0}
    assert params["dataset_params"]["n_samples"] == 90
    body = grid.work(params)
    assert body["status"] == "ok" and len(body["runs"]) == 2
    assert body["summary"]["adjusted_rand_index"] == {"mean": 1.0, "std": 0.0, "n": 2}
    assert body["runs"][0]["info"]["n_clusters"] == 3
