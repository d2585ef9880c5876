"""One job of the teapot checks (thesis 3.1.5, Fig. 3.31) on one data set:

* its number of features and frames;
* the connected components of its k-NN clique graph on every frame;
* MVU (native solver, equality, k) on the frames whose angle is below ``half_turn``
  (the first 200 of 400: 180 degrees): the normalised eigenvalues of its kernel, the
  top share and lambda_2 / lambda_1, and Spearman's rho between the first MVU
  coordinate and the angle;
* Isomap's and MVU's ``embedding_dims``-D embeddings of every frame (same k), and the
  relative Procrustes residual (rotation and scale) of Isomap's on MVU's.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import spearmanr
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.alignment import procrustes_residual
from harness.plugin import ExpectedFailure
from harness.problems.mvu_problem import MVUProblem
from harness.results.common.work.mvu_point import N_SPECTRUM, normalised
from harness.results.mvu_graph_3_1_12.work import components

__all__ = ["half_turn_mvu", "isomap_against_mvu", "work", "sources"]


def _mvu(X: np.ndarray, params: dict, dims: int):
    mvu = registry.get_method("mvu")(n_neighbors=params["k"], n_components=dims,
                                     time_limit=params["solver_time_limit"],
                                     random_state=params["seed"])
    try:
        Y = mvu.fit_transform(X)
    except ValueError as exc:  # a disconnected graph: a marked failure of this part
        return None, {"status": "failed", "reason": str(exc)}
    info = {key: mvu.solve_info_.get(key) for key in ("status", "gap", "violation")}
    eig = np.asarray(mvu.eigenvalues_, float)
    return np.asarray(Y), {**info, "normalised_eigenvalues": normalised(eig)[:N_SPECTRUM]}


def half_turn_mvu(X: np.ndarray, angle: np.ndarray, params: dict) -> dict:
    """MVU on the frames of the first half turn: spectrum and order by angle."""
    keep = angle < params["half_turn"]
    Y, info = _mvu(X[keep], params, 1)
    out = {"n_frames": int(keep.sum()), **info}
    if Y is not None:
        shares = info["normalised_eigenvalues"]
        out.update(top_share=float(shares[0]), second_over_first=float(shares[1] / shares[0]),
                   abs_spearman_angle=float(abs(spearmanr(Y[:, 0], angle[keep]).statistic)))
    return out


def isomap_against_mvu(X: np.ndarray, params: dict) -> dict:
    """Isomap's and MVU's embeddings of every frame and their Procrustes residual."""
    dims = params["embedding_dims"]
    Y_mvu, info = _mvu(X, params, dims)
    if Y_mvu is None:
        return {"mvu": info}
    iso = registry.get_method("isomap")(n_neighbors=params["k"], n_components=dims)
    Y_iso = np.asarray(iso.fit_transform(X))
    residual, scale = procrustes_residual(Y_iso, Y_mvu, scale=True)
    return {"mvu": info, "procrustes_residual": residual, "procrustes_scale": scale}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    plugin = registry.get_dataset(params["dataset"])
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            data = plugin().load(**{**plugin.params, **params["dataset_params"]})
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        X, angle = data.X, np.asarray(data.y, float)
        graph = MVUProblem.from_points(X, params["k"], connectivity="clique")
        return {"status": "ok", "reason": "", "n_samples": int(X.shape[0]),
                "n_features": int(X.shape[1]), "stand_in_for": data.meta.get("stand_in_for"),
                "k": params["k"], "components": components(graph.n, graph.edges),
                "half_turn": half_turn_mvu(X, angle, params),
                "isomap_vs_mvu": isomap_against_mvu(X, params)}


def sources(params: dict) -> list:
    """The data set, MVU and Isomap plugins the job finds by name."""
    return [registry.get_dataset(params["dataset"]), registry.get_method("mvu"),
            registry.get_method("isomap")]
