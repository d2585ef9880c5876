"""Table 3.3's register entries (harness.results.table_3_3.register_claims): rows and
3.2.2's kernel comparisons on synthetic USPS cells; the stand-in only shown."""

import pandas as pd

from harness.results.table_3_3.register_claims import register_claims

TASKS = ("1vs2", "1vs3", "2vs8", "8vs9")
THESIS = {"1vs2": (0.00, 0.00, 0.14, 0.59), "1vs3": (0.23, 0.00, 0.35, 1.73),
          "2vs8": (2.18, 1.12, 0.63, 3.37), "8vs9": (1.00, 0.54, 0.29, 1.27)}
KERNELS = ("Linear", "Polynomial", "Gaussian", "MVU")


def _frame(errors, sd=0.5, stand_in=False):
    """``errors``: {task: (linear, polynomial, gaussian, mvu)} mean percent errors."""
    return pd.DataFrame([{"measure": "test_error_pct", "thesis_label": k, "task": t,
                          "stand_in": stand_in, "status": "ok", "ours": v, "ours_std": sd,
                          "n_runs": 10, "thesis": THESIS[t][i], "certified": True,
                          "source_dataset": "usps_standin" if stand_in else "usps"}
                         for t, vals in errors.items() for i, (k, v) in
                         enumerate(zip(KERNELS, vals))])


def _claims(frame):
    return {c["register"]: c for c in register_claims({}, frame)}


AS_THESIS = {t: THESIS[t] for t in TASKS}
MVU_BEST = {t: (3.0, 3.0, 3.0, 0.1) for t in TASKS}


def test_rows_reproduce_the_thesis_and_fail_far_from_it():
    assert _claims(_frame(AS_THESIS))["s3-2-2-table-3-3-2-vs-8"]["verdict"] == "holds"
    far = _claims(_frame({**AS_THESIS, "2vs8": (2.18, 1.12, 0.63, 9.0)}))
    assert far["s3-2-2-table-3-3-2-vs-8"]["verdict"] == "does not hold"
    assert far["s3-2-2-table-3-3-8-vs-9"]["verdict"] == "holds"


def test_a_row_between_the_two_bands_partly_holds():
    # MVU 1.0 point off with sd 0.5: outside 2 SE (0.32, floor 0.3), inside one error (1.11)
    claim = _claims(_frame({**AS_THESIS, "8vs9": (1.00, 0.54, 0.29, 2.27)}))
    assert claim["s3-2-2-table-3-3-8-vs-9"]["verdict"] == "partly holds"


def test_kernel_comparisons_hold_on_the_thesis_numbers_shape_and_fail_reversed():
    good = {t: (2.0, 0.5, 0.5, 5.0) for t in TASKS}
    claims = _claims(_frame(good))
    for entry in ("s3-2-2-gaussian-good-classification", "s3-2-2-mvu-strength-weakness",
                  "s3-2-2-poly-gauss-more-powerful"):
        assert claims[entry]["verdict"] == "holds", claims[entry]["evidence"]
    bad = _claims(_frame(MVU_BEST))
    assert bad["s3-2-2-mvu-strength-weakness"]["verdict"] == "does not hold"
    assert bad["s3-2-2-poly-gauss-more-powerful"]["verdict"] == "partly holds"  # <= linear ok
    assert bad["s3-2-2-gaussian-good-classification"]["verdict"] == "partly holds"
    worse = _claims(_frame({t: (0.1, 5.0, 5.0, 0.1) for t in TASKS}))
    assert worse["s3-2-2-poly-gauss-more-powerful"]["verdict"] == "does not hold"


def test_differences_within_two_standard_errors_are_undecided():
    close = _claims(_frame({t: (1.0, 1.0, 1.0, 1.2) for t in TASKS}, sd=1.0))
    assert close["s3-2-2-mvu-strength-weakness"]["verdict"] == "undecided (within noise)"


def test_the_stand_in_is_shown_never_counted():
    claims = _claims(_frame(AS_THESIS, stand_in=True))
    for claim in claims.values():
        assert claim["verdict"] == "not measured (stand-in)"
        assert "usps_standin" in claim["evidence"]
    assert "reading 2 SE (holds on the stand-in)" in claims["s3-2-2-table-3-3-1-vs-2"]["evidence"]
