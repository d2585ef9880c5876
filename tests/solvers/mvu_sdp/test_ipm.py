"""The dense interior-point MVU solver (harness.solvers.mvu_sdp.ipm): Clarabel's optimum
to ~1e-6 on every variant, a certificate recomputed here, and its dispatch."""

import numpy as np
from scipy.linalg import lapack
import pytest

from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import ipm as ipm_module
from harness.solvers.mvu_sdp import solve_mvu
from harness.solvers.mvu_sdp.ipm import solve_ipm
from harness.solvers.mvu_sdp.native_solver import solve_native

from tests.problems.mvu_data import clarabel_value, noisy_roll

cp = pytest.importorskip("cvxpy")


@pytest.mark.parametrize("variant", ["equality", "inequality", "min_trace"])
@pytest.mark.parametrize("seed", [0, 1])
def test_ipm_matches_clarabel_and_certifies_itself(variant, seed):
    P = MVUProblem.from_points(noisy_roll(40, seed), 5, variant=variant)
    res = solve_ipm(P, tol_gap=1e-7, tol_violation=1e-7)
    cert = mc.certify(P, res.F, res.w)  # recomputed here, not trusted
    assert res.status == "optimal"
    assert cert.gap <= 1e-6 and cert.violation <= 1e-6, cert
    assert cert.value == pytest.approx(clarabel_value(P), rel=1e-5)
    # the bound is on the right side of the value (weak duality)
    if P.maximize:
        assert cert.bound >= cert.value * (1 - 1e-9)
    else:
        assert cert.bound <= cert.value * (1 + 1e-9)
    if variant == "inequality":
        assert (res.w >= 0).all()
    np.testing.assert_allclose(res.F.mean(axis=0), 0.0, atol=1e-9 * np.abs(res.F).max())


def test_ipm_reaches_what_the_low_rank_solver_certifies():
    P = MVUProblem.from_points(noisy_roll(60, 2), 5)
    ipm = solve_ipm(P)
    lowrank = solve_native(P, time_limit=60.0, method="lowrank")
    # both certificates are valid bounds on the same optimum
    assert ipm.certificate.value <= lowrank.certificate.bound * (1 + 1e-9)
    assert lowrank.certificate.value <= ipm.certificate.bound * (1 + 1e-4)
    assert ipm.certificate.gap < lowrank.certificate.gap


def test_a_perturbed_ipm_solution_is_not_certified():
    P = MVUProblem.from_points(noisy_roll(40, 3), 5)
    res = solve_ipm(P)
    bad_w = res.w * (1 + 0.05 * np.random.default_rng(0).standard_normal(P.m))
    assert mc.certify(P, res.F, bad_w).gap > 1e-3
    assert mc.certify(P, 1.02 * res.F, res.w).violation > 1e-3


def test_auto_dispatch_and_backend_names():
    P = MVUProblem.from_points(noisy_roll(40, 4), 5, variant="min_trace")
    # the interior-point method needs no starting factor, even for minimum trace
    assert solve_mvu(P, "native").status == "optimal"
    skipped = solve_mvu(P, "native_lowrank")
    assert skipped.status == "skipped" and "init" in skipped.reason
    assert solve_native(P).history[0].keys() >= {"rel_gap", "primal_infeasibility"}


def test_bad_input_is_refused():
    P = MVUProblem.from_points(noisy_roll(30), 4, variant="slack")
    with pytest.raises(ValueError, match="variants"):
        solve_ipm(P)
    P = MVUProblem.from_points(noisy_roll(30), 4)
    with pytest.raises(ValueError, match="memory_budget"):
        solve_ipm(P, memory_budget=ipm_module.schur_bytes(P.n, P.m) - 1)
    with pytest.raises(ValueError, match="schur_precision"):
        ipm_module.run_ipm(P, schur_precision="half")
    with pytest.raises(ValueError, match="method"):
        solve_native(P, method="dense")


