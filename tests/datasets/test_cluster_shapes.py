"""The generated clustering data sets: seeded, labelled, well separated by default."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from harness.datasets.cluster_shapes import Blobs, Circles, TwoMoons
from harness import registry


@pytest.mark.parametrize("cls", [TwoMoons, Circles, Blobs])
def test_seeded_labelled_float64(cls):
    a, b, c = cls().load(), cls().load(), cls().load(seed=1)
    assert a.X.shape == (300, 2) and a.X.dtype == np.float64 and len(a.y) == 300
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)
    assert a.meta["source"] == "generated" and a.meta["params"]["seed"] == 0
    assert registry.get_dataset(cls.name) is cls and cls.tasks == ("clustering",)


def test_circles_radii():
    ds = Circles().load(noise=0.0, factor=0.3)
    r = np.linalg.norm(ds.X, axis=1)
    np.testing.assert_allclose(r[ds.y == 0], 1.0)
    np.testing.assert_allclose(r[ds.y == 1], 0.3)


@pytest.mark.parametrize("centers", [2, 3, 5])
def test_blobs_are_well_separated(centers):
    ds = Blobs().load(centers=centers, n_features=3)
    assert ds.X.shape == (300, 3) and sorted(set(ds.y)) == list(range(centers))
    for a in range(centers):
        for b in range(a + 1, centers):
            gap = cdist(ds.X[ds.y == a], ds.X[ds.y == b]).min()
            assert gap > 1.0  # cluster_std 0.5, centres >= 5.9 apart


@pytest.mark.parametrize(("cls", "params", "message"), [
    (TwoMoons, {"n_samples": 1}, "n_samples must be at least 2"),
    (Circles, {"factor": 1.0}, r"factor must lie in \(0, 1\)"),
    (Blobs, {"n_features": 1}, "n_features >= 2"),
])
def test_bad_parameters(cls, params, message):
    with pytest.raises(ValueError, match=message):
        cls().load(**params)
