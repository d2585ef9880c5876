"""The barrier method for a convex quadratic over the PSD cone (variational MVU's
dedicated SDP solver), against cvxpy/Clarabel and its own certificate."""

import numpy as np
import pytest

from harness.methods.shared.psd_qp import lower_bound, smat, solve_psd_qp, svec

cp = pytest.importorskip("cvxpy")


def _random_qp(m, seed, rank_deficient=False):
    rng = np.random.default_rng(seed)
    p = m * (m + 1) // 2
    A = rng.standard_normal((2 * p, p))
    g = 10 * rng.standard_normal(p)
    if rank_deficient:  # a known low-rank minimiser: g = -H x* + (PSD part off x*'s range)
        V = np.linalg.qr(rng.standard_normal((m, m)))[0]
        Zs = V[:, :2] @ np.diag([3.0, 1.0]) @ V[:, :2].T
        S = V[:, 2:] @ np.diag(rng.uniform(1, 2, m - 2)) @ V[:, 2:].T
        g = -(A.T @ A) @ svec(Zs) + svec(S)
    return A.T @ A, g


def _clarabel(H, g, m):
    Z = cp.Variable((m, m), PSD=True)
    a, b = np.triu_indices(m)
    x = cp.hstack([Z[i, j] * (1.0 if i == j else np.sqrt(2)) for i, j in zip(a, b)])
    problem = cp.Problem(cp.Minimize(0.5 * cp.quad_form(x, H) + g @ x))
    problem.solve(solver="CLARABEL")
    return problem.value


def test_svec_keeps_inner_products_and_inverts_smat():
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((2, 5, 5))
    A, B = A + A.T, B + B.T
    assert svec(A) @ svec(B) == pytest.approx(np.trace(A @ B), rel=1e-12)
    np.testing.assert_allclose(smat(svec(A), 5), A, atol=1e-14)


@pytest.mark.parametrize("m, seed, low_rank", [(3, 0, False), (6, 1, False), (6, 2, True)])
def test_matches_clarabel_and_certifies_its_gap(m, seed, low_rank):
    H, g = _random_qp(m, seed, low_rank)
    result = solve_psd_qp(H, g, m)
    reference = _clarabel(H, g, m)
    assert result.status == "optimal"
    assert result.value == pytest.approx(reference, rel=1e-7, abs=1e-7)
    assert result.value <= reference + 1e-9 * abs(reference)  # at least as good
    # the certificate is a true lower bound and tight
    assert result.value - result.gap <= reference + 1e-9 * abs(reference)
    assert result.gap <= 1e-7 * max(1, abs(result.value))
    assert np.linalg.eigvalsh(result.Z)[0] >= -1e-10 * np.abs(result.Z).max()
    if low_rank:
        lam = np.linalg.eigvalsh(result.Z)
        assert (lam > 1e-6 * lam.max()).sum() == 2


def test_lower_bound_holds_away_from_the_optimum():
    H, g = _random_qp(4, 3)
    reference = _clarabel(H, g, 4)
    for x in (svec(np.eye(4)), svec(np.diag([5.0, 1, 0.1, 2]))):
        bound = lower_bound(H, g, x, 4)
        assert bound <= reference + 1e-8 * abs(reference)
        assert bound <= 0.5 * x @ H @ x + g @ x


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match="H must be 6 x 6"):
        solve_psd_qp(np.eye(5), np.zeros(5), 3)
