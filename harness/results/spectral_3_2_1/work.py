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
from scipy.sparse.csgraph import connected_components, shortest_path
from threadpoolctl import threadpool_limits

from harness import registry
from harness.methods.isomap import isomap_gram
from harness.methods.shared.manifold import knn_graph
from harness.plugin import ExpectedFailure
from harness.results.mds_3_1_2.work import procrustes_residual
from harness.timelimit import cpu_clock

__all__ = ["lle_weights", "top_gap", "bottom_gap", "work", "sources"]

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
    from sklearn.neighbors import NearestNeighbors

    neighbours = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)[1][:, 1:]
    (M, lle_values, lle_vectors), lle_cpu = _timed(lambda: _lle_matrix(X, neighbours))
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


def _lle_matrix(X, neighbours):
    W = lle_weights(X, neighbours)
    IW = np.eye(len(X)) - W
    M = IW.T @ IW
    values, vectors = np.linalg.eigh(M)
    return M, values, vectors


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


def work(params: dict) -> dict:
    """The child's work for one data set; returns the record body."""
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
    """The data set and the MVU plugin the job finds by name."""
    return [registry.get_dataset(params["dataset"]), registry.get_method("mvu")]
