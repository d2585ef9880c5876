"""The half-square of thesis 2.1.5 (harness/datasets/half_square.py): uniform points in
[0, side]^2, label 1 in the upper half, seeded; bad sizes are refused."""

import numpy as np
import pytest

from harness.datasets.half_square import HalfSquare, half_square_labels
from harness import registry


def test_points_labels_and_seed():
    ds = HalfSquare().load(n_samples=2000, seed=4)
    assert ds.X.shape == (2000, 2) and ds.X.min() >= 0 and ds.X.max() <= 10
    np.testing.assert_array_equal(ds.y, (ds.X[:, 1] > 5).astype(int))
    assert abs(ds.y.mean() - 0.5) < 0.05 and abs(ds.X[:, 0].mean() - 5) < 0.3
    np.testing.assert_array_equal(ds.X, HalfSquare().load(n_samples=2000, seed=4).X)
    assert not np.array_equal(ds.X, HalfSquare().load(n_samples=2000, seed=5).X)
    small = HalfSquare().load(n_samples=10, side=2.0)
    assert small.X.max() <= 2 and small.meta["params"] == {"n_samples": 10, "side": 2.0, "seed": 0}
    assert half_square_labels(np.array([[0.0, 1.0], [0.0, 1.01]]), 2.0).tolist() == [0, 1]
    assert registry.datasets("classification")["half_square"] is HalfSquare
    assert "half_square" not in registry.datasets("embedding")


@pytest.mark.parametrize("kwargs, match", [({"n_samples": 0}, "n_samples = 0"),
                                           ({"n_samples": 2.5}, "n_samples = 2.5"),
                                           ({"side": -1.0}, "side = -1.0")])
def test_bad_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        HalfSquare().load(**kwargs)
