"""Run a function in a child process with a CPU budget and a wall cap.

The budget of a job is **CPU seconds of its process** (all its threads), so that the
verdict does not depend on what else the machine runs: two jobs sharing a core each
take twice the wall time, but no more CPU time. Wall time is still measured and
recorded; it only bounds *runaways* -- a child that sleeps, waits on a lock or is
starved for longer than :func:`wall_cap_for` of its budget (default ``max(3 x budget,
budget + 600 s)``; the profile's ``wall_cap:`` entry sets the factor and the extra
seconds) is killed too. :class:`TimeLimitExceeded` says which limit fired
(``kind`` ``"cpu"`` or ``"wall"``) with both clocks' readings.

How the CPU budget is enforced in a child: the child sets ``RLIMIT_CPU`` on itself
(soft limit: the budget rounded up to a whole second; the kernel sends ``SIGXCPU``,
whose default action ends the process, whatever the code does -- BLAS, ARPACK and
solvers do not return to Python to be interrupted; hard limit a few seconds later:
``SIGKILL``; core dumps off). The parent also reads the child's CPU time
(:mod:`psutil`, the child's rusage) every :data:`POLL_SECONDS` and kills it once it is
over the budget, which makes the limit exact to a poll rather than to a whole second;
and a child that returns checks its own CPU time against the budget, so a result
that took more than the budget is a time-out however it ended.

Solvers with a limit of their own count the same clock: :func:`cpu_clock` (this
process' CPU seconds) through :class:`Deadline`.

Children come from a *forkserver*:
a clean server process, started once, that has only imported NumPy, SciPy and
scikit-learn and forks each child, which takes the caller's environment variables at
the call (the server's are from when it started). Forking the caller itself is not safe: once a
solver with its own thread pool (Clarabel) has run in the caller, a forked child can
deadlock on a lock that a vanished thread held (measured: Clarabel at n = 24 hung
until its time limit in a child forked after an in-process Clarabel solve). A command
run by the job server (:mod:`harness.jobserver`) is itself a fresh fork of such a clean
server and forks its children directly (:func:`fork_from_here`). The function and its
arguments must therefore be picklable (module-level functions). The child sends back the function's
return value (which must pickle); an exception in the child is re-raised in the
parent as :class:`ChildCrashed` with the child's traceback, except the
``passthrough`` exception types, which are re-raised as they are.

Nesting: a child is a daemonic process, and multiprocessing forbids those to start
children of their own. A call made *inside* one of our children (a cell whose method
calls a cvxpy solver, which asks for its own limit) therefore runs ``fn`` in place:
the enclosing child's limits bound it, and the inner CPU budget and wall cap are
checked when ``fn`` returns (:class:`TimeLimitExceeded` if one was exceeded), so the
caller sees the same outcomes either way. :func:`in_this_process` asks for the same
in-place behaviour explicitly, for tools that measure the calling process (asv's
``peakmem_``, profilers).
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing as mp
import os
import resource
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["TimeLimitExceeded", "ChildCrashed", "call_with_time_limit", "in_this_process",
           "cpu_clock", "cpu_clock_with_children", "Deadline", "wall_cap_for", "WALL_CAP_FACTOR", "WALL_CAP_EXTRA_SECONDS",
           "POLL_SECONDS", "fork_from_here"]

#: The default wall cap is ``max(WALL_CAP_FACTOR x budget, budget +
#: WALL_CAP_EXTRA_SECONDS)``: generous, since it only catches runaways (a process
#: that sleeps or waits instead of computing); a job sharing its core with two
#: others still finishes its CPU budget within 3x its wall time.
WALL_CAP_FACTOR = 3.0
WALL_CAP_EXTRA_SECONDS = 600.0
#: How often the parent reads the child's CPU time and the wall clock.
POLL_SECONDS = 0.2
#: Seconds of CPU between the kernel's SIGXCPU (soft limit) and its SIGKILL (hard).
_RLIMIT_HARD_EXTRA = 5


def cpu_clock() -> float:
    """CPU seconds of this process, all its threads, to the microsecond: user plus
    system time of ``getrusage(RUSAGE_SELF)``. The clock of every budget and every
    recorded CPU time in the harness (jobs, the solvers' own limits, the fits' times).

    Not ``time.process_time``: once a process has a CPU limit (every job sets
    ``RLIMIT_CPU`` on itself, see above), Linux answers ``CLOCK_PROCESS_CPUTIME_ID``
    from the process' sampled CPU timer, which advances in scheduler ticks (4 ms at
    250 Hz): a fit of 0.3 ms then reads 0 or 4 ms. ``getrusage`` sums the threads'
    exact run times either way (``tests/test_timelimit.py`` checks both under a limit).
    """
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_clock_with_children() -> float:
    """:func:`cpu_clock` plus the CPU seconds of this process' finished (waited-for)
    children: the time of a job whose solver runs in a child process."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return cpu_clock() + children.ru_utime + children.ru_stime


