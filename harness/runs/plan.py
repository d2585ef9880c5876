"""``harness plan``: what a profile's run will cost, before it runs.

Per result: its jobs (as Snakemake expands them: :func:`harness.jobs.result_jobs`
and :func:`harness.jobs.job_params`, what :mod:`harness.workflow` gives the
Snakefile), and per job its CPU seconds and peak memory:

Records may come from several earlier runs (``--records`` repeated, e.g. the quick
and the full reference runs): the first run holding a usable record of the job gives
its measured cost, and the cost models are fitted on the ``ok`` records of all of
them, so a job measured at two sizes (10000 digits in the quick run, 60000 in the
full one) gives its size's exponent.

- ``measured``: an earlier run's record of the same job id with the same params
  (time limits and descriptive ``*_source`` texts aside: they change no work) gives
  them; a record that timed out gives a lower bound (``measured (timeout)``); a
  failed or skipped record is what will happen again; an ``unavailable`` one
  measured nothing (its data was missing) and is not used;
- ``estimate``: else the result's cost models (:mod:`harness.runs.costmodel`, one
  for CPU, one for memory above the run's smallest peak, the interpreter and its
  libraries), fitted on the result's measured ``ok`` records (a size's CPU exponent
  where the records tell it, else the result's declared ``COST_EXPONENTS``, from its
  complexity, e.g. 2 in the training set's size for an all-pairs search): an ``ok`` record of
  the same id at other sizes, else the measured job of its kind nearest in size, is
  moved to the job's sizes by the model's exponents (a peak memory measured at a
  smaller size is carried unscaled where its size has no exponent: a lower bound);
- ``no estimate``: neither (a kind of job never measured, a size not in the
  params, a size that changed but whose exponent no measured jobs tell: carrying
  the CPU of 10000 digits to 60000 unscaled would be a guess 36 times too low).

Then the total CPU, the wall on N cores (:func:`harness.runs.costmodel.lpt_makespan`
of the estimated jobs, each at most its CPU budget, where it would be killed; it
ignores dependencies and the write steps, and a job of a result that declares
``EXCLUSIVE`` runs alone, its CPU added) and the jobs whose CPU
exceeds their budget (:func:`harness.jobs.cpu_budget`: the profile's time limit plus
grace) or whose memory exceeds the machine's.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from harness.jobs import cpu_budget, job_params, records_dir, result_jobs
from harness.records import read_record
from harness.result_registry import get_result
from harness.runs.costmodel import (
    LOOP_KEYS, PowerModel, fit_power, kind_of, lpt_makespan, size_features,
)
from harness.runs.records_csv import record_paths, records_from_csv

__all__ = ["JobPlan", "ResultPlan", "Plan", "plan_profile", "render_table", "machine_memory_mb",
           "same_work", "read_run_records", "timing", "format_seconds"]

_NO_WORK = re.compile(r"time_limit|grace_seconds|_source$")
#: the CPU exponents are fitted on jobs of at least this many CPU seconds when they
#: tell one (:func:`harness.runs.costmodel.fit_power`)
SLOPE_FROM_SECONDS = 1.0


def machine_memory_mb() -> float:
    """This machine's physical memory in MB."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 20


def _work(params):
    if isinstance(params, dict):
        return {k: _work(v) for k, v in params.items() if not _NO_WORK.search(k)}
    if isinstance(params, list):
        return [_work(v) for v in params]
    return params


def same_work(a: dict, b: dict) -> bool:
    """Whether two jobs' params ask for the same work: equal but for time limits,
    grace and ``*_source`` texts."""
    return _work(a) == _work(b)


@dataclasses.dataclass
class JobPlan:
    """One job: its estimated CPU seconds and peak MB (None: no estimate), how they
    were obtained, its CPU budget and flags."""

    job: str
    basis: str  # "measured", "measured (timeout)", "estimate", "no estimate"
    cpu_seconds: float | None
    peak_memory_mb: float | None
    budget_seconds: float
    exclusive: bool = False
    note: str = ""
    over_budget: bool = False
    over_memory: bool = False

    @property
    def scheduled_seconds(self) -> float | None:
        """What the job will cost the run: its CPU, at most its budget (a job over its
        budget is killed there)."""
        if self.cpu_seconds is None:
            return None
        return min(self.cpu_seconds, self.budget_seconds)


