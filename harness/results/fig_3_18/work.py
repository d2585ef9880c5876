"""One job of Fig. 3.18 (MNIST's twos and threes in two dimensions).

* ``count``: the twos and threes among the labels of MNIST's whole training part.
* ``pca``: PCA (the ``pca`` plugin) of the twos and threes (all, or a seeded stratified
  subset of ``n_samples``): the Pearson correlation of the first (and second) principal
  score with each image's total ink (the sum of its pixel values), and how the 2-D
  embedding separates the digits (2-means purity, 1-NN leave-one-out accuracy) and its
  local continuity (3.27), shown.
* ``lle_k<k>``: on the same images, LLE (the ``lle`` plugin, 2-D) and variational MVU on
  the m bottom LLE eigenvectors of the same k, the pipeline Table 3.2's ``var_mvu_lle``
  and ``var_mvu_cg_lle`` plugins run, with their parameters (Clarabel, omega, squared
  penalty on normalised distances, scipy's CG), once: its SDP solution's top two
  principal coordinates are variational MVU, the CG refinement of it variational MVU
  (CG). Of each embedding: 2-means purity, 1-NN leave-one-out accuracy, local
  continuity (l = ``eval_neighbors``, :func:`harness.metrics.embedding_quality.local_continuity`)
  and the scale-optimal relative loss on variational MVU's graph, the clique graph of
  the k nearest neighbours (:func:`edge_loss`); the CPU seconds of each step.
"""

from __future__ import annotations

import numpy as np
from sklearn.cluster import KMeans
from sklearn.model_selection import train_test_split
from threadpoolctl import threadpool_limits

from harness import registry
from harness.methods.shared.variational_mvu import lle_basis, variational_mvu
from harness.methods.shared.variational_refine import PAIR_COUNT, reconstruction_loss
from harness.metrics.embedding_quality import input_neighbors, local_continuity
from harness.metrics.knn_error import knn_loo_error
from harness.plugin import ExpectedFailure
from harness.problems.mvu_problem import clique_edges
from harness.timelimit import cpu_clock

__all__ = ["load_digits", "subsample", "ink_correlation", "cluster_purity", "purity",
           "one_nn_accuracy", "edge_loss", "count", "pca", "lle", "work", "sources"]


def load_digits(params: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """``(X, y, n_train)``: the images (rows of pixels) and labels of ``params["digits"]``
    among MNIST's training part, loaded by the data set plugin with
    ``params["dataset_params"]``, and the size of that part. Raises
    :class:`harness.plugin.ExpectedFailure` (e.g. the data not cached)."""
    plugin = registry.get_dataset(params["dataset"])
    data = plugin().load(**{**plugin.params, **params["dataset_params"]})
    n_train = int(data.meta["split_protocol"]["n_train"])
    y = np.asarray(data.y[:n_train])
    keep = np.flatnonzero(np.isin(y, params["digits"]))
    return np.asarray(data.X[keep], dtype=np.float64), y[keep], n_train


def subsample(y: np.ndarray, n_samples: int | None, seed: int) -> np.ndarray:
    """Sorted indices of a seeded subset of ``n_samples`` stratified by ``y`` (every
    index when ``n_samples`` is None or not below ``len(y)``)."""
    if n_samples is None or n_samples >= len(y):
        return np.arange(len(y))
    index, _ = train_test_split(np.arange(len(y)), train_size=int(n_samples), stratify=y,
                                random_state=seed)
    return np.sort(index)


def _sample(params: dict) -> tuple[np.ndarray, np.ndarray, dict]:
    X, y, n_train = load_digits(params)
    index = subsample(y, params["n_samples"], params["seed"])
    about = {"n_train": n_train, "n_digits": int(len(y)), "n": int(len(index)),
             "n_features": int(X.shape[1]),
             "per_digit": {str(d): int((y[index] == d).sum()) for d in params["digits"]}}
    return X[index], y[index], about


def ink_correlation(X: np.ndarray, score: np.ndarray) -> float:
    """Pearson correlation between ``score`` and each row's total ink (its sum)."""
    return float(np.corrcoef(score, np.asarray(X).sum(axis=1))[0, 1])


def cluster_purity(clusters: np.ndarray, y: np.ndarray) -> float:
    """The share of points whose label is their cluster's most frequent one."""
    clusters, y = np.asarray(clusters), np.asarray(y)
    majority = sum(int(np.unique(y[clusters == c], return_counts=True)[1].max())
                   for c in np.unique(clusters))
    return majority / len(y)


def purity(Y: np.ndarray, y: np.ndarray, seed: int, n_init: int) -> float:
    """:func:`cluster_purity` of 2-means (scikit-learn, seeded, ``n_init`` restarts) of
    the embedding ``Y``'s coordinates as they are."""
    clusters = KMeans(n_clusters=2, n_init=n_init, random_state=seed).fit_predict(Y)
    return cluster_purity(clusters, y)


def one_nn_accuracy(Y: np.ndarray, y: np.ndarray) -> float:
    """1-NN leave-one-out accuracy of the labels in ``Y``
    (:func:`harness.metrics.knn_error.knn_loo_error`)."""
    return 1.0 - knn_loo_error(Y, y, n_neighbors=1)


def edge_loss(Y: np.ndarray, edges: np.ndarray, b: np.ndarray) -> float:
    """The scale-optimal relative loss of ``Y`` on a graph: the reconstruction loss
    (3.26), sum_e (c |y_i - y_j|^2 - b_e)^2, at its best scale c >= 0, over sum_e b_e^2
    (``b`` the input's squared edge lengths). In [0, 1]: 0 when ``Y`` keeps every edge's
    squared length up to one scale; 1 for a collapsed ``Y``. Closed form
    ``c = <a, b> / <a, a>`` with ``a`` the squared lengths in ``Y``."""
    diff = Y[edges[:, 0]] - Y[edges[:, 1]]
    a = np.einsum("ij,ij->i", diff, diff)
    c = float(a @ b) / float(a @ a) if float(a @ a) > 0 else 0.0
    return reconstruction_loss(np.sqrt(c) * Y, edges, b) / (PAIR_COUNT * float(b @ b))


def _scores(Y, y, params, X=None, inputs=None, edges=None, b=None) -> dict:
    out = {"purity": purity(Y, y, params["seed"], params["kmeans_init"]),
           "one_nn_accuracy": one_nn_accuracy(Y, y)}
    if inputs is not None:
        out["continuity"] = local_continuity(X, Y, params["eval_neighbors"],
                                            input_neighbors=inputs)
    if edges is not None:
        out["edge_loss"] = edge_loss(Y, edges, b)
    return out


def _gap(exc: ExpectedFailure, **more) -> dict:
    return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__, **more}


