"""The out-of-sample extension plugins (thesis 3.1.10, Fig. 3.23): exact answers
where one exists, the CG objective's gradient, the cvxpy path against the native
one, and named errors."""

import numpy as np
import pytest
from scipy.optimize import check_grad

from harness.methods.oos_lle import LLEExtension
from harness.methods.oos_sdp import SDPExtension
from harness.methods.oos_sdp_cg import SDPCGExtension, patch_objective

RNG = np.random.default_rng(0)


def rotated_plane(n=120, d=5):
    """Points of a 2-D plane inside R^d and their isometric embedding (centred)."""
    Y = RNG.uniform(-1, 1, (n, 2))
    Y -= Y.mean(0)
    Q, _ = np.linalg.qr(RNG.standard_normal((d, 2)))
    return Y @ Q.T + 0.5, Y


def test_lle_reproduces_a_linear_embedding():
    X, Y = rotated_plane()
    est = LLEExtension(n_neighbors=6, reg=1e-10).fit(X[:100], Y[:100])
    np.testing.assert_allclose(est.predict(X[100:]), Y[100:], atol=1e-5)


def test_sdp_extension_reproduces_an_isometric_embedding():
    X, Y = rotated_plane()
    est = SDPExtension(n_neighbors=6).fit(X[:100], Y[:100])
    P, info = est.extend(X[100:])
    np.testing.assert_allclose(P, Y[100:], atol=1e-4)
    assert info["n_optimal"] == info["n_points"] == 20 and info["max_gap"] <= 1e-4
    np.testing.assert_array_equal(est.predict(X[100:]), P)


def test_cvxpy_path_agrees_with_native():
    X, _ = rotated_plane()
    Y = np.c_[np.sin(3 * X[:, 0]), X[:, 1] ** 2]  # not isometric: slacks are non-zero
    native = SDPExtension().fit(X[:100], Y[:100])
    cvx = SDPExtension(solver="clarabel").fit(X[:100], Y[:100])
    P_cvx, info = cvx.extend(X[100:106])
    np.testing.assert_allclose(native.predict(X[100:106]), P_cvx, atol=2e-3)
    assert info["solver"] == "clarabel" and info["n_optimal"] == 6


def test_printed_constraint_set_runs_through_cvxpy_only():
    X, Y = rotated_plane()
    with pytest.raises(ValueError, match="native solver solves top_left='identity' only"):
        SDPExtension(top_left="diagonal").fit(X[:100], Y[:100]).predict(X[100:])
    P, info = SDPExtension(top_left="diagonal", solver="clarabel").fit(
        X[:100], Y[:100]).extend(X[100:103])
    assert P.shape == (3, 2) and info["max_gap"] is None  # no certificate of ours


def test_patch_objective_gradient_matches_finite_differences():
    anchors = RNG.standard_normal((6, 3))
    d = RNG.uniform(0.5, 2.0, 6)
    centre = RNG.standard_normal(3) * 0.1
    for _ in range(5):
        y = RNG.standard_normal(3)
        err = check_grad(lambda v: patch_objective(v, anchors, d, centre, 0.9)[0],
                         lambda v: patch_objective(v, anchors, d, centre, 0.9)[1], y)
        assert err < 1e-5 * max(1.0, np.linalg.norm(patch_objective(y, anchors, d, centre, 0.9)[1]))


def test_cg_does_not_worsen_the_patch_objective():
    X, _ = rotated_plane()
    Y = np.c_[np.sin(3 * X[:, 0]), X[:, 1] ** 2]
    sdp = SDPExtension().fit(X[:100], Y[:100])
    cg = SDPCGExtension().fit(X[:100], Y[:100])
    P0, P1 = sdp.predict(X[100:]), cg.predict(X[100:])
    dist, ind = sdp.neighbors_.kneighbors(X[100:])
    centre = Y[:100].mean(0)
    for y0, y1, idx, dd in zip(P0, P1, ind, dist**2):
        f0 = patch_objective(y0, Y[idx], dd, centre, 0.9)[0]
        f1 = patch_objective(y1, Y[idx], dd, centre, 0.9)[0]
        assert f1 <= f0 + 1e-12


def test_bad_parameters_are_named():
    X, Y = rotated_plane()
    with pytest.raises(ValueError, match="solver must be one of"):
        SDPExtension(solver="gurobi").fit(X, Y).predict(X[:2])
    with pytest.raises(ValueError, match="n_samples = 3"):
        SDPExtension(n_neighbors=5).fit(X[:3], Y[:3])


def test_the_literal_origin_pulls_far_points_inwards():
    """With the embedding's own origin (the printed SDP read literally) exact
    distances are not reproduced for points far from the centre: they move inwards."""
    X, Y = rotated_plane(n=500)
    fit, new = slice(0, 400), slice(400, None)
    literal = SDPExtension(n_neighbors=6, centre="origin").fit(X[fit], Y[fit]).predict(X[new])
    centred = SDPExtension(n_neighbors=6).fit(X[fit], Y[fit]).predict(X[new])
    far = np.linalg.norm(Y[new], axis=1) > 0.8
    assert far.sum() >= 5
    assert np.linalg.norm(literal[far], axis=1).mean() < np.linalg.norm(Y[new][far], axis=1).mean() - 0.05
    assert np.abs(literal - Y[new]).max() > 100 * np.abs(centred - Y[new]).max()