def test_time_limit_returns_a_certified_iterate():
    P = MVUProblem.from_points(noisy_roll(60, 5), 5)
    res = solve_ipm(P, time_limit=0.0)
    assert res.status == "timeout" and res.iterations == 1
    cert = mc.certify(P, res.F, res.w)
    assert cert.gap == pytest.approx(res.certificate.gap)


def test_complement_basis_is_orthonormal_and_centred():
    V = ipm_module._complement_basis(7)
    np.testing.assert_allclose(V.T @ V, np.eye(6), atol=1e-12)
    np.testing.assert_allclose(V.sum(axis=0), 0.0, atol=1e-12)


@pytest.mark.parametrize("explicit_basis", [False, True])
def test_schur_matrix_matches_its_definition(explicit_basis):
    rng = np.random.default_rng(0)
    P = MVUProblem.from_points(noisy_roll(12, 6), 3)
    V = ipm_module._complement_basis(P.n)
    if explicit_basis:  # a face basis: 7 orthonormal columns orthogonal to 1
        V = np.linalg.qr(V @ rng.standard_normal((11, 7)))[0]
    ops = ipm_module._Operators(P.n, P.edges, V if explicit_basis else None)
    N = V.shape[1]
    A = rng.standard_normal((N, N))
    X, Zi = A @ A.T, np.linalg.inv(A.T @ A + np.eye(N))
    U = np.array([V[i] - V[j] for i, j in P.edges])  # u_e = V^T (e_i - e_j)
    naive = (U @ X @ U.T) * (U @ Zi @ U.T)
    np.testing.assert_allclose(ops.schur(X, Zi), naive, rtol=1e-10, atol=1e-10)
    # the O(n^2) Householder products against the explicit basis
    np.testing.assert_allclose(ops.lift(X), V @ X @ V.T, atol=1e-10)
    G = rng.standard_normal((P.n, P.n))
    G = G + G.T
    np.testing.assert_allclose(ops.restrict(G), V.T @ G @ V, atol=1e-10)
    np.testing.assert_allclose(ops.lift_columns(A), V @ A, atol=1e-10)
    # A and its adjoint: <A(X), y> = <X, A^T(y)>
    y = rng.standard_normal(P.m)
    assert ops.A(X) @ y == pytest.approx(np.vdot(X, ops.AT(y)), rel=1e-10)
    np.testing.assert_allclose(ops.A(X), np.einsum("ei,ij,ej->e", U, X, U), rtol=1e-10)
    # A of a product (the right-hand sides' A(X R Z^-1)) without forming it
    R = rng.standard_normal((N, N))
    np.testing.assert_allclose(ops.lift(R, symmetric=False), V @ R @ V.T, atol=1e-10)
    np.testing.assert_allclose(ops.A_product(R, Zi, ops.lift(Zi)),
                               np.einsum("ei,ij,ej->e", U, R @ Zi, U), rtol=1e-9, atol=1e-10)


def test_mixed_precision_schur_solve_is_exact_to_double_precision():
    rng = np.random.default_rng(1)
    Q = np.linalg.qr(rng.standard_normal((300, 300)))[0]
    M = (Q * np.logspace(0, 5, 300)) @ Q.T  # condition 1e5: float32 alone gives ~1e-3
    r = rng.standard_normal(300)
    exact = np.linalg.solve(M, r)
    mixed = ipm_module._SchurSolver(lambda: M.copy(), mixed=True)
    x = mixed.solve(r)
    assert mixed.mixed and mixed.cg_iterations > 0  # refined, not a float64 fallback
    np.testing.assert_allclose(x, exact, rtol=1e-8)
    double = ipm_module._SchurSolver(lambda: M.copy(), mixed=False)
    np.testing.assert_allclose(double.solve(r), exact, rtol=1e-9)
    # too ill-conditioned for float32: falls back to float64 and stays exact
    M_bad = (Q * np.logspace(0, 12, 300)) @ Q.T
    bad = ipm_module._SchurSolver(lambda: M_bad.copy(), mixed=True)
    x_bad = bad.solve(r)
    assert bad.fallbacks == 1 and not bad.mixed
    # its conjugate-gradient rate gave up early, not after CG_MAX_ITERATIONS
    assert bad.cg_iterations == ipm_module.CG_RATE_AFTER
    reference = np.linalg.norm(M_bad @ np.linalg.solve(M_bad, r) - r)  # LAPACK's own
    assert np.linalg.norm(M_bad @ x_bad - r) <= 10 * reference


