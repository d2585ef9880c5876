"""One job of section 3.2.1: the four spectral methods' matrices on one data set.

All on the same symmetrised k-NN graph (one k for all four, so that the comparison is
of the methods, not of their graphs):

* LLE (3.38-3.39): reconstruction weights W (each row: the barycentric weights of the
  point's k neighbours, regularised as scikit-learn's ``reg * trace`` with ``reg =
  1e-3``) and M = (I - W)^T (I - W), diagonalised densely;
* Laplacian eigenmaps (3.43-3.45): binary weights on the symmetrised graph (the
  ``laplacian_eigenmaps`` plugin's default), L = D - W, the generalised problem
  L v = mu D v;
* Isomap (3.2.1): Dijkstra's shortest paths, -1/2 J G^2 J
  (:func:`harness.methods.isomap.isomap_gram`);
* MVU: the ``mvu`` plugin (clique graph, native solver, status from the recomputed
  certificate) and its kernel's eigenvalues.

A spectrum's *dimension estimate* is where its largest gap is: for the top spectra
(Isomap, MVU) the i maximising lambda_i / lambda_{i+1} over the positive eigenvalues,
for the bottom spectra (LLE, Laplacian) the i maximising mu_{i+1} / mu_i over the
non-zero ones (mu_1 the smallest non-zero: the constant vector's zero is dropped), i in
1 .. ``n_eigenvalues - 1``. Isomap's and MVU's 2-D embeddings (the top two scaled
eigenvectors) are compared by Procrustes (rotation only, and with a scale).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse
import scipy.sparse.linalg
from scipy.sparse.csgraph import connected_components, shortest_path
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from harness import registry
from harness.methods.isomap import isomap_gram
from harness.methods.shared.manifold import knn_graph
from harness.plugin import ExpectedFailure
from harness.metrics.alignment import procrustes_residual
from harness.timelimit import cpu_clock

__all__ = ["lle_weights", "top_gap", "bottom_gap", "scaling", "work", "sources"]

#: scikit-learn's LLE regulariser (``reg * trace(C)`` added to the local Gram matrix)
LLE_REG = 1e-3


def lle_weights(X: np.ndarray, neighbours: np.ndarray, reg: float = LLE_REG) -> np.ndarray:
    """The dense n x n reconstruction weights of LLE (3.38): row i holds the weights
    of ``neighbours[i]`` minimising ``|x_i - sum_j w_ij x_j|^2`` with ``sum_j w_ij =
    1``, the local Gram matrix regularised by ``reg * trace`` (scikit-learn's rule)."""
    n = len(X)
    W = np.zeros((n, n))
    for i in range(n):
        Z = X[neighbours[i]] - X[i]
        C = Z @ Z.T
        trace = np.trace(C)
        C.flat[::len(C) + 1] += reg * trace if trace > 0 else reg
        w = scipy.linalg.solve(C, np.ones(len(C)), assume_a="pos")
        W[i, neighbours[i]] = w / w.sum()
    return W


def top_gap(values: np.ndarray, count: int) -> int:
    """The i (1-based) of the largest lambda_i / lambda_{i+1} among the ``count``
    largest positive eigenvalues (``values`` in any order)."""
    top = np.sort(values[values > 0])[::-1][:count]
    return int(np.argmax(top[:-1] / top[1:])) + 1


def bottom_gap(values: np.ndarray, count: int) -> int:
    """The i (1-based) of the largest mu_{i+1} / mu_i among the ``count`` smallest
    non-zero eigenvalues (the smallest, the constant vector's zero, dropped)."""
    bottom = np.sort(values)[1:count + 1]
    return int(np.argmax(bottom[1:] / bottom[:-1])) + 1


def _timed(fn):
    start = cpu_clock()
    out = fn()
    return out, cpu_clock() - start


def _spectra(X: np.ndarray, params: dict) -> dict:
    k, count, d = params["n_neighbors"], params["n_eigenvalues"], params["dimension"]
    n = len(X)
    graph = knn_graph(X, k)
    if connected_components(graph, directed=False)[0] != 1:
        raise ExpectedFailure(f"the symmetrised {k}-NN graph is disconnected; no spectrum "
                              f"of these methods is defined")
    # LLE on each point's k nearest neighbours (directed, as LLE's step 1)
    neighbours = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)[1][:, 1:]
    (lle_values, lle_vectors), lle_cpu = _timed(lambda: _lle_spectrum(X, neighbours))
    constant = lle_vectors[:, 0] * np.sign(lle_vectors[:, 0].sum())
    lle = {"min_over_max": float(lle_values[0] / lle_values[-1]),
           "constant_deviation": float(np.max(np.abs(constant - 1 / np.sqrt(n))) * np.sqrt(n)),
           "bottom": lle_values[1:count + 1].tolist(), "cpu_seconds": lle_cpu,
           "gap_at_dimension": float(lle_values[d + 1] / lle_values[d]),
           "estimate": bottom_gap(lle_values, count)}
    # Laplacian eigenmaps: binary weights, L v = mu D v
    A = graph.copy()
    A.data[:] = 1.0
    A = A.toarray()
    degree = A.sum(axis=1)
    L = np.diag(degree) - A
    (lap_values, plain), lap_cpu = _timed(lambda: (scipy.linalg.eigh(L, np.diag(degree),
                                                                     eigvals_only=True),
                                                   np.linalg.eigvalsh(L)))
    lap = {"min_over_max": float(plain[0] / plain[-1]), "bottom": lap_values[1:count + 1].tolist(),
           "gap_at_dimension": float(lap_values[d + 1] / lap_values[d]),
           "estimate": bottom_gap(lap_values, count), "cpu_seconds": lap_cpu}
    # Isomap
    def isomap():
        values, vectors = np.linalg.eigh(isomap_gram(shortest_path(graph, method="D",
                                                                   directed=False)))
        return values[::-1], vectors[:, ::-1]
    (iso_values, iso_vectors), iso_cpu = _timed(isomap)
    positive = iso_values[iso_values > 0]
    Y_iso = iso_vectors[:, :2] * np.sqrt(np.clip(iso_values[:2], 0, None))
    iso = {"top": (iso_values[:count] / positive.sum()).tolist(),
           "top_share": float(iso_values[:d].sum() / positive.sum()),
           "top_two_share": float(iso_values[:2].sum() / positive.sum()),
           "estimate": top_gap(iso_values, count), "cpu_seconds": iso_cpu}
    return {"n": n, "k": k, "dimension": d, "lle": lle, "laplacian": lap, "isomap": iso,
            "mvu": _mvu(X, params, Y_iso, count, d)}


