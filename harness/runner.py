"""Run one cell: load the data set, run the task once per run (seeded), write the
record.

The work runs in a child process (harness.timelimit) so that a hard time limit can be enforced
whatever the method does (BLAS, ARPACK and solvers do not return to Python to be
interrupted), and so that peak memory is that of the cell alone. Expected failures
(:class:`harness.plugin.ExpectedFailure`: data unavailable offline, bad input, a
disconnected graph, solver trouble) and time-outs become records with a reason; any
other exception is a harness bug and fails the job loudly, writing nothing.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits

from harness import registry
from harness.config import Cell, cell_params, params_hash
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info, provenance
from harness.records import record_path, write_json_atomic
from harness.tasks import TASKS
from harness.timelimit import ChildCrashed, TimeLimitExceeded, call_with_time_limit

__all__ = ["run_cell", "run_limited", "CellCrashed", "usage_since"]


class CellCrashed(RuntimeError):
    """The cell failed with an unexpected exception (a harness or plugin bug)."""


def _summarise(runs: list[dict]) -> dict:
    import numpy as np

    keys = sorted({k for run in runs for k in run["measures"]})
    summary = {}
    for key in keys:
        values = np.array([run["measures"][key] for run in runs], dtype=float)
        summary[key] = {
            "mean": float(values.mean()),
            "std": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
            "n": int(len(values)),
        }
    return summary


def _work(cell: Cell, params: dict) -> dict:
    """Everything that happens inside the child; returns the record's body."""
    dataset_cls = registry.get_dataset(cell.dataset)
    method_cls = registry.get_method(cell.method)
    task = TASKS[method_cls.task]
    body: dict[str, Any] = {"status": "ok", "reason": "", "runs": []}
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            dataset = dataset_cls().load(**params["dataset_params"])
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "runs": [],
                    "error_type": type(exc).__name__}
        body["dataset_meta"] = dataset.meta
        body["n_samples"] = dataset.n_samples
        body["n_features"] = int(dataset.X.shape[1])
        skip, why = method_cls.skip(dataset, cell.solver)
        if skip:
            return {**body, "status": "skipped", "reason": why}
        for run in range(params["n_runs"]):
            seed = params["seed"] + run
            try:
                result = task(method_cls, dataset, params, seed)
            except ExpectedFailure as exc:
                return {**body, "status": exc.status, "reason": str(exc),
                        "error_type": type(exc).__name__}
            body["runs"].append({"seed": seed, **result})
        body["summary"] = _summarise(body["runs"])
        body["blas_during_run"] = blas_info()
    return body


def usage_since(wall: float, cpu: float) -> dict:
    """Wall and CPU seconds since the readings ``wall = time.perf_counter()`` and
    ``cpu = time.process_time()``, and this process' peak resident memory in MB
    (in a child of :mod:`harness.timelimit`: the work's own peak)."""
    return {
        "wall_seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
        "peak_memory_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _timed(fn: Callable[..., dict], *args) -> dict:
    wall, cpu = time.perf_counter(), time.process_time()
    body = fn(*args)
    body["timing"] = usage_since(wall, cpu)
    return body


def run_limited(fn: Callable[..., dict], *args, limit: float, label: str) -> dict:
    """``fn(*args)``, which returns a record body, in a child process with a hard
    time limit; its ``timing`` (wall, CPU, peak memory) is added.

    Shared by the cells and the figure points (:mod:`harness.experiments`). ``fn``
    and ``args`` must pickle (module-level function).

    Returns
    -------
    dict
        ``fn``'s body, or a ``timeout`` body with the reason when the limit was hit.

    Raises
    ------
    CellCrashed
        ``fn`` raised an unexpected exception or its process died; ``label`` (e.g.
        ``"cell t3_2/swiss_roll/pca"``) names the work in the message.
    """
    try:
        return call_with_time_limit(_timed, fn, *args, limit=limit)
    except TimeLimitExceeded as exc:
        return {
            "status": "timeout",
            "reason": f"time limit of {limit:g} s reached (time_limit_seconds)",
            "runs": [],
            "timing": {"wall_seconds": exc.elapsed},
        }
    except ChildCrashed as exc:
        raise CellCrashed(f"{label} crashed:\n{exc}") from None


def _run_with_limit(cell: Cell, params: dict, limit: float) -> dict:
    return run_limited(_work, cell, params, limit=limit, label=f"cell {cell.id}")


def run_cell(config: dict, cell: Cell) -> Path:
    """Run one cell of a validated profile and write its record; return its path."""
    params = cell_params(config, cell)
    body = _run_with_limit(cell, params, float(params["time_limit_seconds"]))
    record = {
        "cell": cell.id,
        "table": cell.table,
        "dataset": cell.dataset,
        "method": cell.method,
        "solver": cell.solver,
        "profile": config["profile"],
        "params": params,
        "params_hash": params_hash(params),
        "provenance": provenance(),
        **body,
    }
    path = record_path(config["results_dir"], config["profile"], cell.id)
    return write_json_atomic(path, record)