class Deadline:
    """A budget of ``seconds`` of :func:`cpu_clock` from now: a solver's own limit.

    Parameters
    ----------
    seconds : float
        CPU seconds of this process (all threads) that the work may use.

    Examples
    --------
    >>> deadline = Deadline(600.0)
    >>> deadline.expired()
    False
    """

    def __init__(self, seconds: float):
        self.seconds = float(seconds)
        self.start = cpu_clock()

    def used(self) -> float:
        """CPU seconds used since the deadline was set."""
        return cpu_clock() - self.start

    def left(self) -> float:
        """CPU seconds left (negative once expired): a hand-over's own budget."""
        return self.seconds - self.used()

    def expired(self) -> bool:
        """Whether the budget is used up."""
        return self.used() > self.seconds


def wall_cap_for(budget: float, factor: float = WALL_CAP_FACTOR,
             extra_seconds: float = WALL_CAP_EXTRA_SECONDS) -> float:
    """Wall seconds after which a child with a CPU budget of ``budget`` seconds is
    killed as a runaway: ``max(factor x budget, budget + extra_seconds)``."""
    return max(factor * budget, budget + extra_seconds)


class TimeLimitExceeded(Exception):
    """The work exceeded its CPU budget or its wall cap (a child is killed).

    Attributes
    ----------
    kind : {"cpu", "wall"}
        Which limit fired: the CPU budget, or the wall cap for a runaway.
    limit : float
        That limit, in seconds of its clock.
    elapsed : float
        Wall seconds until the work was stopped (or returned).
    cpu_seconds : float or None
        CPU seconds of the work by then (None if they could not be read).
    budget, cap : float or None
        The CPU budget and the wall cap it ran under.
    """

    def __init__(self, limit: float, elapsed: float, kind: str = "wall",
                 cpu_seconds: float | None = None, budget: float | None = None,
                 cap: float | None = None):
        what = "CPU budget" if kind == "cpu" else "wall cap"
        super().__init__(f"{what} of {limit:g} s reached")
        self.limit, self.elapsed, self.kind = limit, elapsed, kind
        self.cpu_seconds, self.budget, self.cap = cpu_seconds, budget, cap

    def timing(self) -> dict:
        """The readings for a record: ``wall_seconds``, ``cpu_seconds``,
        ``cpu_budget_seconds``, ``wall_cap_seconds`` (None where unknown)."""
        return {"wall_seconds": self.elapsed, "cpu_seconds": self.cpu_seconds,
                "cpu_budget_seconds": self.budget, "wall_cap_seconds": self.cap}


class ChildCrashed(RuntimeError):
    """The child raised an unexpected exception or died.

    ``exitcode`` is the dead child's exit code (negative: killed by that signal, e.g.
    -9 by the kernel's out-of-memory killer), or None when it raised an exception
    (the message then holds its traceback).
    """

    def __init__(self, message: str, exitcode: int | None = None):
        super().__init__(message)
        self.exitcode = exitcode


def _limit_own_cpu(budget: float) -> None:
    """The kernel's backstop in the child: SIGXCPU at the budget rounded up to a whole
    second of this process' CPU time, SIGKILL a few seconds later; no core dump."""
    soft = max(1, math.ceil(budget))
    _, hard_now = resource.getrlimit(resource.RLIMIT_CPU)
    hard = soft + _RLIMIT_HARD_EXTRA
    if hard_now != resource.RLIM_INFINITY:
        soft, hard = min(soft, hard_now), min(hard, hard_now)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


def _adopt_environment(environ: dict) -> None:
    """Make the child's environment the caller's at the call: a forkserver's child
    inherits the server's, from when the server started, and would miss what the
    caller set since (a test's ``HARNESS_DATA_DIR``; measured: a job then read the
    machine's data cache instead of the empty one it was given). Thread counts that
    libraries read when they loaded are not changed by this: the harness sets those
    with threadpoolctl."""
    if dict(os.environ) != environ:
        os.environ.clear()
        os.environ.update(environ)
        tempfile.tempdir = None  # Python's cached choice of TMPDIR


def _child(conn, fn, args, kwargs, passthrough, budget, environ):
    try:
        _adopt_environment(environ)
        _limit_own_cpu(budget)
        value = fn(*args, **kwargs)
        cpu = cpu_clock()
        conn.send(("over", cpu) if cpu > budget else ("ok", value))
    except passthrough as exc:
        conn.send(("raise", exc))
    except BaseException:
        conn.send(("crash", traceback.format_exc()))
    finally:
        conn.close()


PRELOAD = ["numpy", "scipy.sparse", "scipy.linalg", "sklearn.neighbors"]
_CONTEXT = None
_IN_PLACE = False


def _context():
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = mp.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(PRELOAD)
    return _CONTEXT


