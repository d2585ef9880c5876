"""One job (a Table 3.2 cell) end to end through the engine's runner: records for
successes, expected failures, time-outs and a dead process; crashes fail loudly and
write nothing."""

import pytest

from harness.config import validate_config
from harness.errors import ConfigError
from harness.jobs import parse_job, record_path
from harness.records import read_record
from harness.runner import JobCrashed, job_record, run_job
from tests.conftest import BAD_DATASETS, embedding_plugin


def _config(tmp_path, repo_root, datasets, methods, wall_cap=None, **table):
    return validate_config({
        "profile": "unit", **({"wall_cap": wall_cap} if wall_cap else {}),
        "results_dir": str(tmp_path / "results"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "datasets": {"swiss_roll": {"n_samples": 300}},
        "results": {"table_3_2": {"datasets": datasets, "methods": methods, **table}},
    })


def test_ok_record_has_measures_params_and_provenance(tmp_path, repo_root):
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["isomap"], n_runs=2)
    job = parse_job("table_3_2/swiss_roll/isomap")
    path = run_job(config, job)
    assert path == tmp_path / "results/unit/records/table_3_2/swiss_roll/isomap.json"
    assert path == record_path(config, job)
    record = read_record(path)
    assert record["status"] == "ok" and record["reason"] == ""
    assert (record["job"], record["result"], record["key"]) == (
        "table_3_2/swiss_roll/isomap", "table_3_2", "swiss_roll/isomap")
    assert (record["table"], record["dataset"], record["method"], record["solver"]) == (
        "table_3_2", "swiss_roll", "isomap", None)
    assert [r["seed"] for r in record["runs"]] == [0, 1]
    summary = record["summary"]
    assert set(summary) == {"local_continuity", "local_trust", "neighborhood_intersection"}
    # Isomap on a sparse 300-point Swiss roll (k = 15) unrolls it roughly: measured 0.84
    assert 0.8 < summary["local_continuity"]["mean"] <= 1.0
    assert summary["local_continuity"]["std"] < 1e-12  # deterministic given the data
    assert summary["local_continuity"]["n"] == 2
    assert record["params"]["method_params"] == {"n_components": 2, "n_neighbors": 15}
    assert record["n_samples"] == 300 and record["dataset_meta"]["source"] == "generated"
    prov = record["provenance"]
    assert {"git", "packages", "machine", "blas", "python"} <= set(prov)
    assert "scikit-learn" in prov["packages"]
    assert all(lib["num_threads"] == 1 for lib in record["blas_during_run"])
    assert record["timing"]["peak_memory_mb"] > 10


def test_unavailable_data_is_a_marked_record(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))
    config = _config(tmp_path, repo_root, ["olivetti"], ["pca"])
    record = read_record(run_job(config, parse_job("table_3_2/olivetti/pca")))
    assert record["status"] == "unavailable"
    assert "harness fetch olivetti" in record["reason"]
    assert "att_faces.zip" in record["reason"]


@pytest.mark.parametrize("dataset, method, pattern", [
    ("with_nan_test", "pca", r"NaN or infinity in 1 of 60 rows \(first: row 5\)"),
    ("two_clusters_test", "isomap", r"2 connected components \(sizes 40, 40\)"),
    ("two_clusters_test", "laplacian_eigenmaps", r"2 connected components"),
    ("one_sample_test", "pca", r"1 sample\(s\)"),
])
def test_bad_input_is_a_marked_record(tmp_path, repo_root, drop_plugin, dataset, method,
                                      pattern):
    drop_plugin("datasets", "bad_datasets_test", BAD_DATASETS)
    config = _config(tmp_path, repo_root, [dataset], [method])
    record = read_record(run_job(config, parse_job(f"table_3_2/{dataset}/{method}")))
    assert record["status"] == "failed"
    assert record["reason"] and __import__("re").search(pattern, record["reason"])


def test_neighbours_not_below_n_is_a_marked_record(tmp_path, repo_root):
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["isomap"],
                     n_neighbors={"swiss_roll": 400})
    record = read_record(run_job(config, parse_job("table_3_2/swiss_roll/isomap")))
    assert record["status"] == "failed"
    assert "n_neighbors=400 must satisfy 1 <= n_neighbors < n_samples=300" in record["reason"]


