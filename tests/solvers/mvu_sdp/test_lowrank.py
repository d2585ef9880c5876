"""The low-rank MVU solver (harness.solvers.mvu_sdp.lowrank; solve_native's
method="lowrank"): certified against Clarabel's optimum on small data, and never
reporting "optimal" without a certificate that says so."""

import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp.lowrank import solve_lowrank
from harness.solvers.mvu_sdp.native_solver import solve_native
from harness.solvers.mvu_sdp.result import NativeResult

from tests.problems.mvu_data import clarabel_value, noisy_roll

cp = pytest.importorskip("cvxpy")


@pytest.fixture(scope="module")
def small_equality():
    P = MVUProblem.from_points(noisy_roll(40), 5)
    return P, clarabel_value(P), solve_lowrank(P, time_limit=60.0)


def test_native_matches_clarabel_within_the_certified_gap(small_equality):
    P, clarabel, res = small_equality
    assert isinstance(res, NativeResult)
    cert = mc.certify(P, res.F, res.w)  # recomputed here, not trusted
    assert cert.gap <= 1e-3, cert
    assert cert.violation <= 1e-4, cert
    assert res.status == "optimal"
    assert cert.value == pytest.approx(res.certificate.value, rel=1e-12)
    # weak duality: the native bound is above Clarabel's optimum, and the native value
    # is at least Clarabel's up to the certified gap
    assert cert.bound >= clarabel * (1 - 1e-6)
    assert cert.value >= clarabel * (1 - cert.gap) - 1e-6 * clarabel
    assert cert.value <= cert.bound * (1 + 1e-4)


def test_factor_is_centred_and_low_rank(small_equality):
    P, _, res = small_equality
    n, p = res.F.shape
    assert n == P.n and p < n // 2
    np.testing.assert_allclose(res.F.mean(axis=0), 0.0, atol=1e-9 * np.abs(res.F).max())
    assert res.w.shape == (P.m,)
    assert res.history and {"time", "value", "violation", "bound", "gap",
                             "rank"} <= set(res.history[0])


def test_inequality_variant_native_vs_clarabel():
    P = MVUProblem.from_points(noisy_roll(40, seed=1), 5, variant="inequality")
    clarabel = clarabel_value(P)
    res = solve_lowrank(P, time_limit=60.0)
    cert = mc.certify(P, res.F, res.w)
    assert (res.w >= 0).all()
    assert cert.bound >= clarabel * (1 - 1e-6)
    if res.status == "optimal":
        assert cert.gap <= 1e-3 and cert.violation <= 1e-4
    assert cert.value >= clarabel * (1 - max(cert.gap, 1e-3)) - 1e-6 * clarabel


def test_locked_noise_free_instance_is_never_wrongly_optimal():
    X = SwissRoll().load(n_samples=60, seed=3).X
    P = MVUProblem.from_points(X, 7)
    res = solve_lowrank(P, time_limit=30.0)
    cert = mc.certify(P, res.F, res.w)
    assert res.status in ("optimal", "inaccurate", "timeout")
    if res.status == "optimal":
        assert cert.gap <= 1e-3 and cert.violation <= 1e-4
    else:  # honest: the numbers say why
        assert cert.gap > 1e-3 or cert.violation > 1e-4
    # whatever the solver returns, its bound is a valid upper bound: at least the
    # trace of a known feasible point, the input's own centred Gram
    Xc = X - X.mean(axis=0)
    assert float(np.max(np.abs(P.embedded_sq_lengths(Xc) - P.sq_lengths))) < 1e-9
    assert cert.bound >= float((Xc**2).sum()) * (1 - 1e-6)


def test_unsupported_variant_is_rejected():
    P = MVUProblem.from_points(noisy_roll(20), 4, variant="slack")
    for solve in (solve_native, solve_lowrank):
        with pytest.raises(ValueError, match="equality"):
            solve(P)


# ---- the hand-written derivatives of the subproblem ------------------------------
from harness.solvers.mvu_sdp import lowrank as lr  # noqa: E402


