"""The solver comparison table (thesis 3.1.4-3.1.6): the profile section, the
aggregation of solve records into csv/md/tex (marked cells, footnotes, time ratios),
the parent's handling of what the solve's child process does, and the CLI."""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from harness import runner
from harness.cli import main
from harness.config import ConfigError, load_config, validate_config
from harness.jobs import Job, cpu_budget, job_params, record_path, result_jobs
from harness.records import read_record, write_json_atomic
from harness.results.solver_table.points import SolverPoint, solver_points as points
from harness.results.solver_table.frame import COLUMNS, build_solver_table, write_solver_table
from harness.runner import JobCrashed, run_job
from harness.timelimit import ChildCrashed, TimeLimitExceeded
from harness.workflow import WorkflowConfig

SECTION = {"backends": ["native", "clarabel", "scs", "sdpa", "mosek", "cvxopt"],
           "n": [40], "n_per_backend": {"native": [40, 100], "clarabel": [40, 100]}}


def _config(tmp_path, **section):
    return validate_config({"profile": "unit", "results_dir": str(tmp_path / "results"),
                            "results": {"solver_table": {**SECTION, **section}}})


def _job(backend, n, variant="equality"):
    """The job of one solve: ``solver_table/VARIANT/BACKEND/nN``."""
    return Job("solver_table", SolverPoint(backend, n, variant).key)


PROVENANCE = {"git": {"commit": "0123456789abcdef", "dirty": False}, "python": "3.11.7",
              "packages": {"numpy": "2.0", "cvxpy": "1.8"},
              "machine": {"node": "box", "processor": "x86_64", "cpu_count": 2,
                          "platform": "Linux"}, "blas": []}


def _record(status, verdict, reason="", wall=None, value=None, bound=None, gap=None,
            violation=None, solver_status=""):
    cert = None if value is None else {"value": value, "bound": bound, "gap": gap,
                                       "violation": violation, "eigenvalue": 1.0}
    return {"status": status, "verdict": verdict, "reason": reason, "certificate": cert,
            "rank": None if cert is None else 3, "solver_status": solver_status,
            "timing": {"wall_seconds": wall, "peak_memory_mb": 200.0},
            "params": {"tol_gap": 1e-3, "tol_violation": 1e-4, "time_limit_seconds": 60,
                       "blas_threads": 1},
            "problem": {"m": 232}, "provenance": PROVENANCE,
            "blas_during_run": [{"internal_api": "openblas", "num_threads": 1}]}


HAND_MADE = {
    ("native", 40): _record("ok", "optimal", wall=2.0, value=5223.6, bound=5225.1,
                            gap=2.8e-4, violation=8.4e-5, solver_status="optimal"),
    ("clarabel", 40): _record("ok", "optimal", wall=3.0, value=5221.93, bound=5221.93,
                              gap=2.6e-8, violation=4.8e-9, solver_status="optimal"),
    ("native", 100): _record("timeout", "timeout", wall=61.0, value=13100.0, bound=13500.0,
                             gap=3.0e-2, violation=2.0e-6,
                             reason="stopped at its time limit of 60 s; best iterate: ..."),
    ("clarabel", 100): _record("timeout", "timeout", wall=120.0,
                               reason="killed at the hard limit of 120 s"),
    ("scs", 40): _record("failed", "failed", wall=1.0, reason="SolverError: boom"),
    ("sdpa", 40): _record("ok", "inaccurate", wall=2.0, value=5221.9, bound=5240.8,
                          gap=3.6e-3, violation=6e-10, solver_status="optimal_inaccurate",
                          reason="certified gap 3.61e-03 (tol 0.001)"),
    ("mosek", 40): _record("skipped", "skipped", reason="MOSEK: no licence"),
    # cvxopt at 40: no record (not run yet)
}


@pytest.fixture
def hand_made(tmp_path):
    config = _config(tmp_path)
    for (backend, n), record in HAND_MADE.items():
        write_json_atomic(record_path(config, _job(backend, n)), record)
    return config


