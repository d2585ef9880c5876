"""harness plan --actual: the plan of a bigger profile beside the records of the run
it planned, per result: jobs run, the plan's CPU and the records' CPU of the jobs with
an estimate, their ratio, and the jobs without an estimate apart (checked by hand)."""

from __future__ import annotations

import pytest

from harness.cli import main
from harness.jobs import job_params, parse_job, record_path
from harness.records import write_json_atomic
from harness.runs.plan import plan_profile
from harness.runs.plan_actual import plan_against_run, render_actual

from tests.runs.test_plan import _cpu, config, earlier  # noqa: F401 (fixtures)


def _record(config, key, status, cpu):
    job = parse_job(f"solver_table/equality/{key}")
    write_json_atomic(record_path(config, job), {
        "job": job.id, "result": "solver_table", "key": job.key, "status": status,
        "params": job_params(config, job),
        "timing": {"cpu_seconds": cpu, "wall_seconds": cpu, "peak_memory_mb": 100.0}})


@pytest.fixture
def run(config):  # noqa: F811 (the fixture of test_plan)
    """The big run: native n200 took twice its estimate (800 s against 400), n400 timed
    out at its budget, 1000 s (estimate 1600), clarabel n100 as estimated (300 s); n40 (measured
    before) 16 s; clarabel/n40 and native/n100 not run; one unavailable record."""
    _record(config, "native/n200", "ok", 800.0)
    _record(config, "native/n400", "timeout", 1000.0)
    _record(config, "clarabel/n100", "ok", 300.0)
    _record(config, "native/n40", "ok", 16.0)
    _record(config, "native/n100", "unavailable", 5.0)
    return record_path(config, parse_job("solver_table/equality/native/n40")).parents[2]


def test_the_plan_beside_the_run(config, earlier, run):  # noqa: F811
    plan = plan_profile(config, records=earlier, cores=2, memory_mb=2048)
    [row] = plan_against_run(plan, run)
    assert (row.planned, row.ran, row.timed_out) == (6, 4, 1)
    # the plan: n200 400, n400 1600, clarabel n100 300, n40 16 (measured earlier)
    assert row.estimated_cpu == pytest.approx(400 + 1600 + 300 + 16)
    assert row.measured_cpu == pytest.approx(800 + 1000 + 300 + 16)
    assert row.ratio == pytest.approx(2116 / 2316)
    assert row.unestimated_ran == 0 and row.cpu_seconds == pytest.approx(2116)
    assert row.unavailable == 1  # native/n100: counted apart, not as run
    text = render_actual([row], run)
    assert "| solver_table |" in text and "38.6 min" in text and "35.3 min" in text
    assert "0.91" in text


def test_jobs_without_an_estimate_are_apart(tmp_path, config, run):  # noqa: F811
    empty = tmp_path / "nothing"
    empty.mkdir()
    plan = plan_profile(config, records=empty, cores=2, memory_mb=2048)
    [row] = plan_against_run(plan, run)
    assert row.ratio is None and row.unestimated_ran == 4
    assert row.unestimated_cpu == pytest.approx(2116)
    text = render_actual([row], run)
    assert "Not in the run" not in text
    total = next(line for line in text.splitlines() if line.startswith("| total"))
    assert total.split("|")[5].strip() == "-" and total.split("|")[7].strip() == "-"


def test_results_that_did_not_run_say_why():
    """A result whose every record says its data was missing is named with that count,
    one with no jobs of its own apart, and one with no record as not in the run."""
    from harness.runs.plan_actual import ResultActual

    rows = [ResultActual("table_3_3", 40, unavailable=40), ResultActual("fig_2_9_12", 0),
            ResultActual("fig_3_28", 22), ResultActual("fig_2_10", 50, ran=50,
                                                       unestimated_ran=50,
                                                       unestimated_cpu=34.0)]
    text = render_actual(rows, "runs/x")
    assert "Their data was not available (records `unavailable`): table_3_3 (40 of 40 jobs)." \
        in text
    assert "No jobs of their own (built from other results' records): fig_2_9_12." in text
    assert "Not in the run: fig_3_28." in text


def test_the_cli_prints_both(tmp_path, config, earlier, run, capsys):  # noqa: F811
    import yaml

    path = tmp_path / "big.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["plan", "--config", str(path), "--records", str(earlier), "--cores", "2",
                 "--actual", str(run)]) == 0
    out = capsys.readouterr().out
    assert "# Plan of profile `big`" in out and "## The plan against the run at" in out
    with pytest.raises(FileNotFoundError, match="records/ folder or a reference run"):
        plan_against_run(plan_profile(config, records=earlier), tmp_path / "missing")
