"""Columns of Figs. 3.32-3.35's frame that the register's readings read (issue 51),
computed in the write step from what each job already had: its record's embedding and
colouring, and its input points, loaded again exactly as the job loaded them
(:func:`harness.results.common.work.mvu_point.load_dataset` on the record's parameters, the
shape checked against the record). No existing number changes; a column is NaN where
its row was not measured or the quantity does not apply.

==========================  ============================================================
``param_rho``               Swiss roll rows: max over the first two embedding
                            coordinates of |Spearman rho| with the roll's parameter
``radius_cv``               teapot rows: the 2-D embedding's radii about its centroid: std / mean
``angle_corr``              |circular correlation| (Fisher-Lee) of the 2-D
                            embedding's angle about its centroid with the rotation angle
                            (the sign is the eigenvectors' arbitrary orientation)
``angle_gap_deg``           the largest angular gap, in degrees, between consecutive
                            points of the 2-D embedding around its centroid
``continuity_2d``,          local continuity, trust and neighbourhood intersection
``trust_2d``,               (eqs. 3.27-3.29, l = :data:`QUALITY_NEIGHBORS` as Table 3.2)
``intersection_2d``         of the 2-D embedding against the inputs
``near_zero_fraction``      Gaussian rows: of the pairs whose closed k-neighbourhoods
                            (the point and its k nearest, k = ``sigma_neighbors``) share
                            no point, the fraction with K_ij < :data:`NEAR_ZERO`
``sigma_balls``             Gaussian rows: balls of radius sigma a greedy pass (in the
                            data set's order) needs to cover the inputs
``far_kernel_max``          Gaussian rows: the largest K_ij / sqrt(K_ii K_jj) over pairs
                            more than 3 sigma apart
``axis_aligned_fraction``   Gaussian rows: fraction of points one of whose first three
                            coordinates holds at least 90 % of their squared norm
==========================  ============================================================

The input-side columns are computed on the data sets of the thesis' Swiss roll, teapot
and digits columns only (the readings that use them are about those).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from harness.kernels import gaussian_kernel, squared_distances
from harness.metrics.embedding_quality import (
    input_neighbors, local_continuity, local_trust, neighborhood_intersection,
)
from harness.plugin import ExpectedFailure
from harness.results.common.write.figure_files import read_point
from harness.results.fig_3_32_35 import NAME, _conf

__all__ = ["COLUMNS", "QUALITY_NEIGHBORS", "NEAR_ZERO", "AXIS_SHARE", "INPUT_COLUMNS",
           "param_rho", "circular_correlation", "circle_measures", "near_zero_fraction", "sigma_balls",
           "far_kernel_max", "axis_aligned_fraction", "add_measures"]

#: l of the quality measures (Table 3.2's header)
QUALITY_NEIGHBORS = 15
#: "a nearly zero inner product" (register s3-2-2-gaussian-near-zero-inner-product)
NEAR_ZERO = 0.01
#: a point lies on one axis of Fig. 3.34 when one coordinate holds this share of its norm^2
AXIS_SHARE = 0.9
#: the thesis columns whose inputs are loaded again for the input-side columns (the
#: digits for s4-mvu-works-synthetic-and-real's quality measures)
INPUT_COLUMNS = ("swiss_roll", "teapot", "usps")
COLUMNS = ("param_rho", "radius_cv", "angle_corr", "angle_gap_deg", "continuity_2d",
           "trust_2d", "intersection_2d", "near_zero_fraction", "sigma_balls",
           "far_kernel_max", "axis_aligned_fraction")


def param_rho(Y: np.ndarray, colour: np.ndarray) -> float:
    """max over Y's first two columns of |Spearman rho| with ``colour``."""
    return max(abs(float(spearmanr(Y[:, j], colour)[0])) for j in range(2))


