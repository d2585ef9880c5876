"""lmnn_sdp: the cvxpy formulation of LMNN's SDP (2.11) and the register claims on
hand-made frames (each claim holding on one and failing on another)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from harness.metrics.knn_error import same_class_neighbors
from harness.results.lmnn_sdp.register_claims import counted, register_claims
from harness.results.lmnn_sdp.write import _start_spread
from harness.results.lmnn_sdp.sdp import (
    fixed_step_subgradient, loss_at_margin, psd_factor, solve_sdp, triplets,
)
from harness.methods.shared.lmnn_core import loss_over_all_triples

pytest.importorskip("cvxpy")


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(3)
    codes = np.repeat([0, 1, 2], 6)
    X = rng.standard_normal((18, 3)) + codes[:, None] * np.array([1.0, 0.0, 0.0])
    targets = same_class_neighbors(X, codes, 2)
    return X, codes, targets, triplets(codes, targets)


def test_triplets_are_every_target_and_impostor(problem):
    X, codes, targets, T = problem
    assert len(T) == 18 * 2 * 12
    assert np.all(codes[T[:, 0]] != codes[T[:, 2]])
    assert np.all(codes[T[:, 0]] == codes[T[:, 1]])


def test_sdp_optimum_recomputed_and_slack_is_hinge(problem):
    X, codes, targets, T = problem
    out = solve_sdp(X, targets, T, 0.5, 1.0)
    assert out["status"] in ("optimal", "optimal_inaccurate")
    dense = loss_at_margin(out["M"], X, targets, T, 0.5, 1.0)
    assert dense["loss"] == pytest.approx(out["value"], rel=1e-6)
    assert np.max(np.abs(out["xi"] - dense["hinges"])) < 1e-6
    L, min_eig = psd_factor(out["M"])
    assert min_eig > -1e-7
    core = loss_over_all_triples(X @ L.T, codes, targets, 0.5).loss
    assert core == pytest.approx(dense["loss"], rel=1e-6)
    # a wrong margin would not reproduce the solver's value
    assert loss_at_margin(out["M"], X, targets, T, 0.5, 2.0)["loss"] > 1.01 * out["value"]
    # nothing does better: the fixed-step sub-gradient method and M = I stay above
    run = fixed_step_subgradient(X, codes, targets, 0.5, np.eye(3), 0.3, 300)
    assert run["loss"] >= out["value"] * (1 - 1e-6)
    assert loss_at_margin(np.eye(3), X, targets, T, 0.5)["loss"] >= out["value"]


def test_margin_scales_the_metric_linearly(problem):
    X, codes, targets, T = problem
    M1 = solve_sdp(X, targets, T, 0.5, 1.0)["M"]
    M10 = solve_sdp(X, targets, T, 0.5, 10.0)["M"]
    assert np.linalg.norm(M10 - 10 * M1) / np.linalg.norm(10 * M1) < 1e-3
    assert np.linalg.norm(M10 - M1 / 1e4) / np.linalg.norm(M1 / 1e4) > 1


def test_counted():
    assert counted("optimal") and not counted("infeasible")
    assert counted("optimal_inaccurate", 2.0, 2.0, 0.0)
    assert not counted("optimal_inaccurate", 2.0, 2.5, 0.0)


def _frame(good: bool) -> pd.DataFrame:
    rows = []
    opt = 10.0
    for ds in ("iris", "wine", "balance_scale"):
        for c in (0.1, 1.0, 10.0):
            rows.append({"what": "sdp", "dataset": ds, "margin": c, "solver_status": "optimal",
                         "objective": opt * c, "cvxpy_value": opt * c, "max_slack_gap": 0.0,
                         "rel_err_literal": 0.0 if c == 1 else 0.99,
                         "rel_err_dimensional": 0.0 if good else 0.5,
                         "test_diff_predictions": 0 if good else 5, "n_test": 100})
        for solver in ("lbfgs", "reference"):
            for s, start in enumerate(("identity", "random0", "random1")):
                gap = 1e-4 if good else 0.01 * s
                rows.append({"what": "special", "dataset": ds, "solver": solver,
                             "start": start, "objective": opt * (1 + gap), "rel_gap": gap,
                             "knn_test_error": 2.0, "converged": good, "cpu_seconds": 0.1,
                             "tail_change": 0.0 if good else 1e-3, "n_iter": 100})
        for i, step in enumerate((1.0, 0.3, 0.1, 0.03)):
            gap = 1e-4 / (i + 1) if good else 1e-2 * (i + 1)
            rows.append({"what": "step", "dataset": ds, "step": step, "iterations": 10,
                         "rel_gap": gap})
        for reading in ("generalisation", "robustness"):
            rows.append({"what": "margin0_test", "dataset": ds, "reading": reading,
                         "mean_diff": 3.0 if good else -3.0, "se": 0.5,
                         "p_claimed": 0.001 if good else 0.999,
                         "p_other": 0.999 if good else 0.001, "n_runs": 10})
    for n in (300, 600, 1200, 2400):
        rows.append({"what": "scaling", "dataset": "iris", "n_triplets": n,
                     "ratio_reference": 30.0 if good else 0.3, "ratio_lbfgs": 30.0,
                     "reference_rel_gap": 1e-4, "lbfgs_rel_gap": 1e-4})
    for solver, slope in (("generic", 2.0 if good else 0.2), ("reference", 0.8),
                          ("lbfgs", 0.8)):
        rows.append({"what": "slope", "dataset": "iris", "solver": solver, "slope": slope,
                     "slope_noise": 0.2})
    return pd.DataFrame(rows)


def _with_spread(frame: pd.DataFrame) -> pd.DataFrame:
    """The start_spread rows write.build adds (its _start_spread over the solve rows)."""
    rows = []
    for ds, g in frame[frame["what"].isin(["sdp", "special"])].groupby("dataset", sort=False):
        rows += _start_spread(ds, g.to_dict("records"))
    return pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)


def test_register_claims_hold_and_fail():
    good = {c["register"]: c["verdict"] for c in register_claims(_with_spread(_frame(True)))}
    bad = {c["register"]: c["verdict"] for c in register_claims(_with_spread(_frame(False)))}
    assert good["s2-1-3-margin-c-scaling"] == "partly holds"  # the literal reading fails
    assert bad["s2-1-3-margin-c-scaling"] == "does not hold"
    for entry in ("s2-1-3-margin-arbitrary", "s2-1-1-convex-global-minimum",
                  "s2-1-3-generic-solvers-scale-poorly", "s2-1-3-solver-much-faster-than-generic",
                  "s2-1-7-hinge-in-objective-faster", "s2-1-3-alternating-projection-converges",
                  "s2-1-7-subgradient-converges", "s2-1-2-margin-improves-generalisation"):
        assert good[entry] == "holds", entry
        assert bad[entry] == "does not hold", entry
    assert good["s4-lmnn-convex-reliable"] == "holds"
    # objectives 0.02 apart, test errors equal: the two readings disagree
    assert bad["s4-lmnn-convex-reliable"] == "partly holds"


def test_convex_reliable_counts_one_test_point_as_the_same_error():
    frame = _frame(True)
    lbfgs = (frame["what"] == "special") & (frame["solver"] == "lbfgs")
    frame.loc[lbfgs & (frame["start"] == "random1"), "knn_test_error"] = 3.0  # one point of 100
    made = {c["register"]: c for c in register_claims(_with_spread(frame))}["s4-lmnn-convex-reliable"]
    assert made["verdict"] == "holds", made["evidence"]
    frame.loc[lbfgs & (frame["start"] == "random1"), "knn_test_error"] = 4.0  # two points
    made = {c["register"]: c for c in register_claims(_with_spread(frame))}["s4-lmnn-convex-reliable"]
    assert made["verdict"] == "partly holds" and "one test point 1 %" in made["evidence"]


def test_register_claims_on_an_empty_frame():
    verdicts = {c["verdict"] for c in register_claims(pd.DataFrame())}
    assert verdicts == {"not measured"}


def test_impostor_free_points_are_counted_and_never_misclassified(problem):
    from harness.results.lmnn_sdp.sdp import loss_at_margin
    from harness.results.lmnn_sdp.work import Problem, impostor_free
    X, codes, _, _ = problem
    problem = Problem(X, codes, X[:3], codes[:3], 2)
    M = np.eye(X.shape[1])
    hinges = loss_at_margin(M, problem.X, problem.targets, problem.triples, 0.5)["hinges"]
    out = impostor_free(problem, M, hinges)
    anchors_active = set(problem.triples[hinges > 0, 0])
    assert out["impostor_free"] == len(problem.X) - len(anchors_active)
    assert out["impostor_free_wrong"] == 0
    # a metric that collapses every point to one location leaves no point impostor-free
    collapsed = loss_at_margin(0 * M, problem.X, problem.targets, problem.triples, 0.5)["hinges"]
    assert impostor_free(problem, 0 * M, collapsed)["impostor_free"] == 0


def test_the_empty_neighbourhood_entry_is_shown_not_counted():
    frame = _frame(True)
    frame["impostor_free"], frame["impostor_free_wrong"] = 12.0, 0.0
    made = {c["register"]: c for c in register_claims(frame)}["s2-1-2-empty-neighbourhood-correct"]
    assert made["verdict"] == "not measured" and "by construction" in made["evidence"]
    assert "iris: 12 training points without an active triplet, 0 of them" in made["evidence"]
