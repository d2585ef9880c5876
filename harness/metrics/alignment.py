"""Alignment of an embedding with a known true configuration (not a thesis metric).

Used where a data set carries the true low-dimensional state of its inputs, e.g. the
window positions of :class:`harness.datasets.moving_window.MovingWindow` (action respecting
embedding, statwiki STAT 841 F14, lecture 7): the embedding is compared with the truth
by Procrustes analysis after scaling, :func:`scipy.spatial.procrustes`.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import procrustes

__all__ = ["alignment_error", "align", "procrustes_residual"]


def alignment_error(truth, embedding) -> float:
    """Procrustes disparity between a true configuration and an embedding.

    Both are centred and scaled to unit Frobenius norm, the embedding is rotated
    (or reflected) onto the truth as well as possible, and the sum of squared
    differences that is left is returned: 0 for an embedding equal to the truth up to
    translation, rotation, reflection and scale, at most 1.

    Parameters
    ----------
    truth : array-like of shape (n_samples, d)
        The true positions (e.g. the moving window's top-left pixels).
    embedding : array-like of shape (n_samples, d)
        An embedding of the same points in the same order, of the same dimension.

    Returns
    -------
    float
        The disparity, in [0, 1].

    Raises
    ------
    ValueError
        When the shapes differ, or when either configuration is a single point
        repeated (nothing to align).
    """
    truth = np.asarray(truth, dtype=np.float64)
    embedding = np.asarray(embedding, dtype=np.float64)
    if truth.ndim != 2 or truth.shape != embedding.shape:
        raise ValueError(f"truth and embedding must be 2-d of the same shape, got "
                         f"{truth.shape} and {embedding.shape}")
    return float(procrustes(truth, embedding)[2])


def align(Y: np.ndarray, X: np.ndarray, scale: bool) -> tuple[np.ndarray, float]:
    """``Y`` moved onto ``X`` by the best rotation/reflection and translation
    (orthogonal Procrustes) and, if ``scale``, the best scale; returns the moved
    points and the scale factor (1 without scaling)."""
    Yc, Xc = Y - Y.mean(axis=0), X - X.mean(axis=0)
    U, s, Vt = np.linalg.svd(Yc.T @ Xc)
    factor = float(s.sum() / np.vdot(Yc, Yc)) if scale else 1.0
    return factor * Yc @ (U @ Vt) + X.mean(axis=0), factor


def procrustes_residual(Y: np.ndarray, X: np.ndarray, scale: bool = True
                        ) -> tuple[float, float]:
    """``(residual, s)``: ``||align(Y, X) - X||_F^2`` (:func:`align`, with or without
    the scale ``s``) relative to ``||X - mean(X)||_F^2``.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    >>> residual, s = procrustes_residual(3.0 * X[:, ::-1] + 1.0, X)
    >>> round(residual, 12), round(s, 12)
    (0.0, 0.333333333333)
    """
    moved, factor = align(np.asarray(Y, float), np.asarray(X, float), scale)
    Xc = X - X.mean(axis=0)
    return float(np.sum((moved - X) ** 2) / np.sum(Xc * Xc)), factor
