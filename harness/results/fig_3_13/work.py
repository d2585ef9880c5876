"""One job of Fig. 3.13 / section 3.1.6's inequality checks.

* ``frey_pca``: Frey's faces (the public 1965, or a seeded random subset of
  ``n_samples``): their count, pixels per image (the plugin's 28 x 20 image shape and
  the columns of X) and PCA's spectrum (a plain SVD of the centred images), the share of
  the trace in the leading three eigenvalues.
* ``<dataset>_<variant>`` (variant ``equality`` or ``inequality``): MVU (the ``mvu``
  plugin, native solver, k nearest neighbours joined into cliques) with strict
  equalities or with the relaxed inequalities of 3.1.6; the solve's status (recomputed
  by the harness from its certificate), the spectrum of the centred kernel K = F F^T
  and, from ``kernel_factor_``, ``edges_`` and ``sq_lengths_`` alone, each edge's output
  distance K_ii - 2 K_ij + K_jj against its input distance D_ij (:func:`edge_measures`):
  the largest relative growth and the slack, on the whole clique graph (the SDP's
  constraints) and, shown, on its k-NN edges alone.

A data set that cannot be had here (not cached, not published) is a marked gap: its
job returns the :class:`harness.plugin.ExpectedFailure`'s status, never a crash.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.problems.mvu_problem import knn_edges
from harness.timelimit import cpu_clock_with_children

__all__ = ["TIGHT", "GROWN", "TOP", "sq_distances", "edge_measures", "on_knn_edges",
           "top_share",
           "normalised", "spectrum", "load", "pca", "mvu", "work", "sources"]

#: relative slack below which an inequality counts as tight (the register's 1 %)
TIGHT = 0.01
#: relative growth above which an edge is counted as grown (the register's 1e-4)
GROWN = 1e-4
#: the leading dimensions of Fig. 3.13
TOP = 3


def sq_distances(F: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """K_ii - 2 K_ij + K_jj of K = F F^T on each edge (i, j): |f_i - f_j|^2."""
    F = np.asarray(F, dtype=np.float64)
    edges = np.asarray(edges, dtype=np.int64)
    diff = F[edges[:, 0]] - F[edges[:, 1]]
    return np.einsum("ij,ij->i", diff, diff)


def edge_measures(F: np.ndarray, edges: np.ndarray, D: np.ndarray,
                  tight: float = TIGHT, grown: float = GROWN) -> dict:
    """Each edge's output distance against its input distance D_ij (> 0): the largest
    relative growth max (out - D) / D and the count above ``grown``; the relative slack
    (D - out) / D -- the share of edges below ``tight`` (tight), its median and largest
    -- and the total slack sum (D - out) / sum D (signed: an edge that grew within the
    solver's tolerance counts negative)."""
    D = np.asarray(D, dtype=np.float64)
    out = sq_distances(F, edges)
    growth = (out - D) / D
    slack = -growth
    return {"n_edges": int(len(D)), "max_relative_growth": float(growth.max()),
            "n_grown": int((growth > grown).sum()),
            "fraction_tight": float((slack < tight).mean()),
            "n_tight": int((slack < tight).sum()),
            "median_relative_slack": float(np.median(slack)),
            "max_relative_slack": float(slack.max()),
            "total_slack_share": float((D - out).sum() / D.sum())}


def on_knn_edges(X: np.ndarray, k: int, F: np.ndarray, edges: np.ndarray,
                 D: np.ndarray) -> dict:
    """:func:`edge_measures` on the edges of the symmetrised k-NN graph alone (the
    clique graph's other edges join two neighbours of a third point), shown beside the
    whole graph's."""
    n = len(X)
    keys = np.asarray(edges, np.int64)
    keys = keys[:, 0] * n + keys[:, 1]
    knn, _ = knn_edges(X, k)
    mask = np.isin(keys, knn[:, 0] * n + knn[:, 1])
    return edge_measures(F, np.asarray(edges)[mask], np.asarray(D)[mask])


def normalised(eigenvalues: np.ndarray) -> np.ndarray:
    """Eigenvalues (non-negative, any order) as shares of their sum, largest first."""
    e = np.sort(np.clip(np.asarray(eigenvalues, dtype=np.float64), 0, None))[::-1]
    return e / e.sum()


def top_share(eigenvalues: np.ndarray, d: int = TOP) -> float:
    """The share of the trace in the ``d`` largest eigenvalues."""
    return float(normalised(eigenvalues)[:d].sum())


def spectrum(Y: np.ndarray, n_spectrum: int) -> dict:
    """The centred Gram matrix of the rows of ``Y`` (K = Y Y^T after centring): its
    trace, top-three share, eigenvalues above 1 % of the trace and the first
    ``n_spectrum`` normalised eigenvalues."""
    Y = np.asarray(Y, dtype=np.float64)
    eig = np.linalg.svd(Y - Y.mean(axis=0), compute_uv=False) ** 2
    shares = normalised(eig)
    return {"trace": float(eig.sum()), "top3_share": top_share(eig),
            "n_appreciable": int((shares > 0.01).sum()),
            "normalised_eigenvalues": shares[:n_spectrum].tolist()}


def load(params: dict) -> tuple[np.ndarray, dict]:
    """``(X, about)``: the data set's rows (Frey: the seeded subset when ``n_samples``
    is below the public count) and what the record says of them. Raises
    :class:`harness.plugin.ExpectedFailure` (e.g. the data not cached)."""
    plugin = registry.get_dataset(params["dataset"])
    data = plugin().load(**{**plugin.params, **params["dataset_params"]})
    X = np.asarray(data.X, dtype=np.float64)
    n_public = len(X)
    n = params.get("n_samples")
    if n is not None and int(n) < n_public:
        rng = np.random.default_rng(params["seed"])
        X = X[np.sort(rng.choice(n_public, int(n), replace=False))]
    about = {"dataset": params["dataset"], "n_public": int(n_public), "n": int(len(X)),
             "subset": bool(len(X) < n_public), "n_features": int(X.shape[1]),
             "stand_in_for": data.meta.get("stand_in_for")}
    if data.meta.get("image_shape"):
        shape = [int(s) for s in data.meta["image_shape"]]
        about.update(image_shape=shape, pixels_per_image=int(np.prod(shape)))
    return X, about


def pca(X: np.ndarray, about: dict, params: dict) -> dict:
    """PCA's spectrum (a plain SVD of the centred rows)."""
    cpu = cpu_clock_with_children()
    out = spectrum(X, params["n_spectrum"])
    return {"status": "ok", "reason": "", **about, "variant": "pca", **out,
            "cpu_seconds": cpu_clock_with_children() - cpu}


def mvu(X: np.ndarray, about: dict, params: dict) -> dict:
    """MVU (``variant``) by the native solver: the solve, the spectrum of its centred
    kernel and :func:`edge_measures` from its factor, edges and input distances."""
    model = registry.get_method("mvu")(
        n_neighbors=params["k"], n_components=TOP, variant=params["variant"],
        solver="native", time_limit=params["solver_time_limit"],
        random_state=params["seed"])
    cpu = cpu_clock_with_children()
    try:
        model.fit_transform(X)
    except ValueError as exc:  # a disconnected graph, duplicate points: a marked failure
        raise ExpectedFailure(f"MVU (k = {params['k']}): {exc}") from None
    cpu = cpu_clock_with_children() - cpu
    info = model.solve_info_
    solve = {key: info.get(key) for key in ("status", "value", "bound", "gap", "violation",
                                            "solver", "solve_seconds", "rank")}
    F = np.asarray(model.kernel_factor_, dtype=np.float64)
    return {"status": "ok", "reason": "", **about, "variant": params["variant"],
            "k": int(params["k"]), "solve": solve, "cpu_seconds": cpu,
            **spectrum(F, params["n_spectrum"]),
            "edges": edge_measures(F, model.edges_, model.sq_lengths_),
            "knn_edges": on_knn_edges(X, params["k"], F, model.edges_, model.sq_lengths_)}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body (a marked gap when the
    data or the solve cannot be had)."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            X, about = load(params)
            return (pca if params["variant"] == "pca" else mvu)(X, about, params)
        except ExpectedFailure as exc:
            return {"status": getattr(exc, "status", "failed"), "reason": str(exc),
                    "error_type": type(exc).__name__}


def sources(params: dict) -> list:
    """The data set plugin the job finds by name, and MVU's for its solves."""
    found = [registry.get_dataset(params["dataset"])]
    return found if params["variant"] == "pca" else found + [registry.get_method("mvu")]
