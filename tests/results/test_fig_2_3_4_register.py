"""Figs. 2.3/2.4's register claims on hand-made frames: holding and failing cases."""

from __future__ import annotations

import pandas as pd

from harness.results.fig_2_3_4.register_claims import register_claims


def _frame(h=1.5, v=2.2, angle=88.0, skew=2.0, hmin=1.2, vmin=1.9, larger=20,
           p=1e-6, p_other=1.0):
    return pd.DataFrame([
        {"panel": "fig_2_3", "n": 1000, "status": "ok", "horizontal": h, "vertical": v,
         "angle_degrees": angle, "sign_test_pvalue": p, "sign_test_pvalue_other": p_other},
        {"panel": "fig_2_4", "n": 1000, "status": "ok", "runs": 20, "horizontal_min": hmin,
         "horizontal_max": 1.8, "vertical_min": vmin, "vertical_max": 2.4,
         "skew_deviation_median": skew, "vertical_larger_runs": larger}])


def _verdicts(frame, decrease=([True, True], "trend")):
    return {c["register"]: c["verdict"] for c in register_claims(frame, decrease)}


def test_holding():
    v = _verdicts(_frame())
    assert v["s2-1-5-slight-skewing"] == "holds"
    assert v["s2-1-5-both-directions-stretched"] == "holds"
    assert v["s2-1-5-weight-on-horizontal"] == "partly holds"  # the readings contradict
    assert v["s2-1-5-fig-2-4-caption"] == "holds"


def test_failing():
    v = _verdicts(_frame(angle=90.1, hmin=0.9), decrease=([True, False], "trend"))
    assert v["s2-1-5-slight-skewing"] == "does not hold"
    assert v["s2-1-5-both-directions-stretched"] == "does not hold"
    assert v["s2-1-5-fig-2-4-caption"] == "does not hold"
    assert _verdicts(_frame(skew=20.0))["s2-1-5-slight-skewing"] == "does not hold"


def test_weight_readings_follow_the_sign_test():
    claim = [c for c in register_claims(_frame(h=2.5, v=1.5, larger=0, p=1.0, p_other=1e-6),
                                        ([], "")) if c["register"] == "s2-1-5-weight-on-horizontal"][0]
    assert claim["verdict"] == "partly holds"
    assert "literal horizontal (holds)" in claim["evidence"]
    assert "intended vertical (does not hold)" in claim["evidence"]
