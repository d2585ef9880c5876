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
"""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
from collections.abc import Callable
from typing import Any

__all__ = ["TimeLimitExceeded", "ChildCrashed", "call_with_time_limit"]


class TimeLimitExceeded(Exception):
    """The child did not finish within the limit and was killed."""

    def __init__(self, limit: float, elapsed: float):
        super().__init__(f"time limit of {limit:g} s reached")
        self.limit, self.elapsed = limit, elapsed


class ChildCrashed(RuntimeError):
    """The child raised an unexpected exception or died."""


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


def _context():
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = mp.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(PRELOAD)
    return _CONTEXT


def call_with_time_limit(fn: Callable, *args, limit: float,
                         passthrough: tuple[type[BaseException], ...] = (),
                         **kwargs) -> Any:
    """``fn(*args, **kwargs)`` in a child process; kill it after ``limit`` seconds.

    Raises
    ------
    TimeLimitExceeded
        The limit was reached (the child is killed).
    ChildCrashed
        The child raised something not in ``passthrough``, or died (e.g. killed for
        memory).
    """
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
                           f"e.g. killed for memory") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
    if kind == "raise":
        raise payload
    if kind == "crash":
        raise ChildCrashed(payload)
    return payload