def test_long_table_has_every_point_and_the_time_ratio(hand_made):
    frame = build_solver_table(hand_made).set_index(["backend", "n"])
    assert list(build_solver_table(hand_made).columns) == COLUMNS
    assert len(frame) == 8
    assert frame.loc[("clarabel", 40), "time_ratio_to_native"] == pytest.approx(1.5)
    assert frame.loc[("native", 40), "time_ratio_to_native"] == pytest.approx(1.0)
    assert frame.loc[("sdpa", 40), "time_ratio_to_native"] == pytest.approx(1.0)
    # a ratio needs two completed solves
    for key in [("clarabel", 100), ("native", 100), ("scs", 40), ("mosek", 40)]:
        assert pd.isna(frame.loc[key, "time_ratio_to_native"]), key
    assert frame.loc[("cvxopt", 40), "status"] == "missing"
    assert frame.loc[("native", 100), "gap"] == pytest.approx(3e-2)
    assert frame.loc[("sdpa", 40), "verdict"] == "inaccurate"


def test_markdown_marks_failures_timeouts_and_skips_with_footnotes(hand_made):
    paths = write_solver_table(hand_made)
    assert [p.suffix for p in paths] == [".csv", ".md", ".tex", ".json"]  # .json: sidecar
    md = paths[1].read_text()
    first_grid = md.split("## equality: wall time, certified gap")[1].split("## ")[0]
    rows = {line.split("|")[1].strip(): line for line in first_grid.splitlines()
            if line.startswith("| ") and "n = " not in line}
    assert "2.00 s, gap 2.8e-4, viol 8.4e-5, optimal" in rows["native"]
    assert "timeout[" in rows["native"] and "61.0 s, gap 3.0e-2, viol 2.0e-6" in rows["native"]
    assert "3.00 s, gap 2.6e-8, viol 4.8e-9, optimal" in rows["clarabel"]
    assert "timeout[" in rows["clarabel"] and "(120 s)" in rows["clarabel"]
    assert "failed[" in rows["scs"] and "skipped[" in rows["mosek"]
    assert "inaccurate[" in rows["sdpa"] and "not run[" in rows["cvxopt"]
    for reason in ("SolverError: boom", "MOSEK: no licence", "killed at the hard limit",
                   "the solver said 'optimal_inaccurate'",
                   "harness job solver_table/equality/cvxopt/n40"):
        assert reason in md, reason
    assert "1.50×" in md  # clarabel vs native at n = 40
    assert "5223.6 (≤ 5225.1)" in md
    for note in ("Swiss roll", "k = 5", "5 extra dimensions", "gap <= 0.001",
                 "violation <= 0.0001", "blas_threads = 1", "seen during the solves: 1",
                 "box (x86_64, 2 CPUs", "Commit: 0123456789"):
        assert note in md, note
    assert paths[2].read_text().count("\\toprule") == 3
    csv = pd.read_csv(paths[0])
    assert len(csv) == 8 and set(csv["status"]) == {"ok", "timeout", "failed", "skipped",
                                                     "missing"}


