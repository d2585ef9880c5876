"""Run the ``csdp`` program under a CPU budget and a wall cap, and read what it says.

:func:`run_csdp` starts ``csdp problem.dat-s solution.txt`` in a working directory
(where CSDP also reads ``param.csdp``), sets the kernel's ``RLIMIT_CPU`` on it (the
budget rounded up to whole seconds, SIGKILL 5 s later, no core file: CSDP 6.2 as
Debian builds it does not catch SIGXCPU, so it dies at once, without an iterate),
kills it at the wall cap if it waits instead of computing
(:func:`harness.timelimit.wall_cap_for` is the usual cap), and gives CSDP's BLAS the
calling process' thread count (threadpoolctl) through the usual environment
variables. CSDP links the system's ``libblas.so.3``, on Debian the reference BLAS
unless another is selected (``update-alternatives``); ``blas_dir`` puts a directory
holding another ``libblas.so.3`` / ``liblapack.so.3`` first on the loader's path
(:data:`OPENBLAS_DIR`, Debian's ``libopenblas0-pthread``), and the run records the
BLAS the process really mapped (``/proc/PID/maps``). The outcome (:class:`CSDPRun`)
holds the exit status, the log, CSDP's own CPU seconds (its rusage), its peak memory
(sampled from ``/proc``) and which limit, if any, ended it; :meth:`CSDPRun.facts`
reads CSDP's report from the log. Nothing here judges the answer:
:mod:`harness.solvers.backends.csdp` does.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import resource
import signal
import subprocess
import time
from pathlib import Path

__all__ = ["CSDPRun", "RETURN_CODES", "OPENBLAS_DIR", "run_csdp", "openblas_dir"]

#: Debian's OpenBLAS (package ``libopenblas0-pthread``): its ``libblas.so.3`` and
#: ``liblapack.so.3``, which CSDP loads in place of the reference BLAS when this
#: directory comes first on ``LD_LIBRARY_PATH``.
OPENBLAS_DIR = Path("/usr/lib/x86_64-linux-gnu/openblas-pthread")

#: CSDP's return codes (``easy_sdp`` and the program's exit code), then the exit
#: codes of errors that stopped it before or after solving.
RETURN_CODES = {
    0: "solved", 1: "primal infeasible", 2: "dual infeasible",
    3: "solved to near optimality (partial success)", 4: "maximum iterations reached",
    5: "stuck at edge of primal feasibility", 6: "stuck at edge of dual feasibility",
    7: "lack of progress", 8: "X, Z or O singular", 9: "NaN or Inf values encountered",
    10: "stopped by a signal", 200: "no problem file named",
    201: "could not open the problem file", 202: "could not open the initial solution",
    203: "could not write the problem file", 204: "could not write the solution file",
    205: "storage allocation failed", 206: "internal error",
}
POLL_MAX = 0.2  # seconds between looks at a running CSDP (at most)


@dataclasses.dataclass
class CSDPRun:
    """One run of the ``csdp`` program: exit status, log and resource use.

    Attributes
    ----------
    returncode : int
        CSDP's exit code, or ``-signal`` when a signal ended it.
    log : str
        What CSDP printed.
    wall_seconds, cpu_seconds : float
        Of the CSDP process (CPU: user + system of all its threads, its rusage).
    peak_memory_mb : float or None
        Its peak resident memory, sampled while it runs (at least every 0.2 s).
    limit : {None, "cpu", "wall"}
        The limit that ended it, if any.
    """

    returncode: int
    log: str
    wall_seconds: float
    cpu_seconds: float
    peak_memory_mb: float | None
    limit: str | None
    blas_library: str | None = None

    @property
    def meaning(self) -> str:
        """``"CODE: what it means"`` (:data:`RETURN_CODES`, or the signal's name)."""
        code = self.returncode
        if code < 0:
            try:
                return f"{code}: killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"{code}: killed by signal {-code}"
        return f"{code}: {RETURN_CODES.get(code, 'unknown exit code')}"

    def facts(self) -> dict:
        """CSDP's own report for a record (plain values; never used to judge):
        return code, iterations, objectives, infeasibilities, gaps, version."""
        out = {"return_code": self.returncode, "cpu_seconds": self.cpu_seconds,
               "process_wall_seconds": self.wall_seconds,
               "peak_memory_mb": self.peak_memory_mb, "blas_library": self.blas_library,
               "iterations": len(re.findall(r"^Iter:", self.log, flags=re.M))}
        version = re.search(r"^CSDP (\S+)", self.log, flags=re.M)
        out["version"] = version.group(1) if version else None
        for key, label in (("primal_objective", "Primal objective value"),
                           ("dual_objective", "Dual objective value"),
                           ("relative_primal_infeasibility", "Relative primal infeasibility"),
                           ("relative_dual_infeasibility", "Relative dual infeasibility"),
                           ("relative_gap", "Real Relative Gap"),
                           ("xz_relative_gap", "XZ Relative Gap")):
            found = re.search(rf"^{label}:\s*(\S+)", self.log, flags=re.M)
            out[key] = float(found.group(1)) if found else None
        return out


def _blas_threads() -> int:
    """This process' BLAS thread count (threadpoolctl; 1 when none is loaded)."""
    from threadpoolctl import threadpool_info

    counts = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    return max(1, min(counts)) if counts else 1


def openblas_dir() -> Path | None:
    """:data:`OPENBLAS_DIR` where it holds a ``libblas.so.3``, else None."""
    return OPENBLAS_DIR if (OPENBLAS_DIR / "libblas.so.3").is_file() else None


def _environment(threads: int, blas_dir: Path | None = None) -> dict:
    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                 "BLIS_NUM_THREADS", "GOTO_NUM_THREADS"):
        env[name] = str(threads)
    if blas_dir is not None:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [str(blas_dir)] + [p for p in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p])
    return env


