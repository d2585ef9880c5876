"""Fig. 3.2 (thesis 3.1.2): the projection's mathematics against naive references and
the register verdicts on frames that hold and frames that fail."""

import math

import numpy as np
import pandas as pd
import pytest

from harness.results.fig_3_2.register_claims import fits, register_claims
from harness.results.fig_3_2.work import (
    _factor, _max_distortions, histogram_work, jl_dimension, k_grid, tail_work,
)


def test_jl_dimension_is_the_printed_formula():
    assert jl_dimension(100, 0.5) == math.ceil(4 * math.log(100) / (0.125 - 0.125 / 3))
    assert jl_dimension(100, 0.5) == 222
    assert jl_dimension(1000, 0.1) > jl_dimension(100, 0.1) > jl_dimension(100, 0.25)


def test_qr_factor_keeps_every_distance():
    X = np.random.default_rng(0).standard_normal((30, 7))  # d < n as MNIST at n = 1000
    Rt, original = _factor(X)
    assert Rt.shape == (30, 7)
    i, j = np.triu_indices(30, 1)
    assert np.allclose(original, ((X[i] - X[j]) ** 2).sum(1))
    assert np.allclose(((Rt[i] - Rt[j]) ** 2).sum(1), original)


def test_nested_distortions_match_a_naive_projection():
    X = np.random.default_rng(1).standard_normal((12, 40))
    Rt, original = _factor(X)
    ks = [3, 8, 20]
    got = _max_distortions(Rt, original, ks, np.random.default_rng(5))
    rng = np.random.default_rng(5)  # the same draws, column block by column block
    H = np.hstack([rng.standard_normal((Rt.shape[1], k - prev)) for prev, k in zip([0, *ks], ks)])
    for index, k in enumerate(ks):
        Y = Rt @ H[:, :k] / math.sqrt(k)
        worst = max(abs(((Y[a] - Y[b]) ** 2).sum() / ((X[a] - X[b]) ** 2).sum() - 1)
                    for a in range(12) for b in range(a + 1, 12))
        assert got[index] == pytest.approx(worst, rel=1e-9)


def test_k_grid_is_geometric_and_ends_at_k_max():
    grid = k_grid(500, 0.02)
    assert grid[0] == 1 and grid[-1] == 500 and grid == sorted(set(grid))
    big = [b / a for a, b in zip(grid, grid[1:]) if a >= 60]
    assert max(big) < 1.05  # the register: "a grid of step 1-5 %"


def test_histogram_means_and_tail_against_the_exact_laws():
    p = {"dimension": 50, "n": 20000, "ks": [2, 10], "bins": 10, "near_width": 0.1,
         "bootstrap": 20}
    rows = histogram_work(p, np.random.default_rng(2))["rows"]
    for row in rows:
        assert abs(row["mean_mapped"] - 1) < 4 * row["se_mapped"]
        # ||f_k||^2 = (d/k) Beta(k/2, (d-k)/2): its variance (d/k)^2 ab/((a+b)^2(a+b+1))
        a, b, d, k = row["k"] / 2, (50 - row["k"]) / 2, 50, row["k"]
        std = (d / k) * math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
        assert row["std_mapped"] == pytest.approx(std, rel=0.05)
    tail = tail_work({"dimension": 400, "samples": 200000, "level": 0.95, "eps": [0.5],
                      "n": [3, 10000]}, np.random.default_rng(3))["rows"]
    ok = tail[0]
    assert ok["ci_low"] <= ok["exact_tail"] <= ok["ci_high"]
    assert tail[1]["status"] == "k >= d"


def _histogram_rows(stds, nears, mean=1.0):
    return [{"part": "histogram", "status": "ok", "n": 1000, "k": k, "mean_projected": k / 100,
             "expected_projected": k / 100, "se_projected": 1e-3, "mean_mapped": mean,
             "expected_mapped": 1.0, "se_mapped": 0.01, "std_mapped": s, "se_std_mapped": 0.01,
             "near_fraction": f, "se_near_fraction": 0.01}
            for k, s, f in zip([2, 4, 8], stds, nears)]


