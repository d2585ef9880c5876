"""The simulated sensor networks (thesis 3.1.8, Figs. 3.19-3.21)."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from harness.datasets.sensor_network import SensorNetwork, USCitiesStandIn, word_mask
from harness import registry


@pytest.fixture(scope="module")
def net():
    return SensorNetwork().load(n_samples=400, radius=0.15, max_neighbors=6, noise=0.1, seed=3)


def _measured_sets(X, radius, k):
    """Each node's up-to-k nearest others within the radius, by brute force."""
    D = cdist(X, X)
    np.fill_diagonal(D, np.inf)
    out = []
    for row in D:
        near = np.argsort(row)[:k]
        out.append(set(near[row[near] <= radius].tolist()))
    return out


def test_positions_are_uniform_in_a_centred_unit_square(net):
    X = net.X
    assert X.shape == (400, 2)
    np.testing.assert_allclose(X.mean(axis=0), 0, atol=1e-15)
    assert (X.max(axis=0) - X.min(axis=0) <= 1).all()
    assert (X.max(axis=0) - X.min(axis=0) > 0.95).all()


def test_edges_are_the_nearest_in_range_of_either_end(net):
    chosen = _measured_sets(net.X, 0.15, 6)
    expected = {(min(i, j), max(i, j)) for i, js in enumerate(chosen) for j in js}
    assert set(map(tuple, net.edges.tolist())) == expected
    assert (net.edges[:, 0] < net.edges[:, 1]).all()
    assert len(net.edges) == len(expected) == net.meta["n_edges"]
    # each node measured at most max_neighbors; its degree counts the others' choices
    assert max(len(s) for s in chosen) == 6
    assert net.true_distances.max() <= 0.15


def test_distances_carry_bounded_multiplicative_uniform_noise(net):
    true = np.linalg.norm(net.X[net.edges[:, 0]] - net.X[net.edges[:, 1]], axis=1)
    np.testing.assert_allclose(net.true_distances, true, rtol=1e-12)
    ratio = net.distances / true
    assert ratio.min() >= 0.9 and ratio.max() <= 1.1
    assert ratio.min() < 0.92 and ratio.max() > 1.08  # the noise fills its range
    np.testing.assert_allclose(net.sq_distances, net.distances ** 2)
    exact = SensorNetwork().load(n_samples=400, radius=0.15, max_neighbors=6, noise=0.0, seed=3)
    np.testing.assert_array_equal(exact.distances, exact.true_distances)


def test_seeded_reproducibility():
    a = SensorNetwork().load(n_samples=200, seed=1)
    b = SensorNetwork().load(n_samples=200, seed=1)
    c = SensorNetwork().load(n_samples=200, seed=2)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.edges, b.edges)
    np.testing.assert_array_equal(a.distances, b.distances)
    assert not np.array_equal(a.X, c.X)


def test_random_choice_takes_max_neighbors_among_those_in_range():
    net = SensorNetwork().load(n_samples=300, radius=0.2, max_neighbors=5, noise=0.0,
                               choice="random", seed=0)
    assert net.true_distances.max() <= 0.2
    nearest = SensorNetwork().load(n_samples=300, radius=0.2, max_neighbors=5, noise=0.0,
                                   seed=0)
    # random picks reach further than the nearest five
    assert net.true_distances.mean() > 1.5 * nearest.true_distances.mean()
    degree_bound = np.bincount(net.edges.ravel(), minlength=300)
    assert degree_bound.min() >= 5


def test_the_colouring_spells_convex_on_a_radial_gradient(net):
    assert not word_mask(np.array([[0.45, 0.45], [-0.45, -0.45]])).any()  # corners
    grid = np.stack(np.meshgrid(np.linspace(-0.5, 0.5, 201), np.linspace(-0.5, 0.5, 201)),
                    -1).reshape(-1, 2)
    mask = word_mask(grid)
    covered = grid[mask]
    assert 0.03 < mask.mean() < 0.2
    assert covered[:, 0].max() - covered[:, 0].min() == pytest.approx(0.8, abs=0.02)
    assert abs(covered[:, 1].mean()) < 0.05  # centred vertically
    background = ~net.in_word
    rho = np.linalg.norm(net.X, axis=1)
    np.testing.assert_allclose(net.y[background], 0.75 * rho[background] / rho.max())
    assert (net.y[net.in_word] == 1).all()


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match="noise must be in"):
        SensorNetwork().load(n_samples=50, noise=1.5)
    with pytest.raises(ValueError, match="choice must be one of"):
        SensorNetwork().load(n_samples=50, choice="farthest")
    with pytest.raises(ValueError, match="radius must be positive"):
        SensorNetwork().load(n_samples=50, radius=0)


def test_registered_and_the_us_cities_stand_in_is_labelled():
    assert registry.get_dataset("sensor_network") is SensorNetwork
    cls = registry.get_dataset("us_cities_standin")
    assert cls.stand_in_for == "us_cities" and cls.params["n_samples"] == 1097
    assert "sensor_network" not in registry.datasets("embedding")
    net = USCitiesStandIn().load(n_samples=300)
    assert net.meta["stand_in_for"] == "us_cities" and net.meta["params"]["noise"] == 0.1
