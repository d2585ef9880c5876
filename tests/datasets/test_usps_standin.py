"""The USPS stand-in without network: fake MNIST IDX files; the plugin keeps the chosen
digits, reduces the central 20 x 20 box to 16 x 16 by exact area averages and maps the
pixels to USPS' [-1, 1]; it is registered as a stand-in for usps."""

import numpy as np
import pytest

from harness.datasets.usps_standin import USPSStandIn, area_resize_matrix, mnist_to_usps_pixels
from harness import registry
from tests.datasets.test_mnist import fake_idx_files, install_fake_mnist

RNG = np.random.default_rng(3)
TRAIN_X = RNG.integers(0, 256, size=(6, 28, 28)).astype(np.uint8)
TRAIN_Y = np.array([2, 3, 1, 2, 8, 3], dtype=np.uint8)
TEST_X = RNG.integers(0, 256, size=(2, 28, 28)).astype(np.uint8)
TEST_Y = np.array([3, 9], dtype=np.uint8)
FAKE = fake_idx_files(TRAIN_X, TRAIN_Y, TEST_X, TEST_Y)


@pytest.fixture
def fake_mnist(tmp_path, monkeypatch):
    return install_fake_mnist(FAKE, tmp_path, monkeypatch)


def test_area_matrix_averages_exactly():
    A = area_resize_matrix(20, 16)
    np.testing.assert_allclose(A.sum(axis=1), 1.0)
    np.testing.assert_allclose(A.sum(axis=0), 16 / 20)  # every input pixel counted once
    assert A[0, 0] == pytest.approx(0.8) and A[0, 1] == pytest.approx(0.2)
    np.testing.assert_allclose(area_resize_matrix(4, 2), [[.5, .5, 0, 0], [0, 0, .5, .5]])


def test_pixels_by_hand():
    images = np.zeros((1, 28, 28))
    images[0, 4:24, 4:24] = 1.0  # the whole box lit: every USPS pixel is +1
    np.testing.assert_allclose(mnist_to_usps_pixels(images), 1.0)
    images = np.zeros((1, 28, 28))
    images[0, 4, 4] = 1.0  # one corner pixel: 0.8 x 0.8 of USPS pixel (0, 0)
    out = mnist_to_usps_pixels(images)
    assert out[0, 0, 0] == pytest.approx(2 * 0.64 - 1) and out[0, 1, 1] == -1.0
    with pytest.raises(ValueError, match=r"shape \(n, 28, 28\)"):
        mnist_to_usps_pixels(np.zeros((2, 16, 16)))


def test_keeps_the_chosen_digits_as_usps_pixels(fake_mnist):
    data = USPSStandIn().load(digits=[2, 3])
    assert data.X.shape == (4, 256) and list(data.y) == [2, 3, 2, 3]
    keep = np.isin(TRAIN_Y, [2, 3])
    np.testing.assert_allclose(data.X, mnist_to_usps_pixels(TRAIN_X[keep] / 255.0).reshape(4, -1))
    assert data.meta["stand_in_for"] == "usps" and data.meta["thesis_name"] == "usps"
    assert USPSStandIn().load(part="all").X.shape == (8, 256)
    assert list(USPSStandIn().load(part="test", digits=[3]).y) == [3]


def test_bad_parameters_name_the_choices(fake_mnist):
    with pytest.raises(ValueError, match="part='valid' is not one of"):
        USPSStandIn().load(part="valid")
    with pytest.raises(ValueError, match="digits between 0 and 9"):
        USPSStandIn().load(digits=[10])


def test_registered_as_a_stand_in_naming_the_fetch(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    plugin = registry.get_dataset("usps_standin")
    assert plugin.stand_in_for == "usps"
    ok, reason = plugin().available()
    assert not ok and "harness fetch usps_standin" in reason
