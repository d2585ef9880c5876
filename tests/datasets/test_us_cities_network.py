"""The US-cities sensor network (Fig. 3.19): the connecting radius, the measured graph
and the noise; the real cities when cached."""

from __future__ import annotations

import numpy as np
import pytest

from harness.datasets.us_cities import USCities
from harness.datasets.us_cities_network import USCitiesNetwork, connecting_radius
from harness.results.mvu_graph_3_1_12.work import components


def test_connecting_radius_is_the_longest_spanning_tree_edge():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [1.5, 0.0], [5.0, 0.0]])
    assert connecting_radius(X) == pytest.approx(3.5)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="radius_factor must be at least 1"):
        USCitiesNetwork().load(radius_factor=0.5)
    with pytest.raises(ValueError, match="noise must be in"):
        USCitiesNetwork().load(noise=1.5)


def test_the_cities_network_when_cached():
    ok, reason = USCities().verify()
    if not ok:
        pytest.skip(f"us_cities not cached here ({reason[:80]}...); `harness fetch us_cities`")
    net = USCitiesNetwork().load(n_samples=300, noise=0.1, seed=1)
    assert net.n_samples == 300 and components(300, net.edges) == 1
    assert np.ptp(net.X, axis=0).max() == pytest.approx(1.0)
    assert np.allclose(net.X.mean(axis=0), 0.0, atol=1e-12)
    assert net.true_distances.max() <= net.meta["radius"] * (1 + 1e-9)
    ratio = net.distances / net.true_distances
    assert ratio.min() >= 0.9 - 1e-12 and ratio.max() <= 1.1 + 1e-12
    wider = USCitiesNetwork().load(n_samples=300, radius_factor=1.5, seed=1)
    assert wider.meta["radius"] == pytest.approx(1.5 * net.meta["radius"])
    assert wider.meta["n_edges"] >= net.meta["n_edges"]
