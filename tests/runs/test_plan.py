"""harness plan on a synthetic profile and the records of an earlier, smaller run:
jobs as the profile expands them, measured where the same job did the same work,
estimated by the fitted power law elsewhere, the LPT wall on 2 cores by hand, and
the jobs over their budget or the machine's memory flagged."""

from __future__ import annotations

import json

import pytest
import yaml

from harness.cli import main
from harness.config import validate_config
from harness.jobs import job_params, parse_job, record_path
from harness.records import write_json_atomic
from harness.runs.plan import plan_profile, same_work

BUDGET = 1000  # time_limit_seconds 1000 + grace 0


def _profile(tmp_path, name, native, clarabel, time_limit=BUDGET):
    return {"profile": name, "results_dir": str(tmp_path / "results"),
            "results": {"solver_table": {
                "backends": ["native", "clarabel"], "n": [40],
                "n_per_backend": {"native": native, "clarabel": clarabel},
                "time_limit_seconds": time_limit, "grace_seconds": 0}}}


def _cpu(backend, n):
    return {"native": 0.01, "clarabel": 0.03}[backend] * n ** 2


@pytest.fixture
def earlier(tmp_path):
    """Records of a small run: native at n = 40, 100, clarabel at 40 (CPU = c n^2),
    one with a peak of 3000 MB; an unavailable record of a job of the new profile."""
    config = validate_config(_profile(tmp_path, "small", [40, 100], [40], time_limit=500))
    for backend, n in (("native", 40), ("native", 100), ("clarabel", 40)):
        job = parse_job(f"solver_table/equality/{backend}/n{n}")
        write_json_atomic(record_path(config, job), {
            "job": job.id, "result": "solver_table", "key": job.key, "status": "ok",
            "params": job_params(config, job),
            "timing": {"cpu_seconds": _cpu(backend, n), "wall_seconds": 1.0,
                       "peak_memory_mb": 3000.0 if n == 100 else 200.0}})
    return tmp_path / "results" / "small" / "records"


@pytest.fixture
def config(tmp_path):
    return validate_config(_profile(tmp_path, "big", [40, 100, 200, 400], [40, 100]))


def test_the_plan_of_a_bigger_profile(config, earlier):
    plan = plan_profile(config, records=earlier, cores=2, memory_mb=2048)
    [result] = plan.results
    jobs = {j.job.rsplit("/", 2)[-2] + "/" + j.job.rsplit("/", 1)[-1]: j for j in result.jobs}
    assert sorted(jobs) == ["clarabel/n100", "clarabel/n40", "native/n100", "native/n200",
                            "native/n40", "native/n400"]
    # the same job at another time limit does the same work: measured
    for key in ("native/n40", "native/n100", "clarabel/n40"):
        backend, n = key.split("/n")
        assert jobs[key].basis == "measured" and jobs[key].cpu_seconds == _cpu(backend, int(n))
    assert result.cpu_model.exponents["n"] == pytest.approx(2.0)
    # from the nearest measured job of its kind, by n^2
    assert jobs["native/n200"].basis == "estimate"
    assert jobs["native/n200"].cpu_seconds == pytest.approx(400.0)
    assert jobs["native/n400"].cpu_seconds == pytest.approx(1600.0)
    assert jobs["clarabel/n100"].cpu_seconds == pytest.approx(300.0)
    # over budget (1000 CPU-s) and over the machine's 2048 MB
    assert [k for k, j in jobs.items() if j.over_budget] == ["native/n400"]
    # memory: one job above the run's smallest peak, so no exponent; its 3000 MB is
    # carried to the larger native jobs (nearest measured job of their kind)
    assert result.memory_model.exponents == {}
    assert [k for k, j in jobs.items() if j.over_memory] == ["native/n100", "native/n200",
                                                              "native/n400"]
    # total and wall on 2 cores, by hand: n400 counts its budget, 1000; the rest,
    # 400 + 300 + 100 + 48 + 16 = 864, on the other core: LPT 1000 | 864
    assert plan.cpu_seconds == pytest.approx(1000 + 400 + 300 + 100 + 48 + 16)
    assert plan.wall_seconds == pytest.approx(1000.0)
    assert plan_profile(config, records=earlier, cores=1, memory_mb=2048).wall_seconds == (
        pytest.approx(1864.0))


