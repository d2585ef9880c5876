"""One job of the section 3.1.8 graph-Laplacian checks.

* ``nodal_domains`` (Fig. 3.16): ``n`` uniform points in the unit square, the
  symmetrised k-NN graph (i ~ j if either is among the other's k nearest), unweighted;
  the bottom ``n_eigenvectors + 1`` eigenpairs of its Laplacian L = D - W by a dense
  symmetric eigensolver. j = 1 is the first non-constant eigenvector (j = 0, the
  constant one, is left out). Per j: the eigenvalue, the Dirichlet energy f^T L f of
  the unit eigenvector, its number of nodal domains (connected components of the
  subgraph induced on the nodes of one strict sign; a node whose value is exactly
  0.0 belongs to no domain, and their number is recorded), and Spearman's rho of the
  counts against j.
* ``region`` (``square_s<seed>``, ``l_shape_s<seed>``): ``n`` nodes uniform in a region of
  area 1 -- the unit square (the ``sensor_network`` plugin) or an L (a square of side
  2 / sqrt 3 without its upper right quarter; the points by rejection, the graph by
  the plugin module's :func:`~harness.datasets.sensor_network.measure_network`) -- every
  pair within ``radius`` an edge (no cap on the neighbours), noise-free; the m bottom
  non-constant eigenvectors of the unweighted Laplacian (m up to ``max_basis``; one
  shift-invert Lanczos, :func:`harness.methods.shared.variational_mvu.bottom_eigenvectors`,
  so that the bases are nested) and the relative residual
  ``|P - Q_m Q_m^T P|_F / |P|_F`` of the centred true coordinates P (x and y together)
  for m = 2..max_basis.
* ``network`` (``network_<dataset>``): the same on a sensor-network data set's graph and
  true positions (the US cities; an unavailable one is a gap).
* ``eigenmap_edges`` / ``variational_edges`` (Fig. 3.17): the 2-D Laplacian eigenmap of
  the noise-free roll, or variational MVU on the Laplacian basis without the CG step
  (the SDP's top two principal coordinates) of the noisy roll; for each point its k
  nearest input neighbours (in the input the method was given), the ratio of output
  to input distance after one least-squares scale ``s = sum d_out d_in / sum d_out^2``
  over all those pairs; the median ratio of the pairs of boundary points and of
  interior points, and their ratio. Boundary: t or the height within
  ``boundary_fraction`` of the sample's range from either end (the generating
  parameters; the noisy roll's from the noise-free roll of the same seed, which
  draws the same t and height).
* ``fig_3_17_local_minima`` (line 1705): variational MVU (CG) from both bases on the
  variational job's roll, the final objectives and the Procrustes residual between the
  two final embeddings (:func:`local_minima`).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import LinearOperator
from scipy.stats import spearmanr
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from harness import registry
from harness.datasets.sensor_network import measure_network
from harness.methods.shared.manifold import knn_graph
from harness.methods.shared.variational_graph import (
    check_graph, graph_laplacian, laplacian_factor,
)
from harness.methods.shared.variational_mvu import bottom_eigenvectors, laplacian
from harness.methods.shared.variational_refine import reconstruction_loss, refine_objective
from harness.metrics.alignment import procrustes_residual
from harness.plugin import ExpectedFailure
from harness.results.graph_laplacian_3_1_8 import LOCAL_MINIMA
from harness.timelimit import cpu_clock

__all__ = ["nodal_domains", "relative_residuals", "l_shape_points", "laplacian_basis",
           "boundary_mask", "edge_compression", "nodal", "region", "network", "roll_edges",
           "work", "sources", "L_SIDE"]

#: side of the L-shaped region's square: 3/4 of it (the L) has area 1
L_SIDE = 2.0 / np.sqrt(3.0)


def nodal_domains(W: sp.spmatrix, v: np.ndarray) -> tuple[int, int]:
    """``(domains, zeros)``: the connected components of the subgraphs of ``W``
    induced on the nodes where ``v > 0`` and where ``v < 0``, and the number of
    nodes with ``v == 0`` exactly (in no domain)."""
    A = sp.csr_matrix(W, copy=True)
    A.data[:] = 1.0
    count = 0
    for mask in (v > 0, v < 0):
        idx = np.flatnonzero(mask)
        if idx.size:
            count += int(connected_components(A[idx][:, idx], directed=False)[0])
    return count, int(np.sum(v == 0))


def relative_residuals(P: np.ndarray, Q: np.ndarray, sizes) -> list[float]:
    """``|P_c - Q_m Q_m^T P_c|_F / |P_c|_F`` for each m of ``sizes``, ``P_c`` the
    column-centred ``P`` and ``Q_m`` the first m (orthonormal) columns of ``Q``."""
    P = np.asarray(P, dtype=float)
    P = P - P.mean(axis=0)
    norm = np.linalg.norm(P)
    out = []
    for m in sizes:
        Qm = Q[:, :int(m)]
        out.append(float(np.linalg.norm(P - Qm @ (Qm.T @ P)) / norm))
    return out


def l_shape_points(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points uniform in the L: the square [0, L_SIDE]^2 without its upper right
    quarter (area 1), by rejection."""
    out = np.empty((0, 2))
    half = L_SIDE / 2
    while len(out) < n:
        X = rng.random((2 * n, 2)) * L_SIDE
        X = X[~((X[:, 0] > half) & (X[:, 1] > half))]
        out = np.vstack([out, X])
    return out[:n]


