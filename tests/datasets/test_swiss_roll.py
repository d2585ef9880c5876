import numpy as np
import pytest

from datasets.swiss_roll import SwissRoll


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
