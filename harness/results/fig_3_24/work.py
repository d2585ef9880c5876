"""The job of Fig. 3.24 (thesis 3.1.11): one MVU point
(:func:`harness.results.common.work.mvu_point.mvu_point_work`) that also keeps what Figs.
3.25-3.27 show and their sentences need (``harness/results/fig_3_25_27``).

The point is fitted with :data:`KEPT_DIMENSIONS` output dimensions (at least the
figure's r): MVU's embedding is the kernel's eigenvectors scaled by the square roots of
their eigenvalues (3.21), so its first r columns are those of a fit with r dimensions,
value for value (``harness.methods.mvu.MVU.fit_transform``); the solve does not depend on the
number of output dimensions. The record's ``measures`` are those of the leading r
columns, as before (``embedding_quality`` on the same r columns). Added to the record:

- ``spectrum``: every eigenvalue of the learned kernel, normalised by the trace
  (the record's ``normalised_eigenvalues`` keep the top 20),
- ``embedding_2d``: the leading two coordinates of every point (the figures' scatter
  plots, the 1-D projection and the mean pairwise distance of the 2-D embedding),
- ``measures_2d``, ``measures_1d`` and ``measures_kept``: eqs. (3.27)-(3.29) of the
  leading two, one and all kept dimensions at the figure's l,
- ``procrustes_to_input``: the relative residual ``min_Q ||Y Q - X_c||_F / ||X_c||_F``
  over orthogonal Q (rotation and reflection, no scaling) between the embedding's
  kept dimensions and the centred input.
"""

from __future__ import annotations

import numpy as np

from harness.metrics import embedding_quality
from harness.results.common.work.mvu_point import mvu_point_work, mvu_sources

__all__ = ["KEPT_DIMENSIONS", "work", "sources", "procrustes_residual", "point_extras"]

#: output dimensions fitted (the figure's r if larger): covers the kernels' ranks where
#: the Procrustes residual is read (the noise-free Swiss roll, rank 3)
KEPT_DIMENSIONS = 20

sources = mvu_sources


def procrustes_residual(Y, X) -> float:
    """``min_Q ||Y Q - X_c||_F / ||X_c||_F`` over orthogonal Q (zero-padded to a common
    width; rotation and reflection, no scaling), ``X_c`` the centred ``X``, ``Y``
    centred too: ``||Y||^2 + ||X_c||^2 - 2 ||Y^T X_c||_*`` (the nuclear norm)."""
    Y = np.asarray(Y, float) - np.mean(Y, axis=0)
    Xc = np.asarray(X, float) - np.mean(X, axis=0)
    nuclear = np.linalg.svd(Y.T @ Xc, compute_uv=False).sum()
    xx = float(np.sum(Xc * Xc))
    return float(np.sqrt(max(0.0, float(np.sum(Y * Y)) + xx - 2 * nuclear) / xx))


def point_extras(r: int, l: int):
    """``extra(dataset, result)`` of :func:`mvu_point_work`: the fields listed in the
    module's docstring, and ``measures`` of the leading ``r`` columns."""

    def extra(dataset, result) -> dict:
        Y, X = result["embedding"], dataset.X
        eigenvalues = np.sort(np.clip(result["info"]["eigenvalues"], 0.0, None))[::-1]
        total = eigenvalues.sum()
        return {
            "measures": embedding_quality(X, np.ascontiguousarray(Y[:, :r]), n_neighbors=l),
            "spectrum": (eigenvalues / total if total > 0 else eigenvalues).tolist(),
            "embedding_2d": np.ascontiguousarray(Y[:, :2]).tolist(),
            "measures_2d": embedding_quality(X, np.ascontiguousarray(Y[:, :2]), n_neighbors=l),
            "measures_1d": embedding_quality(X, np.ascontiguousarray(Y[:, :1]), n_neighbors=l),
            "procrustes_to_input": procrustes_residual(Y, X),
            "kept_dimensions": int(Y.shape[1]),
            "measures_kept": dict(result["measures"]),  # all kept dimensions
        }

    return extra


def work(params: dict) -> dict:
    """The point's work in the child process: :func:`mvu_point_work` fitted with
    ``max(r, KEPT_DIMENSIONS)`` output dimensions (below n), plus :func:`point_extras`."""
    r = params["method_params"]["n_components"]
    wide = {**params, "method_params": {**params["method_params"],
                                        "n_components": max(r, KEPT_DIMENSIONS)}}
    if params.get("subsample"):
        wide["method_params"]["n_components"] = min(wide["method_params"]["n_components"],
                                                    params["subsample"] - 1)
    return mvu_point_work(wide, extra=point_extras(r, params["eval_neighbors"]))
