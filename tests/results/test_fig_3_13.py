"""Fig. 3.13 / section 3.1.6's inequality checks: the growth and slack measures on a
hand-made kernel and edges, the top-three share of a known spectrum, an inequality MVU
on a tiny data set that keeps every edge from growing, and the verdicts on hand-made
records (holding, failing, unmeasured)."""

from __future__ import annotations

import numpy as np
import pytest

from harness.config import load_config
from harness.errors import ConfigError
from harness.results import fig_3_13
from harness.results.fig_3_13 import register_claims as rc
from harness.results.fig_3_13.work import (edge_measures, normalised, spectrum, sq_distances,
                                           top_share, work)


def test_growth_and_slack_on_a_hand_made_kernel():
    # K = F F^T of three points on a line at 0, 1, 3: output distances 1, 4, 9
    F = np.array([[0.0], [1.0], [3.0]])
    K = F @ F.T
    edges = np.array([[0, 1], [1, 2], [0, 2]])
    out = sq_distances(F, edges)
    assert out == pytest.approx([K[i, i] - 2 * K[i, j] + K[j, j] for i, j in edges])
    assert out == pytest.approx([1, 4, 9])
    # inputs: one edge kept (1), one shrunk by half (8 -> 4), one grown 10 % (9 from 8.18..)
    D = np.array([1.0, 8.0, 9.0 / 1.1])
    m = edge_measures(F, edges, D)
    assert m["max_relative_growth"] == pytest.approx(0.1)
    assert m["n_grown"] == 1 and m["n_edges"] == 3
    assert m["n_tight"] == 2 and m["fraction_tight"] == pytest.approx(2 / 3)
    assert m["max_relative_slack"] == pytest.approx(0.5)
    assert m["total_slack_share"] == pytest.approx((8 - 4 + 9 / 1.1 - 9) / D.sum())
    # all kept: no growth, all tight, no slack
    kept = edge_measures(F, edges, out)
    assert kept["max_relative_growth"] == pytest.approx(0) and kept["n_grown"] == 0
    assert kept["fraction_tight"] == 1 and kept["total_slack_share"] == pytest.approx(0)


def test_top_three_share_of_a_known_spectrum():
    assert top_share([1.0, 4.0, 2.0, 2.0, 1.0]) == pytest.approx(0.8)
    assert normalised([1.0, 3.0]) == pytest.approx([0.75, 0.25])
    # points on three orthogonal axes with variances 9 : 4 : 1 and nothing else
    Y = np.zeros((6, 5))
    Y[:2, 0], Y[2:4, 1], Y[4:, 2] = [3, -3], [2, -2], [1, -1]
    s = spectrum(Y, 4)
    assert s["top3_share"] == pytest.approx(1.0)
    assert s["normalised_eigenvalues"][:3] == pytest.approx([9 / 14, 4 / 14, 1 / 14], abs=1e-9)


def test_inequality_mvu_on_a_tiny_roll_keeps_every_edge_from_growing():
    params = {"result": "fig_3_13", "dataset": "swiss_roll", "variant": "inequality",
              "n_samples": None, "k": 6, "dataset_params": {"n_samples": 60, "noise": 0.0},
              "seed": 0, "blas_threads": 1, "n_spectrum": 10, "solver_time_limit": 120}
    r = work(params)
    assert r["status"] == "ok" and r["solve"]["status"] == "optimal", r
    assert r["edges"]["max_relative_growth"] <= 1e-4
    assert r["edges"]["n_grown"] == 0 and r["n"] == 60 and r["n_features"] == 3
    strict = work({**params, "variant": "equality"})
    assert strict["solve"]["status"] == "optimal"
    # the relaxed optimum has equal or greater variance (3.1.6), up to the solver's gap
    assert r["trace"] >= strict["trace"] * (1 - 1e-3)