def _lle_spectrum(X, neighbours):
    """The eigenvalues (ascending) and eigenvectors of M = (I - W)^T (I - W)."""
    IW = np.eye(len(X)) - lle_weights(X, neighbours)
    return np.linalg.eigh(IW.T @ IW)


def _mvu(X, params, Y_iso, count: int, d: int) -> dict:
    mvu_cls = registry.get_method("mvu")
    model = mvu_cls(n_neighbors=params["n_neighbors"], n_components=2, solver="native",
                    time_limit=params["solver_time_limit"])
    start = cpu_clock()
    try:
        Y = model.fit_transform(X)
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc)}
    cpu = cpu_clock() - start
    values = np.asarray(model.eigenvalues_, float)
    total = values[values > 0].sum()
    rotation, _ = procrustes_residual(Y_iso, Y, scale=False)
    similarity, _ = procrustes_residual(Y_iso, Y)
    return {"status": model.solve_info_["status"], "cpu_seconds": cpu,
            "top": (values[:count] / total).tolist(),
            "top_share": float(values[:d].sum() / total),
            "top_two_share": float(values[:2].sum() / total),
            "estimate": top_gap(values, count),
            "procrustes_rotation": rotation, "procrustes_similarity": similarity}


def _median_cpu(fn, repeats: int) -> float:
    return float(np.median([_timed(fn)[1] for _ in range(repeats)]))


