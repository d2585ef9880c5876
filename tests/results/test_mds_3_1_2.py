"""Sections 3.1.2-3.1.3's checks: the formulas against closed forms and finite
differences, each group's work at small sizes, and the register claims on hand-made
records (a holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import scipy.spatial.distance
import yaml

from harness.claims import WITHIN_NOISE
from harness.results.mds_3_1_2 import register_claims as rc
from harness.results.mds_3_1_2.work import (
    classical_mds, gram_from_squared, lbfgs_classical, lbfgs_sstress,
    order_preserving_embedding, sstress, stress_one, swiss_roll_geodesics, work,
)

SCHEMA = Path(__file__).resolve().parents[2] / "harness" / "results" / "mds_3_1_2" / "schema.yaml"


def _params(**over) -> dict:
    props = yaml.safe_load(SCHEMA.read_text())["properties"]
    return {**{k: v["default"] for k, v in props.items()}, "seed": 0, "blas_threads": 1, **over}


def _squared(X):
    return scipy.spatial.distance.squareform(scipy.spatial.distance.pdist(X, "sqeuclidean"))


def test_classical_mds_recovers_the_configuration_and_pca_scores():
    X = np.random.default_rng(0).standard_normal((40, 3)) * [5.0, 2.0, 0.5]
    Y, values = classical_mds(gram_from_squared(_squared(X)), 3)
    # distances exactly preserved; the eigenvalues are n times the covariance's
    np.testing.assert_allclose(scipy.spatial.distance.pdist(Y), scipy.spatial.distance.pdist(X),
                               rtol=1e-10)
    Xc = X - X.mean(axis=0)
    np.testing.assert_allclose(values[:3], 40 * np.linalg.eigvalsh(Xc.T @ Xc / 40)[::-1],
                               rtol=1e-10)
    assert np.all(np.abs(values[3:]) < 1e-9 * values[0])


def test_sstress_value_and_gradient_against_a_naive_sum_and_finite_differences():
    rng = np.random.default_rng(1)
    D2 = _squared(rng.standard_normal((7, 4)))
    Y = rng.standard_normal((7, 2))
    value, grad = sstress(Y, D2)
    naive = sum((D2[i, j] - np.sum((Y[i] - Y[j]) ** 2)) ** 2 for i in range(7) for j in range(7))
    assert value == pytest.approx(naive, rel=1e-12)
    h = 1e-6
    for i, j in [(0, 0), (3, 1), (6, 0)]:
        E = np.zeros_like(Y)
        E[i, j] = h
        fd = (sstress(Y + E, D2)[0] - sstress(Y - E, D2)[0]) / (2 * h)
        assert grad[i, j] == pytest.approx(fd, rel=1e-6)


def test_optimisers_reach_the_eigen_solution_and_report_convergence():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((30, 4)) * [3.0, 2.0, 1.0, 0.5]
    G = gram_from_squared(_squared(X))
    Y, values = classical_mds(G, 2)
    found = lbfgs_classical(G, 2, 3, rng)
    assert min(found) == pytest.approx(np.sum(values[2:] ** 2), rel=1e-8)
    runs = lbfgs_sstress(_squared(X) / _squared(X).mean(), 2, 3, 1e-6, 20000, rng)
    assert all(r["converged"] and r["max_gradient"] < 1e-6 for r in runs)
    # a run stopped after one iteration has not converged and says so
    short = lbfgs_sstress(_squared(X) / _squared(X).mean(), 2, 1, 1e-6, 1, rng)
    assert not short[0]["converged"]


def test_stress_one_is_zero_for_an_order_preserving_embedding_only():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((25, 3))
    D2 = scipy.spatial.distance.pdist(X, "sqeuclidean")
    assert stress_one(X, D2) == pytest.approx(0.0, abs=1e-12)
    assert stress_one(2.0 * X + 1.0, D2) == pytest.approx(0.0, abs=1e-12)  # f absorbs scale
    assert stress_one(rng.standard_normal((25, 2)), D2) > 0.05


def test_order_preserving_embedding_of_a_non_euclidean_matrix():
    rng = np.random.default_rng(4)
    A = rng.uniform(size=(12, 12))
    D = np.triu(A, 1) + np.triu(A, 1).T
    assert np.linalg.eigvalsh(gram_from_squared(D))[0] < 0  # not Euclidean as it stands
    Y, c = order_preserving_embedding(D)
    assert c > 0
    d_in = scipy.spatial.distance.squareform(D, checks=False)
    d_out = scipy.spatial.distance.pdist(Y)
    assert (np.argsort(d_in) == np.argsort(d_out)).all()
    # without the shift (classical MDS clips the negative eigenvalues) the order breaks
    Y0, _ = classical_mds(gram_from_squared(D), 11)
    assert not (np.argsort(d_in) == np.argsort(scipy.spatial.distance.pdist(Y0))).all()


def test_swiss_roll_geodesics_along_the_height_and_the_spiral():
    t = np.array([5.0, 5.0, 9.0])
    h = np.array([0.0, 3.0, 0.0])
    geo = swiss_roll_geodesics(t, h)  # pairs (0,1), (0,2), (1,2)
    assert geo[0] == pytest.approx(3.0)
    s = lambda u: 0.5 * (u * np.sqrt(1 + u * u) + np.arcsinh(u))  # noqa: E731
    assert geo[1] == pytest.approx(s(9.0) - s(5.0))
    X = np.column_stack([t * np.cos(t), h, t * np.sin(t)])
    assert np.all(geo >= scipy.spatial.distance.pdist(X) - 1e-12)


def test_the_groups_run_at_small_sizes():
    p = _params(classical_datasets=["swiss_roll", "gaussian"], classical_n_samples=60,
                classical_starts=2, metric_datasets=["swiss_roll"], metric_n_samples=40,
                metric_starts=3, nonmetric_datasets=["swiss_roll"], nonmetric_n_samples=30,
                nonmetric_starts=3, nonmetric_max_iter=100, order_matrices=5,
                subspace_draws=3, geodesic_n_samples=200, geodesic_bootstrap=20)
    records = {g: work({**p, "group": g}) for g in
               ("classical", "subspace", "metric", "nonmetric", "order", "geodesic")}
    c = records["classical"]["cases"]
    assert c["swiss_roll"]["rank_gram"] == 3 and c["gaussian"]["rank_gram"] == 10
    assert c["gaussian"]["pca_max_deviation"] < 1e-10
    assert all(o["advantage"] > -1e-8 for o in c["gaussian"]["optima"])
    assert records["order"]["sizes"][0]["matrices_with_violation"] == 0
    assert records["geodesic"]["local_median_ratio"] == pytest.approx(1.0, abs=0.05)
    claims = {x["register"]: x for x in rc.register_claims(records)}
    assert len(claims) == 14
    # MNIST and olivetti are named by these entries and not in this run: no verdict
    assert claims["s3-1-2-mds-identical-to-pca"]["verdict"] == "not measured"
    assert "MNIST" in claims["s3-1-2-mds-identical-to-pca"]["evidence"]
    assert claims["s3-1-2-order-preserving-euclidean-embedding-exists"]["verdict"] == "holds"
    assert claims["s3-1-2-classical-mds-residual"]["verdict"] == "not measured"


# ---- the verdicts on hand-made records -----------------------------------------------------
def _case(**over):
    base = {"n": 500, "p": 3, "rank_gram": 3, "rank_covariance": 3, "ratio_min": 500.0,
            "ratio_max": 500.0, "ratio_expected": 500.0, "ratio_deviation": 1e-15,
            "scaled_deviation": 1e-15, "pca_dimension": 3, "pca_dimensions_compared": 3,
            "pca_max_deviation": 1e-15,
            "residuals": [{"r": 1, "residual": 2.0, "discarded_squared": 2.0}],
            "optima": [{"r": 2, "eigen": 1.0, "best_optimiser": 1.0, "median_optimiser": 1.0,
                        "advantage": 0.0, "starts": 5}]}
    return {**base, **over}


def _classical(**cases):
    return {"classical": {"status": "ok", "cases": cases, "unavailable": {}}}


def test_a_theorem_fails_on_one_counterexample_and_waits_for_its_named_sets():
    everything = _classical(swiss_roll=_case(), mnist=_case(), olivetti=_case(), gaussian=_case())
    assert rc.identical_to_pca(everything)["verdict"] == "holds"
    assert rc.same_rank_eigenvalues(everything)["verdict"] == "holds"
    assert rc.global_minimum(everything)["verdict"] == "holds"
    broken = copy.deepcopy(everything)
    broken["classical"]["cases"]["mnist"]["pca_max_deviation"] = 1e-3
    broken["classical"]["cases"]["olivetti"]["rank_covariance"] = 2
    broken["classical"]["cases"]["gaussian"]["optima"][0]["advantage"] = -1e-6
    assert rc.identical_to_pca(broken)["verdict"] == "does not hold"
    assert rc.same_rank_eigenvalues(broken)["verdict"] == "does not hold"
    assert rc.global_minimum(broken)["verdict"] == "does not hold"
    partial = _classical(swiss_roll=_case(), gaussian=_case())
    partial["classical"]["unavailable"]["mnist"] = "run `harness fetch mnist`"
    verdict = rc.identical_to_pca(partial)
    assert verdict["verdict"] == "not measured" and "harness fetch mnist" in verdict["evidence"]


def _metric(distinct_roll, distinct_mnist=None, converged=5):
    def one(distinct):
        return {"n": 500, "converged": converged, "starts": 5, "best_loss": 0.1,
                "worst_loss": 0.2 if distinct > 1 else 0.1, "distinct_values": distinct}
    cases = {"swiss_roll": one(distinct_roll)}
    if distinct_mnist is not None:
        cases["mnist"] = one(distinct_mnist)
    return {"metric": {"status": "ok", "cases": cases, "unavailable": {}}}


def test_local_minima_hold_on_one_example_and_fail_only_when_every_set_is_measured():
    assert rc.metric_local_minima(_metric(1, 2))["verdict"] == "holds"
    assert rc.metric_local_minima(_metric(2))["verdict"] == "holds"
    assert rc.metric_local_minima(_metric(1, 1))["verdict"] == "does not hold"
    assert rc.metric_local_minima(_metric(1))["verdict"] == "not measured"
    # runs that did not converge decide nothing
    assert rc.metric_local_minima(_metric(2, 2, converged=1))["verdict"] == "not measured"


def _nonmetric(classical_stress, median_stress, classical_rho=0.8, median_rho=0.8):
    case = {"n": 300, "random": [{}] * 6, "random_best": median_stress,
            "random_median": median_stress, "random_worst": median_stress, "random_spread": 0.0,
            "median_run": {"stress_one": median_stress, "spearman": median_rho},
            "from_classical": {"stress_one": median_stress, "spearman": median_rho},
            "classical": {"stress_one": classical_stress, "spearman": classical_rho}}
    return {"nonmetric": {"status": "ok", "cases": {d: dict(case) for d in
                                                    ("swiss_roll", "mnist", "olivetti")},
                          "unavailable": {}}}


def test_more_effective_is_undecided_inside_its_tolerance():
    better = rc.more_effective(_nonmetric(0.04, 0.03, 0.8, 0.9))
    assert better["verdict"] == "holds"
    same = rc.more_effective(_nonmetric(0.0300, 0.0299, 0.8, 0.805))
    assert same["verdict"] == "undecided (within noise)"
    worse = rc.more_effective(_nonmetric(0.03, 0.04, 0.9, 0.8))
    assert worse["verdict"] == "does not hold"
    split = rc.more_effective(_nonmetric(0.04, 0.03, 0.9, 0.8))
    assert split["verdict"] == "partly holds"


def test_classical_initialisation_on_most_sets():
    rec = _nonmetric(0.04, 0.03)
    assert rc.classical_initialisation(rec)["verdict"] == "holds"
    for d in ("swiss_roll", "mnist"):
        rec["nonmetric"]["cases"][d] = {**rec["nonmetric"]["cases"][d],
                                        "from_classical": {"stress_one": 0.05, "spearman": 0.8}}
    assert rc.classical_initialisation(rec)["verdict"] == "does not hold"


def test_monotone_checks_and_the_locally_linear_readings():
    b = lambda m, se=0.01: {"median_ratio": m, "se": se}  # noqa: E731
    assert rc.monotone_checks([b(1.0), b(1.2), b(1.5)]) == [True]
    assert rc.monotone_checks([b(1.0), b(1.5), b(1.2), b(2.0)]) == [True, False]
    assert rc.monotone_checks([b(1.0), b(1.01)]) == [WITHIN_NOISE]
    geo = {"status": "ok", "n": 1000, "k": 6, "max_ratio": 11.0, "local_median_ratio": 1.0,
           "global_median_ratio": 1.4, "global_fraction": 0.1, "bootstrap": 200,
           "bins": [b(1.0), b(1.5), b(3.0)]}
    assert rc.locally_linear({"geodesic": geo})["verdict"] == "holds"
    flat = {**geo, "global_median_ratio": 1.1}
    assert rc.locally_linear({"geodesic": flat})["verdict"] == "partly holds"
    assert rc.register_claims({"geodesic": {**geo, "max_ratio": 1.5}})[-1]["verdict"] == "does not hold"


def test_procrustes_residual_is_zero_for_a_similar_copy_only():
    from harness.metrics.alignment import procrustes_residual

    rng = np.random.default_rng(5)
    A = rng.standard_normal((50, 2))
    angle = 0.7
    R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    Y = (A @ R) * 3.0 * np.array([1.0, -1.0]) + 5.0  # rotated, reflected, scaled, shifted
    residual, scale = procrustes_residual(Y, A)
    assert residual == pytest.approx(0.0, abs=1e-20) and scale == pytest.approx(1 / 3)
    assert procrustes_residual(Y + 0.3 * rng.standard_normal(Y.shape), A)[0] > 1e-3


def test_the_us_cities_claim():
    rec = {"status": "ok", "n": 1097, "relative_residual": 2.6e-5, "procrustes_scale": 1.0,
           "eigenvalue_shares": [0.86, 0.14, 0.001], "most_negative_share": -0.003,
           "smallest_population": 44464}
    assert rc.us_cities_map({"us_cities": rec})["verdict"] == "holds"
    assert rc.us_cities_map({"us_cities": {**rec, "relative_residual": 0.05}})["verdict"] == "does not hold"
    missing = rc.us_cities_map({"us_cities": {"status": "unavailable", "reason": "fetch"}})
    assert missing["verdict"] == "not measured"