def test_unavailable_records_and_unknown_kinds_have_no_estimate(tmp_path, config, earlier):
    job = parse_job("solver_table/equality/clarabel/n100")
    write_json_atomic(earlier / f"{job.id}.json", {
        "job": job.id, "result": "solver_table", "key": job.key, "status": "unavailable",
        "params": job_params(config, job), "timing": {"cpu_seconds": 0.01}})
    plan = plan_profile(config, records=earlier, cores=2, memory_mb=1e6)
    clarabel = next(j for j in plan.jobs if j.job == job.id)
    assert clarabel.basis == "estimate" and clarabel.cpu_seconds == pytest.approx(300.0)
    assert clarabel.note == "its earlier record: unavailable"
    other = validate_config(_profile(tmp_path, "big", [40], [40]) | {})
    other["results"]["solver_table"]["backends"].append("scs")
    plan = plan_profile(validate_config(other), records=earlier, cores=2, memory_mb=1e6)
    scs = next(j for j in plan.jobs if "/scs/" in j.job)
    assert (scs.basis, scs.cpu_seconds) == ("no estimate", None)
    assert scs.note == "no measured job of its kind (equality/scs)"


def test_same_work_ignores_time_limits_and_sources():
    assert same_work({"n": 40, "time_limit_seconds": 900, "grace_seconds": 60,
                      "n_runs_source": "profile", "m": {"time_limit": 5}},
                     {"n": 40, "time_limit_seconds": 3600, "n_runs_source": "thesis",
                      "m": {"time_limit": 50}})
    assert not same_work({"n": 40}, {"n": 60})


