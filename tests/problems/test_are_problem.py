"""The action respecting embedding SDP: its action pairs (against a naive
enumeration), the dual matrix L(w, v), and the certificate, which must hold for a
solver's optimum and catch wrong multipliers and infeasible candidates."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from harness.datasets.moving_window import MovingWindow
from harness.problems.are_problem import (AREProblem, action_constraint_pairs, certify_are,
                                  check_actions)
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.are_solver import solve_are

pytest.importorskip("cvxpy")


def naive_pairs(actions, neighbours=None):
    """Every (i, j, i+1, j+1), i < j < n - 1, a_i == a_j (and j a neighbour of i or
    i of j), by loops."""
    out = []
    for i, j in itertools.combinations(range(len(actions)), 2):
        if actions[i] == actions[j] and (neighbours is None or j in neighbours[i]
                                         or i in neighbours[j]):
            out.append((i, j, i + 1, j + 1))
    return np.array(sorted(out), dtype=np.int64).reshape(-1, 4)


@pytest.fixture(scope="module")
def data():
    return MovingWindow().load(n_samples=30, seed=1)


def test_all_pairs_match_a_naive_enumeration(data):
    np.testing.assert_array_equal(action_constraint_pairs(data.actions),
                                  naive_pairs(list(data.actions)))
    labels = np.array(["left", "up", "left", "left", "up"])  # labels without semantics
    np.testing.assert_array_equal(action_constraint_pairs(labels),
                                  [[0, 2, 1, 3], [0, 3, 1, 4], [1, 4, 2, 5], [2, 3, 3, 4]])


def test_neighbour_pairs_match_a_naive_enumeration(data):
    from sklearn.neighbors import NearestNeighbors

    k = 5
    problem = AREProblem.from_points(data.X, data.actions, k, action_pairs="neighbors")
    nbrs = NearestNeighbors(n_neighbors=k).fit(data.X).kneighbors(return_distance=False)
    expected = naive_pairs(list(data.actions), [set(row) for row in nbrs])
    np.testing.assert_array_equal(problem.pairs, expected)
    every = AREProblem.from_points(data.X, data.actions, k, action_pairs="all")
    assert 0 < problem.c < every.c
    assert {tuple(r) for r in problem.pairs} <= {tuple(r) for r in every.pairs}


def test_dual_laplacian_is_the_constraint_combination(data):
    problem = AREProblem.from_points(data.X, data.actions, 5)
    rng = np.random.default_rng(0)
    w, v = rng.standard_normal(problem.m), rng.standard_normal(problem.c)
    n = problem.n

    def A(i, j):
        e = np.zeros(n)
        e[i], e[j] = 1.0, -1.0
        return np.outer(e, e)

    dense = sum(wi * A(i, j) for wi, (i, j) in zip(w, problem.base.edges))
    dense = dense + sum(vc * (A(p[2], p[3]) - A(p[0], p[1])) for vc, p in zip(v, problem.pairs))
    np.testing.assert_allclose(problem.dual_laplacian(w, v).toarray(), dense, atol=1e-12)
    # <L(w, v), K> = sum_e w_e d_e(K) + sum_c v_c (action residual of K)
    F = rng.standard_normal((n, 3))
    K = F @ F.T
    lhs = np.sum(problem.dual_laplacian(w, v).toarray() * K)
    rhs = (problem.base.embedded_sq_lengths(F) @ w + problem.action_residuals(F) @ v)
    assert lhs == pytest.approx(rhs, rel=1e-10)


@pytest.fixture(scope="module")
def solved(data):
    problem = AREProblem.from_points(data.X, data.actions, 5)
    return problem, solve_are(problem, "clarabel", time_limit=600)


def test_clarabel_optimum_is_certified(solved):
    problem, result = solved
    assert result.status == "optimal", result.reason
    cert = result.certificate
    assert cert.gap <= 1e-5 and cert.violation <= 1e-6 and cert.consistent
    assert cert.eigenvalue == pytest.approx(1.0, abs=1e-4)  # complementary slackness
    # recomputed from the problem data alone
    again = certify_are(problem, result.F, result.w, result.v)
    assert again == cert
    # the action constraints hold, recomputed pair by pair
    F, b_max = result.F, problem.base.sq_lengths.max()
    for i, j, i1, j1 in problem.pairs:
        before = np.sum((F[i] - F[j]) ** 2)
        after = np.sum((F[i1] - F[j1]) ** 2)
        assert abs(after - before) <= 1e-6 * b_max
    assert (problem.base.embedded_sq_lengths(F) <= problem.base.sq_lengths + 1e-6 * b_max).all()


def test_the_actions_constrain(solved, data):
    problem, result = solved
    free = AREProblem.from_points(data.X, None, 5)
    other = solve_are(free, "clarabel", time_limit=600)
    assert other.status == "optimal" and free.c == 0
    # more constraints, smaller optimum; both certified
    assert result.certificate.value < other.certificate.value * (1 - 1e-3)
    # MVU's optimum violates the action constraints
    assert problem.violation(other.F) > 1e-2


def test_wrong_multipliers_certify_nothing(solved):
    problem, result = solved
    flipped = certify_are(problem, result.F, result.w, -result.v)
    assert flipped.gap > 0.5 and flipped.eigenvalue < 0
    without = certify_are(problem, result.F, result.w, np.zeros(problem.c))
    assert without.gap > 1e-2


def test_infeasible_candidate_is_caught(solved):
    problem, result = solved
    bigger = certify_are(problem, 1.5 * result.F, result.w, result.v)
    assert bigger.violation > 0.1
    assert not bigger.consistent and bigger.gap == np.inf  # above every feasible K's bound


def test_equality_distances_can_be_infeasible():
    # 0 -> 1 -> 3 on a line with the same action twice: the action must map the
    # pair (0, 1) (distance 1) onto (1, 2) (distance 2), which equalities forbid
    X = np.array([[0.0], [1.0], [3.0]])
    problem = AREProblem.from_points(X, [0, 0], 2, distances="equality")
    result = solve_are(problem, "clarabel", time_limit=120)
    assert result.status == "infeasible" and result.F is None
    relaxed = solve_are(AREProblem.from_points(X, [0, 0], 2), "clarabel", time_limit=120)
    assert relaxed.status == "optimal", relaxed.reason
    F = relaxed.F
    assert np.sum((F[1] - F[2]) ** 2) == pytest.approx(np.sum((F[0] - F[1]) ** 2), abs=1e-6)


@pytest.mark.parametrize(("actions", "message"), [
    ([0, 1], r"n_samples - 1 = 3 labels .* got shape \(2,\)"),
    ([[0, 1, 2]], r"got shape \(1, 3\)"),
    ([0.0, np.nan, 1.0], r"NaN or infinity \(first at step 1\)"),
    (np.array([0, None, 1], dtype=object), "contain None"),
])
def test_bad_actions_are_named(actions, message):
    with pytest.raises(ValueError, match=message):
        check_actions(actions, 4)


def test_bad_problem_parameters():
    X = np.random.default_rng(0).standard_normal((6, 2))
    with pytest.raises(ValueError, match=r"action_pairs must be one of \('all', 'neighbors'\)"):
        AREProblem.from_points(X, [0] * 5, 2, action_pairs="some")
    with pytest.raises(ValueError, match=r"distances must be one of \('inequality', 'equality'\)"):
        AREProblem.from_points(X, [0] * 5, 2, distances="slack")
    base = MVUProblem(n=6, edges=np.array([[0, 1]]), sq_lengths=np.ones(1))
    with pytest.raises(ValueError, match=r"pairs must have shape \(c, 4\)"):
        AREProblem(base=base, pairs=np.array([[0, 1, 2, 9]]))
    problem = AREProblem(base=base, pairs=np.zeros((0, 4), np.int64))
    with pytest.raises(ValueError, match="one entry per edge"):
        certify_are(problem, np.ones((6, 1)), np.ones(2), np.zeros(0))
    with pytest.raises(ValueError, match="unknown ARE solver 'csdp'"):
        solve_are(problem, "csdp")
