"""MVU with ``cut_bad_edges`` (thesis 3.1.12): the solve on the cut graph is certified,
the cut edges are unconstrained, bad parameters and a cut that disconnects are named."""

from __future__ import annotations

import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.plugin import DisconnectedGraphError
from harness.problems.bad_edges import BadEdgeRule, detect_bad_edges
from harness.problems.mvu_problem import MVUProblem
from harness.methods.shared.manifold import knn_graph
from harness.methods.mvu import MVU


@pytest.fixture(scope="module")
def roll():
    return SwissRoll().load(n_samples=100, noise=0.75, seed=3).X


@pytest.mark.parametrize("variant", ["equality", "inequality"])
def test_mvu_on_the_cut_graph_is_certified(roll, variant):
    model = MVU(n_neighbors=6, variant=variant, cut_bad_edges=True).fit(roll)
    info = model.solve_info_
    assert info["status"] == "optimal" and info["gap"] <= 1e-3
    detection = detect_bad_edges(knn_graph(roll, 6), BadEdgeRule())
    assert model.bad_edges_["n_cut"] == int(detection.cut.sum()) > 0
    assert model.bad_edges_["cut_edges"] == detection.cut_edges.tolist()
    # the constraints are the cut graph's; recomputed here from the factor
    problem = MVUProblem.from_points(roll, 6, bad_edges=BadEdgeRule(), variant=variant)
    assert np.array_equal(model.edges_, problem.edges)
    constrained = set(map(tuple, model.edges_.tolist()))
    assert not constrained & set(map(tuple, detection.cut_edges.tolist()))
    assert problem.violation(model.kernel_factor_) <= 1e-4
    plain = MVU(n_neighbors=6, variant=variant).fit(roll)
    assert plain.bad_edges_ is None and len(plain.edges_) > len(model.edges_)


def test_bad_walk_parameters_are_refused_naming_the_value(roll):
    for kwargs, text in (({"walk_steps": 0}, "walk_steps.*got 0"),
                         ({"walk_sigma": 0.0}, "walk_sigma.*got 0.0"),
                         ({"walk_sigma": -2.0}, "got -2.0"),
                         ({"walk_transition": "both"}, "'both'")):
        with pytest.raises(ValueError, match=text):
            MVU(n_neighbors=6, cut_bad_edges=True, **kwargs).fit(roll)


def test_a_cut_that_disconnects_the_graph_is_named():
    X = SwissRoll().load(n_samples=80, noise=0.75, seed=3).X
    with pytest.raises(DisconnectedGraphError, match=r"2 connected components.*after "
                                                     r"cutting its 27 bad edges"):
        MVU(n_neighbors=4, cut_bad_edges=True, cut_fence=0.5).fit(X)