def test_an_unavailable_data_set_is_a_marked_gap(monkeypatch, tmp_path):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty"))
    r = work({"dataset": "teapot", "variant": "inequality", "n_samples": None, "k": 4,
              "dataset_params": {}, "seed": 0, "blas_threads": 1, "n_spectrum": 10,
              "solver_time_limit": 10})
    assert r["status"] != "ok" and r["reason"]


def test_keys_params_and_check(repo_root):
    config = load_config(repo_root / "config/quick.yaml")
    assert fig_3_13.keys(config)[:3] == ["frey_pca", "frey_equality", "frey_inequality"]
    assert "teapot_standin_inequality" in fig_3_13.keys(config)
    p = fig_3_13.params(config, "teapot_standin_inequality")
    assert p["dataset"] == "teapot_standin" and p["variant"] == "inequality" and p["k"] == 4
    assert fig_3_13.params(config, "frey_equality")["k"] == 4
    with pytest.raises(ConfigError):
        fig_3_13.params(config, "frey_slack")
    config["results"]["fig_3_13"]["inequality_datasets"]["frey"] = {"k": 4}
    with pytest.raises(ConfigError):
        fig_3_13.check(config)


# ---- the verdicts on hand-made records ------------------------------------------------
def _mvu(dataset, variant, top3=0.5, growth=0.0, tight=0.95, total=0.01, status="optimal",
         stand_in=None, n=1965, n_public=1965):
    return {"status": "ok", "reason": "", "dataset": dataset, "variant": variant, "n": n,
            "n_public": n_public, "subset": n < n_public, "n_features": 560, "k": 4,
            "stand_in_for": stand_in, "top3_share": top3, "trace": 1.0, "n_appreciable": 3,
            "solve": {"status": status, "gap": 1e-4, "violation": 1e-9},
            "edges": {"n_edges": 100, "max_relative_growth": growth, "n_grown": int(growth > 1e-4),
                      "fraction_tight": tight, "n_tight": int(100 * tight),
                      "median_relative_slack": 0.0, "max_relative_slack": 0.2,
                      "total_slack_share": total}}


def _pca(top3=0.3, n_public=1965, n=1965):
    return {"status": "ok", "reason": "", "dataset": "frey", "variant": "pca", "n": n,
            "n_public": n_public, "subset": n < n_public, "n_features": 560,
            "image_shape": [28, 20], "pixels_per_image": 560, "top3_share": top3}


def _frey(ineq=0.7, eq=0.6, pca=0.3, **kw):
    return {"frey_pca": _pca(pca), "frey_equality": _mvu("frey", "equality", eq, **kw),
            "frey_inequality": _mvu("frey", "inequality", ineq, **kw)}


def test_concentration_readings():
    assert rc.concentrates(_frey())["verdict"] == "holds"
    assert rc.concentrates(_frey(ineq=0.5))["verdict"] == "does not hold"
    assert rc.concentrates(_frey(ineq=0.603))["verdict"] == "undecided (within noise)"
    # beats strict MVU, not PCA: the readings disagree
    split = rc.concentrates(_frey(ineq=0.7, pca=0.9))
    assert split["verdict"] == "partly holds"
    assert rc.concentrates(_frey(status="inaccurate"))["verdict"] == "not measured"
    assert rc.concentrates({"frey_pca": _pca()})["verdict"] == "not measured"


def test_concentration_on_a_subset_says_it_is_scaled_down():
    recs = {"frey_pca": _pca(n=1000), "frey_equality": _mvu("frey", "equality", 0.6, n=1000),
            "frey_inequality": _mvu("frey", "inequality", 0.7, n=1000)}
    claim = rc.concentrates(recs)
    assert claim["verdict"] == "holds" and "scaled down" in claim["evidence"]
    assert "n = 1000" in claim["evidence"]


