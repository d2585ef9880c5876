"""One job of Fig. 2.10 (thesis 2.1.8, "Multiple Metrics"): two concentric circles, one
class each, split into ``c`` clusters by k-means, one LMNN metric per cluster
(:class:`harness.methods.mm_lmnn.MMLMNN` with ``groups=c``), and the 1-NN leave-one-out
training error under the cluster-dependent distance (2.17),
``D(x_i, x_j) = (x_i - x_j)^T M^{c(j)} (x_i - x_j)``.

The data (:func:`concentric_circles`) are our design, the thesis gives no sizes: ``n``
points on each circle at evenly spaced angles (a seeded random phase), the outer
circle's points turned by ``angular_offset`` of the angular spacing (0: each outer
point radially above an inner one), plus isotropic Gaussian noise. With the circles
closer than the spacing along them, every point's Euclidean nearest neighbour lies on
the other circle: the 1-NN leave-one-out error is 100 % (checked in every record,
``euclidean_loo_error``).

The record keeps the data, the clusters, the maps ``L_g`` (``M^g = L_g^T L_g``),
the LOO error from the plugin (the thesis' tie rule with k = 1) and the same error
recomputed here from the dense matrix of (2.17) distances (``loo_error_dense``: an
independent check of the plugin's neighbour search), the loss and the solver state.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from harness.metrics.knn_error import knn_loo_error
from harness.provenance import blas_info
from harness.methods.mm_lmnn import MMLMNN

__all__ = ["concentric_circles", "cluster_distances", "dense_loo_error", "work"]


def concentric_circles(n_per_circle: int, inner_radius: float, outer_radius: float,
                       angular_offset: float, noise: float, seed: int):
    """Two concentric circles, ``(X (2n, 2), y)``: class 0 the inner circle, class 1
    the outer; angles ``phase + 2 pi m / n`` (inner) and the same turned by
    ``angular_offset * 2 pi / n`` (outer), ``phase`` uniform from ``seed``; then
    Gaussian noise of standard deviation ``noise`` on every coordinate."""
    rng = np.random.default_rng(seed)
    step = 2.0 * np.pi / n_per_circle
    inner = rng.uniform(0.0, 2.0 * np.pi) + step * np.arange(n_per_circle)
    outer = inner + angular_offset * step
    X = np.vstack([inner_radius * np.c_[np.cos(inner), np.sin(inner)],
                   outer_radius * np.c_[np.cos(outer), np.sin(outer)]])
    X = X + noise * rng.normal(size=X.shape)
    y = np.repeat([0, 1], n_per_circle)
    return X, y


def cluster_distances(X, groups, Ls) -> np.ndarray:
    """Dense ``D[i, j] = ||L_{g_j}(x_i - x_j)||^2`` (eq. 2.17, the metric of the
    reference point ``x_j``'s cluster), shape (n, n)."""
    diff = X[:, None, :] - X[None, :, :]  # (n, n, d): x_i - x_j
    mapped = np.einsum("jrd,ijd->ijr", Ls[groups], diff)
    return np.einsum("ijr,ijr->ij", mapped, mapped)


def dense_loo_error(X, y, groups, Ls) -> float:
    """1-NN leave-one-out error under (2.17) from the dense distances (first index on
    an exact tie)."""
    D = cluster_distances(X, np.asarray(groups), np.asarray(Ls))
    np.fill_diagonal(D, np.inf)
    return float(np.mean(y[D.argmin(axis=1)] != y))


def work(params: dict) -> dict:
    """The child's work for one (seed, number of metrics); returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        X, y = concentric_circles(params["n_per_circle"], params["inner_radius"],
                                  params["outer_radius"], params["angular_offset"],
                                  params["noise"], params["seed"])
        estimator = MMLMNN(n_neighbors=params["n_neighbors"], mu=params["mu"],
                           max_iter=params["max_iter"], groups=params["n_metrics"],
                           random_state=params["seed"])
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # recorded below
            estimator.fit(X, y)
        fit_seconds = time.perf_counter() - started
        loo = float(np.mean(estimator.predict_loo(n_neighbors=1) != y))
        return {
            "status": "ok", "n_samples": int(len(X)), "n_metrics": params["n_metrics"],
            "X": X.tolist(), "y": y.tolist(), "groups": estimator.groups_.tolist(),
            "centers": estimator.group_centers_.tolist(),
            "components": estimator.components_.tolist(),
            "loo_error": loo,
            "loo_error_dense": dense_loo_error(X, y, estimator.groups_,
                                               estimator.components_),
            "euclidean_loo_error": float(knn_loo_error(X, y, 1)),
            "loss": estimator.loss_, "single_loss": float(estimator.single_metric_.loss_),
            "n_active": estimator.n_active_, "n_iter": estimator.n_iter_,
            "converged": estimator.converged_
            and bool(estimator.single_metric_.converged_),
            "fit_seconds": fit_seconds, "blas_during_run": blas_info(),
        }
