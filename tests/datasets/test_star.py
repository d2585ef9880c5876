"""The spokes experiment's star (harness/datasets/star.py): its k-NN graph joins the spokes only
at the centre, as the module docstring promises."""

import numpy as np
import pytest
from sklearn.neighbors import NearestNeighbors

from harness.datasets.star import Star, star_points


def test_shape_labels_and_seed():
    ds = Star().load(n_samples=81, n_spokes=8, extra_dims=3, seed=2)
    assert ds.X.shape == (81, 5) and ds.meta["source"] == "generated"
    assert (ds.y == -1).sum() == 1 and np.bincount(ds.y[1:]).tolist() == [10] * 8
    np.testing.assert_array_equal(ds.X, Star().load(n_samples=81, n_spokes=8, extra_dims=3,
                                                    seed=2).X)
    plane, _ = star_points(8, 10, 12.0, 1.0)
    assert np.abs(ds.X[:, :2] - plane).max() < 0.05 * 6  # noise only
    np.testing.assert_allclose(np.linalg.norm(plane[1:11], axis=1), 12.0 + np.arange(10))


@pytest.mark.parametrize("n_spokes", [5, 8])
def test_k_nearest_neighbours_stay_on_their_spoke(n_spokes):
    ds = Star().load(n_samples=1 + 12 * n_spokes, n_spokes=n_spokes)
    nbrs = NearestNeighbors(n_neighbors=n_spokes).fit(ds.X).kneighbors(return_distance=False)
    spoke = ds.y
    assert sorted(spoke[nbrs[0]]) == list(range(n_spokes))  # the centre: every first point
    assert (ds.X[nbrs[0], 0] ** 2 + ds.X[nbrs[0], 1] ** 2 < 12.5 ** 2).all()
    for i in range(1, len(ds.X)):  # every other point: its own spoke only
        assert set(spoke[nbrs[i]]) == {spoke[i]}, i


def test_bad_parameters_name_the_fix():
    with pytest.raises(ValueError, match=r"n_samples = 80 must be 1 \+ n_spokes"):
        Star().load(n_samples=80)
    with pytest.raises(ValueError, match="hub_radius = 5 must exceed .* raise hub_radius"):
        Star().load(hub_radius=5)