def test_mixed_and_double_precision_reach_the_same_certified_optimum():
    P = MVUProblem.from_points(noisy_roll(80, 8), 5)
    a = solve_ipm(P, schur_precision="double", tol_gap=1e-6, tol_violation=1e-6)
    b = solve_ipm(P, schur_precision="mixed", tol_gap=1e-6, tol_violation=1e-6)
    assert a.status == b.status == "optimal"
    assert b.certificate.value == pytest.approx(a.certificate.value, rel=2e-6)


def test_auto_falls_back_to_the_low_rank_method_when_the_ipm_stalls(monkeypatch):
    import harness.solvers.mvu_sdp.native_solver as nm

    P = MVUProblem.from_points(noisy_roll(40, 7), 5)
    stalled = solve_ipm(P, max_iter=3)  # a genuine early iterate: not optimal
    assert stalled.status != "optimal"
    monkeypatch.setattr(nm, "solve_ipm", lambda *a, **k: stalled)
    res = nm.solve_native(P, time_limit=60.0)
    assert res.status == "optimal" and "rank" in res.history[0]  # the low-rank history
    assert nm.solve_native(P, time_limit=60.0, method="ipm") is stalled


@pytest.mark.parametrize("variant, factor", [("equality", 1.05), ("min_trace", 0.95)])
def test_a_value_beyond_the_bound_is_an_inconsistent_certificate(variant, factor):
    from harness.solvers.mvu_sdp.result import judge

    P = MVUProblem.from_points(noisy_roll(40, 3), 5, variant=variant)
    res = solve_ipm(P, tol_gap=1e-7, tol_violation=1e-7)
    good = mc.certify(P, res.F, res.w)
    assert good.consistent and good.gap <= 1e-6
    # the candidate's own bound ((b + r).w in place of b.w) holds for it
    own = good.candidate_bound
    assert (good.value <= own * (1 + 1e-9)) if P.maximize else (good.value >= own * (1 - 1e-9))
    bad = mc.certify(P, factor * res.F, res.w)  # beyond the optimum: infeasible
    beyond = bad.value > bad.bound if P.maximize else bad.value < bad.bound
    assert beyond and not bad.consistent and bad.gap == np.inf
    assert (bad.value <= bad.candidate_bound * (1 + 1e-9) if P.maximize
            else bad.value >= bad.candidate_bound * (1 - 1e-9))
    status, reason = judge(bad, tol_gap=1e-3, tol_violation=1.0)  # violation let through
    assert status == "inaccurate" and reason.startswith("inconsistent certificate")


def test_the_estimated_step_is_close_and_never_shorter():
    """The step from sygst + Lanczos (dense below PENCIL_LANCZOS_FROM) against
    sygvx's exact step on random pencils of the predictor's shape, including no step
    limit; within the requested relative accuracy and never shorter."""
    rng = np.random.default_rng(3)
    for n in (300, 40):  # Lanczos and dense
        for shift in (0.0, 0.5, -5.0):
            A = rng.standard_normal((n, n))
            P = A @ A.T / n + 0.05 * np.eye(n)
            B = rng.standard_normal((n, n))
            dP = (B + B.T) / 2 + shift * np.eye(n)
            L = ipm_module._cholesky(P)
            exact = ipm_module._max_step(P, dP)
            for rtol in (1e-2, ipm_module.STEP_RTOL):
                estimate = ipm_module._estimated_step(L, dP, rtol)
                assert np.isfinite(exact) and exact <= estimate * (1 + 1e-12)
                assert estimate <= exact * (1 + rtol)
        assert np.isinf(ipm_module._estimated_step(L, np.eye(n)))  # PSD: no limit
    assert ipm_module._cholesky(-np.eye(4)) is None  # not positive definite


