"""Fig. 3.24's further claims-register entries on hand-made frames, both ways."""

from __future__ import annotations

import pandas as pd

from harness.results.fig_3_24.register_claims import register_claims

DATASETS = ("swiss_roll", "teapot")
MEASURES = ("local_continuity", "local_trust", "neighborhood_intersection")


def _frame(ratio: float, counts=(2, 6), measured=DATASETS):
    rows = []
    for d in measured:
        for m in MEASURES:
            rows.append({"dataset": d, "thesis_dataset": d, "stand_in": False, "measure": m,
                         "status": "ok", "certified": True, "ratio": ratio,
                         "max_trace_value": 0.9, "min_trace_value": 0.9 * ratio,
                         "ev_count_max_trace": counts[0], "ev_count_min_trace": counts[1],
                         "ev_kept_max_trace": 20, "ev_kept_min_trace": 20})
    return pd.DataFrame(rows)


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(frame, DATASETS)}


def test_holds_on_every_data_set():
    assert set(_verdicts(_frame(0.5)).values()) == {"holds"}


def test_a_counterexample_fails():
    v = _verdicts(_frame(1.2, counts=(6, 6)))
    assert set(v.values()) == {"does not hold"}


def test_a_subset_decides_nothing():
    v = _verdicts(_frame(0.5, measured=("swiss_roll",)))
    assert set(v.values()) == {"not measured"}


def test_within_the_band_is_undecided():
    v = _verdicts(_frame(0.995))
    assert v["s3-1-11-less-quality-all-metrics"] == "undecided (within noise)"
