"""One job of ``mm_lmnn_properties`` (thesis 2.1.8 "Multiple Metrics"; 2.1.1): see
:func:`work` for the four kinds of job. MM-LMNN is :class:`harness.methods.mm_lmnn.MMLMNN`
(eq. 2.17, the SDP below it, in hinge form)."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.cluster import SpectralClustering
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import same_class_neighbors, vote_with_ties
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.tasks.classification import split_indices
from harness.methods.shared.lmnn_core import target_sq_distances
from harness.methods.shared.lmnn_solvers import INIT_MEAN_TARGET_DISTANCE
from harness.methods.shared.mm_lmnn_core import class_maps, mm_kneighbors, mm_loss_over_all_triples
from harness.methods.lmnn import LMNN
from harness.methods.mm_lmnn import MMLMNN
from harness.timelimit import cpu_clock

__all__ = ["load", "independent_maps", "partitions_work", "speed_work", "convex_work",
           "fig_2_11_work", "work", "sources"]


def load(params: dict, **dataset_params):
    """The data set (a stratified seeded subsample of ``max_samples`` points if set)."""
    dataset = registry.get_dataset(params["dataset"])().load(**dataset_params)
    X, y = np.asarray(dataset.X, dtype=np.float64), np.asarray(dataset.y)
    m = params.get("max_samples")
    if m and m < len(y):
        keep, _ = split_indices(y, m / len(y), params["seed"])
        X, y = X[keep], y[keep]
    return X, y, dataset


def _mm(params, **kw) -> MMLMNN:
    return MMLMNN(n_neighbors=params["n_neighbors"], mu=params["mu"],
                  max_iter=params["max_iter"], tol=params["tol"], **kw)


def _error(pred, y) -> float:
    return 100.0 * float(np.mean(pred != y))


def independent_maps(X, codes, params) -> np.ndarray:
    """Per class c, single-metric LMNN trained alone on "class c" against "the rest"
    (same k, mu, PCA start); the stack of maps ``(c, d, d)``."""
    maps = []
    for c in range(codes.max() + 1):
        est = LMNN(n_neighbors=params["n_neighbors"], mu=params["mu"],
                   max_iter=params["max_iter"], tol=params["tol"])
        maps.append(est.fit(X, (codes == c).astype(int)).components_)
    return np.stack(maps)


def _timed(fn):
    t0 = cpu_clock()
    out = fn()
    return out, cpu_clock() - t0


def partitions_work(X, y, params, split_of) -> list[dict]:
    """Per run: test errors of MM-LMNN with the labels, k-means and spectral clusters as
    the partition, and of the independently trained per-class metrics."""
    rows = []
    for run in range(params["n_runs"]):
        seed = params["seed"] + run
        tr, te = split_of(seed)
        Xtr, ytr, Xte, yte = X[tr], y[tr], X[te], y[te]
        classes, codes = np.unique(ytr, return_inverse=True)
        c = len(classes)
        spectral = SpectralClustering(
            n_clusters=c, affinity="nearest_neighbors",
            n_neighbors=params["spectral_n_neighbors"], random_state=seed).fit_predict(Xtr)
        for variant, kw in (("labels", {}), ("kmeans", {"groups": c, "random_state": seed}),
                            ("spectral", {"groups": spectral})):
            est, cpu = _timed(lambda: _mm(params, **kw).fit(Xtr, ytr))
            rows.append({"run": run, "variant": variant,
                         "test_error": _error(est.predict(Xte), yte),
                         "n_groups": int(len(est.group_ids_)), "n_iter": est.n_iter_,
                         "loss": est.loss_, "fit_cpu_seconds": cpu})
        maps, cpu = _timed(lambda: independent_maps(Xtr, codes, params))
        nn = mm_kneighbors(Xtr, codes, maps, Xte, params["n_neighbors"])
        pred = classes[vote_with_ties(codes[nn], c)]
        rows.append({"run": run, "variant": "independent", "test_error": _error(pred, yte),
                     "n_groups": c, "fit_cpu_seconds": cpu})
    return rows


def speed_work(X, y, params) -> list[dict]:
    """MM-LMNN from the single metric (its fit included) and from the identity,
    alternating, ``speed_repeats`` times on the first split's training part."""
    tr, _ = split_indices(y, params["train_fraction"], params["seed"])
    rows = []
    for repeat in range(params["speed_repeats"]):
        for start in ("single", "identity"):
            est, cpu = _timed(lambda: _mm(params, init=start).fit(X[tr], y[tr]))
            single = est.single_metric_
            rows.append({"repeat": repeat, "start": start, "cpu_seconds": cpu,
                         "n_iter": est.n_iter_, "loss": est.loss_,
                         "converged": est.converged_,
                         "single_n_iter": single.n_iter_ if single is not None else 0})
    return rows


