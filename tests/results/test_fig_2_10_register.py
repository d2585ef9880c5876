"""Fig. 2.10's register claims (harness.results.fig_2_10.register_claims) on hand-made
frames: each entry holds on one and fails on another."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.claims import WITHIN_NOISE
from harness.results.fig_2_10.register_claims import (
    best_linear_error, nine_of_ten, register_claims,
)


def _frame(errors: dict[int, tuple], search=0.9, seeds=range(10), n=60) -> pd.DataFrame:
    """``errors``: metrics -> per-seed fraction misclassified (same for every seed)."""
    rows = []
    for s in seeds:
        for c, e in errors.items():
            rows.append({"seed": s, "n_metrics": c, "status": "ok", "n_samples": n,
                         "loo_error": e, "euclidean_loo_error": 1.0,
                         "search_loo_error": search if c == 1 else np.nan})
    return pd.DataFrame(rows)


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(frame)}


def test_holding_circles():
    v = _verdicts(_frame({1: 1.0, 2: 0.2, 3: 0.0}, search=0.98))
    assert v["s2-1-8-single-linear-not-sufficient"] == "holds"
    assert v["s2-1-8-fig-2-10-single-metric-insufficient"] == "holds"
    assert v["s2-1-8-circles-single-metric-cannot-capture"] == "holds"


def test_failing_circles():
    v = _verdicts(_frame({1: 0.5, 2: 0.9, 3: 0.9}, search=0.1))
    assert v["s2-1-8-single-linear-not-sufficient"] == "does not hold"
    assert v["s2-1-8-fig-2-10-single-metric-insufficient"] == "does not hold"
    assert v["s2-1-8-circles-single-metric-cannot-capture"] == "does not hold"


def test_five_seeds_decide_only_by_a_failure():
    v = _verdicts(_frame({1: 1.0, 2: 0.2, 3: 0.0}, search=0.98, seeds=range(5)))
    assert v["s2-1-8-fig-2-10-single-metric-insufficient"] == "not measured"
    assert v["s2-1-8-circles-single-metric-cannot-capture"] == "not measured"
    v = _verdicts(_frame({1: 1.0, 2: 1.0, 3: 0.0}, search=0.0, seeds=range(5)))
    assert v["s2-1-8-circles-single-metric-cannot-capture"] == "does not hold"


def test_nine_of_ten_counts_noise_as_possible():
    assert nine_of_ten({d: True for d in range(9)}) == [True]
    assert nine_of_ten({0: False, 1: False}) == [False]
    assert nine_of_ten({d: WITHIN_NOISE for d in range(10)}) == [WITHIN_NOISE]
    assert nine_of_ten({0: True}) == []


def test_search_finds_a_separating_metric_on_separable_data():
    X = np.array([[0.0, 0.0], [0.0, 0.1], [5.0, 0.0], [5.0, 0.1]])
    y = np.array([0, 0, 1, 1])
    assert best_linear_error(X, y, seed=0, draws=20) == 0.0