def _runs(frey=None, roll=None, standin=None):
    recs = {"teapot_inequality": {"status": "unavailable", "reason": "not cached"}}
    if frey is not None:
        recs["frey_inequality"] = frey
    if roll is not None:
        recs["swiss_roll_inequality"] = roll
    if standin is not None:
        recs["teapot_standin_inequality"] = standin
    return recs


def test_no_growth_reading():
    good = _runs(_mvu("frey", "inequality"), _mvu("swiss_roll", "inequality", growth=5e-5))
    claim = rc.shrink_not_grow(good)
    assert claim["verdict"] == "holds" and "keeps the constraint" in claim["evidence"]
    grown = _runs(_mvu("frey", "inequality"), _mvu("swiss_roll", "inequality", growth=3e-3))
    assert rc.shrink_not_grow(grown)["verdict"] == "does not hold"
    # a stand-in that grew and an uncertified run that grew do not count
    only_shown = _runs(_mvu("frey", "inequality", growth=1.0, status="inaccurate"),
                       standin=_mvu("teapot_standin", "inequality", growth=1.0,
                                    stand_in="teapot"))
    assert rc.shrink_not_grow(only_shown)["verdict"] == "not measured"
    assert rc.shrink_not_grow({})["verdict"] == "not measured"


def test_slack_readings_on_most_of_the_three():
    good = _runs(_mvu("frey", "inequality"), _mvu("swiss_roll", "inequality"))
    assert rc.slack_minimised(good)["verdict"] == "holds"
    bad = _runs(_mvu("frey", "inequality", tight=0.5, total=0.2),
                _mvu("swiss_roll", "inequality", tight=0.6, total=0.3))
    assert rc.slack_minimised(bad)["verdict"] == "does not hold"
    # tight on both but too much total slack on both: the readings disagree
    split = _runs(_mvu("frey", "inequality", total=0.2), _mvu("swiss_roll", "inequality", total=0.2))
    assert rc.slack_minimised(split)["verdict"] == "partly holds"
    # one passes, one fails, the teapot a gap: open
    open_ = _runs(_mvu("frey", "inequality"), _mvu("swiss_roll", "inequality", tight=0.5, total=0.2))
    assert rc.slack_minimised(open_)["verdict"] == "not measured"
    stand_in = _runs(standin=_mvu("teapot_standin", "inequality", stand_in="teapot"))
    assert rc.slack_minimised(stand_in)["verdict"] == "not measured"


def test_frey_dimension_and_count_readings():
    claim = rc.frey_dimension({"frey_pca": _pca()})
    assert claim["verdict"] == "partly holds"   # 560 pixels; 1965, not 1960
    assert "dimension (holds)" in claim["evidence"] and "count (does not hold)" in claim["evidence"]
    assert rc.frey_dimension({"frey_pca": _pca(n_public=1960)})["verdict"] == "holds"
    assert rc.frey_dimension({"frey_pca": {"status": "unavailable", "reason": "x"}})[
        "verdict"] == "not measured"


def test_derived_rows_hold_the_differences_and_constants():
    rows = dict(rc.derived(_frey()))
    assert rows["top3_share.inequality_minus_equality"] == pytest.approx(0.1)
    assert rows["top3_share.inequality_minus_pca"] == pytest.approx(0.4)
    assert rows["count.public_minus_thesis"] == 5 and rows["thesis.n_images"] == 1960
    assert len(rc.register_claims(_frey())) == 4


def test_knn_edges_are_a_subset_of_the_clique_graph():
    from harness.problems.mvu_problem import MVUProblem
    from harness.results.fig_3_13.work import on_knn_edges

    X = np.random.default_rng(0).normal(size=(30, 3))
    problem = MVUProblem.from_points(X, 4, variant="inequality")
    F = X - X.mean(axis=0)
    m = on_knn_edges(X, 4, F, problem.edges, problem.sq_lengths)
    assert 0 < m["n_edges"] < problem.m and m["max_relative_growth"] == pytest.approx(0, abs=1e-12)