def test_cholesky_inverse_and_verified_moves():
    rng = np.random.default_rng(4)
    n = 150
    A = rng.standard_normal((n, n))
    P = A @ A.T / n + 0.1 * np.eye(n)
    np.testing.assert_allclose(ipm_module._inverse(ipm_module._cholesky(P)) @ P, np.eye(n),
                               atol=1e-8)
    B = rng.standard_normal((n, n))
    dP = (B + B.T) / 2
    exact = ipm_module._max_step(P, dP)
    # a good step: taken as asked, with the new iterate's Cholesky factor
    alpha, new, L = ipm_module._moved(P, dP, 0.9 * exact, 0.9)
    assert alpha == 0.9 * exact
    np.testing.assert_allclose(new, P + alpha * dP, atol=1e-12)
    np.testing.assert_allclose(L @ L.T, new, atol=1e-10)
    # a step beyond the boundary (a bad estimate): replaced by the fraction of the
    # exact step, and the new iterate is positive definite
    alpha, new, L = ipm_module._moved(P, dP, 1.5 * exact, 0.9)
    assert alpha == pytest.approx(0.9 * exact, rel=1e-12)
    assert np.linalg.eigvalsh(new).min() > 0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("m", [1, 7, 512, 1300])
def test_the_blocked_cholesky_solve_is_potrs_to_rounding(m, dtype):
    """Blocked forward/back substitution with the factor (trsv on diagonal blocks, gemv
    on panels), including sizes below, at and off a multiple of the block, agrees
    with LAPACK's potrs and solves the system."""
    rng = np.random.default_rng(m)
    A = rng.standard_normal((m, m + 3))
    M = (A @ A.T + m * np.eye(m)).astype(dtype)
    potrf, potrs = (lapack.dpotrf, lapack.dpotrs) if dtype == np.float64 else \
        (lapack.spotrf, lapack.spotrs)
    c, info = potrf(M.copy(order="F"), lower=1, clean=0)  # upper triangle left as is
    assert info == 0
    b = rng.standard_normal(m)
    factor = ipm_module.CholeskyFactor(c, block=512)
    x = factor.solve(b)
    eps = np.finfo(dtype).eps
    reference = potrs(c, b.astype(dtype), lower=1)[0]
    assert x.dtype == dtype
    np.testing.assert_allclose(x, reference, rtol=0,
                               atol=200 * eps * np.abs(reference).max())
    np.testing.assert_allclose(M.astype(np.float64) @ x, b, rtol=0,
                               atol=200 * eps * m * np.abs(b).max())


def test_the_preconditioner_of_a_nearly_sparse_schur_matrix_has_no_subnormals():
    """The first iteration's Schur matrix (X, Z multiples of the identity: 99.6 %
    zeros at n = 1000) makes float32 Cholesky create subnormal numbers (~27,000 of
    them here, each ~10x slower arithmetic); the rank-one floor added to the float32
    copy (PRECONDITIONER_FLOOR) leaves none, and the refined solve stays exact."""
    P = MVUProblem.from_points(noisy_roll(1000, 0), 5)
    ops = ipm_module._Operators(P.n, P.edges)
    M = ops.schur(np.eye(ops.N), np.eye(ops.N))
    assert np.mean(M == 0) > 0.99
    solver = ipm_module._SchurSolver(lambda: M.copy(), mixed=True)
    L = np.tril(solver.factor32.L)
    assert not np.any((np.abs(L) < np.finfo(np.float32).tiny) & (L != 0))
    r = np.random.default_rng(5).standard_normal(P.m)
    x = solver.solve(r)
    assert solver.mixed and solver.cg_iterations <= 3
    np.testing.assert_allclose(M @ x, r, rtol=0, atol=1e-10 * np.abs(r).max())