@dataclasses.dataclass
class ResultPlan:
    """The jobs of one result and its fitted models (None: nothing to fit)."""

    name: str
    jobs: list[JobPlan]
    cpu_model: PowerModel | None
    memory_model: PowerModel | None

    def count(self, basis: str) -> int:
        """Jobs whose basis starts with ``basis`` (``"measured"`` counts timeouts)."""
        return sum(j.basis.startswith(basis) for j in self.jobs)

    @property
    def cpu_seconds(self) -> float:
        """CPU of the jobs with an estimate, each at most its budget."""
        return sum(j.scheduled_seconds or 0.0 for j in self.jobs)


@dataclasses.dataclass
class Plan:
    """The plan of a profile on ``cores`` cores with ``memory_mb`` of memory."""

    profile: str
    records: str  # the folders, joined by ", "
    n_records: int
    cores: int
    memory_mb: float
    results: list[ResultPlan]

    @property
    def jobs(self) -> list[JobPlan]:
        """Every job of every result."""
        return [j for r in self.results for j in r.jobs]

    @property
    def cpu_seconds(self) -> float:
        """CPU of every job with an estimate, each at most its budget."""
        return sum(r.cpu_seconds for r in self.results)

    @property
    def wall_seconds(self) -> float:
        """LPT makespan of the estimated non-exclusive jobs on :attr:`cores`, plus the
        exclusive jobs one after the other (dependencies ignored)."""
        timed = [j for j in self.jobs if j.scheduled_seconds is not None]
        shared = [j.scheduled_seconds for j in timed if not j.exclusive]
        return lpt_makespan(shared, self.cores) + sum(j.scheduled_seconds for j in timed
                                                      if j.exclusive)

    def as_dict(self) -> dict:
        """The plan as plain data (``harness plan --json``)."""
        return {
            "profile": self.profile, "records": self.records, "n_records": self.n_records,
            "cores": self.cores, "memory_mb": self.memory_mb,
            "cpu_seconds": self.cpu_seconds, "wall_seconds": self.wall_seconds,
            "wall_note": "longest-processing-time-first list scheduling of the jobs with an "
                         "estimate, each at most its CPU budget, ignoring dependencies and "
                         "write steps; exclusive jobs run alone",
            "results": [{
                "result": r.name, "jobs": len(r.jobs), "measured": r.count("measured"),
                "estimated": r.count("estimate"), "no_estimate": r.count("no estimate"),
                "cpu_seconds": r.cpu_seconds,
                "cpu_model": r.cpu_model.describe() if r.cpu_model else None,
                "cpu_exponents": r.cpu_model.exponents if r.cpu_model else {},
                "cpu_kind_exponents": r.cpu_model.kind_exponents if r.cpu_model else {},
                "memory_model": r.memory_model.describe() if r.memory_model else None,
                "job_plans": [dataclasses.asdict(j) for j in r.jobs],
            } for r in self.results],
        }


def read_run_records(folder: Path) -> dict[str, dict]:
    """The records of a run's ``records/`` folder, or those a reference run's
    ``records.csv`` summarises (``harness export-run``)."""
    if (folder / "records.csv").is_file():  # a reference run, not a records/ folder
        return records_from_csv(folder / "records.csv")
    found = {}
    for path in record_paths(folder):
        record = read_record(path)
        job = record.get("job") or str(path.relative_to(folder).with_suffix(""))
        found[job] = record
    return found


def timing(record: dict, key: str) -> float | None:
    """A record's ``timing[key]`` (CPU or wall seconds, peak MB), None where absent."""
    value = (record.get("timing") or {}).get(key)
    return float(value) if isinstance(value, (int, float)) and value == value else None


def _models(name: str, records: list[dict[str, dict]], floor: float):
    """The CPU and memory models of a result from its ``ok`` records in every run;
    the CPU model's priors are the repetition counts' 1 and the result's declared
    ``COST_EXPONENTS`` (used where the measured jobs do not tell the exponent)."""
    mine = [r for run in records for job, r in run.items()
            if job.partition("/")[0] == name and r.get("status") == "ok" and r.get("params")]
    kinds = [kind_of(r["job"].partition("/")[2]) for r in mine]
    features = [size_features(r["params"]) for r in mine]
    priors = dict.fromkeys(LOOP_KEYS, 1.0) | dict(
        getattr(get_result(name), "COST_EXPONENTS", {}))
    cpu = fit_power(kinds, features, [timing(r, "cpu_seconds") or 0.0 for r in mine],
                    priors=priors, slope_from=SLOPE_FROM_SECONDS)
    above = [max((timing(r, "peak_memory_mb") or 0.0) - floor, 0.0) for r in mine]
    # a repetition reuses the memory of the one before: peak memory does not grow with it
    memory = fit_power(kinds, features, above, priors=dict.fromkeys(LOOP_KEYS, 0.0))
    return cpu, memory


