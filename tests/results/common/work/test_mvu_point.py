"""Figure points end to end in-process with Clarabel on tiny Swiss rolls: real
solves, certified statuses, the min-trace kernel's smaller trace, and expected
failures (time limit, data unavailable, too few points) as records."""

from __future__ import annotations

import numpy as np
import pytest

from harness.jobs import Job, job_params, parse_job, record_path
from harness.plugin import ExpectedFailure
from harness.records import read_record
from harness.results.common.work.mvu_point import load_dataset
from harness.runner import JobCrashed, run_job

# measured: Clarabel, 1 thread, swiss roll n = 40, k = 4: 2-4 s per solve; at k = 4
# this roll is not rigid, so the two SDPs differ (max trace 5265, min trace 4215)
FIG_3_24 = {"datasets": ["swiss_roll", "teapot"], "n_samples": {"swiss_roll": 40},
            "n_neighbors": 4, "solver": "clarabel", "time_limit_seconds": 120}


def _run(config, job_id):
    return read_record(run_job(config, parse_job(job_id)))


def test_min_trace_point_pair_on_a_swiss_roll(profile):
    config = profile(fig_3_24=FIG_3_24)
    hi = _run(config, "fig_3_24/swiss_roll/max_trace")
    lo = _run(config, "fig_3_24/swiss_roll/min_trace")
    for record, variant in ((hi, "equality"), (lo, "min_trace")):
        assert record["status"] == "ok", record["reason"]
        assert record["params"]["method_params"] == {
            "n_neighbors": 4, "n_components": 2, "solver": "clarabel", "variant": variant,
            "time_limit": pytest.approx(108.0)}
        assert record["solve"]["status"] == "optimal" and record["solve"]["gap"] < 1e-3
        assert record["n_samples"] == 40 and record["n_features"] == 3
        assert all(0 <= v <= 1 for v in record["measures"].values())
        assert sum(record["normalised_eigenvalues"]) == pytest.approx(1.0, abs=1e-9)
        assert record["timing"]["wall_seconds"] > 0 and record["provenance"]["git"]
        assert all(lib["num_threads"] == 1 for lib in record["blas_during_run"])
    # the objective of each SDP, certified: minimising the trace gives a smaller one
    assert lo["trace"] < hi["trace"] - 100  # measured 4215 vs 5265
    assert lo["solve"]["value"] == pytest.approx(lo["trace"], rel=1e-6)
    assert record_path(config, Job("fig_3_24", "swiss_roll/min_trace")).exists()
    assert lo["job"] == "fig_3_24/swiss_roll/min_trace" and lo["result"] == "fig_3_24"
    assert lo["key"] == "swiss_roll/min_trace"


def test_k_sweep_point_and_its_spectrum(profile):
    config = profile(fig_3_28={"n_samples": 40, "n_neighbors": [4], "solver": "clarabel",
                               "time_limit_seconds": 120})
    record = _run(config, "fig_3_28/noise_free/k4")
    assert record["status"] == "ok" and record["solve"]["status"] == "optimal"
    assert record["params"]["method_params"]["n_neighbors"] == 4
    assert record["params"]["dataset_params"]["n_samples"] == 40
    assert record["params"]["dataset_params"]["noise"] == 0.0
    ev = np.array(record["normalised_eigenvalues"])
    assert np.all(np.diff(ev) <= 1e-12) and ev[0] > ev[2]
    assert len(record["input_spectrum"]) == 3  # the input is 3-D
    # the roll of 3.1.5: the same 3-D roll plus five dimensions of N(0, 0.1^2) noise
    noisy = _run(config, "fig_3_28/section_3_1_5/k4")
    assert noisy["status"] == "ok", noisy["reason"]
    assert noisy["params"]["dataset_params"]["extra_noise_dims"] == 5
    assert noisy["n_features"] == 8 and len(noisy["input_spectrum"]) == 8
    assert sum(noisy["input_spectrum"][3:]) < 1e-3  # the noise's share (measured: 3e-4)


