"""The child's work of a job that dispatches on its ``kind``: one seeded generator per
job key, the profile's BLAS threads, the body's CPU time (job side: imported by
``work.py`` modules)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from threadpoolctl import threadpool_limits

from harness.provenance import blas_info
from harness.timelimit import cpu_clock

__all__ = ["keyed_work"]


def keyed_work(params: dict, kinds: Mapping[str, Callable[[dict, np.random.Generator], dict]]
               ) -> dict:
    """Run ``kinds[params["kind"]](params, rng)`` with ``rng`` seeded by the profile's
    seed and the job's key (``params["point"]`` after the result's name), under
    ``params["blas_threads"]`` BLAS threads; return its body as an ``ok`` record body
    with ``cpu_seconds`` and the BLAS the run used."""
    key = params["point"].split("/", 1)[1]
    rng = np.random.default_rng([params["seed"], *key.encode()])
    with threadpool_limits(limits=params["blas_threads"]):
        start = cpu_clock()
        body = kinds[params["kind"]](params, rng)
    return {"status": "ok", "reason": "", **body,
            "cpu_seconds": cpu_clock() - start, "blas_during_run": blas_info()}
