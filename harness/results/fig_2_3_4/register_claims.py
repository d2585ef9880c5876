"""The claims-register entries of Figs. 2.3 and 2.4 (thesis 2.1.5, "Convergence",
lines 705 and 721) that the figure's own four statements do not cover, each decided
under the entry's readings (``harness/claims_register/chapter_2.yaml``):

* ``s2-1-5-slight-skewing`` ("in addition to slight skewing", *number*): the angle
  between ``L e1`` and ``L e2`` deviates from 90 degrees by more than 0.5 and less than
  15 degrees, on Fig. 2.3's n = 1000 training set and as the median over the runs of
  n = 1000 (the CSV's ``skew_deviation_median``).
* ``s2-1-5-both-directions-stretched`` (*every*): ``|L e1|`` and ``|L e2|`` above 1 on
  Fig. 2.3's training set and in every run of n = 1000 (the entry's "every repeat" read
  as the repeats of Fig. 2.3's size, the one the sentence is about).
* ``s2-1-5-weight-on-horizontal`` (two readings that contradict each other, fixed in
  the register): *literal horizontal* ``M_11 > M_22`` and *intended vertical* ``M_22 >
  M_11``, each on the training set and in more than half the runs by the one-sided sign
  test at p < 0.05 (``M_ii = |L e_i|^2``, so ``M_22 > M_11`` iff the vertical factor
  is the larger). Exactly one of them can hold: "partly holds" is the register's
  expectation, not a hedge.
* ``s2-1-5-fig-2-4-caption`` (*trend*): p falls with n for both metrics by the
  one-sided Spearman test of the runs' p against n at p < 0.05 -- the same test as the
  text's sentence on line 723 (``write.decrease_checks``), with the profile's runs per
  size (the register's "100 runs" is the thesis' protocol; the evidence names ours).
"""

from __future__ import annotations

import pandas as pd

from harness.claims import Reading, make_claim, readings_claim, significant
from harness.results.fig_2_3_4 import NAME

__all__ = ["LEVEL", "SKEW_DEGREES", "register_claims"]

#: the register's test level ("sign test p < 0.05", "Spearman ... p < 0.05")
LEVEL = 0.05
#: "slight skewing": a deviation from 90 degrees above the first, below the second
SKEW_DEGREES = (0.5, 15.0)


def _rows(frame: pd.DataFrame) -> tuple[pd.Series | None, pd.Series | None]:
    """Fig. 2.3's row (when measured) and the Fig. 2.4 row of its size (when measured)."""
    scale = frame[(frame["panel"] == "fig_2_3") & (frame["status"] == "ok")]
    if not len(scale):
        return None, None
    scale = scale.iloc[0]
    runs = frame[(frame["panel"] == "fig_2_4") & (frame["status"] == "ok")
                 & (frame["n"] == scale["n"])]
    return scale, (runs.iloc[0] if len(runs) else None)


def _skew(scale, runs) -> dict:
    low, high = SKEW_DEGREES
    slight = lambda deviation: low < deviation < high  # noqa: E731
    text = ("LMNN's map of the half-square skews slightly: the images of the axes meet "
            f"at an angle more than {low:g} and less than {high:g} degrees away from a "
            "right angle (2.1.5, Fig. 2.3)")
    if scale is None:
        return make_claim(NAME, text, [], "Fig. 2.3's job not measured",
                          register="s2-1-5-slight-skewing")
    checks = [slight(abs(scale["angle_degrees"] - 90.0))]
    evidence = f"angle between L e1 and L e2 {scale['angle_degrees']:.2f} degrees (n = {scale['n']})"
    if runs is not None:
        checks.append(slight(runs["skew_deviation_median"]))
        evidence += (f"; median deviation from 90 degrees over the {int(runs['runs'])} runs "
                     f"of n = {runs['n']}: {runs['skew_deviation_median']:.2f} degrees")
    else:
        checks = []
        evidence += "; the runs of that size not measured"
    return make_claim(NAME, text, checks, evidence + f" (slight: above {low:g} and below "
                      f"{high:g} degrees)", register="s2-1-5-slight-skewing")


def _stretched(scale, runs) -> dict:
    text = ("Both directions are stretched: LMNN's horizontal and vertical factors both "
            "exceed 1, on Fig. 2.3's training set and in every run of its size (2.1.5)")
    if scale is None or runs is None:
        return make_claim(NAME, text, [], "Fig. 2.3's job or the runs of its size not "
                          "measured", register="s2-1-5-both-directions-stretched")
    return make_claim(
        NAME, text, [scale["horizontal"] > 1, scale["vertical"] > 1,
                     runs["horizontal_min"] > 1, runs["vertical_min"] > 1],
        f"training set of n = {scale['n']}: horizontal x{scale['horizontal']:.2f}, vertical "
        f"x{scale['vertical']:.2f}; over the {int(runs['runs'])} runs of n = {runs['n']}: "
        f"horizontal {runs['horizontal_min']:.2f} to {runs['horizontal_max']:.2f}, vertical "
        f"{runs['vertical_min']:.2f} to {runs['vertical_max']:.2f}",
        register="s2-1-5-both-directions-stretched")


def _weight(scale, runs) -> dict:
    text = ("The loss puts more weight on the (meaningful) horizontal distances and less "
            "on vertical distances (2.1.5, Fig. 2.3; read literally, M_11 > M_22, and as "
            "intended, M_22 > M_11)")
    if scale is None or runs is None:
        return make_claim(NAME, text, [], "Fig. 2.3's job or the runs of its size not "
                          "measured", register="s2-1-5-weight-on-horizontal")
    h, v = scale["horizontal"], scale["vertical"]
    vertical_p, horizontal_p = scale["sign_test_pvalue"], scale["sign_test_pvalue_other"]
    larger = int(runs["vertical_larger_runs"])
    numbers = (f"M_11 = {h:.2f}^2, M_22 = {v:.2f}^2 on the training set of n = {scale['n']}; "
               f"M_22 > M_11 in {larger} of {int(runs['runs'])} runs (one-sided sign test "
               f"p = {vertical_p:.1e} for M_22 > M_11, p = {horizontal_p:.1e} for M_11 > "
               f"M_22, level {LEVEL:g})")
    return readings_claim(NAME, text, [
        Reading("literal horizontal", [h > v, significant(horizontal_p, vertical_p, LEVEL)],
                numbers),
        Reading("intended vertical", [v > h, significant(vertical_p, horizontal_p, LEVEL)],
                "the same numbers")], register="s2-1-5-weight-on-horizontal")


def register_claims(frame: pd.DataFrame, decrease: tuple[list, str]) -> list[dict]:
    """The four entries' claims from the figure's frame (``write.build``);
    ``decrease`` is ``write.decrease_checks(frame, LEVEL)``."""
    scale, runs = _rows(frame)
    checks, evidence = decrease
    caption = make_claim(
        NAME, "Fig. 2.4's caption: the probability of misclassifying a test point with "
              "the 1-NN rule falls with an increasing number of training points, for "
              f"both metrics (2.1.5; one-sided Spearman test at level {LEVEL:g})",
        checks, evidence, register="s2-1-5-fig-2-4-caption")
    return [_skew(scale, runs), _stretched(scale, runs), _weight(scale, runs), caption]