def _random_start(X, targets, d, c, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(c):
        G = rng.standard_normal((d, d))
        mean = target_sq_distances(X @ G.T, targets).mean()
        out.append(G * np.sqrt(INIT_MEAN_TARGET_DISTANCE / mean))
    return np.stack(out)


def _psd_factor(M) -> np.ndarray:
    w, V = np.linalg.eigh(0.5 * (M + M.T))
    return (V * np.sqrt(np.clip(w, 0.0, None))).T


def _loss_at(X, codes, targets, mu, Ms) -> float:
    Ls = np.stack([_psd_factor(M) for M in Ms])
    return float(mm_loss_over_all_triples(class_maps(X, Ls), codes, targets, mu).loss)


def convex_work(X, y, params) -> list[dict]:
    """The fixed label partition from the identity and random PSD starts; a start that
    ends above the best by more than 1e-3 relative is probed along the segment towards
    the best start's metrics (in M)."""
    tr, _ = split_indices(y, params["train_fraction"], params["seed"])
    X, y = X[tr], y[tr]
    _, codes = np.unique(y, return_inverse=True)
    c, d, k = codes.max() + 1, X.shape[1], params["n_neighbors"]
    targets = same_class_neighbors(X, codes, k)
    starts = [("identity", "identity")] + [
        (f"random {s}", _random_start(X, targets, d, c, [params["seed"], 17, s]))
        for s in range(params["convex_random_starts"])]
    rows, Ms = [], []
    for name, init in starts:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est, cpu = _timed(lambda: MMLMNN(
                n_neighbors=k, mu=params["mu"], init=init, tol=params["convex_tol"],
                max_iter=params["convex_max_iter"]).fit(X, y))
        Ms.append(np.stack([L.T @ L for L in est.components_]))
        rows.append({"start": name, "loss": est.loss_, "n_iter": est.n_iter_,
                     "converged": est.converged_, "fit_cpu_seconds": cpu})
    best = int(np.argmin([r["loss"] for r in rows]))
    for r, M in zip(rows, Ms):
        probe = [_loss_at(X, codes, targets, params["mu"], (1 - t) * M + t * Ms[best])
                 for t in params["convex_segment_steps"]]
        # a fall beyond round-off (the best start probes towards itself)
        r.update(segment_losses=probe,
                 descent=bool(min(probe) < r["loss"] - 1e-9 * abs(r["loss"])))
    return rows


def _angle(v) -> float:
    return float(np.degrees(np.arctan2(v[1], v[0])) % 180.0)


def fig_2_11_work(params) -> dict:
    """MM-LMNN on the first two principal components of the first ``per_class``
    training images of each digit; each metric's eigen-decomposition."""
    ds = registry.get_dataset(params["dataset"])().load(n_components=None)
    n_train = ds.meta.get("split_protocol", {}).get("predefined_n_train", len(ds.y))
    X, y = np.asarray(ds.X[:n_train], dtype=np.float64), np.asarray(ds.y[:n_train])
    keep = np.concatenate([np.flatnonzero(y == g)[:params["per_class"]]
                           for g in params["digits"]])
    X, y = X[keep], y[keep]
    mean = X.mean(axis=0)
    _, _, Vt = np.linalg.svd(X - mean, full_matrices=False)
    Z = (X - mean) @ Vt[:2].T
    est, cpu = _timed(lambda: _mm(params).fit(Z, y))
    metrics = []
    for label, L in zip(est.classes_, est.components_):
        M = L.T @ L
        w, V = np.linalg.eigh(M)
        metrics.append({"digit": int(label), "M": M.tolist(), "L": L.tolist(),
                        "eigenvalues": w[::-1].tolist(),
                        "direction_degrees": _angle(V[:, -1]),
                        "eigen_ratio": float(w[-1] / max(w[0], 1e-300)),
                        "center": Z[y == label].mean(axis=0).tolist()})
    return {"points": Z.tolist(), "labels": y.tolist(), "metrics": metrics,
            "n_points": int(len(y)), "n_iter": est.n_iter_, "loss": est.loss_,
            "fit_cpu_seconds": cpu}


def work(params: dict) -> dict:
    """The child's work: ``partitions``, ``speed``, ``convex`` or ``fig_2_11``."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            if params["part"] == "fig_2_11":
                body = fig_2_11_work(params)
            else:
                X, y, dataset = load(params)
                if params["part"] == "partitions":
                    body = {"runs": partitions_work(X, y, params, lambda s: split_indices(
                        y, params["train_fraction"], s))}
                elif params["part"] == "speed":
                    body = {"repeats": speed_work(X, y, params)}
                else:
                    body = {"starts": convex_work(X, y, params)}
                body.update(thesis_name=dataset.meta.get("thesis_name", params["dataset"]),
                            n_samples=int(len(y)), n_features=int(X.shape[1]))
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        return {"status": "ok", "reason": "", **body, "blas_during_run": blas_info()}


def sources(params: dict) -> list:
    """The data set plugin the job finds by name (so that editing it reruns the job)."""
    return [registry.get_dataset(params["dataset"])]