def test_profile_section_defaults_and_points(tmp_path, repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    quick = load_config("config/quick.yaml")["results"]["solver_table"]
    assert quick["n_neighbors"] == 5 and quick["extra_noise_dims"] == 5
    assert quick["tol_gap"] == 1e-3 and quick["tol_violation"] == 1e-4
    assert quick["variants"] == ["equality"]
    full = load_config("config/full.yaml")["results"]["solver_table"]
    assert 10000 in full["n_per_backend"]["native"] and "mosek" in full["backends"]
    config = _config(tmp_path, variants=["equality", "inequality"])
    ids = [p.key for p in points(config)]
    assert ids[:3] == ["equality/native/n40", "equality/native/n100", "equality/clarabel/n40"]
    assert len(ids) == 2 * 8 and "inequality/mosek/n40" in ids
    # the result's keys are these points' (job ids solver_table/KEY)
    assert [job.key for job in result_jobs(config, "solver_table")] == ids


def test_a_backend_s_own_time_limit_replaces_the_section_s_at_each_of_its_n(tmp_path):
    config = _config(tmp_path, time_limit_seconds=3600, grace_seconds=300,
                     time_limit_per_backend={"clarabel": 600})
    limit = {job.key: job_params(config, job)["time_limit_seconds"]
             for job in result_jobs(config, "solver_table")}
    assert limit["equality/clarabel/n40"] == limit["equality/clarabel/n100"] == 600
    assert limit["equality/native/n100"] == limit["equality/scs/n40"] == 3600
    # the job's CPU budget follows (its own limit plus the section's grace)
    assert cpu_budget(job_params(config, _job("clarabel", 100))) == 900
    assert cpu_budget(job_params(config, _job("native", 100))) == 3900


@pytest.mark.parametrize("change, message", [
    ({"backends": ["native", "gurobi"]},
     r"results.solver_table.backends: unknown backend 'gurobi'; valid backends: native, "
     r"native_lowrank, clarabel"),
    ({"variants": ["equality", "bogus"]}, r"unknown variant 'bogus'; valid variants: equality"),
    ({"n": [4, 40]}, r"results.solver_table.n: n = 4 is too small for n_neighbors = 5"),
    ({"n_neighbors": 50}, r"results.solver_table.n: n = 40 is too small for n_neighbors = 50"),
    ({"n_per_backend": {"native": [5]}},
     r"results.solver_table.n_per_backend.native: n = 5 is too small for n_neighbors = 5"),
    ({"n_per_backend": {"sdpa": [40]}, "backends": ["native"]},
     r"results.solver_table.n_per_backend: backend 'sdpa' is not in "
     r"results.solver_table.backends"),
    ({"time_limit_per_backend": {"sdpa": 60}, "backends": ["native"]},
     r"results.solver_table.time_limit_per_backend: backend 'sdpa' is not in "
     r"results.solver_table.backends"),
    ({"time_limit_per_backend": {"native": 0}},
     r"config entry results/solver_table/time_limit_per_backend/native"),
    ({"time_limit": 5}, r"config entry results/solver_table: .*'time_limit' was unexpected"),
    ({"tol_gap": 0}, r"config entry results/solver_table/tol_gap"),
])
def test_bad_section_is_rejected_naming_the_entry(change, message):
    section = copy.deepcopy(SECTION)
    section.update(change)
    if "backends" in change:
        section["n_per_backend"] = change.get("n_per_backend", {})
    with pytest.raises(ConfigError, match=message):
        validate_config({"profile": "t", "results": {"solver_table": section}})


def test_workflow_outputs_include_the_table_only_with_the_section(tmp_path):
    with_section = WorkflowConfig("p.yaml", _config(tmp_path))
    assert any(p.endswith("tables/solver_table.md") for p in with_section.all_outputs())
    records = with_section.result_records("solver_table")
    assert len(records) == 8
    assert records[0].endswith("results/unit/records/solver_table/equality/native/n40.json")
    assert with_section.record_pattern.endswith("results/unit/records/{job}.json")
    without = WorkflowConfig("p.yaml", validate_config({"profile": "t", "results": {}}))
    assert without.all_result_outputs() == [] and without.result_names == []
    with pytest.raises(ConfigError, match="solver_table is not in the profile 't'"):
        without.result_records("solver_table")
    assert without.all_outputs() == without.report_outputs()  # the report, saying so
    sources = with_section.job_sources(
        type("W", (), {"job": "solver_table/equality/native/n40"}))
    assert any(s.endswith("harness/solvers/mvu_sdp/native_solver.py") for s in sources)
    assert any(s.endswith("harness/solvers/mvu_sdp/lowrank.py") for s in sources)
    assert any(s.endswith("harness/datasets/swiss_roll.py") for s in sources)


# ---- the parent's side of a solve: what comes back from the child ----------------
def _fake_child(monkeypatch, exc):
    def fake(*args, **kwargs):
        raise exc
    monkeypatch.setattr(runner, "call_with_time_limit", fake)


def test_hard_kill_and_dead_process_become_records(tmp_path, monkeypatch):
    config = _config(tmp_path)
    job = _job("native", 40)
    _fake_child(monkeypatch, TimeLimitExceeded(660.0, 1200.5, "cpu", 660.0, 660.0, 1980.0))
    record = read_record(run_job(config, job))
    assert record["status"] == "timeout" and "CPU budget of 660 s" in record["reason"]
    assert record["verdict"] == "timeout" and record["limit"] == "cpu"
    assert record["timing"] == {"wall_seconds": 1200.5, "cpu_seconds": 660.0,
                                "cpu_budget_seconds": 660.0, "wall_cap_seconds": 1980.0}
    assert record["certificate"] is None
    _fake_child(monkeypatch, TimeLimitExceeded(1980.0, 1980.2, "wall", 12.5, 660.0, 1980.0))
    record = read_record(run_job(config, job))
    assert record["status"] == "timeout" and record["limit"] == "wall"
    assert record["reason"].startswith("wall cap of 1980 s reached: killed as a runaway "
                                       "after 12.5 CPU-s of its budget of 660")
    _fake_child(monkeypatch, ChildCrashed("died", exitcode=-9))
    record = read_record(run_job(config, job))
    assert record["status"] == "failed" and "exit code -9" in record["reason"]
    assert record["reason"].startswith("the solver process died (exit code -9")
    assert record["verdict"] == "failed" and record["problem"]["n"] == 40
    assert {"git", "machine", "packages"} <= set(record["provenance"])
    assert record["job"] == "solver_table/equality/native/n40"


def test_an_unexpected_exception_fails_loudly_and_writes_nothing(tmp_path, monkeypatch):
    config = _config(tmp_path)
    _fake_child(monkeypatch, ChildCrashed("Traceback ...\nKeyError: 'bug'"))
    with pytest.raises(JobCrashed, match="KeyError: 'bug'"):
        run_job(config, _job("native", 40))
    assert not record_path(config, _job("native", 40)).exists()


def test_real_hard_time_limit_and_the_dense_cap(tmp_path):
    config = _config(tmp_path, time_limit_seconds=0.01, grace_seconds=0,
                     n_per_backend={**SECTION["n_per_backend"], "clarabel": [40, 400]})
    record = read_record(run_job(config, _job("clarabel", 40)))
    assert record["status"] == "timeout" and record["verdict"] == "timeout"
    # the dense cap is also decided in the parent (harness.results.solver_table.work.
    # finish): a skip, even when the hard limit is shorter than the child's start
    record = read_record(run_job(config, _job("clarabel", 400)))
    assert record["status"] == "skipped" and "dense 400 x 400" in record["reason"]
    assert record["verdict"] == "skipped" and record["certificate"] is None
    assert record["problem"]["n"] == 400 and record["problem"]["m"] > 400


# ---- the command line ------------------------------------------------------------
def test_cli_bad_points_name_the_bad_thing(tmp_path, capsys):
    profile = tmp_path / "p.yaml"
    section = {**SECTION, "n_per_backend": {**SECTION["n_per_backend"], "mosek": [400]}}
    profile.write_text(json.dumps({"profile": "cli", "results_dir": str(tmp_path / "r"),
                                   "results": {"solver_table": section}}))

    def job(key):
        return main(["job", "--config", str(profile), f"solver_table/{key}"])

    assert job("equality/gurobi/n40") == 2
    assert "unknown backend 'gurobi'" in capsys.readouterr().err
    assert job("equality/native/n3") == 2
    assert "n = 3 is too small for n_neighbors = 5" in capsys.readouterr().err
    assert job("x/native/n40") == 2
    assert "unknown variant 'x'" in capsys.readouterr().err
    assert job("native/40") == 2
    assert "must look like VARIANT/BACKEND/nN" in capsys.readouterr().err
    # a valid point the profile does not list: refused, the first keys named
    assert job("equality/native/n60") == 2
    assert ("job solver_table/equality/native/n60 is not a job of solver_table in the "
            "profile 'cli' (its keys: equality/native/n40, equality/native/n100, "
            "equality/clarabel/n40, equality/clarabel/n100, equality/scs/n40, "
            "equality/sdpa/n40, ... (8 in all; `snakemake -n` lists them))"
            in capsys.readouterr().err)
    assert not (tmp_path / "r").exists()
    assert job("equality/mosek/n400") == 0
    assert "solver_table/equality/mosek/n400: skipped" in capsys.readouterr().out
    assert (tmp_path / "r" / "cli" / "records" / "solver_table" / "equality" / "mosek"
            / "n400.json").exists()
    assert main(["write", "--config", str(profile), "solver_table"]) == 0
    assert capsys.readouterr().out.count("solver_table.") == 4  # csv, md, tex, sidecar
    no_section = tmp_path / "q.yaml"
    no_section.write_text(json.dumps({"profile": "cli", "results": {}}))
    assert main(["write", "--config", str(no_section), "solver_table"]) == 2
    assert ("solver_table is not in the profile 'cli'; add a results.solver_table section"
            in capsys.readouterr().err)


def test_make_reproduce_installs_every_pypi_backend(repo_root):
    """`make reproduce` installs the extras that carry the quick profile's cvxpy
    backends (CVXOPT and SDPA are PyPI wheels: the solver table must compare them,
    not call them "not installed"); only MOSEK may be skipped, for its licence."""
    import re
    import tomllib

    makefile = (repo_root / "Makefile").read_text()
    stamp = re.search(r"^\$\(STAMP_RUN\):.*\n(?:\t.*\n)*", makefile, re.M).group(0)
    extras = set(re.search(r'-e "\.\[([a-z,]+)\]"', stamp).group(1).split(","))
    optional = tomllib.loads((repo_root / "pyproject.toml").read_text())[
        "project"]["optional-dependencies"]
    installed = {re.split(r"[<>=\[]", req)[0] for extra in extras for req in optional[extra]}
    for package in ("scs", "cvxopt", "sdpa-python", "mosek"):
        assert package in installed, (package, extras)


def test_the_notes_name_the_blas_csdp_mapped():
    from harness.results.solver_table.frame import _csdp_blas_line

    lib = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so"
    records = [{"backend": "csdp", "solver_reported": {"csdp": {"blas_library": lib}}},
               {"backend": "csdp", "solver_reported": {"csdp": {"return_code": 0}}},
               {"backend": "native", "solver_reported": {}}]
    (line,) = _csdp_blas_line(records)
    assert f"mapped): {lib}, not recorded;" in line  # sorted
    assert _csdp_blas_line(records[2:]) == []


def test_the_notes_state_each_backend_s_own_time_limit():
    from harness.results.solver_table.frame import _own_limits_text

    section = {"time_limit_seconds": 3600, "grace_seconds": 300,
               "time_limit_per_backend": {"native_lowrank": 600}}
    assert _own_limits_text(section) == (
        " Backends with a limit of their own: native_lowrank 600 CPU-s (killed at 900).")
    assert _own_limits_text({**section, "time_limit_per_backend": {}}) == ""


def test_the_notes_state_each_backend_s_own_sizes():
    """A blank cell of a backend with sizes of its own is explained, not a silent gap."""
    from harness.results.solver_table.frame import _own_sizes_text

    config = {"results": {"solver_table": {"n_per_backend": {"cvxopt": [100, 40, 60]}}}}
    assert _own_sizes_text(config) == (
        " Backends with sizes of their own (the profile's n_per_backend; a blank cell is a "
        "size the profile does not run, its file says why): cvxopt n = 40, 60, 100.")
    assert _own_sizes_text({"results": {"solver_table": {"n_per_backend": {}}}}) == ""
