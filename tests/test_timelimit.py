import time

import pytest

from harness.timelimit import (
    ChildCrashed, TimeLimitExceeded, call_with_time_limit, in_this_process,
)


def _sleep(seconds):
    time.sleep(seconds)
    return seconds


def _boom():
    raise KeyError("inner")


def test_value_comes_back():
    assert call_with_time_limit(_sleep, 0.01, limit=30) == 0.01


def test_limit_kills_the_child():
    start = time.perf_counter()
    with pytest.raises(TimeLimitExceeded, match="0.2 s"):
        call_with_time_limit(_sleep, 60, limit=0.2)
    assert time.perf_counter() - start < 30


def test_crash_carries_the_traceback_and_passthrough_is_kept():
    with pytest.raises(ChildCrashed, match="KeyError: 'inner'"):
        call_with_time_limit(_boom, limit=30)
    with pytest.raises(KeyError, match="inner"):
        call_with_time_limit(_boom, limit=30, passthrough=(KeyError,))


def _nested(inner_seconds, inner_limit):
    """Inside a child: a nested limited call (a cell calling a cvxpy solve)."""
    try:
        return call_with_time_limit(_sleep, inner_seconds, limit=inner_limit)
    except TimeLimitExceeded as exc:
        return f"inner timeout after {exc.elapsed:.2f} s"


def _suicide():
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_call_inside_a_child_runs_in_place_and_keeps_its_limit():
    assert call_with_time_limit(_nested, 0.01, 30, limit=60) == 0.01
    assert call_with_time_limit(_nested, 0.3, 0.1, limit=60).startswith("inner timeout")


def test_in_this_process_runs_here_with_the_same_outcomes():
    import os

    with in_this_process():
        assert call_with_time_limit(os.getpid, limit=30) == os.getpid()
        with pytest.raises(TimeLimitExceeded):
            call_with_time_limit(_sleep, 0.2, limit=0.05)
        with pytest.raises(ChildCrashed, match="KeyError: 'inner'") as info:
            call_with_time_limit(_boom, limit=30)
        assert info.value.exitcode is None
        with pytest.raises(KeyError):
            call_with_time_limit(_boom, limit=30, passthrough=(KeyError,))
    assert call_with_time_limit(os.getpid, limit=30) != os.getpid()


def test_a_dead_child_reports_its_exit_code():
    with pytest.raises(ChildCrashed, match="died") as info:
        call_with_time_limit(_suicide, limit=30)
    assert info.value.exitcode == -9
