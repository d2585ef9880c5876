"""Figs. 3.8 and 3.15 (thesis 3.1.5, 3.1.7): the jobs' measures and the register
claims, each holding on one synthetic frame and failing on another."""

import math

import numpy as np
import pandas as pd
import pytest

from harness.results.fig_3_8_15.register_claims import register_claims, spectrum_beyond_two
from harness.results.fig_3_8_15.work import (
    count_above, median_tooth_cosine, parameter_spearman, procrustes_residual, ring_measures,
)


def test_count_above_reads_the_positive_sum():
    assert count_above([5.0, 3.0, 1.0, 0.05, -4.0], 0.01) == 3
    assert count_above([1.0, 1.0, 0.0], 0.01) == 2


def test_median_tooth_cosine_orthogonal_vs_parallel():
    t = np.linspace(0, 1, 10)
    y = np.repeat([0, 1, 2], 10)
    apart = np.zeros((30, 3))
    for j in range(3):
        apart[10 * j:10 * j + 10, j] = t
    parallel = np.column_stack([np.r_[t, t, t], np.repeat([0.0, 1.0, 2.0], 10), np.zeros(30)])
    assert median_tooth_cosine(apart, y) < 1e-12
    assert median_tooth_cosine(parallel, y) == pytest.approx(1.0)


def test_procrustes_residual_rotation_vs_bend():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 2))
    Q, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    Y = np.pad(X, ((0, 0), (0, 2))) @ Q + 3.0
    assert procrustes_residual(X, Y) < 1e-20
    bent = np.column_stack([X, X[:, 0] ** 2])
    assert procrustes_residual(X, bent) > 0.1


def test_ring_measures_circle_vs_blob():
    t = 2 * np.pi * np.arange(200) / 200
    circle = np.column_stack([np.cos(-t + 1), np.sin(-t + 1)])  # reflected and turned
    m = ring_measures(circle, t)
    assert m["radius_cv"] < 1e-12 and m["circular_corr"] > 0.999
    mirrored = ring_measures(circle * [1, -1], t)  # a reflection reads the same
    assert mirrored["circular_corr"] == pytest.approx(m["circular_corr"])
    blob = np.random.default_rng(1).standard_normal((200, 2))
    m = ring_measures(blob, t)
    assert m["radius_cv"] > 0.3 and abs(m["circular_corr"]) < 0.3


def test_parameter_spearman_order_vs_shuffle():
    t = 2 * np.pi * np.arange(300) / 300
    X = np.column_stack([np.cos(t), np.sin(t), np.zeros(300)])
    assert parameter_spearman(X, X[:, :2], t, 4) > 0.85
    shuffled = X[np.random.default_rng(0).permutation(300), :2]
    assert parameter_spearman(X, shuffled, t, 4) < 0.3


def _frame(mvu, iso, cos=0.1, large=(2, 1e-6), top=(0.999, 1e-4), quality=0.99, ring=(0.01, 0.99),
           status="optimal", ceiling=1.0):
    rows = [{"key": "trefoil/mvu", "part": "trefoil", "kind": "mvu", "teeth": math.nan,
             "status": "ok", "reason": "", "solve_status": status, "gap": 1e-5,
             "n_samples": 1617, "k": 4, "top_two": top[0], "max_tail": top[1],
             "local_continuity": quality, "local_trust": quality, "spearman": quality,
             "spearman_ceiling": ceiling,
             "radius_cv": ring[0], "circular_corr": -ring[1], "count": 2}]
    for t, (m, i) in enumerate(zip(mvu, iso), start=4):
        rows += [{"key": f"comb/mvu/t{t}", "part": "comb", "kind": "mvu", "teeth": t,
                  "status": "ok", "reason": "", "solve_status": status, "gap": 1e-5,
                  "count": m, "median_cos": cos, "k": 3,
                  **spectrum_beyond_two([1 / m if j < m else 0.0 for j in range(10)])},
                 {"key": f"comb/isomap/t{t}", "part": "comb", "kind": "isomap", "teeth": t,
                  "status": "ok", "reason": "", "solve_status": None, "gap": math.nan,
                  "count": i, "k": 5},
                 {"key": f"comb/large0/t{t}", "part": "comb", "kind": "large0", "teeth": t,
                  "status": "ok", "reason": "", "solve_status": status, "gap": 1e-5,
                  "count": large[0], "procrustes": large[1], "k": 13}]
    return pd.DataFrame(rows)


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(frame)}


def test_claims_hold_on_a_thesis_like_frame():
    v = _verdicts(_frame([6, 6], [8, 8]))
    assert set(v.values()) == {"holds"} and len(v) == 10


def test_claims_fail_on_a_contrary_frame():
    v = _verdicts(_frame([2, 2], [2, 2], cos=0.9, large=(3, 0.5), top=(0.9, 0.05),
                         quality=0.5, ring=(0.5, 0.2)))
    assert set(v.values()) == {"does not hold"}


def test_exact_counts_partly_hold_when_only_the_increase_holds():
    v = _verdicts(_frame([6, 4], [5, 9]))
    assert v["s3-1-7-comb-mvu-six-dimensions"] == "partly holds"
    assert v["s3-1-7-comb-isomap-eight-dimensions"] == "does not hold"
    assert v["s3-1-7-lower-dimensionality-not-guaranteed"] == "holds"


def test_uncertified_solves_are_not_counted():
    claims = register_claims(_frame([6, 6], [8, 8], status="inaccurate"))
    v = {c["register"]: c["verdict"] for c in claims}
    assert v["s3-1-7-comb-mvu-six-dimensions"] == "not measured"
    assert v["s3-1-5-fig-3-8-trefoil-annulus"] == "not measured"
    assert "not counted" in next(c["evidence"] for c in claims
                                 if c["register"] == "s3-1-7-comb-strings-point-apart")


def test_spearman_below_its_ceiling_decides_nothing():
    claims = register_claims(_frame([6, 6], [8, 8], quality=0.95, ceiling=0.866))
    c = next(c for c in claims if c["register"] == "s3-1-5-fig-3-8-neighbourhoods-preserved")
    assert c["verdict"] == "holds" and "caps the correlation" in c["evidence"]
    assert "parameter continuity (not measured)" in c["evidence"]


def test_spearman_ceiling_of_an_evenly_sampled_circle():
    from harness.results.fig_3_8_15.work import spearman_ceiling

    t = 2 * np.pi * np.arange(300) / 300
    X = np.column_stack([np.cos(t), np.sin(t)])
    ceiling = spearman_ceiling(X, t, 4)
    assert ceiling == pytest.approx(np.sqrt(3) / 2, abs=1e-3)  # two tied halves
    assert parameter_spearman(X, X, t, 4) == pytest.approx(ceiling, abs=1e-3)


def test_chapter_4s_increase_needs_one_comb_beyond_two_dimensions():
    claims = {c["register"]: c for c in register_claims(_frame([2, 3], [8, 8]))}
    made = claims["s4-mvu-can-increase-dimensionality"]
    # one comb of three equal eigenvalues is enough for a claim about some example
    assert made["verdict"] == "holds"
    assert "T = 5: 3" in made["evidence"] and "T = 5: 0.333" in made["evidence"]
    assert _verdicts(_frame([2, 2], [8, 8]))["s4-mvu-can-increase-dimensionality"] == "does not hold"
    uncertified = _verdicts(_frame([6, 6], [8, 8], status="inaccurate"))
    assert uncertified["s4-mvu-can-increase-dimensionality"] == "not measured"
