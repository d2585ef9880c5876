"""Table 3.2 at other l (issue 55): the l grid, the job's scores against the metric
called directly, the params (Table 3.2's, MVU k = 5), and both register claims on
hand-made long tables -- a holding and a failing case each."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.metrics import embedding_quality
from harness.results.table_3_2_l5.lgrid import L_GRID, l_tag, resolve_l
from harness.results.table_3_2_l5.register_claims import (
    THESIS_DATASETS, intersection_trends, mvu_trust_averages, register_claims,
)
from harness.results.table_3_2_l5.work import scores_by_l


def test_l_grid_resolves():
    assert [resolve_l(l, 400) for l in L_GRID] == [5, 10, 15, 50, 100, 200, 399]
    assert [l_tag(l) for l in ("n/2", "n-1", 5)] == ["lhalf", "lnm1", "l5"]


def test_scores_by_l_match_the_metric_and_reach_one():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    Y = X[:, :2] + 0.3 * rng.normal(size=(120, 2))
    scores = scores_by_l(X, Y, L_GRID)
    direct = embedding_quality(X, Y, n_neighbors=5)
    assert scores["local_trust_l5"] == direct["local_trust"]
    assert scores["neighborhood_intersection_lnm1"] == pytest.approx(1.0, abs=1e-12)
    series = [scores[f"neighborhood_intersection_{l_tag(l)}"] for l in L_GRID]
    assert series[0] < series[-1]


def test_params_are_table_3_2s():
    from harness.config import load_config
    from harness.result_registry import get_result

    config = load_config("config/quick.yaml")
    ours = get_result("table_3_2_l5").params(config, "swiss_roll/mvu/native")
    theirs = get_result("table_3_2").params(config, "swiss_roll/mvu/native")
    assert ours["method_params"] == theirs["method_params"]  # MVU k = 5, as Table 3.2
    assert ours["method_params"]["n_neighbors"] == 5
    assert ours["dataset_params"] == theirs["dataset_params"]
    assert ours["l_grid"] == list(L_GRID) and ours["eval_neighbors"] == 5


def _long(trust, datasets=THESIS_DATASETS, intersections=None, stand_in=False, certified=True):
    """A long table: MVU's trust at l = 15 and 5 per data set, and N(Y) over the l grid."""
    rows = []
    for d in datasets:
        t15, t5 = trust[d]
        base = {"method": "mvu/native", "thesis_label": "MVU", "dataset": d,
                "thesis_dataset": d, "stand_in": stand_in, "status": "ok",
                "certified": certified}
        rows += [{**base, "measure": "local_trust_l15", "ours": t15},
                 {**base, "measure": "local_trust_l5", "ours": t5}]
        series = (intersections or {}).get(d, [0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 1.0])
        rows += [{**base, "measure": f"neighborhood_intersection_{l_tag(l)}", "ours": n}
                 for l, n in zip(L_GRID, series)]
    return pd.DataFrame(rows)


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims("table_3_2_l5", frame)}


def test_trust_claim_holds_and_fails():
    near = {d: (0.80, 0.94) for d in THESIS_DATASETS}
    assert _verdicts(_long(near))["s3-1-9-mvu-trust-l5-0-938"] == "holds"
    flat = {d: (0.70, 0.60) for d in THESIS_DATASETS}  # both readings fail
    assert _verdicts(_long(flat))["s3-1-9-mvu-trust-l5-0-938"] == "does not hold"
    # a rise within 0.05 and values off: values fail, direction undecided
    rows, _ = mvu_trust_averages(_long({d: (0.80, 0.83) for d in THESIS_DATASETS}))
    assert rows[0]["l5"] == pytest.approx(0.83)


def test_trust_claim_needs_all_four_real_data_sets():
    near = {d: (0.80, 0.94) for d in THESIS_DATASETS}
    three = _long(near, datasets=THESIS_DATASETS[:3])
    assert _verdicts(three)["s3-1-9-mvu-trust-l5-0-938"] == "not measured"
    assert _verdicts(_long(near, stand_in=True))["s3-1-9-mvu-trust-l5-0-938"] == "not measured"
    assert _verdicts(_long(near, certified=False))["s3-1-9-mvu-trust-l5-0-938"] == \
        "not measured"


def test_intersection_claim_holds_and_fails():
    trust = {d: (0.8, 0.9) for d in THESIS_DATASETS}
    assert _verdicts(_long(trust))["s3-1-9-intersection-approaches-1-as-l-grows"] == "holds"
    falling = {"frey": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 1.0]}
    assert _verdicts(_long(trust, intersections=falling))[
        "s3-1-9-intersection-approaches-1-as-l-grows"] == "does not hold"
    short = {"olivetti": [0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 0.999]}
    assert _verdicts(_long(trust, intersections=short))[
        "s3-1-9-intersection-approaches-1-as-l-grows"] == "does not hold"
    subset = _long(trust, datasets=("swiss_roll",))
    assert _verdicts(subset)["s3-1-9-intersection-approaches-1-as-l-grows"] == "not measured"
    assert len(intersection_trends(subset)) == 1


def test_claims_without_a_table_are_not_measured():
    verdicts = {c["register"]: c["verdict"] for c in register_claims("table_3_2_l5", None)}
    assert set(verdicts.values()) == {"not measured"}
