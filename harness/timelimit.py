"""Run a function in a child process with a hard time limit.

Solvers, BLAS and ARPACK do not return to Python to be interrupted, so the only
reliable limit is a process that can be killed. Children come from a *forkserver*:
a clean server process, started once, that has only imported NumPy, SciPy and
scikit-learn and forks each child. Forking the caller itself is not safe: once a
solver with its own thread pool (Clarabel) has run in the caller, a forked child can
deadlock on a lock that a vanished thread held (measured: Clarabel at n = 24 hung
until its time limit in a child forked after an in-process Clarabel solve). The
function and its arguments must therefore be picklable (module-level functions). The child sends back the function's
return value (which must pickle); an exception in the child is re-raised in the
parent as :class:`ChildCrashed` with the child's traceback, except the
``passthrough`` exception types, which are re-raised as they are.

Nesting: a child is a daemonic process, and multiprocessing forbids those to start
children of their own. A call made *inside* one of our children (a cell whose method
calls a cvxpy solver, which asks for its own limit) therefore runs ``fn`` in place:
the enclosing child's hard limit bounds it, and the inner limit is checked when ``fn``
returns (:class:`TimeLimitExceeded` if it was exceeded), so the caller sees the same
outcomes either way. :func:`in_this_process` asks for the same in-place behaviour
explicitly, for tools that measure the calling process (asv's ``peakmem_``, profilers).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["TimeLimitExceeded", "ChildCrashed", "call_with_time_limit", "in_this_process"]


class TimeLimitExceeded(Exception):
    """The child did not finish within the limit and was killed."""

    def __init__(self, limit: float, elapsed: float):
        super().__init__(f"time limit of {limit:g} s reached")
        self.limit, self.elapsed = limit, elapsed


class ChildCrashed(RuntimeError):
    """The child raised an unexpected exception or died.

    ``exitcode`` is the dead child's exit code (negative: killed by that signal, e.g.
    -9 by the kernel's out-of-memory killer), or None when it raised an exception
    (the message then holds its traceback).
    """

    def __init__(self, message: str, exitcode: int | None = None):
        super().__init__(message)
        self.exitcode = exitcode


def _child(conn, fn, args, kwargs, passthrough):
    try:
        conn.send(("ok", fn(*args, **kwargs)))
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


@contextlib.contextmanager
def in_this_process() -> Iterator[None]:
    """Within this block, :func:`call_with_time_limit` runs ``fn`` in the calling
    process (the limit is checked when ``fn`` returns), as it does inside a child.

    For measurements of the calling process: asv's ``peakmem_`` benchmarks read this
    process' peak memory, and a solve in a child would escape them.
    """
    global _IN_PLACE
    previous, _IN_PLACE = _IN_PLACE, True
    try:
        yield
    finally:
        _IN_PLACE = previous


def _call_in_place(fn, args, kwargs, limit, passthrough):
    start = time.perf_counter()
    try:
        value = fn(*args, **kwargs)
    except passthrough:
        raise
    except Exception as exc:
        raise ChildCrashed(traceback.format_exc()) from exc
    elapsed = time.perf_counter() - start
    if elapsed > limit:
        raise TimeLimitExceeded(limit, elapsed)
    return value


def call_with_time_limit(fn: Callable, *args, limit: float,
                         passthrough: tuple[type[BaseException], ...] = (),
                         **kwargs) -> Any:
    """``fn(*args, **kwargs)`` in a child process; kill it after ``limit`` seconds.

    Inside one of our children, or within :func:`in_this_process`, ``fn`` runs in
    place and the limit is checked when it returns (see the module docstring).

    Raises
    ------
    TimeLimitExceeded
        The limit was reached (the child is killed).
    ChildCrashed
        The child raised something not in ``passthrough``, or died (e.g. killed for
        memory; ``exitcode`` says how).
    """
    if _IN_PLACE or mp.current_process().daemon:
        return _call_in_place(fn, args, kwargs, limit, passthrough)
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs, passthrough),
                       daemon=True)
    start = time.perf_counter()
    proc.start()
    child.close()
    try:
        if not parent.poll(limit):
            raise TimeLimitExceeded(limit, time.perf_counter() - start)
        kind, payload = parent.recv()
    except EOFError:
        proc.join()
        raise ChildCrashed(f"the worker process died (exit code {proc.exitcode}), "
                           f"e.g. killed for memory", exitcode=proc.exitcode) from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
    if kind == "raise":
        raise payload
    if kind == "crash":
        raise ChildCrashed(payload)
    return payload