def _estimate(params: dict, anchor: dict | None, model: PowerModel | None, key: str,
              value: float | None, unscaled: bool = False) -> tuple[float | None, str]:
    """The same job's measured ``value`` (its ``ok`` record ``anchor`` at other sizes)
    moved to the job's sizes, else the model's estimate for its kind and sizes
    (``unscaled``: sizes without an exponent carried unscaled, :meth:`PowerModel.scale`)."""
    if model is None:
        return None, "no measured ok job of this result"
    features, kind = size_features(params), kind_of(key)
    if anchor is not None and value is not None:
        return model.scale(value, size_features(anchor.get("params") or {}), features,
                           unscaled, kind)
    return model.predict(kind, features, unscaled)


def _usable(runs: list[dict[str, dict]], job: str, params: dict) -> dict | None:
    """The record of ``job`` that measured its work: the first run's usable record
    with the same work, else the first ``ok`` one (an anchor at other sizes), else the
    first usable one, else None. An ``unavailable`` record measured nothing (its data was not on that
    machine); a failed or skipped one is what will happen again."""
    usable = [run[job] for run in runs
              if job in run and run[job].get("status") != "unavailable"]
    same = [r for r in usable if same_work(r.get("params") or {}, params)]
    ok = [r for r in usable if r.get("status") == "ok"]
    return (same or ok or usable or [None])[0]


def plan_profile(config: dict, records: str | Path | list | None = None,
                 cores: int | None = None, memory_mb: float | None = None) -> Plan:
    """The plan of a validated profile from an earlier run's records.

    Parameters
    ----------
    config : dict
        A validated profile.
    records : path or list of paths, optional
        The earlier run's ``records/``, or a reference run (its ``records.csv``,
        ``harness export-run``), or several of them (the first holding a job's record
        measures it; the models are fitted on all); default: the profile's own
        ``records/``.
    cores : int, optional
        Cores of the run (default: this machine's).
    memory_mb : float, optional
        The machine's memory (default: this machine's).

    Raises
    ------
    FileNotFoundError
        ``records`` is not a folder.
    ValueError
        ``cores`` below 1.
    """
    if isinstance(records, (list, tuple)):
        folders = [Path(r) for r in records] or [records_dir(config)]
    else:
        folders = [Path(records) if records else records_dir(config)]
    for folder in folders:
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder} is not a folder of records (records/ of a "
                                    f"run, e.g. results/quick/records, or a reference run, "
                                    f"e.g. results/reference_runs/quick)")
    cores = cores or os.cpu_count() or 1
    if cores < 1:
        raise ValueError(f"--cores must be at least 1, got {cores}")
    memory_mb = memory_mb or machine_memory_mb()
    runs = [read_run_records(folder) for folder in folders]
    peaks = [p for run in runs for r in run.values() if (p := timing(r, "peak_memory_mb"))]
    floor = min(peaks) if peaks else 0.0
    results = []
    for name in config["results"]:
        cpu_model, memory_model = _models(name, runs, floor)
        exclusive = bool(getattr(get_result(name), "EXCLUSIVE", False))
        plans = []
        for job in result_jobs(config, name):
            params = job_params(config, job)
            record = _usable(runs, job.id, params)
            budget = cpu_budget(params)
            usable = record is not None
            if usable and same_work(record.get("params") or {}, params):
                timeout = record.get("status") == "timeout"
                plan = JobPlan(job.id, "measured (timeout)" if timeout else "measured",
                               timing(record, "cpu_seconds"),
                               timing(record, "peak_memory_mb"), budget, exclusive,
                               note=f"status {record.get('status')}" if record.get("status")
                               != "ok" else "")
            else:
                anchor = record if usable and record.get("status") == "ok" else None
                cpu, why = _estimate(params, anchor, cpu_model, job.key,
                                     timing(anchor, "cpu_seconds") if anchor else None)
                above = (max((timing(anchor, "peak_memory_mb") or floor) - floor, 0.0)
                         if anchor else None)
                # a peak measured at a smaller size is a lower bound of a larger job's
                # (enough to flag one over the machine's memory): carried unscaled
                mem, _ = _estimate(params, anchor, memory_model, job.key, above, unscaled=True)
                if record is None and any(job.id in run for run in runs):
                    why = f"{why}; its earlier record: unavailable".lstrip("; ")
                plan = JobPlan(job.id, "estimate" if cpu is not None else "no estimate",
                               cpu, None if mem is None or cpu is None else floor + mem,
                               budget, exclusive, note=why)
            plan.over_budget = plan.cpu_seconds is not None and plan.cpu_seconds > budget
            plan.over_memory = (plan.peak_memory_mb is not None
                                and plan.peak_memory_mb > memory_mb)
            plans.append(plan)
        results.append(ResultPlan(name, plans, cpu_model, memory_model))
    return Plan(config["profile"], ", ".join(map(str, folders)), sum(map(len, runs)), cores,
                memory_mb, results)


