"""Isolet, 20 Newsgroups and extended Yale B without network: a tiny file in each
real format (zip of UCI text, tar.gz of articles, zip of PGM images) is parsed to the
right shapes, labels, split and PCA dimension; a corrupt file is reported and never
used; a missing one names the file, its URL, its hash and where to put it."""

import hashlib
import io
import tarfile
import zipfile

import numpy as np
import pytest

from harness.datasets.isolet import Isolet
from harness.datasets.newsgroups import Newsgroups
from harness.datasets.yale_b import YaleB, read_pgm
from harness.plugin import DataUnavailableError

RNG = np.random.default_rng(1)


def _isolet_zip():
    def rows(n, offset):
        X = RNG.uniform(-1, 1, size=(n, 617)).round(4)
        labels = (np.arange(n) + offset) % 26 + 1
        return "".join(", ".join(f"{v:.4f}" for v in x) + f", {c}.\n" for x, c in zip(X, labels))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("isolet1+2+3+4.data", rows(30, 0))
        z.writestr("isolet5.data", rows(8, 3))
    return buf.getvalue()


def _news_tar():
    groups = {"alt.atheism": ["god exists or not", "faith and reason god"],
              "sci.space": ["rocket orbit launch", "moon orbit rocket nasa"],
              "rec.autos": ["car engine oil", "engine car wheel"]}
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for group, texts in groups.items():
            for i, text in enumerate(texts):
                data = f"From: someone\n\n{text}\n".encode("latin-1")
                info = tarfile.TarInfo(f"20news-18828/{group}/{5000 + i}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _pgm(image):
    h, w = image.shape
    return f"P5\n# a comment\n{w} {h}\n255\n".encode() + image.astype(np.uint8).tobytes()


def _yale_zip():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for subject in (1, 2, 3):
            for a, angle in enumerate(("+000E+00", "-010E+20", "+025E-35", "+050E+00")):
                image = RNG.integers(0, 256, size=(192, 168))
                z.writestr(f"CroppedYale/yaleB{subject:02d}/yaleB{subject:02d}_P00A{angle}.pgm",
                           _pgm(image))
            z.writestr(f"CroppedYale/yaleB{subject:02d}/yaleB{subject:02d}_P00_Ambient.pgm",
                       _pgm(np.zeros((192, 168))))
    return buf.getvalue()


CASES = {
    "isolet": (Isolet, _isolet_zip, {"n_components": 5}),
    "newsgroups": (Newsgroups, _news_tar, {"n_components": 2}),
    "yale_b": (YaleB, _yale_zip, {"n_components": 4}),
}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    return tmp_path


def _install(cls, build, cache, monkeypatch):
    data = build()
    (cache / cls.filename).write_bytes(data)
    monkeypatch.setattr(cls, "known_hash", "sha256:" + hashlib.sha256(data).hexdigest())
    return data


def test_isolet_parses_the_predefined_split_and_pca(cache, monkeypatch):
    _install(Isolet, _isolet_zip, cache, monkeypatch)
    data = Isolet().load(n_components=5)
    assert data.X.shape == (38, 5) and data.meta["split_protocol"]["predefined_n_train"] == 30
    assert list(data.y[:3]) == [1, 2, 3] and data.y[30] == 4  # "1." = A; test part offset 3
    assert 0 < data.meta["pca_variance_captured"] < 1
    full = Isolet().load(n_components=None)
    assert full.X.shape == (38, 617)


def test_newsgroups_tokenises_weights_and_labels_by_group(cache, monkeypatch):
    _install(Newsgroups, _news_tar, cache, monkeypatch)
    data = Newsgroups().load(n_components=None, max_features=5)
    assert data.X.shape == (6, 5) and data.meta["n_words"] == 5
    assert list(data.y) == ["alt.atheism"] * 2 + ["rec.autos"] * 2 + ["sci.space"] * 2
    np.testing.assert_allclose(np.linalg.norm(data.X, axis=1)[data.X.any(axis=1)], 1.0)
    reduced = Newsgroups().load(n_components=2)
    assert reduced.X.shape == (6, 2)
    assert reduced.meta["split_protocol"]["n_train_fraction"] == pytest.approx(13179 / 18827)


def test_yale_skips_ambient_images_and_subsamples(cache, monkeypatch):
    _install(YaleB, _yale_zip, cache, monkeypatch)
    data = YaleB().load(subsample=4, n_components=None)
    assert data.X.shape == (12, 48 * 42) and data.meta["image_shape"] == [48, 42]
    assert sorted(set(data.y)) == [1, 2, 3] and (data.y == 2).sum() == 4
    assert data.X.max() <= 1.0 and YaleB().load(subsample=4, n_components=4).X.shape == (12, 4)


def test_read_pgm_round_trip_and_rejects_other_formats():
    image = RNG.integers(0, 256, size=(5, 7))
    np.testing.assert_array_equal(read_pgm(_pgm(image)), image)
    with pytest.raises(ValueError, match="8-bit binary PGM"):
        read_pgm(b"P2\n2 2\n255\n0 0 0 0\n")


@pytest.mark.parametrize("name", sorted(CASES))
def test_corrupt_file_is_reported_and_never_used(name, cache, monkeypatch):
    cls, build, params = CASES[name]
    data = _install(cls, build, cache, monkeypatch)
    (cache / cls.filename).write_bytes(data[:-10])
    ok, reason = cls().available()
    assert not ok and "corrupt or not the published one" in reason
    with pytest.raises(DataUnavailableError, match="corrupt"):
        cls().load(**params)


@pytest.mark.parametrize("name", sorted(CASES))
def test_missing_file_names_file_url_hash_and_place(name, cache):
    cls = CASES[name][0]
    ok, reason = cls().available()
    assert not ok
    for part in (cls.filename, cls.url, str(cache), f"harness fetch {cls.name}"):
        assert part in reason
    assert (cls.known_hash or "none published").split(":")[-1][:8] in reason

