"""USPS without network: two tiny libsvm files in the real format (bz2, ``label
index:value``, labels 1-10) are parsed into digits 0-9 with the pre-defined split;
each of the two files is hash-checked on its own (a corrupt or missing test file is
named, with its URL and hash); a data set of several files pins each on first use."""

import bz2
import hashlib
import shutil

import numpy as np
import pytest

from harness.datasets._remote import RemoteFile
from harness.datasets.usps import USPS, read_libsvm_digits
from harness.plugin import DataUnavailableError

RNG = np.random.default_rng(3)


def _libsvm(labels):
    """bz2 bytes of rows ``label 1:v1 ... 256:v256`` (zeros left out, as libsvm does)."""
    lines = []
    for label in labels:
        pixels = RNG.uniform(-1, 1, 256).round(6)
        pixels[RNG.random(256) < 0.2] = 0.0
        lines.append(f"{label} " + " ".join(f"{i + 1}:{v:g}" for i, v in enumerate(pixels) if v))
    return bz2.compress(("\n".join(lines) + "\n").encode())


TRAIN_LABELS = [1, 3, 3, 10, 5, 3, 7]  # digits 0, 2, 2, 9, 4, 2, 6
TEST_LABELS = [3, 1, 4]


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Both files in the cache, the plugin's hashes replaced by theirs."""
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    train, test = _libsvm(TRAIN_LABELS), _libsvm(TEST_LABELS)
    (tmp_path / "usps.bz2").write_bytes(train)
    (tmp_path / "usps.t.bz2").write_bytes(test)
    monkeypatch.setattr(USPS, "known_hash", "md5:" + hashlib.md5(train).hexdigest())
    monkeypatch.setattr(USPS, "extra_files", (RemoteFile(
        USPS.extra_files[0].url, "usps.t.bz2", "md5:" + hashlib.md5(test).hexdigest()),))
    return tmp_path


def test_both_parts_give_digits_and_the_predefined_split(files):
    data = USPS().load()
    assert data.X.shape == (10, 256)
    assert list(data.y) == [0, 2, 2, 9, 4, 2, 6, 2, 0, 3]
    assert data.meta["split_protocol"]["predefined_n_train"] == 7
    assert -1 <= data.X.min() and data.X.max() <= 1
    assert set(data.meta["extra_files"]) == {"usps.t.bz2"}
    assert data.meta["extra_files"]["usps.t.bz2"]["hash_checked"].startswith("md5:")


def test_digit_subset_and_single_parts(files):
    twos = USPS().load(digits=[2])
    assert twos.X.shape == (4, 256) and set(twos.y) == {2}
    assert twos.meta["split_protocol"]["predefined_n_train"] == 3
    train_twos = USPS().load(digits=[2], part="train")
    np.testing.assert_array_equal(train_twos.X, twos.X[:3])
    assert "split_protocol" not in train_twos.meta
    assert list(USPS().load(part="test").y) == [2, 0, 3]


def test_pixels_are_the_files_values_with_zeros_restored(files):
    X, y = read_libsvm_digits(files / "usps.t.bz2")
    row = bz2.decompress((files / "usps.t.bz2").read_bytes()).decode().splitlines()[0]
    label, *pairs = row.split()
    expected = np.zeros(256)
    for pair in pairs:
        index, value = pair.split(":")
        expected[int(index) - 1] = float(value)
    np.testing.assert_array_equal(X[0], expected)
    assert y[0] == int(label) - 1


def test_bad_parameters_are_named(files):
    with pytest.raises(ValueError, match="part='validation'"):
        USPS().load(part="validation")
    with pytest.raises(ValueError, match="digits=\\[11\\]"):
        USPS().load(digits=[11])


def test_a_corrupt_second_file_is_reported_and_never_used(files):
    (files / "usps.t.bz2").write_bytes(_libsvm(TEST_LABELS))  # other random pixels
    ok, reason = USPS().available()
    assert not ok and "usps.t.bz2" in reason and "corrupt or not the published one" in reason
    with pytest.raises(DataUnavailableError, match="usps.t.bz2"):
        USPS().load()


def test_a_missing_second_file_names_file_url_hash_and_place(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    (tmp_path / "usps.bz2").write_bytes(b"not checked before the test file")
    monkeypatch.setattr(USPS, "known_hash", "md5:" + hashlib.md5(
        b"not checked before the test file").hexdigest())
    ok, reason = USPS().available()
    assert not ok
    for part in ("usps.t.bz2", USPS.extra_files[0].url, "a9c0164e", str(tmp_path),
                 "harness fetch usps"):
        assert part in reason


def test_the_published_hashes_are_torchvisions_sha256s():
    assert USPS.known_hash == (
        "sha256:3771e9dd6ba685185f89867b6e249233dd74652389f263963b3b741e994b034f")
    assert USPS.extra_files[0].known_hash == (
        "sha256:a9c0164e797d60142a50604917f0baa604f326e9a689698763793fa5d12ffc4e")
    assert USPS.extra_files[0].urls()[1].endswith("/data/usps.t.bz2")


def test_fetch_downloads_every_file_and_pins_those_without_a_hash(tmp_path, monkeypatch):
    """pooch.retrieve replaced by a copy from a local 'server' folder."""
    import pooch

    server = tmp_path / "server"
    server.mkdir()
    cache = tmp_path / "cache"
    monkeypatch.setenv("HARNESS_DATA_DIR", str(cache))
    train, test = _libsvm(TRAIN_LABELS), _libsvm(TEST_LABELS)
    (server / "usps.bz2").write_bytes(train)
    (server / "usps.t.bz2").write_bytes(test)

    def retrieve(url, known_hash, fname, path, progressbar):
        path.mkdir(parents=True, exist_ok=True)
        shutil.copy(server / url.rsplit("/", 1)[-1], path / fname)
        return str(path / fname)

    monkeypatch.setattr(pooch, "retrieve", retrieve)
    monkeypatch.setattr(USPS, "known_hash", "md5:" + hashlib.md5(train).hexdigest())
    monkeypatch.setattr(USPS, "extra_files", (RemoteFile(
        USPS.extra_files[0].url, "usps.t.bz2", None),))
    message = USPS().fetch()
    assert "verified (md5:" in message and "pinned sha256" in message
    assert (cache / "usps.t.bz2.pinned-sha256").read_text().strip() == hashlib.sha256(
        test).hexdigest()
    assert USPS().load().X.shape == (10, 256)
    (cache / "usps.t.bz2").write_bytes(test[:-5])  # truncated after the pin
    assert "corrupt" in USPS().available()[1]


def test_fetch_of_a_wrong_download_deletes_it_and_names_it(tmp_path, monkeypatch):
    import pooch

    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))

    def retrieve(url, known_hash, fname, path, progressbar):
        path.mkdir(parents=True, exist_ok=True)
        (path / fname).write_bytes(b"an error page")
        return str(path / fname)

    monkeypatch.setattr(pooch, "retrieve", retrieve)
    with pytest.raises(DataUnavailableError, match="usps.bz2.*deleted"):
        USPS().fetch()
    assert not (tmp_path / "usps.bz2").exists()