def circular_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Fisher and Lee's (1983) circular-circular correlation of the angles ``a`` and
    ``b``: sum_ij sin(a_i - a_j) sin(b_i - b_j) / sqrt(sum_ij sin^2(a_i - a_j) sum_ij
    sin^2(b_i - b_j)); +1 for b = a + c, -1 for b = c - a, and defined for angles spread
    over the whole circle (where a circular mean, and Jammalamadaka and SenGupta's
    coefficient built on it, is not)."""
    sa, sb = np.sin(a[:, None] - a[None, :]), np.sin(b[:, None] - b[None, :])
    return float((sa * sb).sum() / math.sqrt((sa**2).sum() * (sb**2).sum()))


def circle_measures(Y: np.ndarray, angle: np.ndarray) -> dict[str, float]:
    """``radius_cv``, ``angle_corr`` and ``angle_gap_deg`` of the 2-D points ``Y[:, :2]``
    about their centroid against the rotation ``angle`` (radians)."""
    Z = Y[:, :2] - Y[:, :2].mean(axis=0)
    radius = np.hypot(Z[:, 0], Z[:, 1])
    theta = np.arctan2(Z[:, 1], Z[:, 0])

    corr = circular_correlation(theta, np.asarray(angle, float))
    ordered = np.sort(theta)
    gaps = np.diff(np.concatenate([ordered, [ordered[0] + 2 * np.pi]]))
    return {"radius_cv": float(radius.std() / radius.mean()), "angle_corr": abs(corr),
            "angle_gap_deg": float(np.degrees(gaps.max()))}


def near_zero_fraction(X: np.ndarray, K: np.ndarray, k: int) -> float:
    """Of the pairs i < j whose closed k-neighbourhoods share no point, the fraction
    with ``K_ij < NEAR_ZERO`` (NaN without such a pair)."""
    D2 = squared_distances(X)
    n = len(X)
    A = np.zeros((n, n))
    A[np.repeat(np.arange(n), k + 1), np.argsort(D2, axis=1)[:, :k + 1].ravel()] = 1.0
    A[np.arange(n), np.arange(n)] = 1.0
    apart = np.triu((A @ A.T) == 0, 1)
    return float((K[apart] < NEAR_ZERO).mean()) if apart.any() else math.nan


def sigma_balls(X: np.ndarray, sigma: float) -> int:
    """Balls of radius ``sigma`` a greedy pass needs to cover ``X``: the first point
    not yet covered (in the data set's order) is the next centre."""
    D2 = squared_distances(X)
    covered = np.zeros(len(X), bool)
    count = 0
    while not covered.all():
        centre = int(np.flatnonzero(~covered)[0])
        covered |= D2[centre] <= sigma**2
        count += 1
    return count


def far_kernel_max(X: np.ndarray, K: np.ndarray, sigma: float) -> float:
    """The largest cosine K_ij / sqrt(K_ii K_jj) over pairs more than 3 sigma apart."""
    far = squared_distances(X) > (3.0 * sigma) ** 2
    d = np.sqrt(np.diag(K))
    cosine = K / np.outer(d, d)
    return float(cosine[far].max()) if far.any() else math.nan


def axis_aligned_fraction(Y: np.ndarray) -> float:
    """Fraction of the points one of whose first three coordinates holds at least
    :data:`AXIS_SHARE` of their squared norm (in those three)."""
    Z = Y[:, :3] ** 2
    norm = Z.sum(axis=1)
    return float((Z.max(axis=1) >= AXIS_SHARE * norm).mean())


def _inputs(record: dict):
    """The job's inputs, loaded again as the job loaded them; None when they cannot be
    loaded here or their shape is not the record's."""
    from harness.results.common.work.mvu_point import load_dataset

    try:
        X = np.asarray(load_dataset(record["params"]).X, dtype=float)
    except ExpectedFailure:
        return None
    return X if X.shape == (record.get("n_samples"), record.get("n_features")) else None


def _row_measures(config: dict, row, inputs: dict) -> dict[str, float]:
    record = read_point(config, NAME, f"{row.dataset}/{row.kernel}")
    Y = np.asarray(record["embedding"], float)
    out: dict[str, float] = {}
    colour = record.get("colour")
    if colour is not None and row.thesis_dataset == "swiss_roll":
        out["param_rho"] = param_rho(Y, np.asarray(colour, float))
    if colour is not None and row.thesis_dataset == "teapot":
        out.update(circle_measures(Y, np.asarray(colour, float)))
    if row.kernel == "gaussian":
        out["axis_aligned_fraction"] = axis_aligned_fraction(Y)
    if row.thesis_dataset not in INPUT_COLUMNS:
        return out
    if row.dataset not in inputs:
        inputs[row.dataset] = _inputs(record)
    X = inputs[row.dataset]
    if X is None:
        return out
    neighbours = input_neighbors(X, QUALITY_NEIGHBORS)
    out.update(continuity_2d=local_continuity(X, Y[:, :2], QUALITY_NEIGHBORS, neighbours),
               trust_2d=local_trust(X, Y[:, :2], QUALITY_NEIGHBORS),
               intersection_2d=neighborhood_intersection(X, Y[:, :2], QUALITY_NEIGHBORS,
                                                         neighbours))
    if row.kernel == "gaussian":
        sigma = float(record["sigma"])
        K = gaussian_kernel(X, sigma=sigma)
        out.update(near_zero_fraction=near_zero_fraction(
                       X, K, _conf(config)["sigma_neighbors"]),
                   sigma_balls=sigma_balls(X, sigma), far_kernel_max=far_kernel_max(X, K, sigma))
    return out


def add_measures(config: dict, frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the :data:`COLUMNS` (see the module docstring) added."""
    frame = frame.copy()
    for column in COLUMNS:
        frame[column] = math.nan
    inputs: dict = {}
    for index, row in frame.iterrows():
        if row["status"] != "ok":
            continue
        for column, value in _row_measures(config, row, inputs).items():
            frame.at[index, column] = value
    return frame
