"""Fig. 2.15 (thesis 2.1.9): the pure-NumPy ball tree's invariants and exactness, and
each register claim holding on one synthetic summary and failing on another."""

from __future__ import annotations

import numpy as np
import pytest

from harness.results.fig_2_15 import balltree as bt
from harness.results.fig_2_15 import register_claims as rc
from harness.results.fig_2_15.work import sklearn_stats, tree_stats, two_gaussians


def _data(n=600, d=2, seed=0, duplicates=0):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(-2, 1, (n // 2, d)), rng.normal(2, 1, (n - n // 2, d))])
    if duplicates:
        X[:duplicates] = X[0]  # a block of equal inputs: projections all equal
    return X


@pytest.mark.parametrize("split", bt.SPLITS)
@pytest.mark.parametrize("d,duplicates", [(2, 0), (7, 0), (2, 40)])
def test_tree_invariants(split, d, duplicates):
    X = _data(d=d, duplicates=duplicates)
    tree = bt.build(X, 10, split, seed=3)
    assert bt.check_invariants(tree) == []
    leaf_of = tree.leaf_of()
    sizes = np.bincount(leaf_of, minlength=tree.n_nodes)[tree.leaves]
    assert sizes.sum() == len(X) and sizes.max() <= 10 and sizes.min() >= 1
    for node in range(tree.n_nodes):  # every ball contains its inputs
        pts = X[tree.order[tree.start[node]:tree.end[node]]]
        assert np.all(np.linalg.norm(pts - tree.center[node], axis=1)
                      <= tree.radius[node] * (1 + 1e-12))


def test_check_invariants_catches_a_broken_tree():
    tree = bt.build(_data(), 10, "mean", seed=0)
    tree.radius[3] *= 0.5
    tree.end[tree.leaves[0]] = tree.start[tree.leaves[0]]  # an empty leaf
    errors = bt.check_invariants(tree)
    assert any("does not contain" in e for e in errors)
    assert any("not in exactly one leaf" in e for e in errors)


def test_median_split_depth_and_balance():
    for n in (11, 100, 1000, 1500):
        tree = bt.build(_data(n), 10, "median", seed=1)
        assert tree.depth == bt.depth_bound(n)
        sizes = tree.end[tree.leaves] - tree.start[tree.leaves]
        assert sizes.max() - sizes.min() <= 1


def test_split_value():
    proj = np.array([0.0, 1.0, 2.0, 10.0])
    assert bt.split_value(proj, "mean") == 3.25
    assert bt.split_value(proj, "median") == 2.0
    with pytest.raises(ValueError):
        bt.split_value(proj, "mode")


@pytest.mark.parametrize("split", bt.SPLITS)
@pytest.mark.parametrize("k,d", [(1, 2), (3, 2), (5, 9)])
def test_query_equals_brute_force(split, k, d):
    X = _data(n=500, d=d, seed=2, duplicates=20)
    Q = np.vstack([_data(n=60, d=d, seed=5), X[:3]])  # queries on inputs: ties at 0
    tree = bt.build(X, 10, split, seed=4)
    idx, dist, counts = bt.query(tree, Q, k)
    ref_idx, ref_dist = bt.brute_force(X, Q, k)
    np.testing.assert_allclose(dist, ref_dist, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(X[idx] - Q[:, None], axis=2), dist, rtol=1e-12)
    assert np.all(counts["point_evals"] <= len(X)) and np.all(counts["visited"] >= 1)
    assert np.all(counts["visited"] + counts["pruned"] <= tree.n_nodes)
    # pruning happens in 2-D: most inputs are never looked at
    if d == 2:
        assert counts["point_evals"].mean() < 0.5 * len(X)


def test_tree_and_sklearn_stats_on_the_figure_data():
    params = {"n_samples": 1000, "seed": 0, "gaussian_means": [[-2, 0], [2, 0]],
              "gaussian_stds": [1, 1]}
    X = two_gaussians(params, 0)
    Q = two_gaussians(params, 0, 50, stream=1)
    assert X.shape == (1000, 2) and not np.allclose(X[:50], Q)
    ref = bt.brute_force(X, Q, 3)
    ours = tree_stats(X, Q, "mean", 10, 3, 0, ref)
    sk = sklearn_stats(X, Q, 10, 3, ref)
    assert ours["exact"] and sk["exact"] and ours["invariant_errors"] == []
    assert ours["max_leaf"] <= 10 and 100 < ours["n_leaves"] < 200
    assert sk["n_nodes"] == 2 * sk["n_leaves"] - 1 and sk["max_leaf"] <= 20


# ---- verdicts ---------------------------------------------------------------------------
def _summary(**over):
    s = dict(rc.THRESHOLDS)
    s.update(draws_measured=20, gauss_mean_n_leaves_mean=150.0, gauss_mean_n_leaves_min=140.0,
             gauss_mean_n_leaves_max=160.0, gauss_median_n_leaves_mean=128.0,
             gauss_sklearn_n_leaves_mean=64.0, gauss_sklearn_max_leaf_max=16.0,
             gauss_mean_max_leaf_max=10.0, gauss_build_ratio=3.0, gauss_value_ratio=3.0,
             gauss_mean_visited_fraction_mean=0.1, gauss_mean_sibling_overlap_mean=0.9,
             mnist_dimensions=[5, 15, 50])
    for r, frac in ((5, 0.1), (15, 0.3), (50, 0.6)):
        s.update({f"mnist_r{r}_mean_visited_fraction": frac,
                  f"mnist_r{r}_mean_sibling_overlap": frac + 0.1,
                  f"mnist_r{r}_evals_ratio": 1.0, f"mnist_r{r}_cpu_ratio": 1.0,
                  f"mnist_r{r}_mean_exact": True, f"mnist_r{r}_median_exact": True,
                  f"mnist_r{r}_build_ratio": 3.0, f"mnist_r{r}_value_ratio": 3.0})
    s.update(mnist_rho_visited_fraction=1.0, mnist_rho_sibling_overlap=1.0)
    sizes = [2000, 5000, 10000, 30000, 60000]
    s.update(balltree_n_sizes=sizes, balltree_n_slope=0.2, balltree_n_slope_noise=0.05,
             thesis_tree_distance_evals_slope=0.3, sklearn_distance_evals_slope=0.3,
             brute_n_sizes=sizes, brute_n_slope=1.0, brute_n_slope_noise=0.05,
             brute_d_sizes=[49, 784], brute_d_slope=1.0, brute_d_slope_noise=0.05)
    for n in sizes:
        s.update({f"balltree_n{n}_microseconds": 10.0, f"thesis_tree_distance_evals_n{n}": 5.0,
                  f"brute_n{n}_microseconds": 100.0})
    s.update({"brute_d49_microseconds": 10.0, "brute_d784_microseconds": 100.0})
    s.update(over)
    return s


CONF = {"timing_band": 0.65, "n_draws": 20, "build_dimensions": [15, 50]}


def _verdicts(s):
    return {c["register"]: c["verdict"] for c in rc.register_claims(s, CONF)}


def test_every_entry_holds_on_a_holding_summary():
    v = _verdicts(_summary())
    assert v == {"s2-1-9-fig-2-15-155-balls": "holds",
                 "s2-1-9-fig-2-15-caption-155-balls": "holds",
                 "s2-1-9-median-depth-log-n": "not measured",
                 "s2-1-9-mean-split-faster": "holds",
                 "s2-1-9-mean-split-identical-results": "holds",
                 "s2-1-9-curse-balls-intersect": "holds",
                 "s2-1-9-tree-d-log-n": "holds",
                 "s2-1-9-brute-force-o-nd": "holds"}


@pytest.mark.parametrize("entry,over,verdict", [
    ("s2-1-9-fig-2-15-155-balls", {"gauss_mean_n_leaves_mean": 100.0}, "does not hold"),
    ("s2-1-9-fig-2-15-caption-155-balls", {"gauss_mean_n_leaves_mean": 190.0}, "does not hold"),
    ("s2-1-9-fig-2-15-155-balls", {"draws_measured": 5}, "not measured"),
    ("s2-1-9-mean-split-faster", {"gauss_build_ratio": 0.5, "mnist_r15_build_ratio": 0.5,
                                  "mnist_r50_build_ratio": 0.5, "gauss_value_ratio": 0.5,
                                  "mnist_r15_value_ratio": 0.5, "mnist_r50_value_ratio": 0.5},
     "does not hold"),
    ("s2-1-9-mean-split-faster", {"gauss_build_ratio": 1.3, "mnist_r15_build_ratio": 1.3,
                                  "mnist_r50_build_ratio": 1.3}, "partly holds"),
    ("s2-1-9-mean-split-identical-results", {"mnist_r15_evals_ratio": 0.8}, "does not hold"),
    ("s2-1-9-mean-split-identical-results", {"mnist_r50_cpu_ratio": 2.0}, "does not hold"),
    ("s2-1-9-curse-balls-intersect", {"mnist_rho_visited_fraction": -0.5,
                                      "mnist_rho_sibling_overlap": -0.5}, "does not hold"),
    ("s2-1-9-curse-balls-intersect", {"mnist_r50_mean_visited_fraction": 0.4}, "partly holds"),
    ("s2-1-9-tree-d-log-n", {"balltree_n_slope": 0.9, "thesis_tree_distance_evals_slope": 0.8},
     "does not hold"),
    ("s2-1-9-tree-d-log-n", {"balltree_n_slope": 0.48}, "partly holds"),
    ("s2-1-9-tree-d-log-n", {"balltree_n_sizes": [2000, 5000, 10000]}, "not measured"),
    ("s2-1-9-brute-force-o-nd", {"brute_d_slope": 0.3}, "does not hold"),
    ("s2-1-9-brute-force-o-nd", {"brute_n_slope": 1.28}, "undecided (within noise)"),
])
def test_verdict_cases(entry, over, verdict):
    assert _verdicts(_summary(**over))[entry] == verdict


def test_summary_of_gaps_is_not_measured():
    gap = {"status": "skipped", "reason": "no MNIST"}
    s = rc.summary({"gaussians": gap, "mnist": gap, "scaling": gap})
    verdicts = set(_verdicts(s).values())
    assert verdicts == {"not measured"}
