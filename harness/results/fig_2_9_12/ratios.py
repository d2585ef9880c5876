"""Error ratios of one method over another (thesis Figs. 2.9 and 2.12): the ratio of
two error rates with zero denominators made explicit, the paired run-to-run spread of
their difference, and the class a ratio falls in (better, about the same, worse, or a
change outside the band that the runs cannot tell from noise).

Pure arithmetic: the figure module (:mod:`harness.results.fig_2_9_12`) reads the
records and the thesis' values and calls these.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["BETTER", "SAME", "WORSE", "LOWER_UNSURE", "HIGHER_UNSURE", "error_ratio", "paired_difference", "run_values",
           "classify", "format_ratio"]

BETTER, SAME, WORSE = "better", "about the same", "worse"
#: a ratio outside the band whose change the runs' spread cannot tell from noise:
#: neither 'almost identical' (outside the band) nor a significant change
LOWER_UNSURE, HIGHER_UNSURE = "lower, within the spread", "higher, within the spread"

#: what a zero denominator means, by whether the numerator is zero too
BOTH_ZERO = "both errors are 0 %: ratio read as 1 (no change)"
ZERO_BASE = "the single-metric / single-run error is 0 %: ratio infinite"


def error_ratio(numerator: float | None, denominator: float | None) -> tuple[float, str]:
    """``numerator / denominator`` of two error rates (in %) and a note.

    A zero denominator is explicit: 0 / 0 is 1 (both classify every point right: no
    change; note :data:`BOTH_ZERO`), x / 0 with x > 0 is ``inf`` (note
    :data:`ZERO_BASE`). A missing or non-finite value gives NaN and no note.

    Raises
    ------
    ValueError
        A negative error rate (not a percentage of misclassified points).
    """
    if numerator is None or denominator is None:
        return math.nan, ""
    num, den = float(numerator), float(denominator)
    if not (math.isfinite(num) and math.isfinite(den)):
        return math.nan, ""
    if num < 0 or den < 0:
        raise ValueError(f"error rates must be >= 0 %, got {num} / {den}")
    if den == 0:
        return (1.0, BOTH_ZERO) if num == 0 else (math.inf, ZERO_BASE)
    return num / den, ""


def run_values(record: dict, measure: str) -> dict[int, float]:
    """The per-run values of ``measure`` in a Table 2.1 record, by the run's seed."""
    return {int(run["seed"]): float(run["measures"][measure])
            for run in record.get("runs", [])
            if "seed" in run and measure in run.get("measures", {})}


def paired_difference(numerator_runs: dict[int, float],
                      denominator_runs: dict[int, float]) -> tuple[float, float, int]:
    """Mean and standard error of ``numerator - denominator`` over the runs both
    have (same seed: the same split), and their number. The standard error is 0 for
    one shared run (no spread known) and NaN without one."""
    seeds = sorted(set(numerator_runs) & set(denominator_runs))
    if not seeds:
        return math.nan, math.nan, 0
    diff = np.array([numerator_runs[s] - denominator_runs[s] for s in seeds])
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else 0.0
    return float(diff.mean()), se, len(seeds)


def classify(ratio: float, diff_mean: float, diff_se: float, tolerance: float,
             spread: float) -> str:
    """The class of an error ratio, the band ``1 +- tolerance`` fixed beforehand.

    - :data:`SAME` ('almost identical', 'little impact'): the ratio inside the band
      (bounds included), whatever the runs' spread -- an equivalence needs the ratio
      in its band, an undecided test is not one. 0 % over 0 % is ratio 1 (same);
      x % over 0 % (x > 0) is infinite, never the same;
    - :data:`BETTER` / :data:`WORSE`: below / above the band and the decrease /
      increase ``diff_mean`` (points) beyond ``spread`` standard errors ``diff_se`` of
      the paired runs;
    - :data:`LOWER_UNSURE` / :data:`HIGHER_UNSURE`: below / above the band, the change
      within that spread (neither the same nor a significant change).

    Without spread (the thesis' numbers, one run; ``spread`` 0) only the ratio
    decides. ``""`` for a missing ratio."""
    if not (isinstance(ratio, float | int) and not math.isnan(ratio)):
        return ""
    if 1 - tolerance <= ratio <= 1 + tolerance:
        return SAME
    noise = spread * (diff_se if math.isfinite(diff_se) else 0.0)
    if ratio > 1 + tolerance:
        return WORSE if diff_mean > noise else HIGHER_UNSURE
    return BETTER if diff_mean < -noise else LOWER_UNSURE


def format_ratio(value: float) -> str:
    """``0.873``, ``inf`` or ``-`` (missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return "inf" if math.isinf(value) else f"{value:.3f}"
