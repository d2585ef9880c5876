"""Run one job of a thesis result in a child process and write its record.

The one runner of every job (:mod:`harness.jobs`): the result module's
``work(params)`` runs in a child process (:mod:`harness.timelimit`) so that its
limits hold whatever the code does (BLAS, ARPACK and solvers do not return to
Python to be interrupted), so that peak memory is that of the job alone, and so that
the parent can check what the child hands back. The limits: a budget of **CPU
seconds** of the job's process (:func:`harness.jobs.cpu_budget`: the same whatever
else the machine runs) and a generous wall cap for runaways
(:func:`harness.jobs.wall_cap`). The child's wall and CPU seconds, peak memory, CPU
budget and wall cap are added to the body as ``timing`` (CPU seconds and peak memory
include the programs the work ran and waited for, e.g. CSDP; such a program has its
own CPU limit, :mod:`harness.solvers.backends.csdp`); the module's optional
``finish(params, body)`` then runs in the parent (the solver table recomputes its
certificate there). The record -- ``job``, ``result``, ``key``, ``profile``, the
resolved ``params`` and their hash, the ``provenance`` and the body -- is written
atomically to ``records/RESULT/KEY.json``.

Expected failures become records with a status and a reason: the module's own
(data unavailable offline, bad input, a solver that failed), a limit (``timeout``,
with ``limit`` ``"cpu"`` or ``"wall"`` and a reason naming it) and a child process that died, e.g. killed for memory (``failed``).
An exception raised in the child is a bug of the harness or a plugin: the job fails
loudly (:class:`JobCrashed`) and writes nothing.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path

from harness.jobs import (
    Job, check_job, cpu_budget, job_params, params_hash, record_path, wall_cap,
)
from harness.provenance import provenance
from harness.records import write_json_atomic
from harness.result_registry import hook, load_module
from harness.timelimit import (ChildCrashed, TimeLimitExceeded, call_with_time_limit,
                               cpu_clock_with_children, wall_cap_for)

__all__ = ["IDENTITY_FIELDS", "JobCrashed", "run_job", "job_record", "run_limited", "usage_since",
           "died_reason", "limit_reason"]


#: the fields of a record the runner sets; a job's body may not carry them
IDENTITY_FIELDS = ("job", "result", "key", "profile", "params", "params_hash", "provenance")


class JobCrashed(RuntimeError):
    """The job's work raised an unexpected exception (a harness or plugin bug)."""


def died_reason(exit_code: int, process: str = "job's") -> str:
    """Why a ``failed`` record has no result: the ``process`` died with ``exit_code``."""
    return (f"the {process} process died (exit code {exit_code}; -9 is usually the "
            f"out-of-memory killer)")


def limit_reason(exc: TimeLimitExceeded) -> str:
    """What a ``timeout`` record says: which limit fired, with both readings."""
    cpu = "unknown" if exc.cpu_seconds is None else f"{exc.cpu_seconds:.1f}"
    if exc.kind == "cpu":
        return (f"CPU budget of {exc.limit:g} s reached (time_limit_seconds; "
                f"{exc.elapsed:.0f} s wall)")
    return (f"wall cap of {exc.limit:g} s reached: killed as a runaway after {cpu} "
            f"CPU-s of its budget of {exc.budget:g} (waiting, not computing)")


