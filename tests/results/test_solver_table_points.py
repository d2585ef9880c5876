"""One real point of the solver table per backend (native and Clarabel, n = 30; CSDP
where installed): the record's certificate is the harness' own, and the two solvers
agree within it."""

import shutil

import pytest

from harness.config import validate_config
from harness.jobs import Job
from harness.records import read_record
from harness.results.solver_table.work import finish, work
from harness.results.solver_table.points import SolverPoint, point_params
from harness.runner import run_job

pytest.importorskip("cvxpy")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    config = validate_config({
        "profile": "unit", "results_dir": str(tmp_path_factory.mktemp("results")),
        "results": {"solver_table": {"backends": ["native", "clarabel"], "n": [30],
                                     "time_limit_seconds": 120}},
    })
    return {b: read_record(run_job(config, Job("solver_table", SolverPoint(b, 30).key)))
            for b in ("native", "clarabel")}


@pytest.mark.parametrize("backend", ["native", "clarabel"])
def test_point_is_certified_by_the_harness(records, backend):
    record = records[backend]
    assert record["job"] == f"solver_table/equality/{backend}/n30"
    cert = record["certificate"]
    assert record["status"] == "ok" and record["verdict"] == "optimal", record["reason"]
    assert cert["gap"] <= 1e-3 and cert["violation"] <= 1e-4
    assert record["problem"] == {**record["problem"], "n": 30, "n_neighbors": 5, "n_features": 8}
    assert record["params"]["extra_noise_dims"] == 5 and record["params"]["blas_threads"] == 1
    assert all(lib["num_threads"] == 1 for lib in record["blas_during_run"])
    timing = record["timing"]
    assert 0 < timing["wall_seconds"] <= timing["process_wall_seconds"]
    assert timing["peak_memory_mb"] > 10 and timing["certify_seconds"] >= 0
    # what the solver said is kept apart and not used for the verdict
    assert record["solver_reported"]["solver"] == backend


def test_native_and_clarabel_agree_within_their_certificates(records):
    native, clarabel = records["native"]["certificate"], records["clarabel"]["certificate"]
    # weak duality: native's multipliers bound Clarabel's (feasible to ~1e-8) optimum
    assert clarabel["value"] <= native["bound"] * (1 + 1e-6)
    assert clarabel["value"] <= clarabel["bound"] * (1 + 1e-6)
    # the objectives agree within the certified gaps; an iterate violating the
    # constraints by a relative eps may exceed the optimum by a few eps
    slack = native["gap"] + clarabel["gap"] + 10 * (native["violation"] + clarabel["violation"])
    assert abs(native["value"] - clarabel["value"]) <= slack * clarabel["value"]
    assert native["value"] >= clarabel["value"] * (1 - native["gap"]) - 1e-6 * clarabel["value"]


def _csdp_config(tmp_path):
    return validate_config({
        "profile": "unit", "results_dir": str(tmp_path / "results"),
        "results": {"solver_table": {"backends": ["csdp"], "n": [30],
                                     "time_limit_seconds": 120}},
    })


def test_a_csdp_point_is_certified_and_counts_csdp_cpu(tmp_path):
    if shutil.which("csdp") is None:
        pytest.skip("CSDP not installed: apt-get install coinor-csdp")
    config = _csdp_config(tmp_path)
    record = read_record(run_job(config, Job("solver_table", SolverPoint("csdp", 30).key)))
    assert record["status"] == "ok" and record["verdict"] == "optimal", record["reason"]
    assert record["certificate"]["gap"] <= 1e-3
    csdp = record["solver_reported"]["csdp"]
    assert csdp["formulation"] == "centring_penalty"
    assert record["timing"]["cpu_seconds"] >= csdp["cpu_seconds"]


def test_a_csdp_point_without_the_program_is_a_skipped_record(tmp_path, monkeypatch):
    """The job's work and finish (in this process, where PATH is ours): a record
    with a reason, not a crash."""
    monkeypatch.setenv("PATH", str(tmp_path))
    params = point_params(_csdp_config(tmp_path), SolverPoint("csdp", 30))
    body = work(params)
    body["timing"] = {"wall_seconds": 0.0, "cpu_seconds": 0.0, "peak_memory_mb": 0.0}
    record = finish(params, body)
    assert record["status"] == "skipped" and record["verdict"] == "skipped"
    assert "apt-get install coinor-csdp" in record["reason"]
