"""What one job costs beyond its work: CPU and wall seconds of ``harness job ID``
run by itself and through a job server (:mod:`harness.jobserver`), every process
counted.

    python scripts/job_overhead.py                       # fig_2_20/trial0, 5 runs each
    python scripts/job_overhead.py table_3_2/swiss_roll/pca --runs 10

Run from the checkout; the job's record is written into the quick profile's results
(rerunning a job that exists already). CPU seconds are those of the command and of
every process it starts, grandchildren included (this process makes itself their
subreaper); with a server, the server's CPU for the command (its children's) is added,
read from ``/proc``. Linux only.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import tempfile
import time

from harness import jobserver
from harness.jobserver.server import start_server, stop_server

PR_SET_CHILD_SUBREAPER = 36


def _reap_all() -> None:
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def _proc_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and of its children it has waited for (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(job: str, runs: int, env: dict, server_pid: int | None = None):
    """Mean (CPU seconds, wall seconds) of ``runs`` runs of ``harness job JOB``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before = _proc_cpu(server_pid) if server_pid else 0.0
    start = time.perf_counter()
    for _ in range(runs):
        subprocess.run([sys.executable, "-m", "harness", "job", job], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if server_pid is None:
            _reap_all()  # orphans (a forkserver) re-parented here
    wall = (time.perf_counter() - start) / runs
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    if server_pid:
        time.sleep(1.5)  # the server reaps its last child within a second
        cpu += _proc_cpu(server_pid) - server_before
    return cpu / runs, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("job", nargs="?", default="fig_2_20/trial0")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    env = {k: v for k, v in os.environ.items() if k != jobserver.SOCKET_ENV}
    cpu, wall = measure(args.job, args.runs, env)
    print(f"{args.job}, its own process: {cpu:.2f} CPU-s, {wall:.2f} s wall per job "
          f"({args.runs} runs)")
    path = os.path.join(tempfile.mkdtemp(), "jobs.sock")
    server = start_server(path, watch_pid=os.getpid())
    try:
        cpu, wall = measure(args.job, args.runs, {**env, jobserver.SOCKET_ENV: path},
                            server.pid)
    finally:
        stop_server(path, server)
    print(f"{args.job}, served:           {cpu:.2f} CPU-s, {wall:.2f} s wall per job "
          f"({args.runs} runs)")


if __name__ == "__main__":
    main()
