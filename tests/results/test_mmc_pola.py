"""Section 2.2.2 (mmc_pola): POLA's update against hand-computed steps, the compiled
pass against the reference, MMC's certified optimum against an independent
recomputation and a conic solver, and the register's verdicts on hand-made records
(a holding and a failing case per claim)."""

from __future__ import annotations

import numpy as np
import pytest

from harness.results.mmc_pola.mmc import (
    generalized_top_direction, mmc_objective, pair_differences, similar_sum, solve_mmc,
)
from harness.results.mmc_pola.pola import batch_pola, hinge_losses, pola_step
from harness.results.mmc_pola.register_claims import direction_check, register_claims


# ---- POLA -----------------------------------------------------------------------------
def test_pola_dissimilar_step_by_hand():
    # M = 0, b = 1, x = (1, 1), y = -1: loss 1 + (1 - 0) = 2, alpha = 2 / (2^2 + 1) = 0.4
    M, b, loss = pola_step(np.zeros((2, 2)), 1.0, [1.0, 1.0], -1)
    assert loss == pytest.approx(2.0)
    np.testing.assert_allclose(M, 0.4 * np.ones((2, 2)))
    assert b == pytest.approx(0.6)
    # the projection lands on the constraint (2.28): y (b - x^T M x) = 1
    assert -1 * (b - np.array([1, 1]) @ M @ np.array([1, 1])) == pytest.approx(1.0)


def test_pola_similar_step_clips_the_negative_eigenvalue():
    # M = I, b = 0, x = (1, 1), y = +1: loss 1 - (0 - 2) = 3, alpha = 3 / 5; I - 0.6 x x^T
    # has eigenvalues 1 (along (1, -1)) and -0.2 (along (1, 1)): clipped to 0
    M, b, loss = pola_step(np.eye(2), 0.0, [1.0, 1.0], 1)
    assert loss == pytest.approx(3.0)
    np.testing.assert_allclose(M, 0.5 * np.array([[1.0, -1.0], [-1.0, 1.0]]), atol=1e-12)
    assert b == pytest.approx(0.6)


def test_pola_no_step_without_loss_and_floor():
    M, b, loss = pola_step(np.eye(2), 5.0, [1.0, 0.0], 1)  # 1 * (5 - 1) = 4 >= 1
    assert loss == 0.0 and b == 5.0
    np.testing.assert_array_equal(M, np.eye(2))
    assert pola_step(np.eye(2), 0.2, [0.0, 0.0], -1, b_floor=1.0)[1] == 1.0


def test_compiled_pass_matches_reference():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 3))
    y = np.where(rng.random(40) < 0.5, 1.0, -1.0)
    out = batch_pola(X, y, beta=0.0, max_passes=1, seed=7)
    order = np.random.default_rng(7).permutation(40)
    M, b = np.zeros((3, 3)), 1.0
    for t in order:
        M, b, _ = pola_step(M, b, X[t], y[t])
    np.testing.assert_allclose(out["M"], M, atol=1e-10)
    assert out["b"] == pytest.approx(b)


def test_batch_pola_converges_on_separable_not_on_xor():
    rng = np.random.default_rng(0)
    labels = np.repeat([0, 1], 20)
    X = 0.3 * rng.standard_normal((40, 2))
    X[:, 0] += 8.0 * (labels - 0.5)
    D, same = pair_differences(X, labels, *np.triu_indices(40, k=1))
    out = batch_pola(D, 2.0 * same - 1.0, beta=0.1, max_passes=1000, seed=0)
    assert out["converged"] and out["passes"] < 1000
    assert hinge_losses(out["M"], out["b"], D, 2.0 * same - 1.0).max() <= 0.5
    # XOR: similar pairs are as far apart as dissimilar ones in every metric
    P = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float) * 3
    c = np.repeat(np.arange(4), 10)
    Xx = P[c] + 0.2 * rng.standard_normal((40, 2))
    D, same = pair_differences(Xx, (c >= 2).astype(int), *np.triu_indices(40, k=1))
    assert not batch_pola(D, 2.0 * same - 1.0, max_passes=30, seed=0)["converged"]


