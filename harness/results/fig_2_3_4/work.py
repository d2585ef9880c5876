"""The jobs of Figs. 2.3 and 2.4 (thesis 2.1.5, "Convergence"): LMNN on the half-square.

Two kinds of job (:mod:`harness.results.fig_2_3_4` declares them):

* ``scaling`` (Fig. 2.3): one training set of ``n`` points, LMNN from ``M = I``; the
  record keeps ``L``, how it scales the horizontal and the vertical axis
  (:func:`axis_scaling`), the training set (for the decision-region plot) and p under
  both metrics;
* ``n<N>`` (Fig. 2.4): ``runs`` independent training sets of ``N`` points, each fitted
  by LMNN from ``M = I``; the record keeps per run p under the Euclidean metric and
  under LMNN's, and the axis scaling.

p (thesis 2.1.5) is the probability that a uniform test point is misclassified by the
1-NN rule: ``p = |(X_u n A_0) u (X_l n A_1)| / |X|`` with ``X_u``/``X_l`` the upper and
lower half of the square and ``A_c`` where 1-NN says ``c``. We compute it as the
midpoint rule on a ``G x G`` grid of cell centres (:func:`misclassified_fraction`):
the fraction of centres whose 1-NN label differs from their true label. The centres
lie at ``(i + 1/2) side / G``; for an odd G the middle row would lie on the class
boundary ``y = side / 2``, so :func:`grid_centres` wants an even G. 1-NN ties have
measure zero. The error of the midpoint rule is of the order of (length of the
misclassified region's boundary) x ``side / G`` / ``side^2`` (tested against an
exact polygon area in ``tests/results/test_fig_2_3_4.py``).

The training sets are drawn through the data set plugin (``harness/datasets/half_square.py``)
with one seed per (profile seed, n, run, draw) (:func:`run_seed`); Fig. 2.3's sample
is run 0 of its size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.spatial import cKDTree
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.timelimit import cpu_clock

__all__ = ["METHOD", "grid_centres", "nn_labels", "misclassified_fraction", "axis_scaling",
           "run_seed", "draw_training_set", "fit_lmnn", "work", "sources"]

METHOD = "lmnn"
MAX_DRAWS = 1000  # redraws of one run's training set before giving up


def grid_centres(side: float, grid_size: int) -> np.ndarray:
    """The ``grid_size**2`` cell centres of a ``grid_size x grid_size`` grid on
    ``[0, side]^2`` (rows: y ascending, then x), shape ``(grid_size**2, 2)``."""
    if grid_size < 2 or grid_size % 2:
        raise ValueError(f"grid_size = {grid_size} must be an even integer >= 2 (an odd "
                         f"grid puts a row of centres on the class boundary y = side / 2)")
    c = (np.arange(grid_size) + 0.5) * (side / grid_size)
    gx, gy = np.meshgrid(c, c)
    return np.column_stack([gx.ravel(), gy.ravel()])


def nn_labels(X: np.ndarray, y: np.ndarray, L: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The 1-NN label of each of ``points`` under ``D(a, b) = ||L (a - b)||^2`` (the
    Euclidean nearest neighbour after mapping both sets by ``L``)."""
    _, idx = cKDTree(X @ L.T).query(points @ L.T)
    return np.asarray(y)[idx]


def misclassified_fraction(X: np.ndarray, y: np.ndarray, L: np.ndarray, side: float,
                           grid_size: int) -> float:
    """p of thesis 2.1.5 for the training set ``(X, y)`` and the map ``L``: the
    fraction of the grid's cell centres whose 1-NN label differs from the true label
    (1 above ``side / 2``)."""
    centres = grid_centres(side, grid_size)
    truth = (centres[:, 1] > side / 2.0).astype(int)
    return float(np.mean(nn_labels(X, y, L, centres) != truth))


