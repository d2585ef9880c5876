"""One job of Fig. 2.20 (thesis 2.2.1): N points from two Gaussians with identical
covariance and shifted means, projected with PCA (2.21-2.22), RCA (2.23-2.24) and
LDA (2.25-2.27); the first direction of each against the Bayes-optimal direction
``Sigma^{-1} (mu_1 - mu_0)``.

Every measurement is recomputed here from the maps: each first direction's angle to
the Bayes direction, the leave-one-out k-NN error of the points projected onto it
(thesis' tie rule, :func:`harness.metrics.knn_error.knn_loo_predict`), its projected
variance and Fisher ratio (2.26) beside their maxima over a grid of directions, and the
within-class covariance (2.23, the classes as chunklets) before and after RCA.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
from scipy.stats import norm
from threadpoolctl import threadpool_limits

from harness.metrics.knn_error import knn_loo_predict
from harness.provenance import blas_info
from harness.methods.pca_knn import pca_map
from harness.methods.rca_knn import make_chunklets, rca_map, within_chunklet_covariance

__all__ = ["METHODS", "GRID", "two_gaussians", "between_covariance", "lda_directions",
           "rca_first_axis", "angle_degrees", "measure_direction", "work"]

METHODS = ("pca", "rca", "lda")
GRID = 3600  # directions in [0, pi) against which the maxima of 2.22 and 2.26 are checked


def two_gaussians(params: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, Sigma, delta)``: ``n_samples`` points, the first half of class 0 with
    mean ``-delta / 2``, the second of class 1 with mean ``+delta / 2``, both with
    covariance ``Sigma = R diag(axis_std^2) R^T`` (``R`` a rotation by
    ``rotation_degrees``), seeded by ``[seed, trial]``."""
    n = params["n_samples"]
    theta = math.radians(params["rotation_degrees"])
    R = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    Sigma = R @ np.diag(np.square(params["axis_std"])) @ R.T
    delta = np.asarray(params["mean_shift"], dtype=float)
    rng = np.random.default_rng([params["seed"], params["trial"]])
    y = np.repeat([0, 1], [n // 2, n - n // 2])
    X = rng.standard_normal((n, 2)) @ np.linalg.cholesky(Sigma).T + (y[:, None] - 0.5) * delta
    return X, y, Sigma, delta


def between_covariance(X, y) -> np.ndarray:
    """Eq. (2.25), ``C_b = 1/L sum_l mu_l mu_l^T``, with the class means centred on
    their average (uncentred means would add the data's position)."""
    means = np.array([X[y == c].mean(axis=0) for c in np.unique(y)])
    means = means - means.mean(axis=0)
    return means.T @ means / len(means)


def lda_directions(X, y) -> np.ndarray:
    """LDA's map (rows, leading first): the generalized eigenvectors of ``C_b p =
    lambda C_w p`` (2.26-2.27), ``C_w`` of (2.23) with the classes as chunklets,
    scaled so that ``W C_w W^T = I``."""
    values, vectors = scipy.linalg.eigh(between_covariance(X, y), within_chunklet_covariance(X, y))
    return vectors[:, ::-1].T


def rca_first_axis(X, A, rule: str) -> np.ndarray:
    """RCA's map is a whitening, its rows have no order; the unit axis ``u`` of RCA's
    output that counts as its first (the projection ``u^T A x``, input direction
    ``A^T u``): ``max_variance`` the leading eigenvector of the covariance of the
    RCA'd data, ``most_amplified`` the axis RCA stretches most (the leading left
    singular vector of ``A``)."""
    if rule == "max_variance":
        return np.linalg.eigh(np.atleast_2d(np.cov(X @ A.T, rowvar=False, bias=True)))[1][:, -1]
    if rule == "most_amplified":
        return np.linalg.svd(A)[0][:, 0]
    raise ValueError(f"rca_first_direction={rule!r} must be max_variance or most_amplified")


def angle_degrees(p, q) -> float:
    """The angle between the lines spanned by ``p`` and ``q``, in [0, 90] degrees."""
    c = abs(float(p @ q)) / (np.linalg.norm(p) * np.linalg.norm(q))
    return math.degrees(math.acos(min(1.0, c)))


def _ratio(p, C_top, C_bottom) -> np.ndarray:
    return np.einsum("ij,jk,ik->i", p, C_top, p) / np.einsum("ij,jk,ik->i", p, C_bottom, p)


def measure_direction(p, X, y, C, C_b, C_w, bayes, n_neighbors: int) -> dict:
    """What the figure reads off a first direction ``p``: its angle to ``bayes``, the
    LOO k-NN error (%) of ``X p``, the projected variance (2.22) and Fisher ratio
    (2.26) and their maxima over :data:`GRID` unit directions."""
    p = p / np.linalg.norm(p)
    grid = np.linspace(0.0, math.pi, GRID, endpoint=False)
    units = np.column_stack([np.cos(grid), np.sin(grid)])
    z = (X @ p)[:, None]
    return {"direction": p.tolist(), "angle_to_bayes_degrees": angle_degrees(p, bayes),
            "loo_error": 100.0 * float(np.mean(knn_loo_predict(z, y, n_neighbors) != y)),
            "projected_variance": float(p @ C @ p),
            "max_grid_variance": float(_ratio(units, C, np.eye(2)).max()),
            "fisher_ratio": float(_ratio(p[None], C_b, C_w)[0]),
            "max_grid_fisher_ratio": float(_ratio(units, C_b, C_w).max())}


def _maps(X, y, params) -> tuple[dict, np.ndarray]:
    """Each method's 2-D map (rows, first direction first) and the chunklet ids."""
    components, _ = pca_map(X, None)
    chunks = make_chunklets(y, params["rca_chunklet_fraction"], params["rca_chunklet_size"],
                            [params["seed"], params["trial"]])
    A, _, _ = rca_map(X, chunks, params["rca_n_components"])
    u = rca_first_axis(X, A, params["rca_first_direction"])
    # rotate RCA's output so that u is its first axis (distances unchanged)
    Q = np.array([u, [-u[1], u[0]]]) if len(u) == 2 else u[None]
    return {"pca": components, "rca": Q @ A, "lda": lda_directions(X, y)}, chunks


def work(params: dict) -> dict:
    """The child's work for one trial; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        X, y, Sigma, delta = two_gaussians(params)
        bayes = np.linalg.solve(Sigma, delta)
        C = np.cov(X, rowvar=False, bias=True)  # (2.21)
        C_b, C_w = between_covariance(X, y), within_chunklet_covariance(X, y)
        try:
            maps, chunks = _maps(X, y, params)
        except ValueError as exc:  # a singular within-chunklet covariance
            return {"status": "failed", "reason": str(exc), "error_type": "ValueError"}
        measures = {m: measure_direction(maps[m][0], X, y, C, C_b, C_w, bayes,
                                         params["n_neighbors"]) for m in METHODS}
        measures["bayes"] = measure_direction(bayes, X, y, C, C_b, C_w, bayes,
                                              params["n_neighbors"])
        after = within_chunklet_covariance(X @ maps["rca"].T, y)
        in_chunks = within_chunklet_covariance(X @ maps["rca"].T, chunks)
        return {
            "status": "ok", "reason": "", "n_samples": len(X),
            "bayes_direction": (bayes / np.linalg.norm(bayes)).tolist(),
            "bayes_error": 100.0 * float(norm.cdf(-0.5 * math.sqrt(delta @ bayes))),
            "directions": measures,
            "measures": {f"{m}_{short}": measures[m][key] for m in METHODS
                         for short, key in (("angle", "angle_to_bayes_degrees"),
                                            ("loo_error", "loo_error"))},
            "maps": {m: maps[m].tolist() for m in METHODS},
            "within_eigenvalues_input": np.linalg.eigvalsh(C_w).tolist(),
            "within_eigenvalues_rca": np.linalg.eigvalsh(after).tolist(),
            "chunklet_eigenvalues_rca": np.linalg.eigvalsh(in_chunks).tolist(),
            "n_chunklets": int(chunks.max() + 1), "n_in_chunklets": int((chunks >= 0).sum()),
            "points": np.round(X, 6).tolist(), "labels": y.tolist(),
            "chunklets": chunks.tolist(), "blas_during_run": blas_info(),
        }
