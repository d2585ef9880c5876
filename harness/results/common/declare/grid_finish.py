"""A grid cell's ``finish`` (the declarations' hook, run in the parent after the job's
child returned): the cell's identity beside its body. A module of its own with no
imports, so that the parent of a grid job imports nothing of the work's code and its
edit reruns exactly the grid's cells (it joins their sources,
:func:`harness.jobs.job_sources`)."""

from __future__ import annotations

__all__ = ["finish"]


def finish(params: dict, body: dict) -> dict:
    """The cell's identity (table, data set, method, solver) beside its body; a
    time-out or a dead process has no ``runs``."""
    return {"table": params["table"], "dataset": params["dataset"],
            "method": params["method"], "solver": params.get("solver"),
            "runs": [], **body}
