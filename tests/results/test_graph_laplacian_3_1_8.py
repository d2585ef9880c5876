"""Section 3.1.8's graph Laplacian: nodal domains of known functions, residuals of
representable and orthogonal coordinates, the L-shaped region, the edge-compression
measure, small runs of every job kind, and the verdicts on hand-made records (a
holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from harness.plugin import DataUnavailableError
from harness.results.graph_laplacian_3_1_8 import register_claims as rc
from harness.results.graph_laplacian_3_1_8 import work as w


def _path(n: int) -> sp.csr_matrix:
    i = np.arange(n - 1)
    return sp.csr_matrix((np.ones(2 * (n - 1)), (np.r_[i, i + 1], np.r_[i + 1, i])), shape=(n, n))


def test_nodal_domains_of_known_functions_on_a_path_and_a_grid():
    n = 50
    x = (np.arange(n) + 0.5) / n
    for j in range(1, 6):  # cos(pi j x) changes sign j times on a path: j + 1 domains
        assert w.nodal_domains(_path(n), np.cos(np.pi * j * x)) == (j + 1, 0)
    grid = sp.kron(_path(6), sp.eye(6)) + sp.kron(sp.eye(6), _path(6))
    checker = np.add.outer(np.arange(6), np.arange(6)) % 2 * 2.0 - 1  # no two neighbours alike
    assert w.nodal_domains(grid, checker.ravel()) == (36, 0)
    halves = np.where(np.arange(36) % 6 < 3, 1.0, -1.0)
    assert w.nodal_domains(grid, halves) == (2, 0)
    zeroed = np.array([1.0, 1.0, 0.0, 1.0, -1.0])  # the zero splits the positive run
    assert w.nodal_domains(_path(5), zeroed) == (3, 1)


def test_residuals_of_representable_and_orthogonal_coordinates():
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((100, 6)) - 0)
    Q -= Q.mean(axis=0)
    Q, _ = np.linalg.qr(Q)
    P = Q[:, :2] @ np.array([[2.0, 0.5], [-1.0, 3.0]]) + 7.0  # a shifted combination of two
    res = w.relative_residuals(P, Q, [1, 2, 6])
    assert res[1] < 1e-12 and res[2] < 1e-12 and res[0] > 0.1
    Z = rng.standard_normal((100, 2))
    Z -= Q @ (Q.T @ (Z - Z.mean(axis=0)))
    assert w.relative_residuals(Z, Q, [6]) == pytest.approx([1.0], abs=1e-12)


def test_the_l_shape_has_the_square_s_density_and_no_upper_right_quarter():
    X = w.l_shape_points(4000, np.random.default_rng(1))
    half = w.L_SIDE / 2
    assert X.shape == (4000, 2)
    assert not ((X[:, 0] > half) & (X[:, 1] > half)).any()
    assert (X >= 0).all() and (X <= w.L_SIDE).all()
    assert 0.75 * w.L_SIDE ** 2 == pytest.approx(1.0)
    assert np.mean(X[:, 0] < half) == pytest.approx(2 / 3, abs=0.03)


def test_boundary_and_edge_compression_of_a_known_map():
    t, h = np.linspace(0, 1, 101), np.full(101, 0.5)
    h[:2] = 0.0, 1.0  # the height's range is [0, 1]; 0.5 is interior
    edge = w.boundary_mask(t, h, 0.05)
    assert edge[:5].all() and edge[-5:].all() and not edge[6:95].any()
    rng = np.random.default_rng(0)
    X = rng.random((600, 2))
    at = w.boundary_mask(X[:, 0], X[:, 1], 0.1)
    same = w.edge_compression(X, 3.0 * X, at, 8)
    assert same["scale"] == pytest.approx(1 / 3)
    assert same["ratio_of_medians"] == pytest.approx(1.0)
    # slope 0.2 within 0.1 of either end of each coordinate, 1 between
    squeezed = np.interp(X, [0, 0.1, 0.9, 1], [0.08, 0.1, 0.9, 0.92])
    assert w.edge_compression(X, squeezed, at, 8)["ratio_of_medians"] < 0.9


def test_the_nodal_job_on_a_small_graph():
    out = w.nodal({"seed": 0, "n_samples": 200, "n_neighbors": 8, "n_eigenvectors": 6})
    rows = out["eigenvectors"]
    assert out["components"] == 1 and [r["j"] for r in rows] == list(range(1, 7))
    assert rows[0]["nodal_domains"] == 2  # Fiedler vector: two domains (Courant)
    assert all(r["dirichlet_energy"] == pytest.approx(r["eigenvalue"]) for r in rows)
    assert out["energy_steps_down"] == 0 and abs(out["constant_eigenvalue"]) < 1e-9
    assert -1 <= out["spearman_rho"] <= 1


def _region(region, radius=0.15, n=300):
    return w.region({"region": region, "seed": 0, "n_samples": n, "radius": radius,
                     "max_basis": 10})


def test_region_jobs_give_nested_residuals_and_a_disconnected_graph_is_a_gap():
    for region in ("square", "l_shape"):
        out = _region(region)
        assert out["status"] == "ok" and out["basis_sizes"] == list(range(2, 11))
        assert out["largest_increase"] < 1e-12
        assert 0 < out["residuals"][-1] < out["residuals"][0] < 1
    gap = _region("square", radius=0.01)
    assert gap["status"] == "failed" and "connected components" in gap["reason"]


def test_network_jobs_mark_stand_ins_and_unavailable_data(monkeypatch):
    out = w.network({"dataset": "us_cities_standin", "seed": 0, "max_basis": 10,
                     "dataset_params": {"n_samples": 300, "radius": 0.15}})
    assert out["status"] == "ok" and out["stand_in_for"] == "us_cities"
    from harness import registry

    def gone(self, **kwargs):
        raise DataUnavailableError("us_cities is not available offline: run `harness fetch us_cities`")
    monkeypatch.setattr(registry.get_dataset("us_cities_network"), "load", gone)
    out = w.network({"dataset": "us_cities_network", "seed": 0, "max_basis": 10,
                     "dataset_params": {}})
    assert out["status"] == "unavailable" and "harness fetch us_cities" in out["reason"]


@pytest.mark.parametrize("kind", ["eigenmap_edges", "variational_edges"])
def test_roll_jobs_measure_boundary_and_interior(kind):
    out = w.roll_edges({"kind": kind, "dataset": "swiss_roll", "seed": 0, "n_samples": 400,
                        "noise": 0.1 if kind == "variational_edges" else 0.0,
                        "n_neighbors": 10, "n_basis": 6, "boundary_fraction": 0.05})
    assert out["status"] == "ok"
    assert 0 < out["n_boundary"] < out["n_interior"] and out["n_boundary"] + out["n_interior"] == 400
    assert out["ratio_of_medians"] == pytest.approx(out["median_boundary"] / out["median_interior"])
    assert ("sdp_status" in out) == (kind == "variational_edges")


# ---- the verdicts on hand-made records ---------------------------------------------------
def _nodal(counts, components=1, rho=None):
    from scipy.stats import spearmanr
    rows = [{"j": j, "eigenvalue": 0.1 * j, "dirichlet_energy": 0.1 * j, "nodal_domains": c,
             "zeros": 0} for j, c in enumerate(counts, 1)]
    return {rc.NODAL: {"status": "ok", "seed": 0, "n_samples": 1000, "n_neighbors": 16,
                       "components": components, "eigenvectors": rows, "energy_steps_down": 0,
                       "spearman_rho": spearmanr(range(len(counts)), counts)[0]
                       if rho is None else rho}}


def test_the_fig_3_16_reading_counts_nodal_domains_only():
    held = rc.fig_3_16_smoothness(_nodal(list(range(2, 22))))
    assert held["verdict"] == "holds" and "shown, not counted" in held["evidence"]
    assert "reading Dirichlet energy (not measured)" in held["evidence"]
    flat = rc.fig_3_16_smoothness(_nodal([2, 3] * 10))
    assert flat["verdict"] == "does not hold"
    assert rc.fig_3_16_smoothness({})["verdict"] == "not measured"
    assert rc.fig_3_16_smoothness(_nodal(list(range(2, 22)), components=2))["verdict"] == "not measured"


def _residuals(at_10, stand_in=None, **extra):
    sizes = list(range(2, 31))
    res = [at_10 * (1 + (10 - m) / 40) for m in sizes]
    return {"status": "ok", "n_samples": 2000, "basis_sizes": sizes, "residuals": res,
            "largest_increase": 0.0, "stand_in_for": stand_in,
            "graph": {"radius": 0.06, "n_edges": 20000, "mean_degree": 21.0, "min_degree": 5},
            **extra}


def _networks(square, l_shape=None, cities=None, seeds=range(5)):
    recs = {f"square_s{s}": _residuals(v) for s, v in zip(seeds, square)}
    if l_shape is not None:
        recs.update({f"l_shape_s{s}": _residuals(v) for s, v in zip(seeds, l_shape)})
    recs["network_us_cities_network"] = (_residuals(cities) if cities is not None
                                         else {"status": "unavailable", "reason": "fetch"})
    recs["network_us_cities_standin"] = _residuals(0.01, stand_in="us_cities")
    return recs


def test_smooth_functions_need_every_network_below_the_threshold():
    assert rc.smooth_functions(_networks([0.05] * 5, cities=0.08))["verdict"] == "holds"
    assert rc.smooth_functions(_networks([0.05] * 4 + [0.2], cities=0.08))["verdict"] == "does not hold"
    unmeasured = rc.smooth_functions(_networks([0.05] * 5))  # the cities a gap, a stand-in shown
    assert unmeasured["verdict"] == "not measured"
    assert "stand-in, not counted" in unmeasured["evidence"]
    assert "by construction" in unmeasured["evidence"]


def test_non_convex_boundaries_on_most_seed_pairs():
    square = [0.10] * 5
    held = rc.nonconvex_boundaries(_networks(square, [0.2, 0.2, 0.2, 0.105, 0.0]))
    assert held["verdict"] == "holds"
    failed = rc.nonconvex_boundaries(_networks(square, [0.2, 0.2, 0.05, 0.05, 0.05]))
    assert failed["verdict"] == "does not hold"
    noisy = rc.nonconvex_boundaries(_networks(square, [0.2, 0.2, 0.105, 0.105, 0.05]))
    assert noisy["verdict"] == "undecided (within noise)"
    few = rc.nonconvex_boundaries(_networks(square, [0.2, 0.2], seeds=range(2)) | {
        f"l_shape_s{s}": {"status": "timeout", "reason": "time"} for s in (2, 3, 4)} | {
        f"square_s{s}": _residuals(0.1) for s in (2, 3, 4)})
    assert few["verdict"] == "not measured"


def _roll(ratio, **extra):
    return {"status": "ok", "seed": 0, "n_samples": 2000, "noise": 0.0, "n_neighbors": 15,
            "boundary_fraction": 0.05, "n_boundary": 380, "n_interior": 1620,
            "median_boundary": ratio, "median_interior": 1.0, "ratio_of_medians": ratio,
            "scale": 1.0, **extra}


def test_the_edge_compression_verdicts():
    assert rc.bad_at_edges({rc.EIGENMAP: _roll(0.6)})["verdict"] == "holds"
    assert rc.bad_at_edges({rc.EIGENMAP: _roll(0.95)})["verdict"] == "does not hold"
    assert rc.bad_at_edges({})["verdict"] == "not measured"
    optimal = {"sdp_status": "optimal", "n_basis": 10}
    assert rc.collapses_edges({rc.VARIATIONAL: _roll(0.6, **optimal)})["verdict"] == "holds"
    assert rc.collapses_edges({rc.VARIATIONAL: _roll(0.9, **optimal)})["verdict"] == "does not hold"
    inaccurate = rc.collapses_edges({rc.VARIATIONAL: _roll(0.6, sdp_status="optimal_inaccurate",
                                                            n_basis=10)})
    assert inaccurate["verdict"] == "not measured" and "not certified" in inaccurate["evidence"]
    assert rc.collapses_edges({rc.VARIATIONAL: {"status": "failed", "reason": "x"}})["verdict"] \
        == "not measured"


def test_the_local_minima_job_compares_both_bases_final_embeddings():
    out = w.local_minima({"dataset": "swiss_roll", "seed": 0, "n_samples": 400, "noise": 0.1,
                          "n_neighbors": 10, "n_basis": 6})
    assert out["status"] == "ok" and set(out["runs"]) == {"laplacian", "lle"}
    lap, lle = out["runs"]["laplacian"]["objective"], out["runs"]["lle"]["objective"]
    assert out["objective_relative_difference"] == pytest.approx(
        abs(lap - lle) / max(abs(lap), abs(lle)))
    assert 0 <= out["procrustes_residual"] <= 1  # the best scale is at most the variance
    assert all(r["loss_3_26"] > 0 for r in out["runs"].values())


def _minima(difference, residual, status="optimal"):
    runs = {b: {"sdp_status": status, "objective": 1.0, "loss_3_26": 2.0}
            for b in ("laplacian", "lle")}
    return {"fig_3_17_local_minima": {
        "status": "ok", "n_samples": 10000, "noise": 0.1, "n_neighbors": 15, "n_basis": 10,
        "runs": runs, "objective_relative_difference": difference,
        "procrustes_residual": residual}}


def test_different_local_minima_by_both_readings():
    assert rc.different_local_minima(_minima(0.05, 0.2))["verdict"] == "holds"
    same = rc.different_local_minima(_minima(0.001, 0.01))
    assert same["verdict"] == "does not hold"
    split = rc.different_local_minima(_minima(0.05, 0.01))
    assert split["verdict"] == "partly holds"
    assert rc.different_local_minima(_minima(0.05, 0.2, "inaccurate"))["verdict"] == "not measured"
    assert rc.different_local_minima({})["verdict"] == "not measured"
