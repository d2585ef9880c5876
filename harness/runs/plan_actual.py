"""A plan beside the run it planned: estimated against measured CPU, per result.

``harness plan --actual RUN`` prints, after the plan, one row per result: how many of
its planned jobs the run at ``RUN`` (its ``records/`` or a reference run's
``records.csv``) holds, the CPU the plan gave those jobs and the CPU their records
measured, side by side, and their ratio (measured over estimated, over the jobs that
had an estimate), so that a reader sees how far a cost model was off and where.
Jobs the plan had no estimate for are counted and their measured CPU shown apart;
records of jobs the profile does not plan (another profile's, a renamed cell) are
left out. A record that timed out counts with the CPU it used (at least its budget);
an ``unavailable`` one (its data was missing) ran nothing and counts as not run.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from harness.runs.plan import Plan, format_seconds, read_run_records, timing

__all__ = ["ResultActual", "plan_against_run", "render_actual"]


@dataclasses.dataclass
class ResultActual:
    """One result's planned jobs against a run's records of them."""

    name: str
    planned: int
    ran: int = 0
    timed_out: int = 0
    estimated_cpu: float = 0.0  # the plan's CPU of the jobs that ran and had one
    measured_cpu: float = 0.0  # the records' CPU of those same jobs
    unestimated_ran: int = 0  # jobs that ran with no estimate in the plan
    unestimated_cpu: float = 0.0
    unavailable: int = 0  # jobs whose record says their data was missing (ran nothing)

    @property
    def ratio(self) -> float | None:
        """Measured over estimated CPU of the jobs with both (None: none)."""
        if self.estimated_cpu <= 0 or self.ran == self.unestimated_ran:
            return None
        return self.measured_cpu / self.estimated_cpu

    @property
    def cpu_seconds(self) -> float:
        """Every measured CPU second of the result's jobs in the run."""
        return self.measured_cpu + self.unestimated_cpu


def plan_against_run(plan: Plan, run: str | Path) -> list[ResultActual]:
    """Per result of ``plan``, its jobs' planned and measured CPU in ``run``.

    Raises
    ------
    FileNotFoundError
        ``run`` is not a folder.
    """
    folder = Path(run)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a run's records/ folder or a reference "
                                f"run (e.g. results/full/records)")
    found = read_run_records(folder)
    rows = []
    for result in plan.results:
        row = ResultActual(result.name, len(result.jobs))
        for job in result.jobs:
            record = found.get(job.job)
            if record is None:
                continue
            if record.get("status") == "unavailable":
                row.unavailable += 1
                continue
            cpu = timing(record, "cpu_seconds")
            if cpu is None:
                continue
            row.ran += 1
            row.timed_out += record.get("status") == "timeout"
            if job.cpu_seconds is None:
                row.unestimated_ran += 1
                row.unestimated_cpu += cpu
            else:
                row.estimated_cpu += job.cpu_seconds
                row.measured_cpu += cpu
        rows.append(row)
    return rows


def render_actual(rows: list[ResultActual], run: str | Path) -> str:
    """The comparison as Markdown: one row per result with a job in the run."""
    from tabulate import tabulate

    shown = [r for r in rows if r.ran]
    table = [[r.name, r.planned, r.ran, r.timed_out,
              format_seconds(r.estimated_cpu) if r.ran > r.unestimated_ran else "-",
              format_seconds(r.measured_cpu) if r.ran > r.unestimated_ran else "-",
              f"{r.ratio:.2f}" if r.ratio is not None else "-",
              r.unestimated_ran, format_seconds(r.unestimated_cpu) if r.unestimated_ran else "-",
              format_seconds(r.cpu_seconds)] for r in shown]
    with_estimate = [r for r in shown if r.ratio is not None]
    est = sum(r.estimated_cpu for r in with_estimate)
    meas = sum(r.measured_cpu for r in with_estimate)
    total = sum(r.cpu_seconds for r in shown)
    table.append(["total", sum(r.planned for r in shown), sum(r.ran for r in shown),
                  sum(r.timed_out for r in shown), format_seconds(est) if with_estimate else "-",
                  format_seconds(meas) if with_estimate else "-",
                  f"{meas / est:.2f}" if est > 0 else "-",
                  sum(r.unestimated_ran for r in shown),
                  format_seconds(sum(r.unestimated_cpu for r in shown)), format_seconds(total)])
    no_data = [f"{r.name} ({r.unavailable} of {r.planned} jobs)" for r in rows
               if not r.ran and r.unavailable]
    no_jobs = [r.name for r in rows if not r.planned]
    not_run = [r.name for r in rows if not r.ran and not r.unavailable and r.planned]
    out = [f"## The plan against the run at `{run}`", "",
           "Per result, the jobs of the plan that the run holds a record of; the plan's "
           "CPU and the records' CPU of the jobs that had an estimate (ratio: measured / "
           "estimated), and apart the jobs the plan had no estimate for. A timed-out job "
           "counts with the CPU it used.", "",
           tabulate(table, headers=["result", "planned", "ran", "timed out", "estimated CPU",
                                    "measured CPU", "ratio", "ran without estimate",
                                    "their CPU", "measured CPU, all"], tablefmt="github"),
           ""]
    if no_data:
        out += [f"Their data was not available (records `unavailable`): "
                f"{', '.join(no_data)}.", ""]
    if no_jobs:
        out += [f"No jobs of their own (built from other results' records): "
                f"{', '.join(no_jobs)}.", ""]
    if not_run:
        out += [f"Not in the run: {', '.join(not_run)}.", ""]
    return "\n".join(out)