def laplacian_basis(n: int, edges: np.ndarray, m: int, seed: int) -> np.ndarray:
    """The m bottom non-constant eigenvectors of the unweighted Laplacian of the graph,
    orthonormal and nested (one Lanczos run, eigenvalues ascending)."""
    L = graph_laplacian(n, edges)
    factor = laplacian_factor(L)
    return bottom_eigenvectors(L, m, seed,
                               OPinv=LinearOperator((n, n), matvec=factor.solve, dtype=float))


def nodal(params: dict) -> dict:
    """Fig. 3.16's eigenvectors: nodal domains and Dirichlet energies for j = 1..N."""
    n, k, count = int(params["n_samples"]), int(params["n_neighbors"]), int(params["n_eigenvectors"])
    X = np.random.default_rng(params["seed"]).random((n, 2))
    W = knn_graph(X, k)
    W.data[:] = 1.0
    L = laplacian(W).toarray()
    values, vectors = eigh(L, subset_by_index=[0, count])
    rows = []
    for j in range(1, count + 1):
        f = vectors[:, j] / np.linalg.norm(vectors[:, j])
        domains, zeros = nodal_domains(W, f)
        rows.append({"j": j, "eigenvalue": float(values[j]), "dirichlet_energy": float(f @ L @ f),
                     "nodal_domains": domains, "zeros": zeros})
    rho = spearmanr([r["j"] for r in rows], [r["nodal_domains"] for r in rows])[0]
    energies = [r["dirichlet_energy"] for r in rows]
    return {"status": "ok", "reason": "", "seed": int(params["seed"]), "n_samples": n,
            "n_neighbors": k, "components": int(connected_components(W, directed=False)[0]),
            "n_edges": int(W.nnz // 2), "constant_eigenvalue": float(values[0]),
            "eigenvectors": rows, "spearman_rho": float(rho),
            "energy_steps_down": int(np.sum(np.diff(energies) < 0))}


def _residual_body(X: np.ndarray, edges: np.ndarray, true_distances: np.ndarray,
                   graph: dict, params: dict) -> dict:
    check_graph(len(X), edges, true_distances ** 2)
    cpu = cpu_clock()
    Q = laplacian_basis(len(X), edges, int(params["max_basis"]), int(params["seed"]))
    sizes = list(range(2, int(params["max_basis"]) + 1))
    residuals = relative_residuals(X, Q, sizes)
    return {"status": "ok", "reason": "", "n_samples": int(len(X)),
            "graph": {k: graph[k] for k in ("radius", "n_edges", "mean_degree", "min_degree")},
            "basis_sizes": sizes, "residuals": residuals,
            "largest_increase": float(np.max(np.diff(residuals))),
            "cpu_seconds": cpu_clock() - cpu}


def region(params: dict) -> dict:
    """One generated radius graph (square or L) and its coordinates' residuals."""
    n, radius = int(params["n_samples"]), float(params["radius"])
    try:
        if params["region"] == "square":
            data = registry.get_dataset("sensor_network")().load(
                n_samples=n, radius=radius, max_neighbors=n - 1, noise=0.0,
                choice="nearest", seed=int(params["seed"]))
            X, edges, true = data.X, data.edges, data.true_distances
            graph = data.meta
        elif params["region"] == "l_shape":
            rng = np.random.default_rng(int(params["seed"]))
            X = l_shape_points(n, rng)
            X = X - X.mean(axis=0)
            edges, true, _, graph = measure_network(X, radius, n - 1, 0.0, "nearest", rng)
        else:
            raise ValueError(f"region must be 'square' or 'l_shape', got {params['region']!r}")
        return {"region": params["region"], **_residual_body(X, edges, true, graph, params)}
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}


