"""Data sets rebuilt from a package (letter from a Debian .deb), without network: the
package is a tiny fixture built here in the real format (ar + tar.xz + .rda)."""

import hashlib
import io
import tarfile

import numpy as np
import pandas as pd
import pytest

from datasets._package_rebuild import deb_member, write_verified
from datasets.letter import RDA_MEMBER, Letter
from harness.plugin import DataUnavailableError

ROWS = [("T", [2, 8, 3, 5, 1, 8, 13, 0, 6, 6, 10, 8, 0, 8, 0, 8]),
        ("I", [5, 12, 3, 7, 2, 10, 5, 5, 4, 13, 3, 9, 2, 8, 4, 10])]
UCI_TEXT = b"T,2,8,3,5,1,8,13,0,6,6,10,8,0,8,0,8\nI,5,12,3,7,2,10,5,5,4,13,3,9,2,8,4,10\n"


def _ar(members):
    out = io.BytesIO()
    out.write(b"!<arch>\n")
    for name, body in members:
        out.write(f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(body):<10}`\n".encode())
        out.write(body + (b"\n" if len(body) % 2 else b""))
    return out.getvalue()


def _deb(member, payload):
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w:xz") as tar:
        info = tarfile.TarInfo(member)
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    return _ar([("debian-binary", b"2.0\n"), ("control.tar.xz", b"x"),
                ("data.tar.xz", tar_bytes.getvalue())])


def _rda(tmp_path):
    import rdata

    columns = ["x.box", "y.box", "width", "high", "onpix", "x.bar", "y.bar", "x2bar",
               "y2bar", "xybar", "x2ybr", "xy2br", "x.ege", "xegvy", "y.ege", "yegvx"]
    frame = pd.DataFrame({"lettr": pd.Categorical([r[0] for r in ROWS]),
                          **{c: [float(r[1][j]) for r in ROWS] for j, c in enumerate(columns)}},
                         index=pd.RangeIndex(1, len(ROWS) + 1))
    path = tmp_path / "letter.rda"
    rdata.write_rda(path, {"LetterRecognition": frame})
    return path.read_bytes()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_deb_member_reads_the_data_archive(tmp_path):
    deb = tmp_path / "p.deb"
    deb.write_bytes(_deb("./usr/share/x.txt", b"hello"))
    assert deb_member(deb, "./usr/share/x.txt") == b"hello"
    with pytest.raises(KeyError):
        deb_member(deb, "./usr/share/missing")
    (tmp_path / "bad.deb").write_bytes(b"PK\x03\x04 not an ar archive")
    with pytest.raises(ValueError, match="not a Debian package"):
        deb_member(tmp_path / "bad.deb", "x")


def test_write_verified_writes_only_matching_bytes(tmp_path):
    target = tmp_path / "sub" / "f.data"
    with pytest.raises(DataUnavailableError, match="not the published file"):
        write_verified(target, b"abc", "0" * 64, "f")
    assert not target.exists() and not list(target.parent.glob("*"))
    write_verified(target, b"abc", hashlib.sha256(b"abc").hexdigest(), "f")
    assert target.read_bytes() == b"abc"


def _prepare_package(cache, tmp_path, monkeypatch, rda):
    package = tmp_path / "r-cran-mlbench.deb"
    package.write_bytes(_deb(RDA_MEMBER, rda))
    monkeypatch.setattr(Letter, "package_sha256", hashlib.sha256(package.read_bytes()).hexdigest())
    monkeypatch.setattr(Letter, "package_url", package.as_uri())
    target = Letter().package_path()
    target.parent.mkdir(parents=True)
    target.write_bytes(package.read_bytes())  # already "downloaded": pooch checks, no network


def test_letter_rebuilt_from_the_package_is_checked_and_parsed(cache, tmp_path, monkeypatch):
    _prepare_package(cache, tmp_path, monkeypatch, _rda(tmp_path))
    monkeypatch.setattr(Letter, "known_hash", "sha256:" + hashlib.sha256(UCI_TEXT).hexdigest())
    assert not Letter().available()[0]
    assert "rebuilt from Debian r-cran-mlbench" in Letter().fetch()
    assert (cache / Letter.filename).read_bytes() == UCI_TEXT
    data = Letter().load()
    assert data.X.shape == (2, 16) and list(data.y) == ["T", "I"]
    np.testing.assert_array_equal(data.X[1], ROWS[1][1])
    assert data.meta["split_protocol"]["n_train_fraction"] == pytest.approx(0.7)
    assert data.meta["thesis_name"] == "letters"


def test_letter_rebuild_that_does_not_hash_is_never_written(cache, tmp_path, monkeypatch):
    _prepare_package(cache, tmp_path, monkeypatch, _rda(tmp_path))
    # the real UCI hash: two rows cannot match it; the canonical URL is then tried
    monkeypatch.setattr(Letter, "url", (tmp_path / "nowhere.data").as_uri())
    with pytest.raises(DataUnavailableError, match="download failed"):
        Letter().fetch()
    assert not (cache / Letter.filename).exists()


def test_letter_missing_names_file_url_hash_and_place(cache):
    ok, reason = Letter().available()
    assert not ok
    for part in ("letter-recognition.data", Letter.url, "2b89f360", str(cache),
                 "harness fetch letter"):
        assert part in reason