def test_the_cpu_budget_gives_a_timeout_record(tmp_path, repo_root, drop_plugin):
    drop_plugin("methods", "busy_test",
                embedding_plugin("busy_test", "while True: pass"))
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["busy_test"],
                     time_limit_seconds=1.5)
    record = read_record(run_job(config, parse_job("table_3_2/swiss_roll/busy_test")))
    assert record["status"] == "timeout" and record["limit"] == "cpu"
    assert record["reason"].startswith("CPU budget of 1.5 s reached (time_limit_seconds")
    timing = record["timing"]
    assert timing["cpu_budget_seconds"] == 1.5 and timing["wall_cap_seconds"] == 601.5
    assert 1.5 <= timing["cpu_seconds"] < 30 and timing["wall_seconds"] < 30


def test_the_wall_cap_gives_a_timeout_record(tmp_path, repo_root, drop_plugin):
    """A job that waits (no CPU) is killed at the profile's wall cap, not at its CPU
    budget: here max(1 x 1.5, 1.5 + 1.5) = 3 s."""
    drop_plugin("methods", "sleepy_test",
                embedding_plugin("sleepy_test", "time.sleep(60)", imports="import time"))
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["sleepy_test"],
                     wall_cap={"factor": 1, "extra_seconds": 1.5}, time_limit_seconds=1.5)
    record = read_record(run_job(config, parse_job("table_3_2/swiss_roll/sleepy_test")))
    assert record["status"] == "timeout" and record["limit"] == "wall"
    assert record["reason"].startswith("wall cap of 3 s reached: killed as a runaway")
    timing = record["timing"]
    assert timing["cpu_budget_seconds"] == 1.5 and timing["wall_cap_seconds"] == 3
    assert 3 <= timing["wall_seconds"] < 30 and timing["cpu_seconds"] < 1.5


def test_a_record_states_its_cpu_budget_and_wall_cap(tmp_path, repo_root):
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["pca"], time_limit_seconds=100)
    record = read_record(run_job(config, parse_job("table_3_2/swiss_roll/pca")))
    assert record["status"] == "ok"
    timing = record["timing"]
    assert timing["cpu_budget_seconds"] == 100 and timing["wall_cap_seconds"] == 700
    assert 0 < timing["cpu_seconds"] < 100 and timing["wall_seconds"] > 0


def test_a_program_the_job_runs_counts_in_its_cpu_seconds(tmp_path, repo_root, drop_plugin):
    """A solver run as a program (CSDP) computes in a child process of the job: its
    CPU seconds are the job's too (here a child busy for 2 CPU-s; the job itself
    only waits for it)."""
    busy = "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 2: pass"
    drop_plugin("methods", "program_test", embedding_plugin(
        "program_test", f'subprocess.run([sys.executable, "-c", "{busy}"], check=True); '
                        f'return X[:, :self.n_components]',
        imports="import subprocess, sys"))
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["program_test"],
                     time_limit_seconds=100)
    record = read_record(run_job(config, parse_job("table_3_2/swiss_roll/program_test")))
    assert record["status"] == "ok", record.get("reason")
    assert record["timing"]["cpu_seconds"] >= 2


def test_a_bug_fails_loudly_and_writes_nothing(tmp_path, repo_root, drop_plugin):
    drop_plugin("methods", "buggy_test",
                embedding_plugin("buggy_test", 'return {}["missing key"]'))
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["buggy_test"])
    with pytest.raises(JobCrashed, match="KeyError: 'missing key'"):
        run_job(config, parse_job("table_3_2/swiss_roll/buggy_test"))
    assert not (tmp_path / "results").exists() or not list((tmp_path / "results").rglob("*.json"))


def test_a_process_that_dies_is_a_failed_record(tmp_path, repo_root, drop_plugin):
    """A child killed from outside (here by itself with SIGKILL, as the out-of-memory
    killer would) is an expected failure of the job: a failed record naming the exit
    code, and the rest of the run goes on."""
    drop_plugin("methods", "killed_test",
                embedding_plugin("killed_test", "os.kill(os.getpid(), signal.SIGKILL)",
                                 imports="import os, signal"))
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["killed_test"])
    record = read_record(run_job(config, parse_job("table_3_2/swiss_roll/killed_test")))
    assert record["status"] == "failed"
    assert "process died (exit code -9; -9 is usually the out-of-memory killer)" in record["reason"]
    assert record["runs"] == [] and record["method"] == "killed_test"


