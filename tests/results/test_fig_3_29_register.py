"""Fig. 3.29's claims-register entries on hand-made rows, both ways."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.results.fig_3_29.register_claims import auc, register_claims, short_routes


def _edges(**kw):
    row = {"part": "bad_edges", "stage": "bad edges", "status": "ok", "n_bad_edges": 5,
           "n_good_edges": 100, "n_flagged": 5, "n_flagged_bad": 5, "components_after_cut": 1,
           "bad_mean_length": 6.0, "good_mean_length": 2.0, "p_bad_longer": 1e-4,
           "p_bad_shorter": 0.9999, "bad_mean_routes": 1.0, "good_mean_routes": 20.0,
           "p_bad_fewer_routes": 1e-3, "p_bad_more_routes": 0.999, "bad_median_q": 0.01,
           "good_median_q": 0.7, "q_auc": 0.99, "flagged_are_bad": True}
    row.update(kw)
    after = {"part": "mvu", "stage": "after", "status": "ok", "solve_status": "optimal",
             "top2_share": row.pop("top2", 0.99)}
    return pd.DataFrame([row, after])


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims({}, frame)}


def test_holds():
    assert set(_verdicts(_edges()).values()) == {"holds"}


def test_fails():
    v = _verdicts(_edges(p_bad_longer=0.999, p_bad_shorter=1e-4, p_bad_fewer_routes=0.999,
                         p_bad_more_routes=1e-4, bad_median_q=0.5, q_auc=0.6,
                         flagged_are_bad=False, top2=0.7))
    assert set(v.values()) == {"does not hold"}
    assert _verdicts(_edges(components_after_cut=2))["s3-1-12-caption-after-cut"] \
        == "does not hold"


def test_missing_graph_is_not_measured():
    v = _verdicts(pd.DataFrame([{"part": "bad_edges", "status": "missing"}]))
    assert set(v.values()) == {"not measured"}


def test_short_routes_and_auc():
    # a triangle 0-1-2 plus a pendant 2-3: edge (0, 1) has one 2-path (via 2)
    routes = short_routes(4, np.array([[0, 1], [1, 2], [0, 2], [2, 3]]))
    assert routes.tolist() == [1, 1, 1, 0]
    assert auc(np.array([2.0, 3.0]), np.array([1.0])) == 1.0
    assert auc(np.array([1.0]), np.array([2.0, 3.0])) == 0.0
