"""The interior-point method's numba passes give NumPy's results bit for bit (the
same operations in the same order), on random and on awkward shapes (n = 1, a size
that is no multiple of the tile, float32 rounding of the copy)."""

from __future__ import annotations

import numpy as np
import pytest

from harness.solvers.mvu_sdp.dense_kernels import float32_plus, reflected, symmetrized


def _numpy_reflected(v, c, P, symmetric):
    r = P @ v
    t = r if symmetric else v @ P
    out = P - c * np.outer(v, t)
    out -= c * np.outer(r, v)
    out += (c * c * float(v @ r)) * np.outer(v, v)
    return out


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 200])
def test_the_kernels_are_numpy_bit_for_bit(n):
    rng = np.random.default_rng(n)
    G = rng.standard_normal((n, n)) * 10.0 ** rng.integers(-8, 8, (n, n))
    S = G + G.T
    v = rng.standard_normal(n)
    c = 2.0 / float(v @ v)
    assert np.array_equal(symmetrized(G), 0.5 * (G + G.T))
    for P, symmetric in ((S, True), (G, False)):
        r = P @ v
        got = reflected(v, c, P, r, r if symmetric else v @ P)
        assert np.array_equal(got, _numpy_reflected(v, c, P, symmetric))
    add = 1e-6 * float(np.abs(G).max()) / n
    expected = G.astype(np.float32)
    expected += np.float32(add)
    got = float32_plus(G, add)
    assert got.dtype == np.float32 and np.array_equal(got, expected)


def test_the_reflection_is_the_householder_congruence():
    # H P H with H = I - c v v^T, formed densely
    rng = np.random.default_rng(1)
    n = 30
    P = rng.standard_normal((n, n))
    P += P.T
    v = rng.standard_normal(n)
    c = 2.0 / float(v @ v)
    H = np.eye(n) - c * np.outer(v, v)
    r = P @ v
    np.testing.assert_allclose(reflected(v, c, P, r, r), H @ P @ H, atol=1e-12)
