"""lmnn_rescale: the fit at several scales (the scaled start removes the scale up to
the solver's stopping rule) and the verdict of s2-1-9-rescale-no-accuracy-effect on holding and
failing frames."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.results.lmnn_rescale.register_claims import register_claims, scale_tests
from harness.results.lmnn_rescale.work import fit_at_scales

CONF = {"datasets": ["iris", "mnist"], "se_factor": 2.0, "min_agreement": 0.99,
        "frobenius_tolerance": 0.05, "init": "identity"}


def _blobs(seed=0, n=60, d=3):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    return rng.normal(size=(n, d)) + 2.0 * y[:, None], y


def test_scaled_start_is_scale_free():
    X, y = _blobs()
    params = {"scales": [100, 1, 10], "init": "pca_scaled", "n_neighbors": 3, "mu": 0.5,
              "max_iter": 200}
    rows = fit_at_scales(X[:45], y[:45], X[45:], y[45:], params)
    assert [r["scale"] for r in rows] == [1.0, 10.0, 100.0]  # 1 first: the reference
    assert rows[0]["rel_frobenius"] == 0.0 and rows[0]["agreement"] == 1.0
    # the same problem up to the solver's stopping rule (L-BFGS-B's absolute tolerances)
    assert all(r["rel_frobenius"] < 0.05 and r["agreement"] == 1.0 for r in rows)


def _frame(diffs=(0.0, 0.0), agreement=1.0, frob=0.01, mnist=True, runs=4):
    rows = []
    for run in range(runs):
        rows.append({"dataset": "iris", "status": "ok", "reason": "", "run": run, "scale": 1.0,
                     "error": 0.05, "agreement": 1.0, "rel_frobenius": 0.0, "converged": True,
                     "n_test": 45})
        for c, diff in zip((10.0, 100.0), diffs):
            rows.append({"dataset": "iris", "status": "ok", "reason": "", "run": run,
                         "scale": c, "error": 0.05 + diff * (run % 2),
                         "agreement": agreement, "rel_frobenius": frob, "converged": True,
                         "n_test": 45})
    if mnist:
        for c, e in ((1.0, 0.08), (10.0, 0.081), (100.0, 0.08)):
            rows.append({"dataset": "mnist", "status": "ok", "reason": "", "run": 0,
                         "scale": c, "error": e, "agreement": 0.995, "rel_frobenius": frob,
                         "converged": True, "n_test": 1000})
    else:
        rows.append({"dataset": "mnist", "status": "unavailable",
                     "reason": "run `harness fetch mnist`"})
    return pd.DataFrame(rows)


def test_scale_tests_standard_errors():
    tests = scale_tests(_frame(diffs=(0.02, 0.0)), 2.0).set_index(["dataset", "scale"])
    iris = tests.loc[("iris", 10.0)]
    # differences 0, 2, 0, 2 points: mean 1, SE sqrt(4/3)/2
    assert np.isclose(iris["diff_pct"], 1.0) and np.isclose(iris["se_pct"], np.sqrt(4 / 3) / 2)
    mnist = tests.loc[("mnist", 10.0)]  # single run: the binomial SE of the error at 1
    assert np.isclose(mnist["se_pct"], 100 * np.sqrt(0.08 * 0.92 / 1000))


def _claim(frame, **conf):
    return register_claims({**CONF, **conf}, frame)[0]


def test_holds_and_fails():
    assert _claim(_frame())["verdict"] == "holds"
    # predictions agreeing on 95 %: accuracy reading fails, matrices still scale
    assert _claim(_frame(agreement=0.95))["verdict"] == "partly holds"
    # the matrices do not scale: the other reading fails
    assert _claim(_frame(frob=0.5))["verdict"] == "partly holds"
    both = _claim(_frame(agreement=0.9, frob=0.5))
    assert both["verdict"] == "does not hold"
    assert both["register"] == "s2-1-9-rescale-no-accuracy-effect"


def test_a_missing_data_set_decides_only_a_failure():
    passing = _claim(_frame(mnist=False))
    assert passing["verdict"] == "not measured" and "harness fetch mnist" in passing["evidence"]
    assert _claim(_frame(mnist=False, frob=0.5))["verdict"] == "does not hold"


def test_scaled_start_is_not_counted():
    claim = _claim(_frame(), init="pca_scaled")
    assert claim["counted"] is False and "by construction" in claim["evidence"]