def network(params: dict) -> dict:
    """A sensor-network data set's graph and true positions, its coordinates' residuals."""
    plugin = registry.get_dataset(params["dataset"])
    try:
        data = plugin().load(**{**plugin.params, **params["dataset_params"]})
        graph = {"radius": data.meta["radius"], "n_edges": data.meta["n_edges"],
                 "mean_degree": data.meta["mean_degree"], "min_degree": data.meta["min_degree"]}
        body = _residual_body(data.X, data.edges, data.true_distances, graph, params)
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    return {**body, "stand_in_for": data.meta.get("stand_in_for")}


def boundary_mask(t: np.ndarray, h: np.ndarray, fraction: float) -> np.ndarray:
    """Points whose t or height lies within ``fraction`` of its sample range from
    either end of that range."""
    out = np.zeros(len(t), dtype=bool)
    for v in (np.asarray(t, dtype=float), np.asarray(h, dtype=float)):
        lo, hi = v.min(), v.max()
        out |= (v - lo < fraction * (hi - lo)) | (hi - v < fraction * (hi - lo))
    return out


def edge_compression(X: np.ndarray, Y: np.ndarray, boundary: np.ndarray, k: int) -> dict:
    """The output / input distance ratios of each point's k nearest input neighbours
    after one least-squares scale; their medians over the pairs of boundary points and
    of interior points, and the ratio of the two medians."""
    dist, idx = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)
    i = np.repeat(np.arange(len(X)), k)
    d_in = dist[:, 1:].ravel()
    d_out = np.linalg.norm(Y[i] - Y[idx[:, 1:].ravel()], axis=1)
    keep = d_in > 0
    i, d_in, d_out = i[keep], d_in[keep], d_out[keep]
    scale = float(d_out @ d_in / (d_out @ d_out))
    ratio = scale * d_out / d_in
    at_edge = boundary[i]
    med_b, med_i = float(np.median(ratio[at_edge])), float(np.median(ratio[~at_edge]))
    return {"scale": scale, "n_boundary": int(boundary.sum()),
            "n_interior": int((~boundary).sum()), "median_boundary": med_b,
            "median_interior": med_i, "ratio_of_medians": med_b / med_i}


def roll_edges(params: dict) -> dict:
    """The Swiss roll's edges under the 2-D Laplacian eigenmap or variational MVU."""
    load = registry.get_dataset(params["dataset"])().load
    n, seed, k = int(params["n_samples"]), int(params["seed"]), int(params["n_neighbors"])
    data = load(n_samples=n, noise=float(params["noise"]), seed=seed)
    clean = load(n_samples=n, noise=0.0, seed=seed)
    if not np.array_equal(clean.y, data.y):
        raise RuntimeError("the noise-free roll of the same seed draws other t: the "
                           "boundary cannot be read from it")
    cpu = cpu_clock()
    try:
        if params["kind"] == "eigenmap_edges":
            method = registry.get_method("laplacian_eigenmaps")(
                n_neighbors=k, n_components=2, random_state=seed)
            Y, extra = method.fit_transform(data.X), {}
        else:
            method = registry.get_method("var_mvu_lap")(
                n_neighbors=k, n_components=2, n_basis=int(params["n_basis"]),
                random_state=seed)
            Y = method.fit_transform(data.X)
            extra = {"sdp_status": method.sdp_status_, "n_basis": int(params["n_basis"])}
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    seconds = cpu_clock() - cpu
    boundary = boundary_mask(clean.y, clean.X[:, 1], float(params["boundary_fraction"]))
    return {"status": "ok", "reason": "", "seed": seed, "n_samples": n,
            "noise": float(params["noise"]), "n_neighbors": k,
            "boundary_fraction": float(params["boundary_fraction"]), **extra, "fit_cpu_seconds": seconds,
            **edge_compression(data.X, np.asarray(Y), boundary, k)}