def fork_from_here() -> None:
    """Start this process' children by forking it instead of from a forkserver.

    Only for a process that is itself a fresh fork of a clean server that has run no
    solver and already imported what the forkserver would (:mod:`harness.jobserver`):
    forking such a process is as safe as forking the forkserver (see the module
    docstring), and it saves starting and warming a second interpreter per job.
    """
    global _CONTEXT
    _CONTEXT = mp.get_context("fork")


@contextlib.contextmanager
def in_this_process() -> Iterator[None]:
    """Within this block, :func:`call_with_time_limit` runs ``fn`` in the calling
    process (the limits are checked when ``fn`` returns), as it does inside a child.

    For measurements of the calling process: asv's ``peakmem_`` benchmarks read this
    process' peak memory, and a solve in a child would escape them.
    """
    global _IN_PLACE
    previous, _IN_PLACE = _IN_PLACE, True
    try:
        yield
    finally:
        _IN_PLACE = previous


def _call_in_place(fn, args, kwargs, budget, cap, passthrough):
    wall, cpu = time.perf_counter(), cpu_clock()
    try:
        value = fn(*args, **kwargs)
    except passthrough:
        raise
    except Exception as exc:
        raise ChildCrashed(traceback.format_exc()) from exc
    wall, cpu = time.perf_counter() - wall, cpu_clock() - cpu
    if cpu > budget:
        raise TimeLimitExceeded(budget, wall, "cpu", cpu, budget, cap)
    if wall > cap:
        raise TimeLimitExceeded(cap, wall, "wall", cpu, budget, cap)
    return value


def _cpu_of(process) -> float | None:
    """CPU seconds (user + system, all threads) of a running child, or None."""
    try:
        times = process.cpu_times()
    except Exception:  # gone, or psutil cannot read it here
        return None
    return times.user + times.system


def _watch(proc, conn, budget: float, cap: float, start: float):
    """Wait for the child's message; ``(message or None, kind, cpu)`` where ``kind``
    is the limit that fired (None: the child answered or died)."""
    import psutil

    try:
        watched = psutil.Process(proc.pid)
    except Exception:
        watched = None
    cpu = None
    while True:
        left = cap - (time.perf_counter() - start)
        if left <= 0:
            return None, "wall", _cpu_of(watched) if watched else cpu
        if conn.poll(min(POLL_SECONDS, left)):
            return conn.recv(), None, cpu  # EOFError if the child died
        if watched is not None:
            cpu = _cpu_of(watched) or cpu
            if cpu is not None and cpu > budget:
                return None, "cpu", cpu


def call_with_time_limit(fn: Callable, *args, limit: float, wall_cap: float | None = None,
                         passthrough: tuple[type[BaseException], ...] = (),
                         **kwargs) -> Any:
    """``fn(*args, **kwargs)`` in a child process with a CPU budget of ``limit``
    seconds and a wall cap of ``wall_cap`` seconds (default :func:`wall_cap_for` the
    budget); the child is killed at either.

    Inside one of our children, or within :func:`in_this_process`, ``fn`` runs in
    place and both limits are checked when it returns (see the module docstring).

    Raises
    ------
    TimeLimitExceeded
        The CPU budget (``kind="cpu"``) or the wall cap (``kind="wall"``) was
        exceeded (a child is killed).
    ChildCrashed
        The child raised something not in ``passthrough``, or died (e.g. killed for
        memory; ``exitcode`` says how).
    """
    budget = float(limit)
    cap = wall_cap_for(budget) if wall_cap is None else float(wall_cap)
    if _IN_PLACE or mp.current_process().daemon:
        return _call_in_place(fn, args, kwargs, budget, cap, passthrough)
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs, passthrough, budget,
                                            dict(os.environ)), daemon=True)
    start = time.perf_counter()
    proc.start()
    child.close()
    try:
        message, fired, cpu = _watch(proc, parent, budget, cap, start)
        if fired is not None:
            limit_hit = budget if fired == "cpu" else cap
            raise TimeLimitExceeded(limit_hit, time.perf_counter() - start, fired, cpu,
                                    budget, cap)
        kind, payload = message
    except EOFError:
        proc.join()
        elapsed = time.perf_counter() - start
        if proc.exitcode == -signal.SIGXCPU:  # the kernel's RLIMIT_CPU
            raise TimeLimitExceeded(budget, elapsed, "cpu", float(max(1, math.ceil(budget))),
                                    budget, cap) from None
        raise ChildCrashed(f"the worker process died (exit code {proc.exitcode}), "
                           f"e.g. killed for memory", exitcode=proc.exitcode) from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
    if kind == "over":
        raise TimeLimitExceeded(budget, time.perf_counter() - start, "cpu", payload,
                                budget, cap)
    if kind == "raise":
        raise payload
    if kind == "crash":
        raise ChildCrashed(payload)
    return payload