def _verdicts(rows):
    return {c["register"]: c["verdict"] for c in register_claims(pd.DataFrame(rows))}


def test_concentration_and_means_hold_and_fail():
    good = _verdicts(_histogram_rows([1.0, 0.7, 0.5], [0.07, 0.11, 0.16]))
    assert good["s3-1-2-fig-3-2-concentration-increases-with-k"] == "holds"
    assert good["s3-1-2-jl-mapped-length-mean-one"] == "holds"
    bad = _verdicts(_histogram_rows([1.0, 1.2, 0.5], [0.07, 0.11, 0.05], mean=1.2))
    assert bad["s3-1-2-fig-3-2-concentration-increases-with-k"] == "does not hold"
    assert bad["s3-1-2-jl-mapped-length-mean-one"] == "does not hold"
    noisy = _verdicts(_histogram_rows([1.0, 0.99, 0.5], [0.07, 0.11, 0.16]))
    assert noisy["s3-1-2-fig-3-2-concentration-increases-with-k"] == "partly holds"


def test_all_pairs_tail_and_real_data_verdicts():
    pair = {"part": "all_pairs", "status": "ok", "points": "gaussian", "n": 100, "eps": 0.5,
            "k": 222, "draws": 100, "required": 0.99, "se_required": 0.00995}
    tail = {"part": "tail", "status": "ok", "eps": 0.5, "n": 10, "k": 111, "samples": 10**6,
            "outside": 5, "bound": 0.01, "ci_low": 1e-6, "ci_high": 1e-5, "exact_tail": 4e-6,
            "decidable": True}
    real = {"part": "real_data", "status": "ok", "k": 50, "draws": 10, "well": 0.1,
            "median_distortion": 0.07, "median_distortion_max": 0.08}
    good = _verdicts([{**pair, "kept_fraction": 1.0}, tail, real])
    assert good["s3-1-2-jl-random-projections-preserve-all-distances"] == "holds"
    assert good["s3-1-2-jl-deviation-probability-below-1-over-n2"] == "holds"
    assert good["s3-1-2-random-projections-preserve-surprisingly-well"] == "holds"
    assert _verdicts([{**pair, "kept_fraction": 0.985}])[
        "s3-1-2-jl-random-projections-preserve-all-distances"] == "undecided (within noise)"
    bad = _verdicts([{**pair, "kept_fraction": 0.9}, {**tail, "ci_low": 0.02, "ci_high": 0.03},
                     {**real, "median_distortion": 0.2}])
    assert bad["s3-1-2-jl-random-projections-preserve-all-distances"] == "does not hold"
    assert bad["s3-1-2-jl-deviation-probability-below-1-over-n2"] == "does not hold"
    assert bad["s3-1-2-random-projections-preserve-surprisingly-well"] == "does not hold"


def test_dimension_fits_decide_the_log_n_over_eps_squared_trend():
    def rows(k_of):
        return pd.DataFrame([{"part": "dimension", "status": "ok", "n": n, "eps": e,
                              "smallest_k": k_of(n, e), "lemma_k": 1, "grid_max": 10**5}
                             for n in (50, 100, 200, 500) for e in (0.1, 0.2, 0.4)])
    good = rows(lambda n, e: 2 * math.log(n) / e**2)
    assert _verdicts(pd.concat([good, fits(good)]).to_dict("records"))[
        "s3-1-2-jl-dimension-grows-log-n"] == "holds"
    bad = rows(lambda n, e: 2 * math.log(n) / e)  # k ~ 1/eps: slope -1
    assert _verdicts(pd.concat([bad, fits(bad)]).to_dict("records"))[
        "s3-1-2-jl-dimension-grows-log-n"] == "does not hold"
