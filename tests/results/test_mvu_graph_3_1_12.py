"""MVU's neighbourhood graph (3.1.4, 3.1.12): the counts and components on small
graphs, an MVU solve on a connected k = 2 chain, and the verdicts on hand-made records
(a holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import numpy as np

from harness.problems.mvu_problem import MVUProblem
from harness.results.mvu_graph_3_1_12 import register_claims as rc
from harness.results.mvu_graph_3_1_12.work import _solve, components, counts, k_below_3


def test_counts_meet_the_bound_and_components_count_pieces():
    out = counts({"count_n_samples": [60, 120], "count_k": [2, 4], "seed": 0})
    assert len(out["counts"]) == 4
    assert all(0 < r["edges"] <= r["bound"] for r in out["counts"])
    assert components(4, np.array([[0, 1], [2, 3]])) == 2
    assert components(3, np.array([[0, 1], [1, 2]])) == 1


def test_a_connected_chain_at_k_2_embeds_in_one_dimension():
    X = np.column_stack([np.linspace(0, 10, 25) ** 1.1, np.zeros(25)])
    problem = MVUProblem.from_points(X, 2, connectivity="clique", variant="equality")
    assert components(problem.n, problem.edges) == 1
    mvu = _solve(problem, {"solver_time_limit": 60, "seed": 0})
    assert mvu["status"] == "optimal" and mvu["top_share"] > 0.999


def test_k_below_3_on_a_disconnected_roll_solves_nothing():
    out = k_below_3({"dataset": "swiss_roll", "dataset_params": {"n_samples": 300},
                     "neighbours": [1, 2], "solver_time_limit": 60, "seed": 0})
    assert [g["k"] for g in out["graphs"]] == [1, 2]
    assert all(g["components"] > 1 and "mvu" not in g for g in out["graphs"])


def _counts(slope_k: float):
    rows = []
    for n in (500, 1000, 2000):
        for k in (3, 4, 6, 8, 12):
            rows.append({"n": n, "k": k, "edges": int(n * 0.5 * k ** slope_k),
                         "bound": n * k * (k + 1) // 2})
    return {"counts": {"status": "ok", "counts": rows}}


def test_the_constraint_count_reading():
    assert rc.constraint_count(_counts(1.9))["verdict"] == "holds"
    assert rc.constraint_count(_counts(1.2))["verdict"] == "does not hold"
    assert rc.constraint_count({})["verdict"] == "not measured"


def _graph(name, k1, k2, stand_in=None, mvu=None):
    graphs = [{"k": 1, "edges": 10, "components": k1},
              {"k": 2, "edges": 20, "components": k2, **({"mvu": mvu} if mvu else {})}]
    return {f"k_below_3_{name}": {"status": "ok", "n_samples": 100, "n_features": 3,
                                  "stand_in_for": stand_in, "graphs": graphs}}


def test_rarely_connected_on_most_named_sets_and_stand_ins_do_not_count():
    recs = {**_graph("swiss_roll", 50, 5), **_graph("frey", 40, 3), **_graph("olivetti", 9, 2)}
    assert rc.rarely_connected(recs)["verdict"] == "holds"
    connected = {**_graph("swiss_roll", 50, 1), **_graph("frey", 40, 1),
                 **_graph("olivetti", 9, 1)}
    assert rc.rarely_connected(connected)["verdict"] == "does not hold"
    few = {**_graph("swiss_roll", 50, 5), **_graph("teapot_standin", 9, 2, "teapot")}
    assert rc.rarely_connected(few)["verdict"] == "not measured"


def test_degenerate_needs_a_certified_real_connected_case():
    flat = {"status": "optimal", "top_share": 0.97}
    assert rc.degenerate(_graph("frey", 40, 1, mvu=flat))["verdict"] == "holds"
    spread = {"status": "optimal", "top_share": 0.5}
    assert rc.degenerate(_graph("frey", 40, 1, mvu=spread))["verdict"] == "does not hold"
    edge = {"status": "optimal", "top_share": 0.905}
    assert rc.degenerate(_graph("frey", 40, 1, mvu=edge))["verdict"] == "undecided (within noise)"
    uncertified = {"status": "inaccurate", "top_share": 0.99}
    assert rc.degenerate(_graph("frey", 40, 1, mvu=uncertified))["verdict"] == "not measured"
    stand_in = _graph("teapot_standin", 9, 1, "teapot", mvu=flat)
    assert rc.degenerate(stand_in)["verdict"] == "not measured"


def test_the_constraint_order_readings_split_o_kn_from_o_nk2():
    # a slope of 1.9 in k: O(n k^2) bounded, O(kn) not -> the readings disagree
    split = rc.constraints_order(_counts(1.9))
    assert split["verdict"] == "partly holds"
    assert "as stated O(kn) (does not hold)" in split["evidence"]
    assert "O(nk^2) as in 3.1.4 (holds)" in split["evidence"]
    # linear in k: both bounded
    assert rc.constraints_order(_counts(1.0))["verdict"] == "holds"
    assert rc.constraints_order({})["verdict"] == "not measured"
    orders = rc.order_ratios(_counts(1.0)["counts"]["counts"])
    ks, constraints, ratios, slope = orders[1]
    assert ks == [3, 4, 6, 8, 12] and constraints[0] == int(1000 * 0.5 * 3) + 1
    assert abs(slope) < 0.01
