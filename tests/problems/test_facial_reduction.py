"""Facial reduction of the MVU SDP (harness.problems.facial_reduction) and the solver on
the exposed face (harness.solvers.mvu_sdp.facial): the exposing vector against a naive
construction, the noise-free Swiss roll's face (span of the centred inputs when the
graph is rigid), optima against Clarabel and the full interior-point method, noisy
data (nothing exposed), and a wrong face caught by the full problem's certificate."""

import dataclasses

import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.problems import facial_reduction as fr
from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp.facial import solve_facial
from harness.solvers.mvu_sdp.ipm import solve_ipm

from tests.problems.mvu_data import clarabel_value, noisy_roll


def _roll(n, seed=0):
    """Noise-free Swiss roll: points on a 2-d surface in R^3."""
    return SwissRoll().load(n_samples=n, noise=0.0, seed=seed).X


def _clique_grams(P):
    """Naive per-clique centred Grams from the edge lengths."""
    lookup = {tuple(e): b for e, b in zip(P.edges.tolist(), P.sq_lengths)}
    size = P.cliques.shape[1]
    J = np.eye(size) - 1.0 / size
    grams = []
    for group in P.cliques:
        D = np.zeros((size, size))
        for a in range(size):
            for c in range(a + 1, size):
                i, j = sorted((group[a], group[c]))
                D[a, c] = D[c, a] = lookup[(i, j)]
        grams.append(-0.5 * J @ D @ J)
    return np.array(grams)


def _angle(A, B):
    """Largest principal angle (sine) between span(A) and span(B)."""
    Qa, Qb = np.linalg.qr(A)[0], np.linalg.qr(B)[0]
    return float(np.linalg.norm(Qa - Qb @ (Qb.T @ Qa), 2))


def test_from_points_keeps_the_cliques():
    X = _roll(30)
    P = MVUProblem.from_points(X, 4)
    assert P.cliques.shape == (30, 5)
    np.testing.assert_array_equal(P.cliques[:, 0], np.arange(30))
    # every pair in a clique is an edge; the field enters neither equality nor repr
    assert fr._edge_index(P, P.cliques[:, 1], P.cliques[:, 4]).shape == (30,)
    field = {f.name: f for f in dataclasses.fields(MVUProblem)}["cliques"]
    assert not field.compare and not field.repr
    # a bad-edge cut keeps fewer rows (the cliques it left whole); more rows than
    # points, or an index that is no point, are refused
    for bad in (np.zeros((4, 3), int), np.array([[0, 1, 3]]), np.zeros(3, int)):
        with pytest.raises(ValueError, match="cliques"):
            MVUProblem(n=3, edges=np.zeros((0, 2), int), sq_lengths=np.zeros(0),
                       cliques=bad)


def test_exposing_vector_matches_a_naive_construction():
    P = MVUProblem.from_points(_roll(40), 5)
    w_Y, nulls = fr.exposing_vector(P)
    Y = np.zeros((P.n, P.n))
    for group, G in zip(P.cliques, _clique_grams(P)):
        lam, V = np.linalg.eigh(G)
        N = V[:, np.abs(lam) <= 1e-9 * lam[-1]]
        N = N - N.mean(axis=0)  # the ones vector is null too: keep the complement
        N = np.linalg.svd(N, full_matrices=False)[0][:, :N.shape[1] - 1]
        Y[np.ix_(group, group)] += N @ N.T
    assert (nulls == 2).all()  # 6 points in R^3: rank 3, two null vectors besides 1
    np.testing.assert_allclose(mc.weighted_laplacian(P.n, P.edges, w_Y).toarray(), Y,
                               atol=1e-10)


def test_tolerance_sits_between_rounding_and_the_data():
    # noise-free cliques: the null eigenvalues are rounding (<= 1e-15 of the largest),
    # the third dimension of the roll's curvature is >= 1e-6; noisy cliques >= 1e-5
    for P, nulls in ((MVUProblem.from_points(_roll(400), 8), 6),
                     (MVUProblem.from_points(_roll(1000), 5), 3)):
        lam = np.sort(np.abs(np.linalg.eigvalsh(_clique_grams(P))), axis=1)
        lam /= lam[:, -1:]
        assert lam[:, :nulls].max() < 1e-15 < fr.REL_TOL < 1e-6 < lam[:, nulls].min()
    lam = np.sort(np.abs(np.linalg.eigvalsh(_clique_grams(
        MVUProblem.from_points(noisy_roll(120), 5)))), axis=1)
    assert (lam[:, 1] / lam[:, -1]).min() > 1e-5 > fr.REL_TOL