def format_seconds(seconds: float | None) -> str:
    """CPU or wall seconds for a table: s, min or h; ``-`` for None."""
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"


def _mb(mb: float | None) -> str:
    if mb is None:
        return "-"
    return f"{mb:.0f} MB" if mb < 10240 else f"{mb / 1024:.1f} GB"


def render_table(plan: Plan, jobs: bool = False) -> str:
    """The plan as Markdown: one row per result, the totals, the flagged jobs (and
    every job with ``jobs``)."""
    from tabulate import tabulate

    rows = []
    for r in plan.results:
        timed = [j for j in r.jobs if j.cpu_seconds is not None]
        rows.append([r.name, len(r.jobs), r.count("measured"), r.count("estimate"),
                     r.count("no estimate"), format_seconds(r.cpu_seconds if timed else None),
                     format_seconds(max((j.cpu_seconds for j in timed), default=None)),
                     _mb(max((j.peak_memory_mb for j in timed if j.peak_memory_mb),
                             default=None)),
                     sum(j.over_budget for j in r.jobs), sum(j.over_memory for j in r.jobs),
                     r.cpu_model.describe() if r.cpu_model else "no model"])
    every = plan.jobs
    missing = sum(j.cpu_seconds is None for j in every)
    rows.append(["total", len(every), sum(j.basis.startswith("measured") for j in every),
                 sum(j.basis == "estimate" for j in every), missing,
                 format_seconds(plan.cpu_seconds), "", "", sum(j.over_budget for j in every),
                 sum(j.over_memory for j in every), ""])
    out = [f"# Plan of profile `{plan.profile}`: {len(every)} jobs on {plan.cores} cores, "
           f"{_mb(plan.memory_mb)} of memory", "",
           f"Costs from {plan.n_records} records in `{plan.records}`: measured (same job, same "
           f"params), estimate (the result's power-law model of CPU against the jobs' sizes, "
           f"fitted on its measured jobs; `^1*`: a repetition count, CPU proportional to "
           f"it), or no estimate.", "",
           tabulate(rows, headers=["result", "jobs", "measured", "estimate", "no estimate",
                                   "CPU", "max CPU/job", "max memory", "over budget",
                                   "over memory", "CPU model"], tablefmt="github"), "",
           f"**Total CPU {format_seconds(plan.cpu_seconds)} over {len(every) - missing} jobs with an "
           f"estimate ({missing} without); wall on {plan.cores} cores about "
           f"{format_seconds(plan.wall_seconds)}** (longest-processing-time-first list scheduling of "
           f"those jobs; it ignores dependencies and the write steps, and runs the jobs of "
           f"exclusive results alone). A job over its CPU budget counts with its budget: "
           f"it is killed there.", ""]
    flagged = [j for j in every if j.over_budget or j.over_memory]
    if flagged:
        out += ["## Jobs over their CPU budget or the machine's memory", ""]
        out += [f"- `{j.job}` ({j.basis}): CPU {format_seconds(j.cpu_seconds)} of a budget of "
                f"{format_seconds(j.budget_seconds)}, memory {_mb(j.peak_memory_mb)}"
                + (" — OVER BUDGET" if j.over_budget else "")
                + (" — OVER MEMORY" if j.over_memory else "")
                + (f"; {j.note}" if j.note else "") for j in flagged]
        out.append("")
    if jobs:
        out += ["## Jobs", "", tabulate(
            [[j.job, j.basis, format_seconds(j.cpu_seconds), _mb(j.peak_memory_mb),
              format_seconds(j.budget_seconds), j.note] for j in every],
            headers=["job", "basis", "CPU", "memory", "budget", "note"], tablefmt="github"), ""]
    return "\n".join(out)
