"""The jobs of Fig. 3.29 (thesis 3.1.12): bad edges of a noisy Swiss roll's k-NN graph.

Four jobs, one ``work`` (the job's ``kind`` in its params):

``graph``
    The k-nearest-neighbour graph of the figure's roll (i ~ j if either is among the
    other's k nearest; the graph of the thesis' left image), the random-walk score
    ``q_ij^t + q_ji^t`` of every edge and the cut
    (:func:`harness.problems.bad_edges.detect_bad_edges`), the ground truth
    (:func:`truth_bad`) and the detection's precision and recall against it; the
    points, edges and marks for the plots.
``sweep``
    The same detection on rolls of several noise levels and seeds (no SDP): how
    typical the figure's roll is.
``before``, ``after``
    One MVU embedding each (:func:`harness.results.common.work.mvu_point.mvu_point_work`: the
    native solver, certified), without and with ``cut_bad_edges``; besides the
    usual measures, the 2-D embedding and its local continuity, trust and
    intersection (3.27-3.29) against the roll's true 2-D coordinates.

Ground truth. The plugin's roll is ``(t cos t, h, t sin t) + noise`` (scikit-learn's
generator); with ``noise = 0`` and the same seed it draws the same t and h (the noise
is drawn last), so the noise-free points x0 and the unrolled coordinates ``u = (s(t),
h)`` are known, with ``s(t) = (t sqrt(1 + t^2) + asinh t) / 2`` the arc length of the
spiral r = t. The roll is a developable surface over a convex strip, so ``|u_i - u_j|``
is the geodesic distance. An edge is *bad* when it is more than ``truth_ratio`` times
longer on the manifold than in space: ``|u_i - u_j| > truth_ratio |x0_i - x0_j|``.
Measured on rolls of n = 600, k = 7, noise 0.5-1.25, seeds 0-2: every edge has a ratio
below 1.2 (a chord of a neighbourhood) or above 3 (a jump between layers), none in
between, so any ratio in (1.2, 3) gives the same set.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np
from scipy.sparse import csgraph
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics import embedding_quality
from harness.plugin import ExpectedFailure
from harness.problems.bad_edges import (BadEdgeRule, detect_bad_edges, neighbour_graph,
                                        without_edges)
from harness.results.common.work.mvu_point import load_dataset, mvu_point_work, mvu_sources
from harness.results.fig_3_29 import DATASET, KINDS

__all__ = ["DATASET", "KINDS", "arc_length", "roll_truth", "truth_bad", "knn_detection",
           "detection_counts", "work", "sources"]

DECIMALS = 6  # of the coordinates and scores kept in a record (for the plots)


def arc_length(t: np.ndarray) -> np.ndarray:
    """Arc length of the spiral ``r = t`` from 0: ``(t sqrt(1 + t^2) + asinh t) / 2``."""
    t = np.asarray(t, dtype=float)
    return 0.5 * (t * np.sqrt(1.0 + t * t) + np.arcsinh(t))


def roll_truth(dataset_params: dict) -> tuple[np.ndarray, np.ndarray]:
    """The roll's unrolled coordinates ``U`` (n, 2: arc length, height) and its
    noise-free points ``X0`` (n, 3), by loading the plugin with ``noise = 0`` and
    otherwise the same parameters (module docstring)."""
    clean = registry.get_dataset(DATASET)().load(**{**dataset_params, "noise": 0.0})
    X0 = np.asarray(clean.X[:, :3], dtype=float)
    return np.column_stack([arc_length(clean.y), X0[:, 1]]), X0


def truth_bad(edges: np.ndarray, U: np.ndarray, X0: np.ndarray, ratio: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(bad, stretch)``: ``stretch = |u_i - u_j| / |x0_i - x0_j|`` per edge and
    ``bad = stretch > ratio``."""
    i, j = edges[:, 0], edges[:, 1]
    stretch = (np.linalg.norm(U[i] - U[j], axis=1)
               / np.maximum(np.linalg.norm(X0[i] - X0[j], axis=1), 1e-300))
    return stretch > ratio, stretch


def knn_detection(X: np.ndarray, n_neighbors: int, rule: BadEdgeRule):
    """The symmetric k-NN graph of ``X`` (as :func:`harness.problems.mvu_problem.
    neighbourhood_cliques` builds it) and its bad-edge detection."""
    dist, nbrs = NearestNeighbors(n_neighbors=n_neighbors).fit(X).kneighbors()
    graph = neighbour_graph(nbrs, dist)
    return graph, detect_bad_edges(graph, rule)


