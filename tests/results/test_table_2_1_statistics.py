"""Table 2.1's statistics (thesis 2.1.6): the job's helpers and the register claims
on hand-made frames, each with a holding and a failing case."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.results.table_2_1_statistics.register_claims import COLUMNS, register_claims
from harness.results.table_2_1_statistics.work import (
    class_sizes, components_holding, loaded_split, per_subject_split,
)

THESIS = {
    "dimension": dict(zip(COLUMNS, (784, 200, 16, 617, 200, 4, 4, 13, 200))),
    "n_inputs": dict(zip(COLUMNS, (70000, 18827, 20000, 7797, 2414, 128, 535, 152, 400))),
    "n_training": dict(zip(COLUMNS, (60000, 13179, 14000, 6238, 1690, 90, 375, 106, 280))),
    "n_testing": dict(zip(COLUMNS, (10000, 5648, 6000, 1559, 724, 38, 161, 46, 120))),
    "n_classes": dict(zip(COLUMNS, (10, 20, 26, 26, 38, 3, 3, 3, 40))),
}
DATASETS = dict(zip(COLUMNS, ("mnist", "newsgroups", "letter", "isolet", "yale_b", "iris",
                              "balance_scale", "wine", "olivetti")))


def _row(column, **change):
    """A measured row equal to the thesis' column (raw dims: 200 columns as 1000)."""
    t = {q: THESIS[q][column] for q in THESIS}
    row = {"column": column, "dataset": DATASETS[column], "status": "ok", "reason": "",
           "n_samples": t["n_inputs"],
           "n_features": 1000 if t["dimension"] == 200 else t["dimension"],
           "n_classes": t["n_classes"], "n_train": t["n_training"], "n_test": t["n_testing"],
           "class_min": 60, "class_max": 64, "n_classes_below_max": 3, "rule_train": 1700,
           "rule_test": 700, "variance_fraction": 0.95, "pcs_deskewed": 164, "pcs_raw": 160,
           "share_at_target_deskewed": 0.95, "share_at_target_raw": 0.96,
           "pcs_training": 172, "pcs_whole": 175, "share_at_target_training": 0.95,
           "share_at_target_whole": 0.95}
    if column == "20news":
        row.update(class_min=950, class_max=1000)
    return {**row, **change}


def _verdicts(rows):
    return {c["register"]: c["verdict"] for c in register_claims(pd.DataFrame(rows), THESIS)}


def test_components_holding_counts_the_spectrum():
    rng = np.random.default_rng(0)
    scales = np.array([10.0, 5.0, 1.0, 0.1, 0.01])
    X = rng.standard_normal((20000, 5)) * scales
    share = np.cumsum(scales ** 2) / np.sum(scales ** 2)
    pcs, shares = components_holding(X @ np.linalg.qr(rng.standard_normal((5, 5)))[0], 0.95)
    assert pcs == int(np.searchsorted(share, 0.95) + 1) == 2
    assert np.allclose(shares, share, atol=5e-3)
    assert components_holding(X, 0.999)[0] == 3


def test_split_helpers():
    assert per_subject_split([64, 64, 50, 40]) == (45 * 3 + 40, 19 * 2 + 5)
    assert class_sizes(["a", "b", "a"]) == {"a": 2, "b": 1}
    assert loaded_split({"split_protocol": {"n_train": 7, "n_test": 3}}, 10, None) == (7, 3)
    assert loaded_split({}, 400, 0.7) == (280, 120)


def test_every_column_as_the_thesis_says():
    v = _verdicts([_row(c) for c in COLUMNS])
    for entry in ("s2-1-6-table-2-1-dimensions", "s2-1-6-table-2-1-classes",
                  "s2-1-6-yale-stats", "s2-1-6-yale-64-images", "s2-1-6-letters-16-attributes",
                  "s2-1-6-20news-1000-per-group", "s2-1-6-mnist-164-pcs",
                  "s2-1-6-isolet-172-pcs"):
        assert v[entry] == "holds", entry
    # the thesis' own arithmetic fails: bal 375 + 161 = 536; 45 x 38 = 1710
    assert v["s2-1-6-table-2-1-inputs"] == "partly holds"
    assert v["s2-1-6-yale-balanced-split"] == "does not hold"
    # whole set 7797 != 6238
    assert v["s2-1-6-isolet-stats"] == "partly holds"
    # small sets: 70 % of 535 is 375 training examples, all below 500
    assert v["s2-1-6-small-sets-size-classes"] == "holds"
    assert v["s2-1-6-table-2-1-training"] == "holds"


@pytest.mark.parametrize("column, change, entry", [
    ("iris", {"n_samples": 150}, "s2-1-6-table-2-1-inputs"),
    ("iris", {"n_train": 105}, "s2-1-6-table-2-1-training"),
    ("wine", {"n_test": 54}, "s2-1-6-table-2-1-testing"),
    ("olivetti", {"n_classes": 41}, "s2-1-6-table-2-1-classes"),
    ("letters", {"n_features": 17}, "s2-1-6-table-2-1-dimensions"),
    ("olivetti", {"n_samples": 150}, "s2-1-6-table-2-1-dimensions"),
    ("letters", {"n_classes": 25}, "s2-1-6-letters-16-attributes"),
    ("bal", {"n_samples": 800}, "s2-1-6-small-sets-size-classes"),
    ("yalefaces", {"class_max": 65}, "s2-1-6-yale-64-images"),
    ("yalefaces", {"n_classes_below_max": 8}, "s2-1-6-yale-64-images"),
    ("20news", {"class_min": 628}, "s2-1-6-20news-1000-per-group"),
])
def test_a_counterexample_fails(column, change, entry):
    rows = [_row(c, **(change if c == column else {})) for c in COLUMNS]
    assert _verdicts(rows)[entry] in ("does not hold", "partly holds")


def test_pc_counts_outside_ten_per_cent_fail():
    rows = [_row(c, **({"pcs_deskewed": 181, "pcs_raw": 120} if c == "mnist" else {}))
            for c in COLUMNS]
    assert _verdicts(rows)["s2-1-6-mnist-164-pcs"] == "does not hold"
    rows = [_row(c, **({"pcs_raw": 120} if c == "mnist" else {})) for c in COLUMNS]
    assert _verdicts(rows)["s2-1-6-mnist-164-pcs"] == "partly holds"


def test_missing_data_is_not_measured_and_names_the_fetch():
    gone = {"status": "unavailable", "reason": "run `harness fetch isolet`"}
    rows = [({"column": c, "dataset": DATASETS[c], **gone} if c in ("isolet", "20news",
                                                                    "yalefaces") else _row(c))
            for c in COLUMNS]
    claims = {c["register"]: c for c in register_claims(pd.DataFrame(rows), THESIS)}
    for entry in ("s2-1-6-table-2-1-classes", "s2-1-6-isolet-172-pcs", "s2-1-6-yale-stats",
                  "s2-1-6-20news-1000-per-group", "s2-1-6-isolet-stats"):
        assert claims[entry]["verdict"] == "not measured", entry
        assert "harness fetch" in claims[entry]["evidence"]
    # the arithmetic needs no data
    assert claims["s2-1-6-yale-balanced-split"]["verdict"] == "does not hold"
