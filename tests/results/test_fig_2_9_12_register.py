"""Figs. 2.9 and 2.12's claims-register entries (register_claims.py) on hand-made frames:
each entry holding and failing, a subset of the nine data sets deciding only by a
counterexample, the paired t-test's p-values."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from harness.results.fig_2_9_12.ratios import BETTER, LOWER_UNSURE, SAME, WORSE
from harness.results.fig_2_9_12.register_claims import add_tests, paired_t, register_claims

CONF = {"ratio_tolerance": 0.1, "spread_factor": 2.0}
SETS = ("iris", "wine", "bal")
MEASURES = {"2.9": ("test_knn_error", "test_energy_error"),
            "2.12": ("train_knn_loo_error", "test_knn_error", "test_energy_error")}


def _frame(ours, thesis, diff, se=0.2, sets=SETS, gaps=()):
    """Every (figure, data set, measure) with our ratio ``ours``, the thesis'
    ``thesis`` and our paired difference ``diff`` +- ``se`` over 10 runs; ``gaps``:
    data sets named but not measured."""
    def cls(ratio, d, s):
        if 0.9 <= ratio <= 1.1:
            return SAME
        return (BETTER if d < -2 * s else LOWER_UNSURE) if ratio < 0.9 else WORSE

    rows = []
    for figure, measures in MEASURES.items():
        for dataset in (*sets, *gaps):
            for measure in measures:
                row = {"figure": figure, "dataset": dataset, "thesis_dataset": dataset,
                       "stand_in": False, "measure": measure,
                       "method": "MUL-LMNN" if figure == "2.9" else "MM-LMNN",
                       "thesis_ratio": thesis, "thesis_class": cls(thesis, thesis - 1, 0.0)}
                if dataset in gaps:
                    row.update(status="unavailable")
                else:
                    row.update(status="ok", ours_ratio=ours, ours_denominator=5.0,
                               diff_mean=diff, diff_se=se, n_paired=10,
                               ours_class=cls(ours, diff, se))
                rows.append(row)
    return add_tests(pd.DataFrame(rows))


def _by_id(frame):
    return {c["register"]: c for c in register_claims(CONF, frame)}


def test_paired_t():
    lower, higher = paired_t(-2.0, 0.5, 10)
    assert lower < 0.01 and higher > 0.99
    assert paired_t(-1.0, 0.0, 10) == (0.0, 1.0) and math.isnan(paired_t(0.0, 0.0, 10)[0])
    assert math.isnan(paired_t(-1.0, 0.2, 1)[0])  # one run: no test


@pytest.mark.parametrize("entry", ["s2-1-8-fig-2-9-mul-lmnn-ratios",
                                   "s2-1-8-fig-2-12-mm-ratios"])
def test_ratios_against_the_thesis(entry):
    assert _by_id(_frame(0.8, 0.82, -1.0))[entry]["verdict"] == "holds"
    assert _by_id(_frame(0.8, 1.2, -1.0))[entry]["verdict"] == "does not hold"
    # all match on a subset of the data sets: no verdict; a mismatch decides
    assert _by_id(_frame(0.8, 0.82, -1.0, gaps=("mnist",)))[entry]["verdict"] == "not measured"
    assert _by_id(_frame(0.8, 1.2, -1.0, gaps=("mnist",)))[entry]["verdict"] == "does not hold"


def test_significant_improvements():
    better, worse = _by_id(_frame(0.8, 0.8, -1.0)), _by_id(_frame(1.2, 0.8, 1.0))
    for entry in ("s2-1-8-mul-lmnn-can-significantly-improve", "s2-2-3-mm-improved-performance"):
        assert better[entry]["verdict"] == "holds"
        assert worse[entry]["verdict"] == "does not hold"
    noisy = _by_id(_frame(0.95, 0.8, -0.1, se=0.5))
    assert noisy["s2-1-8-mul-lmnn-can-significantly-improve"]["verdict"] == (
        "undecided (within noise)")


def test_multiple_metrics_improve_further():
    nine = ("a", "b", "c", "d", "e", "f", "g", "h", "i")
    assert _by_id(_frame(0.8, 0.8, -1.0, sets=nine))[
        "s4-multiple-metrics-improve-further"]["verdict"] == "holds"
    assert _by_id(_frame(1.2, 0.8, 1.0, sets=nine))[
        "s4-multiple-metrics-improve-further"]["verdict"] == "does not hold"
    # three of nine measured, all lower: no verdict (a subset); one worse decides
    three = _by_id(_frame(0.8, 0.8, -1.0, gaps=nine[3:]))["s4-multiple-metrics-improve-further"]
    assert three["verdict"] == "not measured"
    assert _by_id(_frame(1.2, 0.8, 1.0, gaps=nine[3:]))[
        "s4-multiple-metrics-improve-further"]["verdict"] == "does not hold"