def test_a_key_the_profile_does_not_list_is_refused(tmp_path, repo_root):
    """isomap is a valid method, but the profile's table lists only pca: the API the
    command line and Snakemake call refuses it and writes nothing."""
    config = _config(tmp_path, repo_root, ["swiss_roll"], ["pca"])
    job = parse_job("table_3_2/swiss_roll/isomap")
    message = (r"job table_3_2/swiss_roll/isomap is not a job of table_3_2 in the "
               r"profile 'unit' \(its keys: swiss_roll/pca\)")
    with pytest.raises(ConfigError, match=message):
        run_job(config, job)
    with pytest.raises(ConfigError, match=message):
        job_record(config, job)
    assert not (tmp_path / "results").exists()


def test_budget_wall_cap_and_the_schedulers_runtime():
    from harness.jobs import cpu_budget, runtime_minutes, wall_cap

    params = {"time_limit_seconds": 900, "grace_seconds": 60}
    assert cpu_budget(params) == 960
    assert wall_cap(params) == 2880  # max(3 x 960, 960 + 600)
    assert runtime_minutes(params) == 49  # the wall cap, not the budget
    config = {"wall_cap": {"factor": 1.5, "extra_seconds": 60}}
    assert wall_cap(params, config) == 1440 and runtime_minutes(params, config) == 25
    assert wall_cap({"time_limit_seconds": 10}) == 610


def test_the_jobs_parent_process_imports_none_of_the_works_code(tmp_path, repo_root):
    """The parent of a job resolves its parameters, starts the child and writes the
    record; the work's code (scikit-learn, SciPy, the plugins, the grid's work) is
    imported only in the child: 1.4-2.0 CPU-s per job were spent importing it twice
    (measured on fig_2_20/trial0, a Table 2.1 and a Table 3.2 cell)."""
    import json
    import subprocess
    import sys

    import yaml

    config = {"profile": "unit", "results_dir": str(tmp_path / "results"),
              "reference_dir": str(repo_root / "results" / "reference"),
              "results": {"table_2_1": {"datasets": ["iris"], "methods": ["pca_knn"],
                                        "n_runs": 1}}}
    path = tmp_path / "unit.yaml"
    path.write_text(yaml.safe_dump(config))
    code = (
        "import atexit, json, sys, runpy\n"
        "heavy = ('sklearn', 'scipy', 'pandas', 'harness.methods.pca_knn', 'harness.datasets.iris',\n"
        "         'harness.results.common.work.grid', 'harness.tasks')\n"
        "atexit.register(lambda: print('PARENT' + json.dumps(sorted(\n"
        "    m for m in heavy if m in sys.modules))))\n"
        f"sys.argv = ['harness', 'job', '--config', {str(path)!r}, 'table_2_1/iris/pca_knn']\n"
        "runpy.run_module('harness', run_name='__main__')\n")
    # twice: a first run may rebuild the plugin index (every plugin imported once,
    # harness.registry), e.g. after another test dropped a plugin file in harness/methods/
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], cwd=repo_root,
                             capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "table_2_1/iris/pca_knn: ok" in out.stdout
    line = next(line for line in out.stdout.splitlines() if line.startswith("PARENT"))
    assert json.loads(line[len("PARENT"):]) == []


def test_a_body_may_not_overwrite_the_records_own_fields(tmp_path, repo_root, monkeypatch):
    """A job whose work returns a field the runner sets itself (here ``profile``, as
    lmnn_solver_profile once did) crashes loudly, naming the field and the module,
    instead of writing a record whose identity is the body's."""
    import harness.runner as runner

    config = _config(tmp_path, repo_root, ["swiss_roll"], ["pca"])
    monkeypatch.setattr(runner, "run_limited", lambda *a, **k: {"status": "ok", "reason": "",
                                                                "profile": {"steps": 3}})
    monkeypatch.setattr(runner, "hook", lambda module, name: None)  # no finish hook
    with pytest.raises(runner.JobCrashed, match=r"returned 'profile', which would overwrite"):
        runner.job_record(config, parse_job("table_3_2/swiss_roll/pca"))
    assert not (tmp_path / "results").exists()
