"""MVU's feasibility result: the certificates on small instances and the verdicts on
frames that hold and frames that fail."""

import numpy as np
import pandas as pd
import pytest

from harness.problems.mvu_problem import MVUProblem
from harness.results.mvu_feasibility.register_claims import register_claims
from harness.results.mvu_feasibility.work import (
    _zero_violation, components, farkas_certificate, unbounded_ray,
)


def _blobs(n=16, gap=20.0):
    X = np.random.default_rng(0).standard_normal((n, 2))
    X[n // 2:, 0] += gap
    return X


def test_ray_certifies_a_disconnected_graph_and_not_a_connected_one():
    X = _blobs()
    problem = MVUProblem.from_points(X, 3)
    labels = components(len(X), problem.edges)
    assert labels.max() == 1
    ray = unbounded_ray(problem, X, labels)
    assert ray["k0_violation"] < 1e-12 and ray["ray_edge_change"] == 0.0
    assert abs(ray["ray_sum"]) < 1e-12 and ray["ray_trace"] > 0
    joined = MVUProblem.from_points(X, 3, link="shortest")
    labels = components(len(X), joined.edges)
    assert labels.max() == 0  # one component: the indicator is constant, no ray
    assert unbounded_ray(joined, X, labels)["ray_trace"] == pytest.approx(0.0)


def test_farkas_certifies_broken_triangles_and_refuses_euclidean_lengths():
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    exact = MVUProblem.from_points(pts, 3)  # a clique of 4: Euclidean lengths, feasible
    assert not farkas_certificate(exact)["farkas_certified"]
    broken = MVUProblem(n=4, edges=exact.edges, sq_lengths=exact.sq_lengths.copy())
    broken.sq_lengths[0] = 25.0  # one edge 5 units long in a unit square's clique
    result = farkas_certificate(broken)
    assert result["farkas_certified"] and result["farkas_by"] < 0


def test_relaxed_models_accept_zero_and_strict_does_not():
    problem = MVUProblem.from_points(_blobs(12, 1.0), 3)
    for variant in ("inequality", "slack"):
        relaxed = MVUProblem(n=problem.n, edges=problem.edges, sq_lengths=problem.sq_lengths,
                             variant=variant)
        assert _zero_violation(relaxed) == 0.0
    assert _zero_violation(problem) > 0  # equality: K = 0 breaks every edge


def _frame(status="unbounded", tracks=False, strict="infeasible", relaxed="optimal", zero=0.0):
    dis = {"part": "disconnected", "status": "ok", "data": "blobs", "backend": "scs", "n": 60,
           "k": 3, "n_components": 2, "solver_status": status, "sweep_tracks": tracks,
           "sweep_text": "10, 1000", "bounds_text": "10, 1000", "k0_violation": 1e-15,
           "ray_edge_change": 0.0, "ray_certified": True, "control_components": 1,
           "control_status": "optimal", "control_value_over_k0": 1.2}
    st = {"part": "strict_noisy", "status": "ok", "draw": 0, "backend": "scs",
          "solver_status": strict, "broken_triangles": 3, "triangles": 9, "farkas_by": -1.0,
          "farkas_delta": 0.0, "farkas_margin": -1.0, "farkas_certified": True}
    rel = {"part": "relaxed", "status": "ok", "draw": 0, "variant": "slack",
           "solver_status": relaxed, "zero_violation": zero}
    return pd.DataFrame([dis, st, rel])


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(frame)}


def test_verdicts_hold_and_fail():
    good = _verdicts(_frame())
    assert good["s3-1-4-disconnected-graph-unbounded"] == "holds"
    assert good["s3-1-12-disconnected-sdp-infeasible"] == "partly holds"
    assert good["s3-1-6-strict-may-be-infeasible"] == "holds"
    assert good["s3-1-6-relaxed-always-feasible"] == "holds"
    # a solver stopping without a status but following the trace bound counts as unbounded
    assert _verdicts(_frame("optimal_inaccurate", tracks=True))[
        "s3-1-4-disconnected-graph-unbounded"] == "holds"
    bad = _verdicts(_frame("infeasible", strict="optimal", relaxed="infeasible", zero=1.0))
    assert bad["s3-1-4-disconnected-graph-unbounded"] == "does not hold"
    assert bad["s3-1-12-disconnected-sdp-infeasible"] == "partly holds"  # readings swap
    assert bad["s3-1-6-strict-may-be-infeasible"] == "does not hold"
    assert bad["s3-1-6-relaxed-always-feasible"] == "does not hold"
