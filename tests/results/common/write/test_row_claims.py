"""The register's row entries of a thesis table, decided cell by cell
(harness.results.common.write.row_claims, issue 51)."""

import pandas as pd

from harness.results.common.write.row_claims import RowReading, row_claims, row_entries

TABLE_3_2 = {"s3-1-9-table-3-2-trust-": "local_trust"}


def _frame(cells):
    return pd.DataFrame([{"measure": "local_trust", "thesis_label": label, "dataset": d,
                          "stand_in": False, "status": "ok", "thesis": t, "ours": o,
                          "ours_std": s, "n_runs": n, "certified": True}
                         for label, d, t, o, s, n in cells])


def test_row_entries_come_from_the_register_with_the_thesis_label():
    rows = row_entries(TABLE_3_2)
    assert rows["s3-1-9-table-3-2-trust-mvu"] == ("local_trust", "MVU")
    assert rows["s3-1-9-table-3-2-trust-var-mvu-cg-lle"] == ("local_trust",
                                                             "var. MVU (CG) (LLE)")
    assert len(rows) == 10


def test_a_row_is_reproduced_cell_by_cell_within_each_readings_band():
    frame = _frame([("MVU", "teapot", 0.995, 0.99, None, 1),
                    ("MVU", "swiss_roll", 0.990, 0.90, None, 1),     # 0.09 off
                    ("MVU", "average", 0.883, 0.86, None, 1),
                    ("var.MVU(CG)(LLE)", "teapot", 0.496, 0.50, None, 1)])
    readings = (RowReading("cells", absolute=0.05), RowReading("average", absolute=0.05,
                                                               average=True))
    claims = {c["register"]: c for c in row_claims("table_3_2", frame, TABLE_3_2, readings)}
    mvu = claims["s3-1-9-table-3-2-trust-mvu"]
    assert mvu["verdict"] == "partly holds"  # one cell 0.09 off, the average within
    assert "reading cells (does not hold)" in mvu["evidence"]
    assert "swiss_roll 0.900 vs 0.990 (band 0.050)" in mvu["evidence"]
    lle = claims["s3-1-9-table-3-2-trust-var-mvu-cg-lle"]  # 'var. MVU (CG) (LLE)'
    assert "reading cells (holds)" in lle["evidence"]
    assert claims["s3-1-9-table-3-2-trust-pca"]["verdict"] == "not measured"


def test_the_noise_band_is_standard_errors_of_our_mean():
    reading = RowReading("within noise", standard_errors=2.0)
    assert reading.tolerance(5.0, 2.0, 16) == 1.0  # 2 x 2 / sqrt(16)
    assert RowReading("t", absolute=1.5, relative=0.25).tolerance(10.0, 1.0, 4) == 2.5
