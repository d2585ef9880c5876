"""Variational MVU from a given graph (thesis 3.1.8, sensor localisation): the SDP's
data and native solver, the loss (3.26), the CG with exact line searches, and the
whole graph path on small networks."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from harness.datasets.sensor_network import SensorNetwork
from harness.plugin import DisconnectedGraphError
from harness.methods.shared.psd_qp import smat
from harness.methods.shared.variational_graph import graph_laplacian, variational_mvu_graph
from harness.methods.shared.variational_mvu import bottom_eigenvectors
from harness.methods.shared.variational_refine import (
    _exact_step, edge_objective, incidence, pcg, reconstruction_loss, refine_objective,
)
from harness.methods.shared.variational_sdp import (
    _edge_design, native_variational_sdp, sdp_data, sdp_objective, solve_variational_sdp,
)


def _network(n=150, noise=0.0, seed=1, radius=0.25, k=10):
    return SensorNetwork().load(n_samples=n, radius=radius, max_neighbors=k, noise=noise,
                                seed=seed)


def _rigid_errors(Y, X):
    """|aligned y_i - x_i| after the best rotation/reflection and translation."""
    Yc, Xc = Y - Y.mean(0), X - X.mean(0)
    U, _, Vt = np.linalg.svd(Yc.T @ Xc)
    return np.linalg.norm(Yc @ U @ Vt - Xc, axis=1)


@pytest.fixture(scope="module")
def small():
    net = _network(noise=0.1)
    Q = bottom_eigenvectors(graph_laplacian(150, net.edges), 6, seed=0)
    return net, Q, net.sq_distances / net.sq_distances.mean()


def test_sdp_data_reproduces_the_squared_misfit(small):
    net, Q, b = small
    G, c, bb = sdp_data(Q, net.edges, b, chunk=97)  # several chunks
    rng = np.random.default_rng(0)
    A = _edge_design(Q, net.edges)
    for _ in range(3):
        W = rng.standard_normal((6, 6))
        Z = W @ W.T
        x = np.concatenate([Z[i, i:] * np.where(np.arange(i, 6) == i, 1, np.sqrt(2))
                            for i in range(6)])
        direct = np.sum((A @ Z.ravel() - b) ** 2)
        assert x @ G @ x - 2 * c @ x + bb == pytest.approx(direct, rel=1e-10)
        np.testing.assert_allclose(smat(x, 6), Z, atol=1e-12)


@pytest.mark.parametrize("omega", [0.9, 0.99])
def test_native_sdp_matches_clarabel(small, omega):
    pytest.importorskip("cvxpy")
    net, Q, b = small
    native = native_variational_sdp(Q, net.edges, b, omega)
    Z, status = solve_variational_sdp(Q, net.edges, b, omega, solver="clarabel")
    reference = sdp_objective(Z, Q, net.edges, b, omega)
    assert native.status == "optimal" and native.gap <= 1e-6 * abs(native.objective)
    assert native.objective == pytest.approx(reference, rel=1e-6)
    assert native.objective >= reference - 1e-9 * abs(reference)  # maximised at least as well
    # through the dispatcher and with the recomputed objective
    Zn, status_n = solve_variational_sdp(Q, net.edges, b, omega, solver="native")
    assert status_n == "optimal"
    assert sdp_objective(Zn, Q, net.edges, b, omega) == pytest.approx(native.objective, rel=1e-12)
    with pytest.raises(ValueError, match="penalty='squared' only"):
        solve_variational_sdp(Q, net.edges, b, omega, penalty="norm", solver="native")


def test_reconstruction_loss_against_a_naive_double_loop():
    net = _network(n=40, noise=0.1, radius=0.4, k=5)
    Y = np.random.default_rng(2).standard_normal((40, 2))
    D = np.zeros((40, 40))
    eta = np.zeros((40, 40), dtype=bool)
    for (i, j), d in zip(net.edges, net.sq_distances):
        D[i, j] = D[j, i] = d
        eta[i, j] = eta[j, i] = True
    naive = sum((np.sum((Y[i] - Y[j]) ** 2) - D[i, j]) ** 2
                for i in range(40) for j in range(40) if eta[i, j])
    assert reconstruction_loss(Y, net.edges, net.sq_distances) == pytest.approx(naive, rel=1e-12)


@pytest.mark.parametrize("omega", [1.0, 0.7])
def test_edge_objective_gradient_matches_finite_differences(omega):
    net = _network(n=50, noise=0.1, radius=0.35, k=6)
    b = net.sq_distances
    Y = np.random.default_rng(3).standard_normal((50, 2)) * 0.2
    B = incidence(50, net.edges)

    def value(flat):
        Yf = flat.reshape(50, 2)
        return edge_objective(Yf, B @ Yf, b, omega, B)[1]

    _, f, grad = edge_objective(Y, B @ Y, b, omega, B)
    numeric = approx_fprime(Y.ravel(), value, 1e-7)
    np.testing.assert_allclose(grad.ravel(), numeric, rtol=1e-4, atol=1e-5 * np.abs(grad).max())
    # the same function as scipy's CG minimises
    f_ref, g_ref = refine_objective(Y.ravel(), 50, 2, net.edges, b, omega)
    assert f == pytest.approx(f_ref, rel=1e-12)
    np.testing.assert_allclose(grad.ravel(), g_ref, rtol=1e-10, atol=1e-12)
    if omega == 1.0:
        assert f == pytest.approx(reconstruction_loss(Y, net.edges, b), rel=1e-12)


def test_exact_step_minimises_the_objective_along_the_line():
    net = _network(n=60, noise=0.1, radius=0.3, k=6)
    b = net.sq_distances / net.sq_distances.mean()
    rng = np.random.default_rng(4)
    Y, P = rng.standard_normal((2, 60, 2))
    B = incidence(60, net.edges)
    u, v = B @ Y, B @ P
    r = np.einsum("ij,ij->i", u, u) - b
    Yc, Pc = Y - Y.mean(0), P - P.mean(0)
    t = _exact_step(r, 2 * np.einsum("ij,ij->i", u, v), np.einsum("ij,ij->i", v, v),
                    np.vdot(Yc, Pc), np.vdot(Pc, Pc), 0.8)
    along = lambda s: edge_objective(Y + s * P, B @ (Y + s * P), b, 0.8, B)[1]  # noqa: E731
    grid = np.linspace(t - 2, t + 2, 4001)
    assert along(t) <= min(along(s) for s in grid) + 1e-9 * abs(along(t))


@pytest.mark.parametrize("precondition", [False, True])
def test_pcg_lowers_the_loss_to_a_stationary_point(small, precondition):
    net, _, b = small
    from harness.methods.shared.variational_graph import laplacian_factor

    solve = laplacian_factor(graph_laplacian(150, net.edges)).solve if precondition else None
    Y0 = net.X / np.sqrt(net.sq_distances.mean()) + 0.3 * np.random.default_rng(5).standard_normal((150, 2))
    Y, its = pcg(Y0, net.edges, b, 1.0, 300, solve, ftol=0.0)
    B = incidence(150, net.edges)
    assert reconstruction_loss(Y, net.edges, b) < 0.1 * reconstruction_loss(Y0, net.edges, b)
    grad = edge_objective(Y, B @ Y, b, 1.0, B)[2]
    assert np.abs(grad).max() < 1e-6 * np.abs(edge_objective(Y0, B @ Y0, b, 1.0, B)[2]).max()


def test_graph_path_recovers_a_noise_free_network_up_to_rigid_motion():
    net = _network()
    result = variational_mvu_graph(150, net.edges, net.sq_distances, n_basis=8)
    assert result.sdp.status == "optimal"
    errors = _rigid_errors(result.Y, net.X)
    assert errors.mean() < 1e-8 and errors.max() < 1e-7
    # the SDP alone is only a start
    assert _rigid_errors(result.Y_sdp, net.X).mean() > 100 * errors.mean()
    assert set(result.timings) == {"basis", "basis_cpu", "sdp", "sdp_cpu", "cg_basis",
                                   "cg_output"}
    assert result.Y_basis.shape == (150, 8)


def test_graph_path_with_scipy_cg_and_clarabel_and_the_random_start():
    pytest.importorskip("cvxpy")
    net = _network(noise=0.05)
    legacy = variational_mvu_graph(150, net.edges, net.sq_distances, sdp_solver="clarabel",
                                   cg_method="scipy", precondition=False, cg_maxiter=300)
    fast = variational_mvu_graph(150, net.edges, net.sq_distances)
    assert reconstruction_loss(fast.Y, net.edges, net.sq_distances) <= \
        1.001 * reconstruction_loss(legacy.Y, net.edges, net.sq_distances)
    baseline = variational_mvu_graph(150, net.edges, net.sq_distances, init="random")
    assert baseline.sdp.status == "skipped" and baseline.cg_iterations > 0
    assert reconstruction_loss(baseline.Y, net.edges, net.sq_distances) < \
        reconstruction_loss(baseline.Y_sdp, net.edges, net.sq_distances)


def test_bad_graphs_are_named():
    net = _network(n=60, radius=0.3, k=5)
    with pytest.raises(ValueError, match=r"node indices in \[0, 50\)"):
        variational_mvu_graph(50, net.edges, net.sq_distances)
    with pytest.raises(ValueError, match="one per edge"):
        variational_mvu_graph(60, net.edges, net.sq_distances[:-1])
    two = np.vstack([net.edges, net.edges + 60])
    with pytest.raises(DisconnectedGraphError, match="2 connected components"):
        variational_mvu_graph(120, two, np.tile(net.sq_distances, 2))
    with pytest.raises(ValueError, match="precondition=True needs cg_method='pcg'"):
        variational_mvu_graph(60, net.edges, net.sq_distances, cg_method="scipy")