def test_noise_free_exposing_vector_and_face():
    X = _roll(300)
    Xc = X - X.mean(axis=0)
    P = MVUProblem.from_points(X, 8)
    red = fr.reduce(P)
    Y = mc.weighted_laplacian(P.n, P.edges, red.w_Y)
    top = red.y_top
    assert top == pytest.approx(np.linalg.eigvalsh(Y.toarray())[-1], rel=1e-6)
    assert np.linalg.eigvalsh(Y.toarray())[0] > -1e-13 * top  # PSD
    assert abs(P.sq_lengths @ red.w_Y) < 1e-13 * np.abs(P.sq_lengths) @ np.abs(red.w_Y)
    assert np.sum(Xc * (Y @ Xc)) < 1e-13 * top * np.sum(Xc**2)  # <Y, Xc Xc^T> = 0
    assert red.face_dim == 3 and red.clique_nulls["min"] == red.clique_nulls["max"] == 5
    U = red.U
    np.testing.assert_allclose(U.T @ U, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(U.sum(axis=0), 0.0, atol=1e-12)
    assert np.abs(Y @ U).max() < 1e-13 * top
    assert _angle(Xc, U) < 1e-6  # the face is span(Xc): the graph is rigid
    # Q (3 x 3) has 6 entries: 6 independent edges fix it, the rest are implied
    assert len(red.kept) == 6 and red.dropped_residual < 1e-8
    # the block-subspace iteration (used above 4000 points) finds the same face
    assert _angle(fr.face_basis(P, red.w_Y, dense_max=10), U) < 1e-8


def test_cross_term_removal_keeps_the_dual_objective():
    X = _roll(300)
    P = MVUProblem.from_points(X, 8)
    red = fr.reduce(P)
    w = np.random.default_rng(0).standard_normal(P.m)
    w2, residual = fr.remove_cross_term(P, red, w, F=X)
    V = np.linalg.qr(X - X.mean(axis=0))[0]
    L2 = mc.weighted_laplacian(P.n, P.edges, w2) @ V
    assert residual < 1e-8
    np.testing.assert_allclose(L2, V @ (V.T @ L2), atol=1e-8 * np.abs(L2).max())
    L = mc.weighted_laplacian(P.n, P.edges, w) @ V
    np.testing.assert_allclose(V.T @ L2, V.T @ L, atol=1e-8 * np.abs(L).max())
    assert P.sq_lengths @ w2 == pytest.approx(P.sq_lengths @ w, rel=1e-8)


@pytest.mark.parametrize("variant", ["equality", "min_trace"])
def test_a_rigid_noise_free_roll_is_certified_on_its_face(variant):
    X = _roll(400)
    P = MVUProblem.from_points(X, 8, variant=variant)
    res = solve_facial(P, tol_gap=1e-7, tol_violation=1e-7)
    cert = mc.certify(P, res.F, res.w)  # recomputed here, on the full problem
    assert res.status == "optimal" and cert.consistent
    assert cert.gap <= 1e-6 and cert.violation <= 1e-8, cert
    # the only feasible K is the inputs' centred Gram
    assert cert.value == pytest.approx(np.sum((X - X.mean(axis=0)) ** 2), rel=1e-8)
    assert res.history[-1]["face_dim"] == 3 and res.history[-1]["kept_edges"] == 6
    assert res.iterations < 15


@pytest.mark.parametrize("variant", ["equality", "min_trace"])
def test_a_flexible_face_gives_the_full_problems_optimum(variant):
    # k = 5 (seed 1): a 4-dimensional face holds more than the inputs' Gram. Clarabel
    # on the full 200 x 200 SDP needs > 20 GB (stopped after 15 min), so the reference
    # is the interior-point method on the full problem, certified
    X = _roll(200, seed=1)
    P = MVUProblem.from_points(X, 5, variant=variant)
    res = solve_facial(P, tol_gap=1e-6, tol_violation=1e-6)
    cert = mc.certify(P, res.F, res.w)
    assert res.history[-1]["face_dim"] == 4
    assert res.status == "optimal" and cert.gap <= 1e-6 and cert.violation <= 1e-6
    # the full problem has no interior: its iterates meet the distances to 1e-9 yet
    # their own gap (the bound for the distances they meet) stays near 1e-5, so the
    # reference is certified to 1e-4 (measured: gap 3.0e-7, own gap 1.0e-5 at 1e-6)
    full = solve_ipm(P, tol_gap=1e-4, tol_violation=1e-6)
    assert full.status == "optimal"
    assert cert.value == pytest.approx(full.certificate.value, rel=1e-4)
    gram = np.sum((X - X.mean(axis=0)) ** 2)
    if variant == "equality":  # the face lets the roll unfold beyond its input
        assert cert.value > gram * (1 + 1e-3)
    else:
        assert cert.value == pytest.approx(gram, rel=1e-6)


def test_small_roll_matches_clarabel():
    X = _roll(60)
    P = MVUProblem.from_points(X, 5)
    res = solve_facial(P)
    assert res.status == "optimal" and res.history[-1]["face_dim"] == 3
    assert res.certificate.value == pytest.approx(clarabel_value(P), rel=1e-4)


def test_noisy_data_expose_nothing():
    P = MVUProblem.from_points(noisy_roll(120), 5)
    red = fr.reduce(P)
    assert red.face_dim == P.n - 1 and red.U is None and red.clique_nulls["max"] == 0
    assert not red.w_Y.any()
    assert solve_facial(P) is None
    # strictly feasible variants and problems without cliques: nothing to reduce
    X = _roll(60)
    for variant in ("inequality", "slack"):
        assert solve_facial(MVUProblem.from_points(X, 8, variant=variant)) is None
    bare = MVUProblem.from_points(X, 8)
    bare = MVUProblem(n=bare.n, edges=bare.edges, sq_lengths=bare.sq_lengths)
    assert fr.reduce(bare).face_dim == bare.n - 1 and solve_facial(bare) is None


@pytest.mark.parametrize("rel_tol", [1e-3, 1e-1])
def test_a_wrong_face_is_caught_by_the_full_certificate(rel_tol):
    # calling the noisy cliques' small eigenvalues zero exposes a face too small to
    # hold the feasible set (d_f = 13 and 0 here): the certificate shows it
    P = MVUProblem.from_points(noisy_roll(120), 5)
    res = solve_facial(P, rel_tol=rel_tol)
    assert res.history[-1]["face_dim"] < 20
    cert = mc.certify(P, res.F, res.w)
    assert res.status != "optimal"
    assert cert.violation > 1e-2 or cert.gap > 1e-2, cert


def test_exposure_is_exact_only_where_the_cliques_are_flat():
    # noise-free: b . w_Y is the sum of the clique eigenvalues called null, ~1e-17
    red = fr.reduce(MVUProblem.from_points(_roll(120), 5))
    assert red.exposure_residual < 1e-15 and red.exact
    # noisy cliques whose small eigenvalues a loose tolerance calls null: not exact
    wrong = fr.reduce(MVUProblem.from_points(noisy_roll(120), 5), rel_tol=1e-1)
    assert wrong.exposure_residual > 1e-6 and not wrong.exact


def test_certify_reads_eigenvalues_with_the_rounding_margin():
    P = MVUProblem.from_points(_roll(60), 5)
    w = np.random.default_rng(0).uniform(0.5, 2.0, P.m) * 1e12
    L = mc.weighted_laplacian(P.n, P.edges, w)
    dense = L.toarray()
    assert mc.rounding_margin(L) == pytest.approx(
        np.finfo(float).eps * np.abs(dense).sum(axis=1).max(), rel=1e-12)
    cert = mc.certify(P, _roll(60), w)
    raw = mc.centred_extreme_eigenvalue(L)
    assert cert.eigenvalue == pytest.approx(raw - mc.rounding_margin(L), rel=1e-15)
    assert mc.rounding_margin(L) > 1e-3  # entries ~1e12: rounding of ~1e-3 read in


@pytest.mark.parametrize("variant", ["equality", "min_trace"])
def test_a_lift_that_certifies_nothing_returns_the_best_bound_of_the_grid(variant):
    # reduced multipliers that fail on the face itself (max: L(0) = 0 < I there; min:
    # L(1) > I there), so no t gives mu >= 1 (max) or nu <= 1 (min): the t returned
    # has the best certified bound of the grid, rounding allowed up to MARKED_ROUNDING
    X = _roll(120)
    P = MVUProblem.from_points(X, 5, variant=variant)
    red = fr.reduce(P)
    T = mc.trace_bound(P)
    F = X - X.mean(axis=0)
    w0 = np.zeros(P.m) if P.maximize else np.full(P.m, 3.0)
    w, t, w_low = fr.lift_multipliers(P, red, w0, F, T=T)
    assert w_low is None  # nothing proven in extended precision: the float64 grid
    sign = 1.0 if P.maximize else -1.0
    base = w - sign * t * red.w_Y  # w0 with the cross term removed
    eps_top = np.finfo(float).eps * red.y_top
    allowed = fr.T_GRID[fr.T_GRID <= fr.MARKED_ROUNDING / eps_top]
    assert t in allowed and len(allowed) > 20
    certs = [mc.certify(P, F, base + sign * s * red.w_Y, T=T) for s in allowed]
    eig = np.array([c.eigenvalue for c in certs])
    assert (eig < 1 - 1e-6).all() if P.maximize else (eig > 1 + 1e-6).all()
    # the best bound of the grid, up to the rounding of re-forming base +/- s w_Y here
    # (neighbouring t can tie to 1e-7 relative: min trace, 8.6e9 against 3.4e10)
    bounds = sign * np.array([c.bound for c in certs])
    chosen = bounds[list(allowed).index(t)]
    assert chosen <= bounds.min() + 1e-6 * abs(bounds.min())
    assert chosen < np.median(bounds) or np.ptp(bounds) < 1e-6 * abs(bounds.min())


def test_dropped_edges_are_implied_by_the_kept_ones():
    # n = 2000, k = 5: a 17-dimensional face whose pivots fall gradually (no rank gap);
    # the first tolerance drops edges the kept ones do not imply, the default lowers it
    P = MVUProblem.from_points(_roll(2000), 5)
    red = fr.reduce(P)
    assert red.face_dim == 17
    first, res_first = fr.independent_edges(P, red.U, implied=np.inf)
    assert res_first > 1e-4  # would violate the full problem beyond its tolerance
    assert red.dropped_residual <= fr.DROPPED_IMPLIED and len(red.kept) > len(first)
    assert set(first) <= set(red.kept)  # the same pivots, more of them


def test_a_face_of_dimension_78_keeps_its_independent_edges_only():
    # noise-free roll, n = 300, k = 4: a 78-dimensional face (3081 unknowns of Q, above
    # the former cap of 2000, so every edge used to be kept and the face was not solved)
    P = MVUProblem.from_points(_roll(300), 4)
    red = fr.reduce(P)
    assert red.face_dim == 78 and red.face_dim * (red.face_dim + 1) // 2 <= fr.QR_MAX_DIM
    assert len(red.kept) < P.m / 2 and red.dropped_residual <= fr.DROPPED_IMPLIED
    # the kept rows are independent: svec(u_e u_e^T) of the kept edges has full row rank
    u = red.U[P.edges[red.kept, 0]] - red.U[P.edges[red.kept, 1]]
    a, c = np.triu_indices(red.face_dim)
    A = u[:, a] * u[:, c]
    assert np.linalg.matrix_rank(A / np.linalg.norm(A, axis=1)[:, None], tol=1e-7) \
        == len(red.kept)
    # above the cap every edge is kept (residual NaN)
    kept, res = fr.independent_edges(P, red.U, max_dim=3000)
    assert len(kept) == P.m and np.isnan(res)


@pytest.mark.parametrize("variant", ["equality", "min_trace"])
def test_cross_term_removal_on_the_slack_null_space_certifies_a_7_dimensional_face(
        variant, monkeypatch):
    # noise-free roll, n = 600, k = 5: a 7-dimensional face; the kernel's factor has a
    # fourth singular value of 4e-4 on a direction where the reduced dual slack is
    # 1.7e-3, not zero. Removing the cross term of range(F) (4 directions) broke the
    # face block (eigenvalue -3e-2, gap 2e-2 at every t); the slack's null space (3)
    # with the rest of the face block kept certifies.
    P = MVUProblem.from_points(_roll(600), 5, variant=variant)
    calls = []
    lift = fr.lift_multipliers

    def spy(problem, reduction, w, F=None, **kwargs):
        calls.append((reduction, w.copy(), F))
        return lift(problem, reduction, w, F, **kwargs)

    monkeypatch.setattr(fr, "lift_multipliers", spy)
    res = solve_facial(P, time_limit=60)
    assert res.status == "optimal" and res.certificate.gap <= 1e-4, res.certificate
    red, w0, F = calls[-1]
    V = fr.slack_null_space(P, red, w0)
    assert V.shape == (600, 3) and red.face_dim == 7
    w1, residual = fr.remove_cross_term(P, red, w0, F)
    assert residual < 1e-6
    L0, L1 = (mc.weighted_laplacian(P.n, P.edges, w) for w in (w0, w1))
    target = V @ (V.T @ (L0 @ V))
    np.testing.assert_allclose(L1 @ V, target, atol=1e-6 * np.abs(L0 @ V).max())
    W = red.U - V @ (V.T @ red.U)
    W = np.linalg.svd(W, full_matrices=False)[0][:, :4]
    np.testing.assert_allclose(W.T @ (L1 @ W), W.T @ (L0 @ W),
                               atol=1e-6 * np.abs(W.T @ (L0 @ W)).max())
    dw = w1 - w0
    assert abs(P.sq_lengths @ dw) <= 1e-6 * (np.abs(P.sq_lengths) @ np.abs(dw))
