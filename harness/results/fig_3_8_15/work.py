"""One job of Figs. 3.8 and 3.15 (thesis 3.1.5, 3.1.7): an MVU embedding of the
trefoil or the comb (:func:`harness.results.common.work.mvu_point.mvu_point_work`, its
solve certified by the harness) with the figure's own measures, or Isomap's
spectrum of the comb (:func:`harness.methods.isomap.isomap_gram`, thesis 3.2.1).

The record adds, for the comb: the number of normalised eigenvalues above the
threshold (from the full spectrum), the median |cos| between the teeth's principal
directions in the output, the Procrustes residual of the output against the input and
the first three output dimensions; for the trefoil: the share of the top two
eigenvalues, the largest of the rest, the ring's radius variation, the circular
correlation of output angle and knot parameter, the Spearman correlation of knot and
output distances among the k nearest inputs and the 2-D embedding.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.results.common.work.mvu_point import (
    mvu_point_work, mvu_sources, normalised, start_point,
)

__all__ = ["count_above", "median_tooth_cosine", "procrustes_residual", "ring_measures",
           "parameter_spearman", "spearman_ceiling", "work", "sources"]

N_KEPT = 20  # leading (signed) eigenvalues an Isomap record keeps


def count_above(values, threshold: float) -> int:
    """Eigenvalues above ``threshold`` times the sum of the positive ones."""
    values = np.asarray(values, dtype=float)
    total = values[values > 0].sum()
    return int((values > threshold * total).sum()) if total > 0 else 0


def median_tooth_cosine(Y, y) -> float:
    """Median |cos| between the first principal directions of different teeth
    (labels ``y >= 0``) in the output ``Y``."""
    Y = np.asarray(Y, dtype=float)
    dirs = []
    for tooth in sorted(set(int(v) for v in y if v >= 0)):
        part = Y[np.asarray(y) == tooth]
        dirs.append(np.linalg.svd(part - part.mean(axis=0), full_matrices=False)[2][0])
    D = np.array(dirs)
    cos = np.abs(D @ D.T)[np.triu_indices(len(D), 1)]
    return float(np.median(cos))


def procrustes_residual(X, Y) -> float:
    """||Y_c R - X_c||^2 / ||X_c||^2 for the best orthogonal R (no scaling), the
    narrower of the two padded with zero columns."""
    from scipy.linalg import orthogonal_procrustes

    X = np.asarray(X, dtype=float) - np.mean(X, axis=0)
    Y = np.asarray(Y, dtype=float) - np.mean(Y, axis=0)
    d = max(X.shape[1], Y.shape[1])
    X, Y = (np.pad(A, ((0, 0), (0, d - A.shape[1]))) for A in (X, Y))
    R, _ = orthogonal_procrustes(Y, X)
    return float(((Y @ R - X) ** 2).sum() / (X**2).sum())


def ring_measures(Y2, t) -> dict:
    """Coefficient of variation of the distance to the centroid, and the circular
    correlation of the output angle with the parameter ``t``: Fisher and Lee's (1983)
    rho_T = sum_{i<j} sin(a_i - a_j) sin(t_i - t_j) / sqrt(sum sin^2(a_i - a_j)
    sum sin^2(t_i - t_j)), invariant to rotations of either angle, -1 for a reflection;
    recorded as its absolute value, since an embedding's reflection is arbitrary (the
    solver's eigenvector signs flipped it between two runs of the same commit)."""
    Y2 = np.asarray(Y2, dtype=float)[:, :2]
    Y2 = Y2 - Y2.mean(axis=0)
    r = np.hypot(Y2[:, 0], Y2[:, 1])
    a = np.arctan2(Y2[:, 1], Y2[:, 0])
    t = np.asarray(t, dtype=float)
    sa, st = np.sin(a[:, None] - a[None, :]), np.sin(t[:, None] - t[None, :])
    corr = (sa * st).sum() / np.sqrt((sa * sa).sum() * (st * st).sum())
    return {"radius_cv": float(r.std() / r.mean()), "circular_corr": float(abs(corr))}


def _neighbour_distances(X, Y, t, k: int) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.neighbors import NearestNeighbors

    idx = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X, return_distance=False)[:, 1:]
    i, j = np.repeat(np.arange(len(X)), k), idx.ravel()
    t = np.asarray(t, dtype=float)
    dt = np.abs(t[i] - t[j])
    # rounded: equal parameter steps tie exactly, not by rounding noise
    return np.round(np.minimum(dt, 2 * np.pi - dt), 9), np.linalg.norm(np.asarray(Y)[i] - np.asarray(Y)[j], axis=1)