def count(params: dict) -> dict:
    """The twos and threes of MNIST's whole training part."""
    try:
        _, y, n_train = load_digits(params)
    except ExpectedFailure as exc:
        return _gap(exc)
    per_digit = {str(d): int((y == d).sum()) for d in params["digits"]}
    return {"status": "ok", "reason": "", "n_train": n_train, "per_digit": per_digit,
            "count": int(len(y))}


def pca(params: dict) -> dict:
    """PCA's 2-D embedding: its scores against ink, its separation and continuity."""
    try:
        X, y, about = _sample(params)
    except ExpectedFailure as exc:
        return _gap(exc)
    cpu = cpu_clock()
    model = registry.get_method("pca")(n_components=2).fit(X)
    seconds = cpu_clock() - cpu
    Y = model.embedding_
    inputs = input_neighbors(X, params["eval_neighbors"])
    return {"status": "ok", "reason": "", **about,
            "first_score_ink_pearson": ink_correlation(X, Y[:, 0]),
            "second_score_ink_pearson": ink_correlation(X, Y[:, 1]),
            "explained_variance_ratio": [float(v) for v in model.model_.explained_variance_ratio_],
            "eval_neighbors": params["eval_neighbors"],
            "pca": {**_scores(Y, y, params, X, inputs), "cpu_seconds": seconds}}


def lle(params: dict) -> dict:
    """LLE and variational MVU (with and without CG) at one k, and their scores."""
    k, seed = params["n_neighbors"], params["seed"]
    try:
        X, y, about = _sample(params)
        cpu = cpu_clock()
        model = registry.get_method("lle")(n_neighbors=k, n_components=2,
                                           random_state=seed).fit(X)
    except ExpectedFailure as exc:  # the data not cached, a disconnected k-NN graph
        return _gap(exc, k=k)
    lle_seconds = cpu_clock() - cpu
    cpu = cpu_clock()
    Q = lle_basis(X, k, min(params["n_basis"], len(X) - 2), seed=seed)
    basis_seconds, cpu = cpu_clock() - cpu, cpu_clock()
    edges, b = clique_edges(X, k)
    graph_seconds, cpu = cpu_clock() - cpu, cpu_clock()
    result = variational_mvu(Q, edges, b, n_components=2, omega=params["omega"], refine=True,
                             cg_maxiter=params["cg_maxiter"])
    variational_seconds = cpu_clock() - cpu
    sdp_seconds = result.timings["sdp_cpu"]
    inputs = input_neighbors(X, params["eval_neighbors"])
    score = {"X": X, "inputs": inputs, "edges": edges, "b": b}
    return {"status": "ok", "reason": "", **about, "k": k, "m": int(Q.shape[1]),
            "n_edges": int(len(edges)), "eval_neighbors": params["eval_neighbors"],
            "lle": {**_scores(model.embedding_, y, params, **score), "cpu_seconds": lle_seconds,
                    "eigen_solver": model.eigen_solver_used_},
            "variational": {**_scores(result.Y_sdp, y, params, **score),
                            "basis_cpu_seconds": basis_seconds,
                            "graph_cpu_seconds": graph_seconds,
                            "sdp_cpu_seconds": sdp_seconds, "sdp_status": result.sdp.status},
            "variational_cg": {**_scores(result.Y, y, params, **score),
                               "cg_cpu_seconds": variational_seconds - sdp_seconds,
                               "cg_iterations": result.cg_iterations}}


JOBS = {"count": count, "pca": pca, "lle": lle}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        start = cpu_clock()
        body = JOBS[params["kind"]](params)
    return {**body, "group_cpu_seconds": cpu_clock() - start}


def sources(params: dict) -> list:
    """The data set and method plugins the job finds by name."""
    methods = {"pca": ["pca"], "lle": ["lle"]}.get(params["kind"], [])
    return [registry.get_dataset(params["dataset"])] + [registry.get_method(m) for m in methods]