def axis_scaling(L: np.ndarray) -> dict[str, Any]:
    """How ``L`` (2 x 2) scales the axes, in quantities that depend on ``M = L^T L``
    only (L itself is defined up to a rotation): the lengths of the images of the
    horizontal and the vertical unit vector (``sqrt(M_xx)``, ``sqrt(M_yy)``: the
    column norms of L, our reading of the thesis' factors 1.4 and 2.2), the angle
    between the two images (90 degrees: no skew), the singular values of L and the
    input directions they act on (right singular vectors, angle from the x axis in
    degrees, in [0, 180))."""
    L = np.asarray(L, dtype=float)
    M = L.T @ L
    sx, sy = float(np.sqrt(M[0, 0])), float(np.sqrt(M[1, 1]))
    cos = M[0, 1] / (sx * sy) if sx > 0 and sy > 0 else float("nan")
    _, sv, Vt = np.linalg.svd(L)
    angles = np.degrees(np.arctan2(Vt[:, 1], Vt[:, 0])) % 180.0
    return {"horizontal": sx, "vertical": sy,
            "angle_degrees": float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))),
            "singular_values": sv.tolist(), "singular_directions_degrees": angles.tolist()}


def run_seed(seed: int, n: int, run: int, draw: int) -> int:
    """The data seed of draw ``draw`` of run ``run`` of size ``n``: independent streams
    for every (seed, n, run, draw) (:class:`numpy.random.SeedSequence`)."""
    return int(np.random.SeedSequence([seed, n, run, draw]).generate_state(1)[0])


def draw_training_set(params: dict, n: int, run: int):
    """A training set of ``n`` points whose two classes each have more than ``k``
    members (LMNN needs ``k`` target neighbours of the same class): redrawn with the
    next seed until they do (the thesis does not say; see ``fig_2_3_4``). Returns the
    :class:`~harness.plugin.Dataset` and the number of draws it took."""
    plugin = registry.get_dataset(params["dataset"])()
    k = params["n_neighbors"]
    for draw in range(MAX_DRAWS):
        data = plugin.load(n_samples=n, side=params["side"],
                           seed=run_seed(params["seed"], n, run, draw))
        if min(np.sum(data.y == 0), np.sum(data.y == 1)) > k:
            return data, draw + 1
    raise ExpectedFailure(f"no training set of n = {n} in {MAX_DRAWS} draws had more than "
                          f"k = {k} points in each class; use more points or a smaller k")


def fit_lmnn(params: dict, X: np.ndarray, y: np.ndarray):
    """LMNN (``harness/methods/lmnn.py``) from the thesis' start ``M = I`` (``init = I``)."""
    cls = registry.get_method(METHOD)
    return cls(n_neighbors=params["n_neighbors"], solver=params["solver"],
               init=np.eye(X.shape[1]), max_iter=params["max_iter"]).fit(X, y)


def _one_run(params: dict, X: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    started = cpu_clock()
    model = fit_lmnn(params, X, y)
    fit = cpu_clock() - started
    L = model.components_
    side, g = params["side"], params["grid_size"]
    return {"p_euclidean": misclassified_fraction(X, y, np.eye(2), side, g),
            "p_lmnn": misclassified_fraction(X, y, L, side, g), "L": L.tolist(),
            "scaling": axis_scaling(L), "loss": float(model.loss_),
            "converged": bool(model.converged_), "fit_cpu_seconds": fit}


def work(params: dict) -> dict:
    """The child's work for ``scaling`` or ``n<N>``; returns the record body (a
    ``failed`` body naming the reason when no usable training set could be drawn)."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            return _work(params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc),
                    "error_type": type(exc).__name__}


def _work(params: dict) -> dict:
    if params["kind"] == "scaling":
        data, draws = draw_training_set(params, params["n_samples"], 0)
        run = _one_run(params, data.X, data.y)
        return {"status": "ok", "reason": "", "n_samples": data.n_samples, "draws": draws,
                **run, "X": data.X.tolist(), "y": data.y.tolist(),
                "dataset_meta": data.meta, "blas_during_run": blas_info()}
    runs, draws = [], []
    for r in range(params["runs"]):
        data, d = draw_training_set(params, params["n_samples"], r)
        runs.append(_one_run(params, data.X, data.y))
        draws.append(d)
    keep = ("p_euclidean", "p_lmnn", "loss", "converged", "fit_cpu_seconds")
    return {"status": "ok", "reason": "", "n_samples": params["n_samples"],
            "draws": draws, **{key: [run[key] for run in runs] for key in keep},
            "scaling": [run["scaling"] for run in runs], "blas_during_run": blas_info()}


def sources(params: dict) -> list:
    """The data set and the LMNN plugin."""
    return [registry.get_dataset(params["dataset"]), registry.get_method(METHOD)]