def parameter_spearman(X, Y, t, k: int) -> float:
    """Spearman correlation of the circular parameter distance and the output distance
    over the pairs (i, j), j among i's k nearest inputs."""
    from scipy.stats import spearmanr

    return float(spearmanr(*_neighbour_distances(X, Y, t, k)).statistic)


def spearman_ceiling(X, t, k: int) -> float:
    """The largest :func:`parameter_spearman` any output can reach on these pairs: that
    of an output distance increasing strictly with the parameter distance (below 1 when
    the parameter distances tie, as on an evenly sampled curve)."""
    from scipy.stats import rankdata, spearmanr

    dt, _ = _neighbour_distances(X, X, t, k)
    return float(spearmanr(dt, rankdata(dt, method="ordinal")).statistic)


def _extra(params: dict):
    def extra(dataset, result) -> dict:
        Y = np.asarray(result["embedding"], dtype=float)
        values = np.asarray(result["info"]["eigenvalues"], dtype=float)
        shares = np.asarray(normalised(values))
        out = {"count": count_above(values, params["count_threshold"]),
               "k": int(params["method_params"]["n_neighbors"])}
        if params["dataset"] == "trefoil":
            t = np.asarray(dataset.y, dtype=float)
            out.update(ring_measures(Y, t), top_two=float(shares[:2].sum()),
                       max_tail=float(shares[2:].max()) if len(shares) > 2 else 0.0,
                       spearman=parameter_spearman(dataset.X, Y[:, :2], t, out["k"]),
                       spearman_ceiling=spearman_ceiling(dataset.X, t, out["k"]),
                       embedding=np.round(Y[:, :2], 5).tolist(), parameter=t.tolist())
        else:
            out.update(median_cos=median_tooth_cosine(Y, dataset.y),
                       procrustes=procrustes_residual(dataset.X, Y),
                       embedding=np.round(Y[:, :3], 5).tolist(),
                       input=dataset.X.tolist(), labels=np.asarray(dataset.y).tolist())
        return out
    return extra


def _with_crossing_k(params: dict) -> dict:
    """The parameters with MVU's k = k_cross + offset (:func:`harness.datasets.comb.crossing_neighbors`)."""
    from harness.datasets.comb import crossing_neighbors

    data = registry.get_dataset(params["dataset"])().load(**params["dataset_params"])
    k = crossing_neighbors(data.X, data.y, data.meta["junctions"]) + params["k_offset"]
    return {**params, "k_cross": k - params["k_offset"],
            "method_params": {**params["method_params"], "n_neighbors": k}}


def _isomap(params: dict) -> dict:
    method = registry.get_method("isomap")
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, body = start_point(params, method, None)
        if dataset is None:
            return body
        try:
            model = method(n_neighbors=params["n_neighbors"], n_components=3).fit(dataset.X)
        except (ExpectedFailure, ValueError) as exc:
            return {**body, "status": getattr(exc, "status", "failed"), "reason": str(exc),
                    "error_type": type(exc).__name__}
        values = np.sort(np.linalg.eigvalsh(model.gram_matrix()))[::-1]
        positive = values[values > 0].sum()
        body.update(count=count_above(values, params["count_threshold"]),
                    k=int(params["n_neighbors"]), eigenvalues=values[:N_KEPT].tolist(),
                    normalised_eigenvalues=(values[:N_KEPT] / positive).tolist(),
                    negative_sum=float(values[values < 0].sum()),
                    embedding=np.round(model.embedding_[:, :3], 5).tolist())
    return body


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    if params["job"] == "isomap":
        return _isomap(params)
    if params.get("k_offset") is not None:
        params = _with_crossing_k(params)
        body = mvu_point_work(params, extra=_extra(params))
        return {**body, "k_cross": params["k_cross"]}
    return mvu_point_work(params, extra=_extra(params))


def sources(params: dict) -> list:
    """The data set plugin, and MVU's plugin and solver module (or Isomap's plugin)."""
    if params["job"] == "isomap":
        return [registry.get_dataset(params["dataset"]), registry.get_method("isomap")]
    return mvu_sources(params)
