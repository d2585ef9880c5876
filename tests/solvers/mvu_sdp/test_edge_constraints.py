"""Constraints that are signed combinations of edge rank-ones
(harness.solvers.mvu_sdp.edge_constraints) in the native interior point
(harness.solvers.mvu_sdp.ipm): atoms merged up to orientation, the operators A and A^T
adjoint and equal to the dense constraint matrices', the Schur matrix C E C^T equal to
HKM's tr(A_r X A_s Z^-1) summed densely, and an MVU problem written with an explicit
(permuted identity) combination solved to the same optimum and multipliers."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import ipm as ipm_module
from harness.solvers.mvu_sdp.edge_constraints import EdgeConstraints
from harness.solvers.mvu_sdp.ipm import run_ipm, solve_certified

from tests.problems.mvu_data import noisy_roll


def random_constraints(n: int, seed: int) -> EdgeConstraints:
    """Rows of one, two (+1, -1: an action row) and three atoms with random
    coefficients, atoms shared between rows and given in both orientations."""
    rng = np.random.default_rng(seed)
    rows, pairs, coefficients = [], [], []
    for r in range(3 * n):
        size = 1 + r % 3
        for _ in range(size):
            i, j = rng.choice(n, 2, replace=False)
            rows.append(r)
            pairs.append((i, j))
            coefficients.append(1.0 if size == 1 else rng.standard_normal())
    b = rng.uniform(0.5, 2.0, 3 * n)
    return EdgeConstraints.from_terms(n, np.array(rows), np.array(pairs),
                                      np.array(coefficients), b,
                                      inequality=np.arange(0, 3 * n, 3))


def dense_matrices(system: EdgeConstraints) -> list[np.ndarray]:
    """Every A_r as a dense n x n matrix, built here from the terms."""
    return [system.matrix(r) for r in range(system.m)]


def test_atoms_are_merged_up_to_orientation_and_terms_add():
    system = EdgeConstraints.from_terms(
        4, rows=np.array([0, 0, 1, 1, 1]), pairs=np.array([[1, 0], [0, 1], [2, 3], [3, 2], [0, 2]]),
        coefficients=np.array([1.0, 2.0, 1.0, -1.0, 0.5]), b=np.array([1.0, 0.0]))
    np.testing.assert_array_equal(system.atoms, [[0, 1], [0, 2], [2, 3]])
    C = system.combination.toarray()
    np.testing.assert_allclose(C, [[3.0, 0.0, 0.0], [0.0, 0.5, 0.0]])  # 1 - 1 = 0 on (2, 3)
    A0 = np.zeros((4, 4))
    A0[np.ix_([0, 1], [0, 1])] = 3.0 * np.array([[1, -1], [-1, 1]])
    np.testing.assert_allclose(system.matrix(0), A0)
    assert system.scale == pytest.approx(1.0)  # the mean of the nonzero |b|
    with pytest.raises(ValueError, match="i != j"):
        EdgeConstraints.from_terms(3, np.array([0]), np.array([[1, 1]]), np.ones(1),
                                   np.ones(1))
    with pytest.raises(ValueError, match="combination must have shape"):
        EdgeConstraints(n=3, atoms=np.array([[0, 1]]), b=np.ones(2),
                        combination=sp.csr_matrix(np.ones((2, 2))))


def test_an_mvu_problem_is_one_atom_per_edge_without_a_combination():
    P = MVUProblem.from_points(noisy_roll(20), 4, variant="inequality")
    system = EdgeConstraints.of_mvu(P)
    assert system.combination is None and system.m == P.m
    np.testing.assert_array_equal(system.inequality, np.arange(P.m))
    assert system.scale == pytest.approx(P.sq_lengths.mean())
    equality = EdgeConstraints.of_mvu(MVUProblem.from_points(noisy_roll(20), 4))
    assert equality.inequality is None and equality.n_inequalities == 0
    assert not EdgeConstraints.of_mvu(
        MVUProblem.from_points(noisy_roll(20), 4, variant="min_trace")).maximize
    with pytest.raises(ValueError, match="variants"):
        EdgeConstraints.of_mvu(MVUProblem.from_points(noisy_roll(20), 4, variant="slack"))


@pytest.mark.parametrize("explicit_basis", [False, True])
def test_operators_and_schur_matrix_match_the_dense_constraint_matrices(explicit_basis):
    n = 9
    system = random_constraints(n, seed=1)
    rng = np.random.default_rng(2)
    V = ipm_module._complement_basis(n)
    if explicit_basis:  # a face: 5 orthonormal columns orthogonal to 1
        V = np.linalg.qr(V @ rng.standard_normal((n - 1, 5)))[0]
    ops = ipm_module._Operators(n, system.atoms, V if explicit_basis else None,
                                system.combination)
    N = V.shape[1]
    G = rng.standard_normal((N, N))
    X, Zi = G @ G.T + 0.1 * np.eye(N), np.linalg.inv(G.T @ G + np.eye(N))
    A = [V.T @ Ar @ V for Ar in dense_matrices(system)]  # V^T A_r V
    # A(X)_r = <A_r, V X V^T> and the adjoint: <A(X), y> = <X, A^T(y)>
    np.testing.assert_allclose(ops.A(X), [np.vdot(Ar, X) for Ar in A], rtol=1e-10)
    y = rng.standard_normal(system.m)
    np.testing.assert_allclose(ops.AT(y), sum(yr * Ar for yr, Ar in zip(y, A)), atol=1e-10)
    assert ops.A(X) @ y == pytest.approx(np.vdot(X, ops.AT(y)), rel=1e-10)
    # HKM's Schur matrix, M_rs = tr(A_r X A_s Z^-1), summed over the dense matrices
    naive = np.array([[np.trace(Ar @ X @ As @ Zi) for As in A] for Ar in A])
    M = ops.schur(X, Zi)
    np.testing.assert_allclose(M, naive, rtol=1e-9, atol=1e-9 * np.abs(naive).max())
    np.testing.assert_array_equal(M, M.T)
    assert M.flags.c_contiguous
    # the right-hand sides' A(R Z^-1) for a nonsymmetric R
    R = rng.standard_normal((N, N))
    np.testing.assert_allclose(ops.A_product(R, Zi, ops.lift(Zi)),
                               [np.trace(Ar @ R @ Zi) for Ar in A], rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("variant", ["equality", "inequality"])
def test_mvu_through_an_explicit_combination_has_the_same_optimum(variant):
    """The MVU edges written as terms in shuffled rows (C a permutation, so every
    operator goes through the sparse products) reach the optimum and multipliers
    of the plain MVU iteration."""
    P = MVUProblem.from_points(noisy_roll(30, 1), 5, variant=variant)
    rows = np.random.default_rng(0).permutation(P.m)  # edge k is row rows[k]
    b = np.empty(P.m)
    b[rows] = P.sq_lengths
    system = EdgeConstraints.from_terms(
        P.n, rows, P.edges[:, ::-1], np.ones(P.m), b,
        inequality=np.arange(P.m) if variant == "inequality" else None,
        scale=float(P.sq_lengths.mean()))
    assert not np.array_equal(system.combination.indices, np.arange(P.m))  # permuted
    T = mc.trace_bound(P)
    plain = solve_certified(P, lambda F, w: mc.certify(P, F, w, T=T),
                            tol_gap=1e-7, tol_violation=1e-7)
    combined = solve_certified(system, lambda F, w: mc.certify(P, F, w[rows], T=T),
                               tol_gap=1e-7, tol_violation=1e-7)
    assert plain.status == combined.status == "optimal"
    assert combined.certificate.value == pytest.approx(plain.certificate.value, rel=1e-6)
    assert combined.iterations == plain.iterations
    scale = np.abs(plain.w).max()
    np.testing.assert_allclose(combined.w[rows], plain.w, atol=1e-4 * scale)
    if variant == "inequality":
        # inactive edges (multipliers ~ 0) beside active ones
        assert (combined.w >= 0).all() and (combined.w < 1e-4 * scale).any()
        assert (combined.w > 1e-2 * scale).any()


def test_a_linear_cost_needs_an_mvu_problem():
    from harness.problems.linear_cost import LinearCost

    system = random_constraints(6, seed=0)
    cost = LinearCost(identity=1.0, P=np.zeros((6, 1)), coeffs=np.zeros(1))
    with pytest.raises(ValueError, match="linear cost"):
        run_ipm(system, cost=cost)
