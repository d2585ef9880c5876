"""The claims-register entries Figs. 2.9 and 2.12's frame decides (issue 51): the
figures' ratios against the thesis' (lines 911, 952), MUL-LMNN's and MM-LMNN's
significant improvements (lines 919, 1275) and the summary's "multiple metrics improve
these results even further" (line 2204), each on the entry's readings.

The frame (:func:`harness.results.fig_2_9_12.write.build`) has, per (figure, data set,
measure), the thesis' and our ratio over PCA-LMNN, the mean paired per-run difference
(points) and its standard error; :func:`add_tests` adds the ratio's standard error and
the one-sided paired t-test p-values the readings use. A claim about every data set
goes through :func:`harness.claims.about_every` (a subset decides only by a
counterexample); stand-ins never count. Single-run data sets (MNIST, isolet in the
thesis) have no paired spread: the register's McNemar test needs per-point predictions,
which Table 2.1's records do not keep, so their tests are inside the noise.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from harness.claims import (
    WITHIN_NOISE, Reading, about_every, beyond_noise, readings_claim, significant,
)
from harness.results.fig_2_9_12.ratios import (
    HIGHER_UNSURE, LOWER_UNSURE, format_ratio,
)

__all__ = ["add_tests", "register_claims"]

NAME = "fig_2_9_12"
#: "on average ... below 0.95" (register s2-2-3-mm-improved-performance)
MEAN_RATIO = 0.95
#: the nine data sets of Table 2.1: "more than half" of them is more than this many
HALF_OF_NINE = 4.5
LABELS = {"train_knn_loo_error": "kNN training", "test_knn_error": "kNN testing",
          "test_energy_error": "energy"}


def paired_t(mean: float, se: float, n) -> tuple[float, float]:
    """One-sided p-values of a paired t-test of a mean difference (numerator minus
    denominator, ``n`` runs): ``(p that it is below 0, p that it is above 0)``. A
    difference without spread (``se`` 0) is certain in its sign; none (mean 0, or fewer
    than two runs) gives NaN, NaN.

    Examples
    --------
    >>> [round(p, 4) for p in paired_t(-2.0, 0.5, 10)]
    [0.0016, 0.9984]
    """
    if n is None or pd.isna(n) or n < 2 or not (math.isfinite(mean) and math.isfinite(se)):
        return math.nan, math.nan
    if se == 0:
        return (0.0, 1.0) if mean < 0 else (1.0, 0.0) if mean > 0 else (math.nan, math.nan)
    lower = float(student_t.cdf(mean / se, int(n) - 1))
    return lower, 1.0 - lower


def add_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """``ours_ratio_se`` (the paired difference's standard error over our PCA-LMNN
    error: the ratio's, the denominator taken as fixed) and the paired t-test's
    ``p_lower`` / ``p_higher`` (:func:`paired_t`) per row."""
    den = pd.to_numeric(frame["ours_denominator"], errors="coerce")
    frame["ours_ratio_se"] = np.where(den > 0, pd.to_numeric(frame["diff_se"]) / den, np.nan)
    tests = [paired_t(m, s, n) for m, s, n in
             zip(frame["diff_mean"], frame["diff_se"], frame["n_paired"])]
    frame["p_lower"] = [p for p, _ in tests]
    frame["p_higher"] = [q for _, q in tests]
    return frame


def _part(frame, figure, measures):
    part = frame[(frame["figure"] == figure) & frame["measure"].isin(measures)]
    ok = part[(part["status"] == "ok") & ~part["stand_in"].astype(bool)]
    named = part.loc[~part["stand_in"].astype(bool), "dataset"]
    return ok, named


def _ratio_matches(row, conf) -> bool:
    """Our ratio within the tolerance (or ``spread_factor`` standard errors of it,
    where wider) of the thesis' (two infinite ratios match)."""
    ours, thesis = float(row.ours_ratio), float(row.thesis_ratio)
    if math.isinf(ours) or math.isinf(thesis):
        return math.isinf(ours) and math.isinf(thesis)
    se = row.ours_ratio_se if row.ours_ratio_se == row.ours_ratio_se else 0.0
    return abs(ours - thesis) <= max(conf["ratio_tolerance"], conf["spread_factor"] * se)


def _class_matches(row):
    """Our class against the thesis': a change our runs cannot tell from noise is
    inside it."""
    if row.ours_class in (LOWER_UNSURE, HIGHER_UNSURE):
        return WITHIN_NOISE
    return row.ours_class == row.thesis_class


def _cells(ok: pd.DataFrame) -> str:
    return "; ".join(f"{r.dataset} {LABELS[r.measure]}: ours {format_ratio(r.ours_ratio)} "
                     f"({r.ours_class}), thesis {format_ratio(r.thesis_ratio)} "
                     f"({r.thesis_class})" for r in ok.itertuples()) or "none measured"


def _every(checks, named, ok, what="every one of"):
    checks, why = about_every(checks, named, ok["dataset"], what)
    return checks, f" ({why})" if why else ""


def _ratios(frame, conf, figure, measures, entry) -> dict:
    """s2-1-8-fig-2-9-mul-lmnn-ratios / s2-1-8-fig-2-12-mm-ratios: every (data set,
    measure) cell's ratio and class against the thesis'."""
    ok, named = _part(frame, figure, measures)
    ok = ok[ok["thesis_ratio"].notna()]
    values, why = _every([_ratio_matches(r, conf) for r in ok.itertuples()], named, ok)
    classes, why2 = _every([_class_matches(r) for r in ok.itertuples()], named, ok)
    label = frame.loc[frame["figure"] == figure, "method"].iloc[0]
    return readings_claim(
        NAME, f"Fig. {figure}: the ratios {label} / PCA-LMNN of the "
              + ", ".join(LABELS[m] for m in measures) + " errors match the thesis' "
              f"(from its Table 2.1): within {conf['ratio_tolerance']:g} (or "
              f"{conf['spread_factor']:g} standard errors of ours, where wider), and in "
              f"the same class (below {1 - conf['ratio_tolerance']:g}, within, above "
              f"{1 + conf['ratio_tolerance']:g}) (2.1.8)",
        [Reading("ratios match thesis", values, _cells(ok) + why),
         Reading("direction matches thesis", classes, "the classes above" + why2)],
        register=entry)


def _significant_rows(ok) -> tuple[list, str]:
    checks = [significant(r.p_lower, r.p_higher) for r in ok.itertuples()]
    said = "; ".join(f"{r.dataset} {LABELS[r.measure]}: {r.diff_mean:+.3g} +- {r.diff_se:.3g} "
                     f"points, p {r.p_lower:.3g} ({int(r.n_paired)} runs)"
                     for r in ok.itertuples()) or "none measured"
    return checks, said


def _can_improve(frame) -> dict:
    """s2-1-8-mul-lmnn-can-significantly-improve (line 919): on some data set MUL-LMNN's
    test error below PCA-LMNN's, one-sided paired t-test p < 0.05."""
    ok, _ = _part(frame, "2.9", ("test_knn_error", "test_energy_error"))
    both, said = _significant_rows(ok)
    knn, _ = _significant_rows(ok[ok["measure"] == "test_knn_error"])
    return readings_claim(
        NAME, "Multiple applications of LMNN can significantly improve the classification "
              "results: on some data set MUL-LMNN's test error is below PCA-LMNN's (one-sided "
              "paired t-test over the runs, p < 0.05) (2.1.8, Fig. 2.9)",
        [Reading("test error, some data set", both, "MUL-LMNN - PCA-LMNN: " + said),
         Reading("kNN test error only", knn, "the kNN rows above")],
        register="s2-1-8-mul-lmnn-can-significantly-improve")


def _mm_improved(frame, conf) -> dict:
    """s2-2-3-mm-improved-performance (line 1275): MM-LMNN's kNN test error below
    PCA-LMNN's on some data set (paired t-test p < 0.05); the mean ratio over the nine
    data sets below 0.95."""
    ok, named = _part(frame, "2.12", ("test_knn_error",))
    checks, said = _significant_rows(ok)
    finite = ok[np.isfinite(ok["ours_ratio"].astype(float))]
    mean_check = [bool(finite["ours_ratio"].mean() < MEAN_RATIO)] if len(finite) else []
    mean_check, why = _every(mean_check, named, ok, "the mean over")
    return readings_claim(
        NAME, "Multiple metrics improve performance: MM-LMNN's kNN test error below PCA-LMNN's "
              "on some data set (one-sided paired t-test, p < 0.05), and the mean ratio over "
              f"the nine data sets below {MEAN_RATIO:g} (2.2.3, Fig. 2.12)",
        [Reading("some data set", checks, "MM-LMNN - PCA-LMNN: " + said),
         Reading("on average", mean_check if not why else [],
                 "ratios: " + ", ".join(f"{r.dataset} {format_ratio(r.ours_ratio)}"
                                        for r in ok.itertuples()) + why)],
        register="s2-2-3-mm-improved-performance")


def _lower(row, conf):
    """MM-LMNN below PCA-LMNN beyond ``spread_factor`` standard errors of the paired
    difference (inside them: the noise)."""
    return beyond_noise(-float(row.diff_mean), conf["spread_factor"] * float(row.diff_se))


def _improve_further(frame, conf) -> dict:
    """s4-multiple-metrics-improve-further (line 2204): MM-LMNN's kNN test error below
    PCA-LMNN's on every data set; beyond 2 standard errors on more than half of the
    nine; kNN and energy at most PCA-LMNN's on every data set."""
    knn, named = _part(frame, "2.12", ("test_knn_error",))
    every, why = _every([_lower(r, conf) for r in knn.itertuples()], named, knn)
    lower = [_lower(r, conf) for r in knn.itertuples()]
    passes = sum(c is True for c in lower)
    open_sets = len(set(named)) - passes - sum(c is False for c in lower)
    most = ([True] if passes > HALF_OF_NINE else
            [False] if passes + open_sets <= HALF_OF_NINE else [])
    both_ok, both_named = _part(frame, "2.12", ("test_knn_error", "test_energy_error"))
    at_most, why3 = _every([_lower(r, conf) for r in both_ok.itertuples()], both_named, both_ok)
    said = "; ".join(f"{r.dataset} {LABELS[r.measure]}: {r.diff_mean:+.3g} +- {r.diff_se:.3g} "
                     f"points ({int(r.n_paired)} runs)" for r in both_ok.itertuples())
    return readings_claim(
        NAME, "The extension to multiple metrics improves the results even further: MM-LMNN's "
              "kNN (and energy) test error below PCA-LMNN's, beyond "
              f"{conf['spread_factor']:g} standard errors of the paired runs, on every data "
              "set (or on more than half of the nine) (summary, Fig. 2.12)",
        [Reading("every data set knn", every, "MM-LMNN - PCA-LMNN: " + (said or "none") + why),
         Reading("most data sets knn", most,
                 f"{passes} of the {len(set(named))} data sets lower beyond the noise, "
                 f"{open_sets} not measured or inside the noise; more than half of nine "
                 "needed"),
         Reading("knn and energy", at_most, "as above" + why3)],
        register="s4-multiple-metrics-improve-further")


def register_claims(conf: dict, frame: pd.DataFrame) -> list[dict]:
    """The register entries Figs. 2.9 and 2.12 decide, beyond their own claims."""
    return [_ratios(frame, conf, "2.9", ("test_knn_error", "test_energy_error"),
                    "s2-1-8-fig-2-9-mul-lmnn-ratios"),
            _ratios(frame, conf, "2.12", ("train_knn_loo_error", "test_knn_error",
                                          "test_energy_error"), "s2-1-8-fig-2-12-mm-ratios"),
            _can_improve(frame), _mm_improved(frame, conf), _improve_further(frame, conf)]
