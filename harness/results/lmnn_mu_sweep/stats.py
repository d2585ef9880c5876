"""The statistics of the mu sweep over paired runs (every mu of a data set runs on the
same seeded splits, run ``r`` on seed ``seed + r``): per data set a matrix of test
errors, runs x mu, and from it the spread over a grid of mu (the register's "range of
the mean test errors over the grid"), the gap of mu = 0.5 to the best mu, a Friedman
test across the sweep and paired t-tests of each mu against mu = 0.5.

Standard errors are over the runs of the *paired* difference the number is made of:
the range's is that of (errors at the mu of the highest mean) - (errors at the mu of
the lowest mean), the gap's that of (errors at 0.5) - (errors at the best mu).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats

from harness.claims import WITHIN_NOISE

__all__ = ["paired_se", "spread", "gap_to", "friedman", "paired_p", "at_most"]


def paired_se(a: np.ndarray, b: np.ndarray) -> float:
    """The standard error of the mean of ``a - b`` over the runs (NaN for one run)."""
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.nan


def _columns(errors: np.ndarray, mus: Sequence[float], grid: Sequence[float]) -> list[int]:
    missing = [m for m in grid if m not in mus]
    if missing:
        raise ValueError(f"mu {missing} not swept (swept: {list(mus)})")
    return [list(mus).index(m) for m in grid]


def spread(errors: np.ndarray, mus: Sequence[float], grid: Sequence[float]) -> dict:
    """The range of the mean test errors over the mu of ``grid`` (``errors``: runs x
    ``mus``): ``range`` (highest mean - lowest mean), its paired standard error ``se``
    and the two mu (``mu_high``, ``mu_low``).

    Examples
    --------
    >>> e = np.array([[1.0, 2.0, 4.0], [1.0, 3.0, 5.0]])
    >>> s = spread(e, [0.1, 0.5, 0.9], [0.1, 0.5, 0.9])
    >>> s["range"], s["mu_high"], s["mu_low"], round(s["se"], 3)
    (3.5, 0.9, 0.1, 0.5)
    """
    cols = _columns(errors, mus, grid)
    means = errors[:, cols].mean(axis=0)
    hi, lo = cols[int(np.argmax(means))], cols[int(np.argmin(means))]
    return {"range": float(means.max() - means.min()),
            "se": paired_se(errors[:, hi], errors[:, lo]),
            "mu_high": float(mus[hi]), "mu_low": float(mus[lo])}


def gap_to(errors: np.ndarray, mus: Sequence[float], grid: Sequence[float],
           at: float) -> dict:
    """How far the mean test error at ``mu = at`` lies above the best (lowest) mean
    over ``grid``: ``gap``, its paired standard error ``se`` (0 when ``at`` is the
    best) and the best mu ``mu_best``.

    Examples
    --------
    >>> e = np.array([[3.0, 2.0], [5.0, 2.0]])
    >>> g = gap_to(e, [0.1, 0.5], [0.1, 0.5], 0.5)
    >>> g["gap"], g["mu_best"], g["se"]
    (0.0, 0.5, 0.0)
    """
    cols = _columns(errors, mus, grid)
    ref = _columns(errors, mus, [at])[0]
    means = errors[:, cols].mean(axis=0)
    best = cols[int(np.argmin(means))]
    se = 0.0 if best == ref else paired_se(errors[:, ref], errors[:, best])
    return {"gap": float(errors[:, ref].mean() - means.min()), "se": se,
            "mu_best": float(mus[best])}


def friedman(errors: np.ndarray) -> tuple[float, float]:
    """Friedman's test that the mu (columns) differ, the runs (rows) as blocks:
    ``(statistic, p)``; NaN for fewer than two runs or columns, or no variation at all
    (ties within every run: the test is undefined)."""
    if errors.shape[0] < 2 or errors.shape[1] < 3:
        return math.nan, math.nan
    if np.all(errors == errors[:, :1]):
        return math.nan, math.nan
    try:
        result = stats.friedmanchisquare(*errors.T)
    except ValueError:
        return math.nan, math.nan
    return float(result.statistic), float(result.pvalue)


def paired_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided paired t-test of ``a`` against ``b`` over the runs; NaN for one run
    or identical columns, 0 for a constant non-zero difference."""
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(diff) < 2 or np.all(diff == 0):
        return math.nan
    if np.all(diff == diff[0]):
        return 0.0
    return float(stats.ttest_rel(a, b).pvalue)


def at_most(value: float, allowance: float, se: float):
    """The check of "at most ``allowance`` points (or within 2 SE)": a pass when
    ``value <= allowance`` or ``value <= 2 se``; a counterexample when ``value``
    exceeds ``allowance`` by more than ``2 se`` (beyond the tolerance); else
    :data:`~harness.claims.WITHIN_NOISE`. Without a standard error (one run) only the
    allowance decides a pass, and an excess is inside the (unmeasured) noise.

    Examples
    --------
    >>> at_most(0.8, 1.0, 0.5), at_most(1.5, 1.0, 0.1), at_most(1.5, 1.0, 0.4)
    (True, False, WITHIN_NOISE)
    >>> at_most(1.5, 1.0, 0.8)
    True
    """
    if value != value:
        return WITHIN_NOISE
    if value <= allowance or (se == se and value <= 2 * se):
        return True
    if se == se and value > allowance + 2 * se:
        return False
    return WITHIN_NOISE
