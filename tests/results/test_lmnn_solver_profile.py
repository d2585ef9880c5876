"""The LMNN solver profile (thesis 2.1.7, 2.1.9): the tracer, the gradients (2.14) /
(2.15), the slope fit and the verdicts on synthetic summaries."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.claims import WITHIN_NOISE
from harness.results.lmnn_solver_profile.register_claims import (
    loglog_fit, rank_check, register_claims, slope_within,
)
from harness.results.lmnn_solver_profile.trace import (
    active_triples, gradient_2_14, gradient_2_15, traced_reference,
)
from harness.metrics.knn_error import same_class_neighbors
from harness.methods.shared.lmnn_core import loss_over_all_triples, triplet_pass
from harness.methods.shared.lmnn_solvers import initial_L, solve_reference


def _blobs(n=60, d=4, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = rng.standard_normal((n, d)) + y[:, None] * 0.8
    return X, y


def test_gradient_2_14_is_the_solvers_gradient_and_a_finite_difference():
    X, y = _blobs()
    targets = same_class_neighbors(X, y, 3)
    L = initial_L(X, targets, 4, "pca")
    Z = X @ L.T
    exact = loss_over_all_triples(Z, y, targets, 0.5)
    keys = active_triples(Z, targets, exact.anchors, exact.imps)
    assert len(keys) == exact.n_active > 0
    G = gradient_2_14(X, targets, keys, 0.5)
    assert np.allclose(G, exact.grad_M(X), rtol=1e-10, atol=1e-10)
    # the loss is linear in M away from kinks: a small symmetric step changes it by <G, E>
    E = np.random.default_rng(1).standard_normal((4, 4)) * 1e-7
    E = E + E.T
    M = L.T @ L
    w, V = np.linalg.eigh(M + E)
    L2 = np.sqrt(np.maximum(w, 0))[:, None] * V.T
    moved = loss_over_all_triples(X @ L2.T, y, targets, 0.5).loss - exact.loss
    assert moved == pytest.approx(np.sum(G * E), rel=1e-4)


def test_gradient_2_15_equals_2_14_and_a_wrong_update_does_not():
    X, y = _blobs()
    targets = same_class_neighbors(X, y, 3)
    L0 = initial_L(X, targets, 4, "pca")
    sets = []
    for scale in (1.0, 0.7, 1.3):
        Z = X @ (scale * L0).T
        exact = loss_over_all_triples(Z, y, targets, 0.5)
        sets.append(active_triples(Z, targets, exact.anchors, exact.imps))
    G = gradient_2_14(X, targets, sets[0], 0.5)
    for old, new in zip(sets, sets[1:]):
        G = gradient_2_15(G, X, targets, old, new, 0.5)
        full = gradient_2_14(X, targets, new, 0.5)
        assert np.linalg.norm(G - full) <= 1e-10 * np.linalg.norm(full)
    # dropping the removed triples' term is caught
    wrong = gradient_2_15(np.zeros_like(G), X, targets, sets[0], sets[1], 0.5)
    assert np.linalg.norm(wrong - gradient_2_14(X, targets, sets[1], 0.5)) > 1e-3


def test_tracing_leaves_the_solver_unchanged_and_sees_every_accepted_step():
    X, y = _blobs()
    targets = same_class_neighbors(X, y, 3)
    L0 = initial_L(X, targets, 4, "pca")
    plain = solve_reference(X, y, targets, L0, mu=0.5, max_iter=60, tol=1e-4, refresh=10)
    res, trace = traced_reference(X, y, targets, L0, mu=0.5, max_iter=60, tol=1e-4,
                                  refresh=10, n_neighbors=3, repeats=1)
    assert np.array_equal(res.L, plain.L) and res.loss_curve == plain.loss_curve
    accepted = sum(b < a for a, b in zip(plain.loss_curve, plain.loss_curve[1:]))
    steps = [r for r in trace.iterates if r["kind"] == "step"]
    assert len(steps) >= accepted
    assert max(r["grad_rel_error"] for r in steps) < 1e-10
    assert all(r["n_active"] == r["n_active_core"] for r in trace.iterates)
    assert trace.checks and trace.checks[0]["t"] == 10


def test_loglog_fit_recovers_a_known_exponent_with_noise():
    rng = np.random.default_rng(0)
    n = np.repeat([500, 1000, 2000, 4000], 3)
    seconds = 1e-7 * n ** 2.0 * np.exp(rng.normal(0, 0.05, len(n)))
    slope, se = loglog_fit(n, seconds)
    assert abs(slope - 2.0) < 3 * se + 0.05 and 0 < se < 0.1
    assert slope_within(slope, se, 1.6, 2.4) is True
    assert slope_within(slope, se, 0.6, 1.4) is False
    assert slope_within(1.61, 0.02, 1.6, 2.4) is WITHIN_NOISE


def test_rank_check_positive_and_negative():
    x = np.arange(20.0)
    assert rank_check(x, x + np.sin(x))[1] < 0.05
    assert rank_check(x, -x)[2] < 0.05
    assert np.isnan(rank_check(x, np.ones(20))[0])


def _frame(ratio, share_5, rel, slope_n, missed=3.0):
    rows = []
    for ds in ("iris", "wine"):
        rows += [
            {"entry": "s2-1-7-incremental-gradient", "dataset": ds, "quantity": "max_grad_rel_error", "value": 1e-14},
            {"entry": "s2-1-7-incremental-gradient", "dataset": ds, "quantity": "time_ratio_2_15_over_2_14", "value": ratio},
            {"entry": "s2-1-7-active-set-changes-little", "dataset": ds, "quantity": "share_below_5pct", "value": share_5},
            {"entry": "s2-1-7-active-set-changes-little", "dataset": ds, "quantity": "share_below_1pct", "value": share_5},
            {"entry": "s2-1-7-active-set-final-check", "dataset": ds, "quantity": "relative_difference", "value": rel},
            {"entry": "s2-1-7-active-set-final-check", "dataset": ds, "quantity": "both_converged", "value": 1.0},
            {"entry": "s2-1-7-active-set-final-check", "dataset": ds, "quantity": "missed_without_final_check", "value": missed},
            {"entry": "s2-1-9-hinge-search-most-time", "dataset": ds, "quantity": "hinge_over_other", "value": 5.0},
            {"entry": "s2-1-9-hinge-search-most-time", "dataset": ds, "quantity": "hinge_share", "value": 0.83},
            {"entry": "s2-1-2-loss-mimics-loo-error", "dataset": ds, "quantity": "spearman_along_iterates", "value": 0.9, "p_value": 1e-5, "p_value_less": 1.0},
            {"entry": "s2-1-2-loss-mimics-loo-error", "dataset": ds, "quantity": "spearman_across_metrics", "value": -0.9, "p_value": 1.0, "p_value_less": 1e-5},
            {"entry": "s2-1-2-empty-neighbourhood-correct", "dataset": ds, "quantity": "violations", "value": 0.0},
            {"entry": "s2-1-7-step-size-rule", "dataset": ds, "quantity": "relative_gap", "value": 1e-4, "first_step": 1e-9, "n_iter": 10, "converged": 1.0},
        ]
    for q, v, se in (("check_n", slope_n, 0.02), ("check_k", 1.0, 0.02), ("check_d", 1.0, 0.02)):
        rows += [{"entry": "s2-1-7-full-check-scaling", "dataset": "mnist", "quantity": f"{q}_slope", "value": v},
                 {"entry": "s2-1-7-full-check-scaling", "dataset": "mnist", "quantity": f"{q}_slope_se", "value": se}]
    return pd.DataFrame(rows)


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(frame) if "register" in c}


def test_verdicts_hold_on_one_frame_and_fail_on_another():
    good = _verdicts(_frame(ratio=0.02, share_5=0.9, rel=1e-6, slope_n=2.0))
    bad = _verdicts(_frame(ratio=3.0, share_5=0.2, rel=1e-2, slope_n=1.0, missed=0.0))
    assert good["s2-1-7-incremental-very-fast"] == "holds"
    assert bad["s2-1-7-incremental-very-fast"] == "does not hold"
    assert good["s2-1-7-incremental-gradient"] == "holds"
    assert bad["s2-1-7-incremental-gradient"] == "partly holds"
    # a claim about every Table 2.1 data set: passes on two decide nothing, a failure does
    assert good["s2-1-7-active-set-changes-little"] == "not measured"
    assert bad["s2-1-7-active-set-changes-little"] == "does not hold"
    assert good["s2-1-7-active-set-final-check"] == "holds"
    assert bad["s2-1-7-active-set-final-check"] == "does not hold"
    assert good["s2-1-7-full-check-scaling"] == "holds"
    assert bad["s2-1-7-full-check-scaling"] == "partly holds"
    assert good["s2-1-2-loss-mimics-loo-error"] == "partly holds"
    assert good["s2-1-7-step-size-rule"] == "holds"
    assert good["s2-1-9-hinge-search-most-time"] == "not measured"


def test_the_quick_profiles_trace_job_runs_on_iris(repo_root, monkeypatch):
    """The trace job's work end to end at the quick profile's parameters (iris: ~2
    CPU-s): a crash of the work itself (a clock called with the wrong signature reached
    `make reproduce` once) fails here, not in a fresh clone's run."""
    from harness.config import load_config
    from harness.result_registry import get_result, work_module

    monkeypatch.chdir(repo_root)
    config = load_config("config/quick.yaml")
    params = get_result("lmnn_solver_profile").params(config, "trace_iris")
    body = work_module(get_result("lmnn_solver_profile")).work(params)
    assert body["status"] == "ok" and body["dataset"] == "iris"
    assert body["n_iter"] > 0 and 0 < body["traced_seconds"] < 600
    assert body["iterates"] and body["final_check"]["loss_active_set"] > 0
    profile = body["time_profile"]
    assert profile["repeats"] == params["timing_repeats"] == len(profile["repeat_seconds"])
    assert profile["total_seconds"] == np.median([r["total_seconds"] for r in profile["repeat_seconds"]])
