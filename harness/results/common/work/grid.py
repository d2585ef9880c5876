"""A grid of data sets x methods: the work of one cell of Tables 2.1 and 3.2 (the
cells, their keys and parameters: :mod:`harness.results.common.declare.grid_profile`).

A *cell* is one (data set, method[, solver]) of a table whose profile section
(``results.<table>``, schema ``$defs/embedding_table`` or ``classification_table`` of
``config/schema.yaml``) lists ``datasets`` and ``methods`` (``all``: every plugin of
the table's task, in the thesis table's row order, less ``exclude_methods``). Its job
key is ``DATASET/METHOD[/SOLVER]`` (job id ``table_3_2/swiss_roll/isomap``). Its
parameters are resolved here, once, from the profile and the thesis' reference CSVs;
its work loads the data set and runs the table's task (:data:`harness.tasks.TASKS`)
once per run (seeded), in the engine's child process. A table module binds these to
its :class:`~harness.results.common.declare.table_spec.TableSpec` with
:class:`harness.results.common.write.table_result.TableResult`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.tasks import TASKS

__all__ = ["work", "sources"]


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


def work(params: dict, run: Callable | None = None) -> dict:
    """A cell's work in the child process: load the data set, run the task once per
    run (seed ``seed + run``); returns the record body. Expected failures (data
    unavailable offline, bad input, a disconnected graph, solver trouble) and a
    method's skip become the body's status and reason.

    ``run(method_cls, dataset, params, seed)`` replaces the method's task for a table
    that measures more per run (``harness.results.lecture_are.work``)."""
    dataset_cls = registry.get_dataset(params["dataset"])
    method_cls = registry.get_method(params["method"])
    task = run or TASKS[method_cls.task]
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
        skip, why = method_cls.skip(dataset, params.get("solver"))
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


def sources(params: dict) -> list:
    """The plugins a cell finds by name at run time: the method and the data set (this
    module, the work, counts already: :func:`harness.jobs.job_sources`)."""
    return [registry.get_method(params["method"]), registry.get_dataset(params["dataset"])]

