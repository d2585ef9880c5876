import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll


def test_formula_and_determinism():
    data = SwissRoll().load(n_samples=500, seed=3)
    X, t = data.X, data.y
    assert X.shape == (500, 3) and data.meta["source"] == "generated"
    assert t.min() >= 1.5 * np.pi and t.max() <= 4.5 * np.pi
    np.testing.assert_allclose(X[:, 0], t * np.cos(t))
    np.testing.assert_allclose(X[:, 2], t * np.sin(t))
    assert 0 <= X[:, 1].min() and X[:, 1].max() <= 21
    np.testing.assert_array_equal(X, SwissRoll().load(n_samples=500, seed=3).X)
    assert not np.array_equal(X, SwissRoll().load(n_samples=500, seed=4).X)


def test_extra_noise_dimensions():
    X = SwissRoll().load(n_samples=4000, extra_noise_dims=5, extra_noise_std=0.1).X
    assert X.shape == (4000, 8)
    assert np.std(X[:, 3:], axis=0) == pytest.approx(0.1, rel=0.1)


def test_bad_size():
    with pytest.raises(ValueError, match="n_samples"):
        SwissRoll().load(n_samples=0)


def test_roweis_is_scikit_learns_roll():
    """The default generator is make_swiss_roll, bit for bit, with and without noise."""
    from sklearn.datasets import make_swiss_roll

    for noise in (0.0, 0.05):
        state = int(np.random.default_rng(7).integers(2**31 - 1))
        X, t = make_swiss_roll(300, noise=noise, random_state=state)
        for kwargs in ({}, {"generator": "roweis"}):
            data = SwissRoll().load(n_samples=300, noise=noise, seed=7, **kwargs)
            np.testing.assert_array_equal(data.X, X)
            np.testing.assert_array_equal(data.y, t)


def test_drtoolbox_height_30():
    data = SwissRoll().load(n_samples=3000, seed=1, generator="drtoolbox")
    X, t = data.X, data.y
    assert X.shape == (3000, 3)
    assert 0 <= X[:, 1].min() < 0.5 and 29.5 < X[:, 1].max() <= 30
    assert t.min() >= 1.5 * np.pi and t.max() <= 4.5 * np.pi
    np.testing.assert_allclose(X[:, 0], t * np.cos(t))
    np.testing.assert_allclose(X[:, 2], t * np.sin(t))
    # the same draws as the default roll: only the height differs, by 30 / 21
    roweis = SwissRoll().load(n_samples=3000, seed=1).X
    np.testing.assert_allclose(X[:, [0, 2]], roweis[:, [0, 2]])
    np.testing.assert_allclose(X[:, 1], roweis[:, 1] * 30 / 21)
    noisy = SwissRoll().load(n_samples=3000, seed=1, generator="drtoolbox", noise=0.05).X
    assert np.std(noisy - X) == pytest.approx(0.05, rel=0.1)


def test_arc_length_uniform():
    """Arc length along the spiral is uniform for arc_length (KS test), not for roweis."""
    from scipy import stats

    from harness.datasets.swiss_roll import spiral_arc_length, spiral_parameter

    s_grid = np.linspace(spiral_arc_length(1.5 * np.pi), spiral_arc_length(4.5 * np.pi), 50)
    np.testing.assert_allclose(spiral_arc_length(spiral_parameter(s_grid)), s_grid,
                               rtol=1e-12)
    s0, s1 = spiral_arc_length(1.5 * np.pi), spiral_arc_length(4.5 * np.pi)

    def ks(generator):
        data = SwissRoll().load(n_samples=4000, seed=2, generator=generator)
        s = spiral_arc_length(data.y)
        return s, stats.kstest((s - s0) / (s1 - s0), "uniform").pvalue

    s, p = ks("arc_length")
    assert p > 1e-3
    assert s.min() >= s0 - 1e-9 and s.max() <= s1 + 1e-9
    # spacings of consecutive sorted arc lengths: exponential-like, mean (s1 - s0) / n
    gaps = np.diff(np.sort(s))
    assert gaps.mean() == pytest.approx((s1 - s0) / 4000, rel=0.05)
    assert ks("roweis")[1] < 1e-6
    X = SwissRoll().load(n_samples=4000, seed=2, generator="arc_length").X
    assert 0 <= X[:, 1].min() and X[:, 1].max() <= 21


def test_unknown_generator():
    with pytest.raises(ValueError, match="roweis, drtoolbox, arc_length"):
        SwissRoll().load(n_samples=10, generator="isomap")