# ---- MMC ------------------------------------------------------------------------------
def _small_problem(seed=0, n=30, d=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 3
    X = rng.standard_normal((n, d)) + np.eye(d)[y % d] * 2.0
    return pair_differences(X, y, *np.triu_indices(n, k=1))


def test_mmc_objective_recomputed_by_loops():
    D, same = _small_problem()
    r = solve_mmc(D, same)
    M = r["M"]
    by_loop = sum(np.sqrt(x @ M @ x) for x, s in zip(D, same) if s == 0)
    assert r["value"] == pytest.approx(by_loop, rel=1e-12)
    assert similar_sum(D, same, M) == pytest.approx(1.0, rel=1e-9)
    assert np.linalg.eigvalsh(M).min() >= -1e-12
    assert r["relative_gap"] < 1e-6
    # no random feasible matrix does better
    rng = np.random.default_rng(1)
    for _ in range(200):
        A = rng.standard_normal((3, 3))
        R = A @ A.T
        R /= similar_sum(D, same, R)
        assert mmc_objective(D, same, R) <= r["value"] * (1 + 1e-9)


def test_mmc_matches_a_conic_solver_and_lda_without_root():
    cp = pytest.importorskip("cvxpy")
    D, same = _small_problem(n=24)
    r = solve_mmc(D, same)
    M = cp.Variable((3, 3), PSD=True)
    Dd, Ds = D[same == 0], D[same == 1]
    K = np.einsum("ij,ik->ijk", Dd, Dd).reshape(len(Dd), 9)
    prob = cp.Problem(cp.Maximize(cp.sum(cp.sqrt(K @ cp.vec(M, order="C")))),
                      [cp.trace(Ds.T @ Ds @ M) <= 1])
    prob.solve(solver="CLARABEL")
    assert r["value"] == pytest.approx(prob.value, rel=1e-5)
    flat = solve_mmc(D, same, sqrt=False)
    lead = np.linalg.eigh(flat["M"])[1][:, -1]
    assert abs(lead @ generalized_top_direction(D, same)) == pytest.approx(1.0, abs=1e-8)


def test_bound_scales_the_optimum_and_diagonal():
    D, same = _small_problem()
    one, ten = solve_mmc(D, same, seed=1), solve_mmc(D, same, bound=10.0, seed=2)
    assert np.linalg.norm(ten["M"] / 10 - one["M"]) / np.linalg.norm(one["M"]) < 1e-5
    diag = solve_mmc(D, same, diagonal=True)
    assert np.count_nonzero(diag["M"] - np.diag(np.diag(diag["M"]))) == 0
    assert diag["value"] <= one["value"] * (1 + 1e-9)


# ---- verdicts -------------------------------------------------------------------------
def _summary(diff, se=0.1, p_greater=None):
    p_greater = (0.001 if diff > 0 else 0.999) if p_greater is None else p_greater
    return {"n": 20, "mean_difference": diff, "se_difference": se,
            "p_greater": p_greater, "p_less": 1 - p_greater}


def test_direction_check():
    assert direction_check(_summary(1.0), "greater") is True
    assert direction_check(_summary(-1.0), "greater") is False
    assert direction_check(_summary(1.0), "less") is False
    assert direction_check(_summary(0.05, p_greater=0.3), "greater") is not True


def _records(gain=0.3, mm=5.0, infeasible=True, ratio=50.0, bound=1e-8, rank=1):
    split = {"status": "ok", "comparisons": {
        "ari_mmc_euclidean": _summary(gain), "ari_pola_euclidean": _summary(gain),
        "knn_lmnn_mmc": _summary(-gain * 10)}}
    cfg = {"comparisons": {"knn_mmc_euclidean": _summary(mm), "knn_mmc_lmnn": _summary(mm),
                           "knn_pola_euclidean": _summary(mm)},
           "collapse_ratio_mmc": 0.5 if mm > 0 else 1.0, "collapse_ratio_euclidean": 1.0,
           "collapse_change": -0.5 if mm > 0 else 0.0, "collapse_drop": 0.2}
    case = {"sqrt": {"relative_gap": 0.0, "rank": rank, "angle_to_lda_pairwise": 1.0},
            "nosqrt": {"relative_gap": 0.0, "rank": 1, "angle_to_lda_pairwise": 0.0},
            "bounds": {"0.1": bound, "10": bound}, "bound_gap_max": 0.0}
    exact = {"status": "ok", "cases": {"iris": case, "wine": case},
             "scale_of_M": {"c": 4.0, "ratio": 2.0},
             "rescale": {"iris": {"max_differing_share": 0.0, "dimension": 0, "factor": 10.0,
                                  "splits": 5}},
             "diagonal": {"affine_deviation": 1e-3, "lp": {"iris": {
                 "lp_value": 1.0, "optimum": 1.2, "relative_shortfall": 0.2, "gap": 0.0}}}}
    s = {"status": "infeasible" if infeasible else "optimal", "feasible": not infeasible,
         "n_pairs": 10, "passes": 1000 if infeasible else 3, "converged": not infeasible,
         "last_pass_max_loss": 2.0 if infeasible else 0.05}
    sep = {"status": "optimal", "feasible": True, "n_pairs": 10, "passes": 3,
           "converged": True, "last_pass_max_loss": 0.05}
    timing = {"ratio": ratio, "mmc_seconds": ratio, "pca_seconds": 1.0, "rca_seconds": 1.0,
              "lda_seconds": 1.0}
    return {**{f"split_{d}": split for d in ("iris", "wine", "balance_scale", "fig_2_20")},
            "multimodal": {"status": "ok", "configurations": {"xor": cfg, "ring": cfg}},
            "exact": exact,
            "timing": {"status": "ok", "repeats": 3,
                       "datasets": {d: timing for d in ("iris", "wine", "balance_scale")}},
            "feasibility": {"status": "ok", "beta": 0.1,
                            "datasets": {"separable": sep, "iris": s}},
            "scaling": {"status": "ok", "components": 50, "sizes": [
                {"pairs": 1000, "seconds": 0.01}, {"pairs": 10 ** 6, "seconds": 10.0}],
                "large": {"pairs": 10 ** 6, "components": 164, "seconds": 100.0}}}


def _verdicts(records):
    return {c["register"]: c["verdict"] for c in register_claims(records)}


def test_verdicts_that_hold():
    v = _verdicts(_records())
    for rid in ("s2-2-2-mmc-pola-clustering", "s2-2-2-mmc-kmeans",
                "s2-2-2-lmnn-more-geared-than-mmc", "s2-2-2-pola-improves-clustering",
                "s2-2-2-mmc-multimodal-fails", "s2-2-2-mmc-cannot-multimodal",
                "s2-2-2-mmc-bound-positive-factor", "s2-2-2-mmc-slower",
                "s2-2-2-pola-iterations-bounded", "s2-2-2-pola-margin-not-always",
                "s2-2-2-pola-fast-large"):
        assert v[rid] == "holds", rid
    # rank 1 and 1 degree from LDA: the root changes nothing here
    assert v["s2-2-2-mmc-sqrt-essential"] == "partly holds"
    assert v["s2-2-2-mmc-diagonal-lp"] == "does not hold"
    assert v["s2-2-2-mmc-not-scale-invariant"] == "does not hold"
    # POLA significantly worse on multi-modal data: the claim (not better) holds
    assert v["s2-2-2-pola-multimodal"] == "holds"


def test_verdicts_that_fail():
    v = _verdicts(_records(gain=-0.3, mm=-5.0, infeasible=False, ratio=2.0, bound=0.1, rank=3))
    for rid in ("s2-2-2-mmc-pola-clustering", "s2-2-2-mmc-kmeans",
                "s2-2-2-lmnn-more-geared-than-mmc", "s2-2-2-pola-improves-clustering",
                "s2-2-2-mmc-multimodal-fails", "s2-2-2-mmc-cannot-multimodal",
                "s2-2-2-mmc-bound-positive-factor", "s2-2-2-mmc-slower",
                "s2-2-2-pola-margin-not-always", "s2-2-2-pola-multimodal"):
        assert v[rid] == "does not hold", rid
    assert v["s2-2-2-mmc-sqrt-essential"] == "holds"


def test_missing_records_are_not_measured():
    v = _verdicts({})
    assert set(v.values()) == {"not measured"}
    assert len(v) == 15


def test_most_of_every_measured_set_decides_or_is_noise():
    from harness.claims import WITHIN_NOISE
    from harness.results.mmc_pola.register_claims import most_of

    named = ("a", "b", "c")
    assert most_of({"a": True, "b": False, "c": WITHIN_NOISE}, named) == ([WITHIN_NOISE], "")
    assert most_of({"a": True, "b": True, "c": False}, named) == ([True], "")
    assert most_of({"a": False, "b": False, "c": True}, named) == ([False], "")
    assert most_of({"a": True}, named)[0] == []


def _scaling(times_by_size: dict) -> dict:
    return {"status": "ok", "components": 50, "sizes": [
        {"pairs": n, "seconds": float(np.median(t)), "repeat_seconds": list(t)}
        for n, t in times_by_size.items()]}


def test_pola_slope_noise_is_measured_from_the_repeats():
    from harness.results.mmc_pola.register_claims import pola_pass_slope

    # one pass of a linear algorithm with a small fixed cost: slope ~0.93, as measured
    # (the quick runs: 0.918 and 0.971); repeats within 2 % of each other
    sizes = {10 ** e: [(2e-5 * 10 ** e + 2e-3) * f for f in (0.99, 1.0, 1.02)]
             for e in (3, 4, 5, 6)}
    slope, noise = pola_pass_slope(_scaling(sizes))
    assert 0.9 < slope < 1.0 and noise < 0.05
    # the old rule (the 65 % band on the end points) put this slope inside the noise
    # (0.8 + 0.145 > 0.93): a verdict that flipped between runs with the load
    records = _records()
    records["scaling"] = {**_scaling(sizes), "large": records["scaling"]["large"]}
    assert _verdicts(records)["s2-2-2-pola-fast-large"] == "holds"
    # repeats that disagree by a factor 3 leave the slope undecided (the large pass
    # not run: the claim is then the slope's reading alone)
    noisy = {n: [t[0] / 3, t[1], 3 * t[2]] for n, t in sizes.items()}
    records["scaling"] = _scaling(noisy)
    assert _verdicts(records)["s2-2-2-pola-fast-large"] == "undecided (within noise)"
    # a slope of 1.5 measured tightly does not hold
    steep = {n: [1e-9 * n ** 1.5 * f for f in (0.99, 1.0, 1.01)] for n in sizes}
    records["scaling"] = _scaling(steep)
    assert _verdicts(records)["s2-2-2-pola-fast-large"] == "does not hold"