def _mapped_blas(pid: int) -> str | None:
    """The BLAS library file a running process has mapped (``/proc/PID/maps``: the
    first ``libblas``/``libopenblas`` path, resolved), or None where unreadable."""
    try:
        with open(f"/proc/{pid}/maps", encoding="ascii", errors="replace") as maps:
            for line in maps:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                if "libblas" in path or "libopenblas" in path:
                    return os.path.realpath(path)
    except OSError:
        pass
    return None


def _die_with_parent() -> None:
    """In the child before ``exec``: ask Linux to kill it when the process that
    started it dies (``PR_SET_PDEATHSIG``), so that a killed job (SIGTERM, SIGKILL:
    no Python cleanup runs) leaves no CSDP computing until its CPU limit. A no-op
    where ``prctl`` is missing."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _limit_child(pid: int, cpu_seconds: int) -> None:
    """The kernel's limits on the child: SIGXCPU at ``cpu_seconds`` CPU seconds,
    SIGKILL 5 s later; no core file. The child may already have exited."""
    try:
        resource.prlimit(pid, resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))
    except (ProcessLookupError, PermissionError):
        pass


def _resident_peak_mb(pid: int) -> float | None:
    """Peak resident memory of a running process so far (``VmHWM`` of
    ``/proc/PID/status``; None where unreadable). The rusage of a reaped child cannot
    tell it: its ``ru_maxrss`` keeps the forking Python's peak across ``exec``."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def run_csdp(program: str, workdir: Path, time_limit: float, wall_cap: float,
             threads: int | None = None, blas_dir: Path | None = None) -> CSDPRun:
    """Run ``program problem.dat-s solution.txt`` in ``workdir`` (where
    ``param.csdp`` lies) under a CPU budget of ``time_limit`` seconds (rounded up to
    a whole second, at least 1) and a wall cap of ``wall_cap`` seconds, with
    ``threads`` BLAS threads (default: this process' BLAS thread count), loading
    its BLAS from ``blas_dir`` first when given."""
    threads = _blas_threads() if threads is None else threads
    budget = max(1, math.ceil(time_limit))
    log_path = workdir / "csdp.log"
    start = time.perf_counter()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([program, "problem.dat-s", "solution.txt"], cwd=workdir,
                                stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT,
                                env=_environment(threads, blas_dir),
                                preexec_fn=_die_with_parent)
    _limit_child(proc.pid, budget)
    limit, poll, peak, blas = None, 0.005, None, None
    try:
        while True:
            peak = max(filter(None, (peak, _resident_peak_mb(proc.pid))), default=None)
            blas = blas or _mapped_blas(proc.pid)
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > wall_cap:
                proc.kill()
                limit = "wall"
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(poll)
            poll = min(2 * poll, POLL_MAX)
    except BaseException:  # interrupted: leave no CSDP behind
        proc.kill()
        proc.wait()
        raise
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    killed_by_cpu = (proc.returncode == -signal.SIGXCPU
                     or (proc.returncode == -signal.SIGKILL and cpu >= budget))
    if limit is None and killed_by_cpu:
        limit = "cpu"
    return CSDPRun(proc.returncode, log_path.read_text(errors="replace"), wall, cpu,
                   peak, limit, blas)
