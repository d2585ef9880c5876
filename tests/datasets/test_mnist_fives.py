"""MNIST fives without network: fake IDX files with a few fives in each part; the plugin
keeps exactly those images, as pixels in [0, 1], and shares MNIST's hash checks."""

import numpy as np
import pytest

from harness.datasets.mnist_fives import MNISTFives
from harness import registry
from tests.datasets.test_mnist import fake_idx_files, install_fake_mnist

RNG = np.random.default_rng(1)
TRAIN_X = RNG.integers(0, 256, size=(7, 28, 28)).astype(np.uint8)
TRAIN_Y = np.array([5, 1, 5, 0, 5, 2, 3], dtype=np.uint8)
TEST_X = RNG.integers(0, 256, size=(3, 28, 28)).astype(np.uint8)
TEST_Y = np.array([4, 5, 9], dtype=np.uint8)
FAKE = fake_idx_files(TRAIN_X, TRAIN_Y, TEST_X, TEST_Y)


@pytest.fixture
def fake_mnist(tmp_path, monkeypatch):
    """The fake IDX files in a fresh cache, with their hashes as the published ones."""
    return install_fake_mnist(FAKE, tmp_path, monkeypatch)


def test_keeps_the_fives_of_the_chosen_part(fake_mnist):
    data = MNISTFives().load()
    assert data.X.shape == (3, 784) and data.y is None
    np.testing.assert_allclose(data.X, TRAIN_X[TRAIN_Y == 5].reshape(3, -1) / 255.0)
    assert data.meta["thesis_name"] == "mnist_fives" and data.meta["part"] == "train"
    test_part = MNISTFives().load(part="test")
    np.testing.assert_allclose(test_part.X, TEST_X[1].reshape(1, -1) / 255.0)
    assert MNISTFives().load(part="all").X.shape == (4, 784)


def test_optional_deskew_and_projection(fake_mnist):
    data = MNISTFives().load(part="all", deskew=True, n_components=2)
    assert data.X.shape == (4, 2) and data.meta["deskewed"]
    assert 0 < data.meta["pca_variance_captured"] <= 1


def test_bad_part_names_the_choices(fake_mnist):
    with pytest.raises(ValueError, match=r"part='validation' is not one of \['all', 'test', 'train'\]"):
        MNISTFives().load(part="validation")


def test_a_corrupt_file_is_a_marked_gap_naming_the_fetch(fake_mnist):
    (fake_mnist / "train-labels-idx1-ubyte").write_bytes(b"\0" * 16)
    ok, reason = MNISTFives().available()
    assert not ok and "corrupt" in reason and "harness fetch mnist_fives" in reason


def test_registered_for_the_figures():
    cls = registry.get_dataset("mnist_fives")
    assert cls is MNISTFives and cls.thesis_name == "mnist_fives"
    assert cls.tasks == ("embedding",)