@pytest.fixture(params=[("equality", -1.0), ("inequality", -1.0), ("min_trace", 1.0)],
                ids=["max", "max_ineq", "min"])
def subproblem(request):
    variant, c = request.param
    P = MVUProblem.from_points(noisy_roll(30), 4)
    ops = lr._Edges(P.n, P.edges)
    rng = np.random.default_rng(0)
    b = P.sq_lengths / P.sq_lengths.mean()
    w = rng.standard_normal(P.m)
    sub = lr._Subproblem(ops, b, w, 7.0, variant == "inequality", 3, c)
    Y = lr._centre(rng.standard_normal((P.n, 3)))
    return sub, Y.ravel(), rng


def _naive_value(sub, x):
    """phi from its definition, edge by edge (no incidence matrices)."""
    Y = x.reshape(-1, sub.p)
    Yc = Y - Y.mean(axis=0)
    total = sub.c * float((Yc**2).sum())
    for e, (i, j) in enumerate(sub.ops.edges):
        s = sub.w[e] + sub.sigma * (float(((Y[i] - Y[j]) ** 2).sum()) - sub.b[e])
        if sub.inequality:
            s = max(s, 0.0)
        total += (s * s - sub.w[e] ** 2) / (2 * sub.sigma)
    return total


def test_value_matches_a_naive_edge_loop(subproblem):
    sub, x, _ = subproblem
    assert sub.value(x) == pytest.approx(_naive_value(sub, x), rel=1e-12)


def _central_differences(fun, sub, x, rng, count=5, h=1e-6):
    """``(v, (fun(x + h v) - fun(x - h v)) / 2h)`` along random centred directions."""
    for _ in range(count):
        v = lr._centre(rng.standard_normal((len(x) // sub.p, sub.p))).ravel()
        yield v, (fun(x + h * v) - fun(x - h * v)) / (2 * h)


def test_gradient_matches_finite_differences(subproblem):
    sub, x, rng = subproblem
    g = sub.grad(x)
    for v, fd in _central_differences(sub.value, sub, x, rng):
        assert g @ v == pytest.approx(fd, rel=1e-6, abs=1e-6)


def test_hessian_product_and_matrix_match_finite_differences(subproblem):
    sub, x, rng = subproblem
    H = sub.hessian(x)
    for v, fd in _central_differences(sub.grad, sub, x, rng):
        np.testing.assert_allclose(sub.hessp(x, v), fd, rtol=1e-5, atol=1e-5 * np.abs(fd).max())
        np.testing.assert_allclose(H @ v, sub.hessp(x, v), rtol=1e-10,
                                   atol=1e-10 * np.abs(fd).max())
    # the constant directions: eigenvectors of the sparse matrix with eigenvalue 2c
    const = np.tile(rng.standard_normal(sub.p), len(x) // sub.p)
    np.testing.assert_allclose(H @ const, 2 * sub.c * const, atol=1e-9 * np.abs(H).max())


def test_min_trace_native_vs_clarabel():
    from harness.methods.mvu import _principal_coordinates

    X = noisy_roll(40, seed=2)
    P = MVUProblem.from_points(X, 5, variant="min_trace")
    clarabel = clarabel_value(P)
    res = solve_lowrank(P, time_limit=60.0, init=_principal_coordinates(X))
    cert = mc.certify(P, res.F, res.w)  # recomputed: a lower bound for minimisation
    assert res.status == "optimal", cert
    assert cert.gap <= 1e-3 and cert.violation <= 1e-4
    assert cert.bound <= clarabel * (1 + 1e-6)
    assert cert.value <= clarabel * (1 + 1e-3)
    # the minimum-trace factor has smaller trace than the maximum-trace one
    assert cert.value < solve_lowrank(MVUProblem.from_points(X, 5),
                                      time_limit=60).certificate.value


def test_min_trace_needs_a_starting_factor():
    P = MVUProblem.from_points(noisy_roll(20), 4, variant="min_trace")
    with pytest.raises(ValueError, match="init"):
        solve_lowrank(P)