def local_minima(params: dict) -> dict:
    """Fig. 3.17 (line 1705): variational MVU (CG) from the Laplacian and from the LLE
    basis (the ``var_mvu_cg_lap`` and ``var_mvu_cg_lle`` plugins, m = ``n_basis``) on
    the variational job's noisy roll: each run's final CG objective (on the distances
    normalised by their mean, as the CG step sees them), loss (3.26), SDP status, and
    the Procrustes residual (rotation and scale) of one final embedding on the other,
    relative to the other's variance."""
    data = registry.get_dataset(params["dataset"])().load(
        n_samples=int(params["n_samples"]), noise=float(params["noise"]),
        seed=int(params["seed"]))
    runs, final = {}, {}
    for basis, plugin in (("laplacian", "var_mvu_cg_lap"), ("lle", "var_mvu_cg_lle")):
        method = registry.get_method(plugin)(
            n_neighbors=int(params["n_neighbors"]), n_components=2,
            n_basis=int(params["n_basis"]), random_state=int(params["seed"]))
        cpu = cpu_clock()
        try:
            Y = np.asarray(method.fit_transform(data.X))
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": f"{plugin}: {exc}",
                    "error_type": type(exc).__name__}
        edges, b = np.asarray(method.edges_), np.asarray(method.sq_lengths_, float)
        scale = float(b.mean())
        value = -refine_objective((Y / np.sqrt(scale)).ravel(), len(Y), 2, edges,
                                  b / scale, method.omega)[0]
        runs[basis] = {"sdp_status": method.sdp_status_, "cg_iterations": method.cg_iterations_,
                       "objective": float(value), "loss_3_26": reconstruction_loss(Y, edges, b),
                       "fit_cpu_seconds": cpu_clock() - cpu}
        final[basis] = Y
    lap, lle = runs["laplacian"]["objective"], runs["lle"]["objective"]
    residual, factor = procrustes_residual(final["laplacian"], final["lle"], scale=True)
    return {"status": "ok", "reason": "", "seed": int(params["seed"]),
            "n_samples": int(params["n_samples"]), "noise": float(params["noise"]),
            "n_neighbors": int(params["n_neighbors"]), "n_basis": int(params["n_basis"]),
            "runs": runs, "objective_relative_difference": abs(lap - lle) / max(abs(lap), abs(lle)),
            "procrustes_residual": residual, "procrustes_scale": factor}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        kind = params["kind"]
        if kind == "nodal_domains":
            return nodal(params)
        if kind == "region":
            return region(params)
        if kind == "network":
            return network(params)
        if kind == LOCAL_MINIMA:
            return local_minima(params)
        return roll_edges(params)


def sources(params: dict) -> list:
    """The plugins the job finds by name."""
    if params["kind"] == "eigenmap_edges":
        return [registry.get_dataset(params["dataset"]),
                registry.get_method("laplacian_eigenmaps")]
    if params["kind"] == "variational_edges":
        return [registry.get_dataset(params["dataset"]), registry.get_method("var_mvu_lap")]
    if params["kind"] == LOCAL_MINIMA:
        return [registry.get_dataset(params["dataset"]), registry.get_method("var_mvu_cg_lap"),
                registry.get_method("var_mvu_cg_lle")]
    if params["kind"] in ("region", "network"):
        return [registry.get_dataset(params["dataset"])]
    return []