def detection_counts(cut: np.ndarray, bad: np.ndarray) -> dict[str, Any]:
    """Edges, bad ones, cut ones, hits; precision (of the cut), recall (of the bad
    edges; NaN without any) and the fraction of good edges cut."""
    cut, bad = np.asarray(cut, bool), np.asarray(bad, bool)
    hits = int((cut & bad).sum())
    good = int((~bad).sum())
    return {"n_edges": int(cut.size), "n_bad": int(bad.sum()), "n_cut": int(cut.sum()),
            "true_positives": hits, "false_positives": int((cut & ~bad).sum()),
            "precision": hits / int(cut.sum()) if cut.any() else float("nan"),
            "recall": hits / int(bad.sum()) if bad.any() else float("nan"),
            "good_cut_fraction": int((cut & ~bad).sum()) / good if good else float("nan")}


def _components(graph, detection) -> int:
    return int(csgraph.connected_components(without_edges(graph, detection.cut_edges),
                                            directed=False)[0])


def _rounded(values) -> list:
    return np.round(np.asarray(values, dtype=float), DECIMALS).tolist()


def _graph_work(params: dict) -> dict:
    try:
        dataset = load_dataset(params)
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    rule = BadEdgeRule(**params["rule"])
    start = time.perf_counter()
    graph, detection = knn_detection(dataset.X, params["n_neighbors"], rule)
    seconds = time.perf_counter() - start
    U, X0 = roll_truth(params["dataset_params"])
    bad, stretch = truth_bad(detection.edges, U, X0, params["truth_ratio"])
    return {
        "status": "ok", "reason": "", "n_samples": dataset.n_samples,
        "detection": {**detection_counts(detection.cut, bad),
                      "log_threshold": detection.threshold, "seconds": seconds,
                      "components_after_cut": _components(graph, detection),
                      "rule": rule.as_dict()},
        "X": _rounded(dataset.X[:, :3]), "t": _rounded(dataset.y), "U": _rounded(U),
        "edges": detection.edges.tolist(), "lengths": _rounded(detection.lengths),
        "q_ij": _rounded(detection.q_ij), "q_ji": _rounded(detection.q_ji),
        "cut": detection.cut.tolist(), "bad": bad.tolist(), "stretch": _rounded(stretch),
    }


def _sweep_work(params: dict) -> dict:
    rule = BadEdgeRule(**params["rule"])
    loader = registry.get_dataset(DATASET)()
    rows = []
    for noise in params["noises"]:
        for seed in params["seeds"]:
            data_params = {**params["dataset_params"], "noise": float(noise), "seed": int(seed)}
            X = loader.load(**data_params).X
            graph, detection = knn_detection(X, params["n_neighbors"], rule)
            U, X0 = roll_truth(data_params)
            bad, _ = truth_bad(detection.edges, U, X0, params["truth_ratio"])
            rows.append({"noise": float(noise), "seed": int(seed),
                         **detection_counts(detection.cut, bad),
                         "components_after_cut": _components(graph, detection)})
    return {"status": "ok", "reason": "", "rolls": rows}


def _truth_measures(params: dict, dataset, result: dict) -> dict:
    """The MVU job's extras: its 2-D embedding, the metrics against the roll's true
    2-D coordinates, and what was cut."""
    U, _ = roll_truth(params["dataset_params"])
    Y = np.asarray(result["embedding"], dtype=float)
    return {"embedding": _rounded(Y),
            "truth_measures": embedding_quality(U, Y, n_neighbors=params["eval_neighbors"]),
            "bad_edges": result["info"].get("bad_edges")}


def work(params: dict) -> dict:
    """One job of Fig. 3.29 by ``params["kind"]`` (module docstring)."""
    kind = params["kind"]
    if kind in ("before", "after"):
        return mvu_point_work(params, extra=functools.partial(_truth_measures, params))
    with threadpool_limits(limits=params["blas_threads"]):
        return _graph_work(params) if kind == "graph" else _sweep_work(params)


def sources(params: dict) -> list:
    """The data set plugin, and for the MVU jobs the MVU plugin and the solver."""
    if params["kind"] in ("before", "after"):
        return mvu_sources(params)
    return [registry.get_dataset(DATASET)]
