"""Figs. 3.1 and 3.7: the unrolled sheet's geodesics, order flips, the penalised
ascent's gradient and its feasibility rule, the truncation losses, and the verdicts on
hand-made records (a holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import numpy as np
import pytest

from harness.results.fig_3_1_3_7 import register_claims as rc
from harness.results.fig_3_1_3_7.work import (
    arc_length, feasible_ascent, order_flips, pair_correlations, penalty_objective,
    top_two_share, truncation_losses, unrolled_sheet,
)


def test_arc_length_is_the_spirals_length():
    t = np.linspace(4.7, 14.1, 20001)
    xy = np.column_stack([t * np.cos(t), t * np.sin(t)])
    polyline = np.linalg.norm(np.diff(xy, axis=0), axis=1).sum()
    assert arc_length(14.1) - arc_length(4.7) == pytest.approx(polyline, rel=1e-6)


def test_a_flat_sheet_has_no_flips_and_a_roll_has_some():
    rng = np.random.default_rng(0)
    flat = rng.random((200, 2))
    assert order_flips(flat, flat, 2000, 0.1, 0)["flips"] == 0
    t = 1.5 * np.pi * (1 + 2 * rng.random(400))
    X = np.column_stack([t * np.cos(t), 21 * rng.random(400), t * np.sin(t)])
    found = order_flips(X, unrolled_sheet(X, t), 5000, 0.1, 0)
    assert found["flips"] > 0
    e = found["example"]
    assert e["euclid_AC"] * 1.1 < e["euclid_AB"] and e["geodesic_AB"] * 1.1 < e["geodesic_AC"]
    corr = pair_correlations(flat, {"same": flat, "scaled": 3 * flat}, 500, 0)
    assert corr["same"] == pytest.approx(1.0) and corr["scaled"] == pytest.approx(1.0)


def test_the_penalty_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    Y = rng.standard_normal((10, 3))
    edges = np.array([[0, 1], [1, 2], [2, 5], [3, 7], [0, 9]])
    D = rng.random(5) + 0.5
    _, grad = penalty_objective(Y.ravel(), Y.shape, edges, D, 3.0)
    h = 1e-6
    numeric = [(penalty_objective(Y.ravel() + h * e, Y.shape, edges, D, 3.0)[0]
                - penalty_objective(Y.ravel() - h * e, Y.shape, edges, D, 3.0)[0]) / (2 * h)
               for e in np.eye(Y.size)]
    assert np.allclose(numeric, grad, atol=1e-6)


def test_the_ascent_stops_at_the_first_feasible_weight():
    X = np.column_stack([np.arange(8.0), np.zeros(8), np.zeros(8)])  # a straight chain
    edges = np.column_stack([np.arange(7), np.arange(1, 8)])
    D = np.ones(7)
    out = feasible_ascent(X, edges, D, {"omegas": [1e-3, 1e3], "feasible": 0.01,
                                        "max_iterations": 200})
    assert [r["omega"] for r in out["runs"]] == [1e-3, 1e3] and out["chosen"] == 1
    assert out["runs"][1]["median_relative_edge_error"] <= 0.01
    assert out["runs"][1]["shares"][-1] == pytest.approx(1.0)  # a line stays a line


def test_truncation_losses_fall_to_zero_at_full_rank():
    rng = np.random.default_rng(2)
    F = rng.standard_normal((30, 3)) * [5, 2, 0.5]
    edges = np.array([(i, j) for i in range(30) for j in range(i + 1, 30)][:100])
    D = ((F[edges[:, 0]] - F[edges[:, 1]]) ** 2).sum(axis=1)
    out = truncation_losses(F, edges, D, 5)
    assert len(out["losses"]) == 3 and out["losses"][-1] == pytest.approx(0.0, abs=1e-8)
    assert out["losses"][0] > out["losses"][1] > out["losses"][2]
    assert top_two_share(F[:, :2]) == pytest.approx(1.0)


def _fig_3_1(mvu=0.9, inp=0.4, flips=10, status="optimal"):
    return {"fig_3_1": {"status": "ok", "n_samples": 1000, "k": 6,
                        "flips": {"n_triples": 1000, "margin": 0.1, "flips": flips,
                                  "example": {"euclid_AB": 2.0, "euclid_AC": 1.0,
                                              "geodesic_AB": 1.0, "geodesic_AC": 3.0}},
                        "spearman": {"input": inp, "mvu": mvu, "sheet": 1.0},
                        "mvu": {"status": status, "gap": 1e-5, "top_two_share": 0.99}}}


def _roll(rho=0.99, start=0.7, end=0.99, chosen=0):
    run = {"omega": 10.0, "median_relative_edge_error": 0.001, "iterations": 3,
           "shares": [start, 0.9, 0.99], "traces": [1, 2, 3], "spearman_trace_share": rho}
    return {"n_samples": 800, "n_features": 3, "start_top_two_share": start,
            "mvu": {"status": "optimal", "top_two_share": end},
            "ascent": {"runs": [run], "chosen": chosen},
            "truncation": {"losses": [3.0, 1.0, 0.0], "truncated_mass": [0.3, 0.1, 0.0],
                           "spearman_r": -1.0, "spearman_mass": 1.0}}


def _fig_3_7(**rolls):
    return {"fig_3_7": {"status": "ok", "k": 6, "rolls": rolls}}


def test_fig_3_1_verdicts():
    assert rc.euclid_disagrees(_fig_3_1())["verdict"] == "holds"
    assert rc.euclid_disagrees(_fig_3_1(flips=0))["verdict"] == "does not hold"
    assert rc.euclid_disagrees({})["verdict"] == "not measured"
    assert rc.representation_agrees(_fig_3_1())["verdict"] == "holds"
    assert rc.representation_agrees(_fig_3_1(mvu=0.3))["verdict"] == "does not hold"
    tie = rc.representation_agrees(_fig_3_1(mvu=0.405))
    assert tie["verdict"] == "undecided (within noise)"
    assert "shown, not counted" in tie["evidence"]
    assert rc.representation_agrees(_fig_3_1(status="inaccurate"))["verdict"] == "not measured"


def test_fig_3_7_verdicts_need_every_roll():
    assert rc.variance_vs_dimensionality(_fig_3_7(a=_roll(), b=_roll()))["verdict"] == "holds"
    locked = rc.variance_vs_dimensionality(_fig_3_7(a=_roll(), b=_roll(end=0.7)))
    assert "start vs end (undecided (within noise))" in locked["evidence"]  # 0 < 0.01
    fell = rc.variance_vs_dimensionality(_fig_3_7(a=_roll(), b=_roll(end=0.6)))
    assert fell["verdict"] == "partly holds"
    assert "start vs end (does not hold)" in fell["evidence"]
    flat = rc.variance_vs_dimensionality(_fig_3_7(a=_roll(rho=0.5, end=0.6), b=_roll()))
    assert flat["verdict"] == "does not hold"
    infeasible = rc.variance_vs_dimensionality(_fig_3_7(a=_roll(chosen=None), b=_roll()))
    assert "intermediate iterates (not measured)" in infeasible["evidence"]
    assert rc.variance_vs_dimensionality({})["verdict"] == "not measured"
    shown = rc.truncation(_fig_3_7(a=_roll()))
    assert shown["verdict"] == "not measured" and "by construction" in shown["evidence"]


def test_a_plane_separates_what_stripes_do_not():
    from harness.results.fig_3_1_3_7.work import linear_training_error
    rng = np.random.default_rng(3)
    Z = rng.standard_normal((200, 2))
    assert linear_training_error(Z, (Z[:, 0] > 0).astype(int), 1000.0) == 0.0
    stripes = (np.sin(3 * Z[:, 0]) > 0).astype(int)
    assert linear_training_error(Z, stripes, 1000.0) > 0.1


def _fig_3_36(input_error=0.0, unfolded=0.3, status="optimal"):
    return {"fig_3_36": {"status": "ok", "n_samples": 800, "n_features": 8, "positive": 400,
                         "k": 6, "mvu": {"status": status}, "input_error": input_error,
                         "unfolded_error": unfolded}}


def test_fig_3_36_verdicts():
    assert rc.boundary_simpler_in_input(_fig_3_36())["verdict"] == "holds"
    assert rc.boundary_simpler_in_input(_fig_3_36(unfolded=0.02))["verdict"] == "does not hold"
    assert rc.boundary_simpler_in_input(_fig_3_36(input_error=0.01))["verdict"] == "does not hold"
    assert rc.boundary_simpler_in_input(_fig_3_36(status="inaccurate"))["verdict"] == "not measured"
    assert rc.boundary_simpler_in_input({})["verdict"] == "not measured"
