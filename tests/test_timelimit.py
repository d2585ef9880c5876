import time

import pytest

from harness.timelimit import ChildCrashed, TimeLimitExceeded, call_with_time_limit


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
