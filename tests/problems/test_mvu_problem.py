"""The MVU problem objects (thesis 3.1.4, 3.1.6, 3.1.11) and their certificates,
checked against naive constructions and against Clarabel's optima on small data."""

import itertools

import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import MVUProblem, clique_edges

cp = pytest.importorskip("cvxpy")


def _points(n=36, seed=1):
    return SwissRoll().load(n_samples=n, extra_noise_dims=2, extra_noise_std=0.1, seed=seed).X


def test_clique_edges_match_a_naive_construction():
    X = _points(30)
    k = 4
    edges, b = clique_edges(X, k)
    D = ((X[:, None] - X[None]) ** 2).sum(-1)
    naive = set()
    for i in range(len(X)):
        nbrs = np.argsort(D[i], kind="stable")[1:k + 1]
        for a, c in itertools.combinations([i, *nbrs], 2):
            naive.add((min(a, c), max(a, c)))
    assert {tuple(e) for e in edges} == naive
    assert len(edges) == len(naive)  # no duplicates
    assert (edges[:, 0] < edges[:, 1]).all()
    np.testing.assert_allclose(b, D[edges[:, 0], edges[:, 1]])


def test_weighted_laplacian_matches_dense_sum():
    edges = np.array([[0, 1], [1, 2], [0, 3]])
    w = np.array([2.0, -1.0, 0.5])
    L = np.zeros((4, 4))
    for (i, j), we in zip(edges, w):
        e = np.zeros(4)
        e[i], e[j] = 1, -1
        L += we * np.outer(e, e)
    np.testing.assert_allclose(mc.weighted_laplacian(4, edges, w).toarray(), L)


def test_centred_eigenvalue_dense_and_lobpcg_agree(monkeypatch):
    P = MVUProblem.from_points(_points(60), 5)
    w = np.random.default_rng(0).uniform(0.1, 1.0, P.m)
    L = mc.weighted_laplacian(P.n, P.edges, w)
    dense_min = mc.centred_extreme_eigenvalue(L)
    dense_max = mc.centred_extreme_eigenvalue(L, largest=True)
    ev = np.linalg.eigvalsh(L.toarray())  # 0 (ones) is the smallest: drop it
    assert dense_min == pytest.approx(ev[1], rel=1e-10)
    assert dense_max == pytest.approx(ev[-1], rel=1e-10)
    monkeypatch.setattr(mc, "DENSE_MAX", 10)
    # above the dense size the values are proven bounds: just outside the spectrum
    lower, upper = mc.centred_extreme_eigenvalue(L), mc.centred_extreme_eigenvalue(L, largest=True)
    assert lower <= dense_min and lower == pytest.approx(dense_min, rel=1e-5)
    assert upper >= dense_max and upper == pytest.approx(dense_max, rel=1e-5)


def _clarabel(P):
    problem, K, edge = P.to_cvxpy()
    problem.solve(solver="CLARABEL")
    Kv = (K.value + K.value.T) / 2
    lam, V = np.linalg.eigh(Kv)
    F = V * np.sqrt(np.clip(lam, 0, None))
    w = np.asarray(edge.dual_value).ravel()
    return problem, F, (w if P.maximize else -w)


@pytest.fixture(scope="module")
def solved():
    X = _points()
    out = {}
    for variant in ("equality", "inequality", "min_trace", "slack"):
        P = MVUProblem.from_points(X, 4, variant=variant)
        out[variant] = (P, *_clarabel(P))
    return out


@pytest.mark.parametrize("variant", ["equality", "inequality", "min_trace", "slack"])
def test_certificate_closes_the_gap_at_clarabels_optimum(solved, variant):
    P, problem, F, w = solved[variant]
    cert = mc.certify(P, F, w)
    assert cert.violation < 1e-6
    assert cert.gap < 1e-5, cert
    assert cert.value == pytest.approx(problem.value, rel=1e-6)
    if variant in ("equality", "inequality"):
        # complementary slackness: 1 is the smallest eigenvalue of L(w*) off the ones
        assert cert.eigenvalue == pytest.approx(1.0, abs=1e-5)
        assert cert.bound >= cert.value - 1e-6 * cert.value


def test_orders_of_the_variants(solved):
    eq = solved["equality"][1].value
    assert solved["inequality"][1].value >= eq - 1e-6 * eq  # relaxation: more variance
    assert solved["min_trace"][1].value <= eq + 1e-6 * eq
    P = solved["equality"][0]
    assert mc.trace_bound(P) >= eq


def test_certificate_exposes_a_suboptimal_answer(solved):
    P, problem, F, w = solved["inequality"]
    shrunk = 0.95 * F  # still feasible for <=, but 9.75 % below the optimum
    cert = mc.certify(P, shrunk, w)
    assert cert.violation == 0.0
    assert cert.gap == pytest.approx(1 - 0.95**2, abs=1e-4)


def test_certificate_exposes_an_infeasible_answer(solved):
    P, problem, F, w = solved["equality"]
    cert = mc.certify(P, 1.05 * F, w)  # 10 % more variance, but distances violated
    assert cert.violation == pytest.approx(1.05**2 - 1, rel=1e-3)


def test_wrong_multipliers_give_a_loose_but_valid_bound(solved):
    P, problem, F, w = solved["equality"]
    noisy = w + np.random.default_rng(0).normal(0, 0.5, P.m)
    cert = mc.certify(P, F, noisy)
    assert cert.bound >= problem.value  # weak duality holds for every w
    assert cert.gap > 1e-3


def test_problem_validation():
    with pytest.raises(ValueError, match="variant must be one of"):
        MVUProblem(n=3, edges=np.zeros((0, 2), int), sq_lengths=np.zeros(0), variant="x")
    with pytest.raises(ValueError, match="omega"):
        MVUProblem(n=3, edges=np.zeros((0, 2), int), sq_lengths=np.zeros(0), omega=1.5)