def test_disconnected_graph_and_time_limit_are_records(profile):
    section = {"n_samples": 40, "n_neighbors": [3, 4], "solver": "clarabel"}
    disconnected = _run(profile(fig_3_28={**section, "time_limit_seconds": 120}),
                        "fig_3_28/noise_free/k3")  # measured: components of 36 and 4
    assert disconnected["status"] == "failed"
    assert "2 connected components" in disconnected["reason"]
    # the child alone needs more than 0.3 CPU-s to import and solve (a 2-4 s solve)
    slow = _run(profile(fig_3_28={**section, "time_limit_seconds": 0.3}),
                "fig_3_28/noise_free/k4")
    assert slow["status"] == "timeout" and "CPU budget of 0.3 s" in slow["reason"]
    assert slow["limit"] == "cpu" and slow["timing"]["cpu_seconds"] >= 0.3
    # not wall >= 0.3: the CPU seconds of a solver's several threads exceed its wall
    # time (measured in a full run: 0.21 s wall for >= 0.3 CPU-s)
    assert "measures" not in slow and slow["timing"]["wall_seconds"] > 0


def test_unavailable_data_is_a_record(profile, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    record = _run(profile(fig_3_24=FIG_3_24), "fig_3_24/teapot/min_trace")
    assert record["status"] == "unavailable" and "harness fetch teapot" in record["reason"]
    assert record["error_type"] == "DataUnavailableError"


def test_dense_solver_beyond_its_size_cap_is_skipped(profile):
    config = profile(fig_3_24={**FIG_3_24, "n_samples": {"swiss_roll": 151}})
    record = _run(config, "fig_3_24/swiss_roll/max_trace")
    assert record["status"] == "skipped" and "n = 150" in record["reason"]


def test_subsample_is_seeded_sorted_and_bounded(profile):
    params = {"dataset": "swiss_roll", "dataset_params": {"n_samples": 50}, "subsample": 20,
              "seed": 3}
    first, again = load_dataset(params), load_dataset(params)
    assert first.X.shape == (20, 3) and np.array_equal(first.X, again.X)
    assert first.meta["subsample"] == {"from": 50, "to": 20, "seed": 3}
    assert np.all(np.diff(first.y) != 0)
    with pytest.raises(ExpectedFailure, match=r"n_samples = 60 for swiss_roll, but it has "
                                              r"only 50 points; lower n_samples.swiss_roll"):
        load_dataset({**params, "subsample": 60})


def test_plugins_without_a_size_parameter_are_subsampled(profile):
    config = profile(fig_3_24={"datasets": ["teapot_standin"],
                               "n_samples": {"teapot_standin": 30}})
    params = job_params(config, Job("fig_3_24", "teapot_standin/max_trace"))
    assert params["subsample"] == 30 and "n_samples" not in params["dataset_params"]
    assert params["n_samples_source"].startswith("seeded subsample")
    assert params["thesis_dataset"] == "teapot" and params["solver"] == "native"


BUGGY_DATASET = '''
    """A test plugin whose loader has a bug."""
    from harness.plugin import DatasetPlugin


    class Buggy(DatasetPlugin):
        name = "buggy_points_test"

        def load(self):
            return {}["missing key"]
'''


def test_a_bug_fails_loudly_and_writes_nothing(profile, drop_plugin):
    drop_plugin("datasets", "buggy_points_test", BUGGY_DATASET)
    config = profile(fig_3_24={"datasets": ["buggy_points_test"], "solver": "clarabel"})
    job = Job("fig_3_24", "buggy_points_test/max_trace")
    with pytest.raises(JobCrashed, match=r"(?s)job fig_3_24/buggy_points_test/max_trace "
                                         r"crashed:\n.*KeyError: 'missing key'"):
        run_job(config, job)
    assert not record_path(config, job).exists()
