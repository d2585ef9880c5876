"""The Procrustes alignment error against a closed form of its own and its invariances."""

from __future__ import annotations

import numpy as np
import pytest

from harness.metrics.alignment import alignment_error


def _closed_form(A, B) -> float:
    """1 - (nuclear norm of A0^T B0)^2 for centred, unit-Frobenius A0, B0: the
    disparity left by the best orthogonal map."""
    A0, B0 = A - A.mean(0), B - B.mean(0)
    A0, B0 = A0 / np.linalg.norm(A0), B0 / np.linalg.norm(B0)
    return 1.0 - np.linalg.svd(A0.T @ B0, compute_uv=False).sum() ** 2


def test_matches_the_closed_form():
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(30, 2)), rng.normal(size=(30, 2))
    assert alignment_error(A, B) == pytest.approx(_closed_form(A, B), abs=1e-12)
    assert 0.0 < alignment_error(A, B) <= 1.0


def test_similarity_transforms_align_perfectly():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(25, 2))
    c, s = np.cos(0.7), np.sin(0.7)
    reflected = A @ np.array([[c, -s], [s, c]]) @ np.diag([1.0, -1.0])
    assert alignment_error(A, 3.5 * reflected + [4.0, -2.0]) == pytest.approx(0.0, abs=1e-12)


def test_shape_mismatch_is_an_error():
    with pytest.raises(ValueError, match="same shape"):
        alignment_error(np.zeros((5, 2)), np.zeros((5, 3)))