def test_the_command(tmp_path, earlier, capsys):
    path = tmp_path / "big.yaml"
    path.write_text(yaml.safe_dump(_profile(tmp_path, "big", [40, 100, 200, 400], [40, 100])))
    assert main(["plan", "--config", str(path), "--records", str(earlier), "--cores", "2",
                 "--memory-mb", "2048"]) == 0
    out = capsys.readouterr().out
    assert "| solver_table |      6 |          3 |          3 |             0 | 31.1 min |" in out
    assert "wall on 2 cores about 16.7 min" in out and "OVER BUDGET" in out
    assert main(["plan", "--config", str(path), "--records", str(earlier), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cpu_seconds"] == pytest.approx(1864.0)
    assert data["results"][0]["cpu_exponents"]["n"] == pytest.approx(2.0)
    assert main(["plan", "--config", str(path), "--records", str(tmp_path / "none")]) == 2
    assert f"{tmp_path / 'none'} is not a folder of records" in capsys.readouterr().err


def test_a_reference_run_plans_as_its_records_do(config, earlier, tmp_path):
    """A fresh clone has no records/ but the kept reference run: its records.csv
    (with each job's params) gives the same plan as the records it was exported from."""
    from harness.runs.export import export_run

    # export-run needs a run folder: the records plus an (empty) report
    run = earlier.parent
    (run / "report.md").write_text("# report\n")
    kept = export_run(run, tmp_path / "kept")
    by_records = plan_profile(config, records=earlier, cores=2, memory_mb=2048)
    by_kept = plan_profile(config, records=kept, cores=2, memory_mb=2048)
    rows = [(j.job, j.basis, j.cpu_seconds, j.peak_memory_mb) for j in by_records.results[0].jobs]
    assert rows == [(j.job, j.basis, j.cpu_seconds, j.peak_memory_mb)
                    for j in by_kept.results[0].jobs]
    assert {basis for _, basis, _, _ in rows} >= {"measured", "estimate"}


def _write(config, key, cpu):
    job = parse_job(f"solver_table/equality/{key}")
    write_json_atomic(record_path(config, job), {
        "job": job.id, "result": "solver_table", "key": job.key, "status": "ok",
        "params": job_params(config, job),
        "timing": {"cpu_seconds": cpu, "wall_seconds": 1.0, "peak_memory_mb": 200.0}})


def test_several_runs_fit_the_exponent_one_run_cannot(tmp_path):
    """Each earlier run measured clarabel at one n only (40 in one, 100 in the other):
    neither alone tells its exponent, so clarabel at 200 has no estimate from either;
    from both, CPU = 0.03 n^2 is fitted (exponent 2) and n = 200 gets 1200 s. The
    first run holding a job's record measures it."""
    small = validate_config(_profile(tmp_path / "a", "small", [40], [40]))
    _write(small, "clarabel/n40", _cpu("clarabel", 40))
    _write(small, "native/n40", _cpu("native", 40))
    other = validate_config(_profile(tmp_path / "b", "other", [40], [100]))
    _write(other, "clarabel/n100", _cpu("clarabel", 100))
    _write(other, "native/n40", 99.0)  # the same job measured again: the first run's wins
    big = validate_config(_profile(tmp_path, "big", [40], [40, 200]))
    runs = [tmp_path / "a" / "results" / "small" / "records",
            tmp_path / "b" / "results" / "other" / "records"]
    alone = {j.job.rsplit("/", 2)[-2] + "/" + j.job.rsplit("/", 1)[-1]: j
             for j in plan_profile(big, records=runs[0], cores=1, memory_mb=1e6).jobs}
    assert alone["clarabel/n200"].basis == "no estimate"
    assert alone["clarabel/n200"].note == ("n: 40 -> 200 has no exponent (no measured job of "
                                           "this result at two of its sizes)")
    plan = plan_profile(big, records=runs, cores=1, memory_mb=1e6)
    both = {j.job.rsplit("/", 2)[-2] + "/" + j.job.rsplit("/", 1)[-1]: j for j in plan.jobs}
    assert plan.results[0].cpu_model.exponents["n"] == pytest.approx(2.0)
    assert both["clarabel/n200"].basis == "estimate"
    assert both["clarabel/n200"].cpu_seconds == pytest.approx(_cpu("clarabel", 200))
    assert both["native/n40"].cpu_seconds == _cpu("native", 40)
    assert plan.records == ", ".join(map(str, runs)) and plan.n_records == 4


def test_a_declared_exponent_scales_until_measured_jobs_tell_one(tmp_path, monkeypatch):
    """A result's ``COST_EXPONENTS`` (its complexity) move a job measured at one size to
    another; jobs measured at two sizes override it with the fitted exponent."""
    from harness.result_registry import get_result

    monkeypatch.setattr(get_result("solver_table"), "COST_EXPONENTS", {"n": 3.0},
                        raising=False)
    small = validate_config(_profile(tmp_path / "a", "small", [40], [40]))
    _write(small, "clarabel/n40", _cpu("clarabel", 40))
    big = validate_config(_profile(tmp_path, "big", [40], [40, 200]))
    runs = [tmp_path / "a" / "results" / "small" / "records"]
    plan = plan_profile(big, records=runs, cores=1, memory_mb=1e6)
    [job] = [j for j in plan.jobs if j.job.endswith("clarabel/n200")]
    assert job.basis == "estimate" and job.cpu_seconds == pytest.approx(48.0 * 5 ** 3)
    assert "n^3*" in plan.results[0].cpu_model.describe()
    other = validate_config(_profile(tmp_path / "b", "other", [40], [100]))
    _write(other, "clarabel/n100", _cpu("clarabel", 100))
    runs.append(tmp_path / "b" / "results" / "other" / "records")
    plan = plan_profile(big, records=runs, cores=1, memory_mb=1e6)
    [job] = [j for j in plan.jobs if j.job.endswith("clarabel/n200")]
    assert job.cpu_seconds == pytest.approx(_cpu("clarabel", 200))  # fitted: n^2
