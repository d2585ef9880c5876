"""Artificial links between components (thesis 3.1.12): the thesis' rule, the
shortest-edge alternative, and the MVU problem built on the linked graph."""

import numpy as np
import pytest

from harness.problems.link_components import components, link_components
from harness.problems.mvu_problem import MVUProblem

# C1 = {a, b}, C2 = {c, d}: shortest pair a-c (4); from b the thesis' rule goes
# b -> d (its nearest in C2, 4.12) -> b (d's nearest in C1): edge b-d, not the shortest
A, B, C, D = (0.0, 0.0), (0.0, 5.0), (4.0, 0.0), (1.0, 9.0)
X4 = np.array([A, B, C, D])
E4 = np.array([[0, 1], [2, 3]])


def test_shortest_rule_adds_the_shortest_pair():
    assert link_components(X4, E4, "shortest").tolist() == [[0, 2]]


def test_thesis_rule_follows_x_then_x_prime_then_x_double_prime():
    # from x = a or c the rule ends at a-c, from b or d at b-d (worked out by hand)
    seen = {tuple(link_components(X4, E4, "thesis", seed).ravel()) for seed in range(20)}
    assert seen == {(0, 2), (1, 3)}
    for seed in range(20):
        x = int(np.random.default_rng(seed).integers(4))
        expected = (0, 2) if x in (0, 2) else (1, 3)
        assert tuple(link_components(X4, E4, "thesis", seed).ravel()) == expected


def test_three_components_get_two_links_and_become_one():
    X = np.array([[0.0], [1.0], [10.0], [11.0], [30.0], [31.0]])
    edges = np.array([[0, 1], [2, 3], [4, 5]])
    for rule in ("thesis", "shortest"):
        added = link_components(X, edges, rule, seed=3)
        assert len(added) == 2
        assert np.all(components(6, np.vstack([edges, added])) == 0)
    assert link_components(X, edges, "shortest").tolist() == [[1, 2], [3, 4]]


def test_connected_graph_gets_no_link_and_bad_rule_is_refused():
    assert link_components(X4, np.array([[0, 1], [1, 2], [2, 3]])).shape == (0, 2)
    with pytest.raises(ValueError, match="rule must be one of"):
        link_components(X4, E4, "nearest")


def test_problem_from_points_adds_the_link_as_one_more_constraint():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(12, 3)), rng.normal(size=(12, 3)) + 50.0])
    plain = MVUProblem.from_points(X, 3)
    linked = MVUProblem.from_points(X, 3, link="shortest")
    assert plain.linked_edges is None and linked.linked_edges.shape == (1, 2)
    i, j = linked.linked_edges[0]
    assert i < 12 <= j
    assert linked.m == plain.m + 1
    row = np.flatnonzero((linked.edges[:, 0] == i) & (linked.edges[:, 1] == j))
    assert linked.sq_lengths[row[0]] == pytest.approx(np.sum((X[i] - X[j]) ** 2))
    assert np.all(components(24, linked.edges) == 0)
    assert len(np.unique(components(24, plain.edges))) == 2