def usage_since(wall: float, cpu: float) -> dict:
    """Wall and CPU seconds since the readings ``wall = time.perf_counter()`` and
    ``cpu = cpu_clock_with_children()``, and the peak resident memory in MB of this process
    or of the largest child it waited for (in a child of :mod:`harness.timelimit`:
    the work's own peak; a child's peak is at least the forking process' size)."""
    peak_kb = max(resource.getrusage(who).ru_maxrss
                  for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return {
        "wall_seconds": time.perf_counter() - wall,
        "cpu_seconds": cpu_clock_with_children() - cpu,
        "peak_memory_mb": peak_kb / 1024,
    }


def _timed(fn, *args) -> dict:
    wall, cpu = time.perf_counter(), cpu_clock_with_children()
    body = fn(*args)
    body["timing"] = usage_since(wall, cpu)
    return body


def _module_work(module_name: str, module_file: str | None, params: dict) -> dict:
    """The child's work: the result's ``work(params)`` (its declaration is imported
    by name, or from its file when it came from ``$HARNESS_RESULT_DIRS``; then only
    its work module, :func:`harness.result_registry.work_module`)."""
    return hook(load_module(module_name, module_file), "work")(params)


def run_limited(fn, *args, limit: float, label: str, wall_cap: float | None = None) -> dict:
    """``fn(*args)``, which returns a record body, in a child process killed after
    ``limit`` CPU seconds or ``wall_cap`` wall seconds (default
    :func:`harness.timelimit.wall_cap_for` the budget); its ``timing`` (wall, CPU,
    peak memory, ``cpu_budget_seconds``, ``wall_cap_seconds``) is added. ``fn`` and
    ``args`` must pickle (a module-level function).

    Returns
    -------
    dict
        ``fn``'s body; a ``timeout`` body when a limit was hit (``limit``: ``"cpu"``
        or ``"wall"``; its ``timing`` has both clocks' readings); a ``failed`` body
        when the process died (e.g. killed for memory).

    Raises
    ------
    JobCrashed
        ``fn`` raised; ``label`` (e.g. ``"job fig_3_28/k7"``) names the work.
    """
    cap = wall_cap_for(limit) if wall_cap is None else float(wall_cap)
    try:
        body = call_with_time_limit(_timed, fn, *args, limit=limit, wall_cap=cap)
    except TimeLimitExceeded as exc:
        return {"status": "timeout", "limit": exc.kind, "reason": limit_reason(exc),
                "timing": exc.timing()}
    except ChildCrashed as exc:
        if exc.exitcode is None:
            raise JobCrashed(f"{label} crashed:\n{exc}") from None
        return {"status": "failed", "exit_code": exc.exitcode,
                "reason": died_reason(exc.exitcode)}
    body["timing"].update(cpu_budget_seconds=float(limit), wall_cap_seconds=cap)
    return body


def job_record(config: dict, job: Job) -> dict:
    """Run one job of a validated profile and return its record, without writing it
    (see :func:`run_job`; the asv suite caches these).

    Raises
    ------
    harness.errors.ConfigError
        The profile does not run the job's result, or not that key
        (:func:`harness.jobs.check_job`, naming the keys it does).
    JobCrashed
        An unexpected exception in the work.
    """
    module = job.module
    params = job_params(config, job)  # first: a malformed key's own message
    check_job(config, job)
    body = run_limited(_module_work, module.__name__, getattr(module, "__file__", None),
                       params, limit=cpu_budget(params), wall_cap=wall_cap(params, config),
                       label=f"job {job.id}")
    if finish := hook(module, "finish"):
        body = finish(params, body)
    if clash := sorted(set(body) & set(IDENTITY_FIELDS)):
        raise JobCrashed(f"job {job.id}: its work returned {', '.join(map(repr, clash))}, "
                         f"which would overwrite the record's own field(s) of that name "
                         f"({', '.join(IDENTITY_FIELDS)}); rename them in "
                         f"{module.__name__}'s work")
    return {"job": job.id, "result": job.result, "key": job.key,
            "profile": config["profile"], "params": params,
            "params_hash": params_hash(params), "provenance": provenance(), **body}


def run_job(config: dict, job: Job) -> Path:
    """Run one job of a validated profile and write its record; return its path.
    Nothing is written when it crashes (:class:`JobCrashed`) or is not one of the
    profile's jobs (:class:`harness.errors.ConfigError`, see :func:`job_record`).

    A body's ``certificate_arrays`` (an MVU certificate,
    :func:`harness.problems.verify.certificate_arrays`) is written beside the record
    as ``KEY.certificate.npz`` (:func:`harness.problems.verify.save_certificate`)
    and the record names it in ``certificate_file``: the JSON stays small and
    ``harness verify`` re-checks the certificate from the file."""
    path = record_path(config, job)
    record = job_record(config, job)
    arrays = record.pop("certificate_arrays", None)
    if arrays is not None:
        from harness.problems.verify import certificate_path, save_certificate

        record["certificate_file"] = save_certificate(certificate_path(path), arrays).name
    return write_json_atomic(path, record)
