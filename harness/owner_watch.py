"""A job of a local Snakemake run ends when that run is gone: the workflow names its
process in :data:`OWNER_ENV`, and ``harness job`` watches it (:func:`watch_owner`)."""

from __future__ import annotations

import contextlib
import os

__all__ = ["OWNER_ENV", "watch_owner"]


#: the pid of the local Snakemake run a job belongs to (set by the workflow for local
#: executors only: on a cluster node that pid means nothing)
OWNER_ENV = "HARNESS_OWNER_PID"


def watch_owner() -> None:
    """When :data:`OWNER_ENV` names a process, end this job with its work as soon as
    that process is gone (issue 53: a ``kill -9`` of Snakemake left a job running in
    its own process, which wrote its record later). Nothing is written: records are
    written atomically at the end of the job."""
    import threading
    import time

    import psutil

    owner = os.environ.get(OWNER_ENV, "")
    if not owner.isdigit():
        return

    def watch():
        while psutil.pid_exists(int(owner)):
            time.sleep(0.5)
        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                child.kill()
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