def _eigensolves(X, k: int, d: int, repeats: int) -> dict:
    """CPU seconds of LLE's sparse eigensolve (the d + 1 smallest eigenpairs of the
    sparse M, shift-invert ARPACK as scikit-learn's LLE) and of Isomap's dense one
    (every eigenpair of -1/2 J G^2 J), each the median of ``repeats``."""
    n = len(X)
    neighbours = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)[1][:, 1:]
    W = scipy.sparse.csr_matrix(lle_weights(X, neighbours))
    IW = scipy.sparse.identity(n, format="csr") - W
    M = (IW.T @ IW).tocsc()
    gram = isomap_gram(shortest_path(knn_graph(X, k), method="D", directed=False))
    v0 = np.random.default_rng(0).uniform(-1, 1, n)
    return {"n": n, "lle_sparse_seconds": _median_cpu(
                lambda: scipy.sparse.linalg.eigsh(M, k=d + 1, sigma=0.0, v0=v0), repeats),
            "isomap_dense_seconds": _median_cpu(lambda: np.linalg.eigh(gram), repeats),
            "lle_nonzeros": int(M.nnz)}


def _fit_seconds(name: str, X, k: int, repeats: int, budget: float) -> dict:
    """The median fit CPU seconds of the plugin ``name`` (MVU: one fit, its solver's
    time limit ``budget``)."""
    cls = registry.get_method(name)
    kwargs = {"n_neighbors": k, "n_components": 2}
    if name == "mvu":
        kwargs.update(solver="native", time_limit=budget)
        repeats = 1
    times = []
    for _ in range(repeats):
        try:
            _, seconds = _timed(lambda: cls(**kwargs).fit_transform(X))
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc)[:300]}
        times.append(seconds)
    return {"status": "ok", "seconds": float(np.median(times)), "repeats": repeats}


def scaling(params: dict) -> dict:
    """Fit CPU seconds of LLE, Laplacian eigenmaps, Isomap and MVU against n, and the
    two eigensolves; a method whose fit exceeds ``method_budget_seconds`` (or fails)
    runs no larger n."""
    plugin = registry.get_dataset(params["dataset"])
    k, d, budget = params["n_neighbors"], params["dimension"], params["method_budget_seconds"]
    sizes = sorted(set(params["sizes"]) | set(params["eigensolve_sizes"])
                   | set(params["mvu_sizes"]))
    fits = {m: [] for m in ("lle", "laplacian_eigenmaps", "isomap", "mvu")}
    stopped, solves = {}, []
    for n in sizes:
        X = np.asarray(plugin().load(**{**plugin.params, **params["dataset_params"],
                                        "n_samples": n}).X, dtype=np.float64)
        if n in params["eigensolve_sizes"]:
            solves.append(_eigensolves(X, k, d, params["repeats"]))
        for method in fits:
            wanted = params["mvu_sizes"] if method == "mvu" else params["sizes"]
            if n not in wanted or method in stopped:
                continue
            found = _fit_seconds(method, X, k, params["repeats"], budget)
            fits[method].append({"n": n, **found})
            if found["status"] != "ok" or found["seconds"] > budget:
                stopped[method] = n
    return {"status": "ok", "reason": "", "k": k, "budget_seconds": budget,
            "fits": fits, "stopped_at": stopped, "eigensolves": solves}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    if params["kind"] == "scaling":
        with threadpool_limits(limits=params["blas_threads"]):
            return scaling(params)
    with threadpool_limits(limits=params["blas_threads"]):
        plugin = registry.get_dataset(params["dataset"])
        try:
            data = plugin().load(**{**plugin.params, **params["dataset_params"]})
            body = _spectra(np.asarray(data.X, dtype=np.float64), params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    return {"status": "ok", "reason": "", "stand_in_for": data.meta.get("stand_in_for"),
            **body}


def sources(params: dict) -> list:
    """The data set and the method plugins the job finds by name."""
    names = ("mvu",) if params["kind"] != "scaling" else (
        "lle", "laplacian_eigenmaps", "isomap", "mvu")
    return [registry.get_dataset(params["dataset"])] + [registry.get_method(m) for m in names]
