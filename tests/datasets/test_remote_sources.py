"""Sources and local copies of a downloaded data set, without network: the sources
are tried in order and each is verified (by content where the data set is pinned by
content); when all fail, the error names every source and why; ``harness fetch NAME
--file PATH`` installs a copy the user has, atomically, or refuses it naming what was
expected and what was found."""

import json

import numpy as np
import pytest

from harness.datasets._hashes import content_sha256
from harness.datasets._remote import RemoteDataset
from harness.cli import main
from harness.plugin import DataUnavailableError

GOOD = np.arange(12, dtype=np.uint8).reshape(3, 4)


def _copy(values, indent=None):
    """One copy of the data: the same values, container bytes set by ``indent``."""
    return json.dumps({"values": np.asarray(values).tolist()}, indent=indent).encode()


class Toy(RemoteDataset):
    """A data set whose public copies differ in bytes (JSON layout), pinned by content."""

    name = "toy"
    url = "https://canonical.example/toy.json"
    mirrors = ("https://mirror-one.example/toy.json", "https://mirror-two.example/toy.json")
    filename = "toy.json"
    known_hash = f"content-sha256:{content_sha256(GOOD)}"

    def content(self, path):
        values = np.asarray(json.loads(path.read_text())["values"], dtype=np.uint8)
        if values.shape != GOOD.shape:
            raise ValueError(f"values of shape {values.shape}, expected {GOOD.shape}")
        return values

    def parse(self, path, **params):
        return self.content(path).astype(float), None, {}


class ToyFirstUse(Toy):
    name = "toy_first_use"
    known_hash = None
    pin_algorithm = "content-sha256"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _serve(monkeypatch, answers):
    """pooch.retrieve replaced: ``answers[url]`` is the bytes served or an exception."""
    import pooch

    tried = []

    def retrieve(url, known_hash, fname, path, progressbar):
        tried.append(url)
        answer = answers[url]
        if isinstance(answer, Exception):
            raise answer
        (path / fname).write_bytes(answer)
        return str(path / fname)

    monkeypatch.setattr(pooch, "retrieve", retrieve)
    return tried


def _leftovers(cache):
    return sorted(p.name for p in cache.rglob("*") if p.is_file())


def test_sources_are_tried_in_order_and_each_verified_by_content(cache, monkeypatch):
    tried = _serve(monkeypatch, {
        Toy.url: ConnectionError("host gone"),
        Toy.mirrors[0]: _copy(GOOD[::-1]),  # another data set: refused
        Toy.mirrors[1]: _copy(GOOD, indent=2),  # other bytes, same content: accepted
    })
    message = Toy().fetch()
    assert tried == [Toy.url, *Toy.mirrors]
    assert f"from {Toy.mirrors[1]}, verified (content-sha256:" in message
    assert (cache / "toy.json").read_bytes() == _copy(GOOD, indent=2)
    np.testing.assert_array_equal(Toy().load().X, GOOD)
    assert Toy().load().meta["sources"] == [Toy.url, *Toy.mirrors]
    assert _leftovers(cache) == ["toy.json"]


def test_when_every_source_fails_each_is_named_with_its_reason(cache, monkeypatch):
    _serve(monkeypatch, {Toy.url: ConnectionError("host gone"),
                         Toy.mirrors[0]: _copy(GOOD[:2]),
                         Toy.mirrors[1]: TimeoutError("timed out")})
    with pytest.raises(DataUnavailableError) as info:
        Toy().fetch()
    lines = str(info.value).splitlines()
    assert lines[0] == "toy: no source gave toy.json; tried:"
    assert f"{Toy.url}: download failed (ConnectionError: host gone)" in lines[1]
    assert lines[2].startswith(f"  - {Toy.mirrors[0]} is not toy.json: expected content "
                               f"sha256 {content_sha256(GOOD)}, found a file whose content "
                               f"cannot be read (ValueError: values of shape (2, 4)")
    assert f"{Toy.mirrors[1]}: download failed (TimeoutError: timed out)" in lines[3]
    assert "harness fetch toy --file PATH" in lines[4]
    assert _leftovers(cache) == []


def test_install_verifies_a_local_copy_by_content_and_refuses_another(cache, tmp_path):
    mine = tmp_path / "my-copy.json"
    mine.write_bytes(_copy(GOOD[::-1]))
    with pytest.raises(DataUnavailableError) as info:
        Toy().install(mine)
    text = str(info.value)
    assert text.startswith(f"toy: refused {mine}:")
    assert f"expected content sha256 {content_sha256(GOOD)}" in text
    assert f"found content sha256 {content_sha256(GOOD[::-1])} of a (3, 4) uint8 array" in text
    assert not (cache / "toy.json").exists() and _leftovers(cache) == []
    mine.write_bytes(_copy(GOOD, indent=4))
    assert "verified (content-sha256:" in Toy().install(mine)
    assert Toy().verify() == (True, "")
    with pytest.raises(DataUnavailableError, match="does not exist"):
        Toy().install(tmp_path / "nope.json")


def test_first_use_pins_the_content_and_a_later_copy_is_checked_against_it(cache, tmp_path):
    mine = tmp_path / "toy.json"
    mine.write_bytes(_copy(GOOD))
    message = ToyFirstUse().install(mine)
    assert f"pinned content-sha256 {content_sha256(GOOD)} (trust on first use)" in message
    assert (cache / "toy.json.pinned-content-sha256").read_text().strip() == content_sha256(GOOD)
    mine.write_bytes(_copy(GOOD, indent=1))  # same content: still verified
    assert "verified (content-sha256:" in ToyFirstUse().install(mine)
    (cache / "toy.json").write_bytes(_copy(GOOD[::-1]))
    ok, reason = ToyFirstUse().available()
    assert not ok and "corrupt or not the published one" in reason
    mine.write_bytes(_copy(GOOD[:1]))  # not the structure: nothing pinned, nothing installed
    (cache / "toy.json").unlink()
    (cache / "toy.json.pinned-content-sha256").unlink()
    with pytest.raises(DataUnavailableError, match=r"values of shape \(1, 4\)"):
        ToyFirstUse().install(mine)
    assert _leftovers(cache) == []


def test_cli_fetch_file(cache, tmp_path, monkeypatch, capsys):
    from harness import registry

    monkeypatch.setattr(registry, "get_dataset", lambda name: {"toy": Toy}[name])
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_bytes(_copy(GOOD, indent=3))
    bad.write_bytes(b"{}")
    assert main(["fetch", "toy", "--file", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"toy: refused {bad}" in err and "KeyError" in err
    assert main(["fetch", "toy", "--file", str(good)]) == 0
    assert f"toy: {cache / 'toy.json'} from {good}, verified" in capsys.readouterr().out
    assert main(["fetch", "toy", "other", "--file", str(good)]) == 2
    assert "--file needs exactly one data set name" in capsys.readouterr().err


def _downloaded_plugins():
    """Every registered data set filled from URLs (those rebuilt from a package have
    their own tests: their first source is a package client)."""
    from harness.datasets._package_rebuild import PackageRebuiltDataset
    from harness import registry

    return sorted(name for name, cls in registry.datasets().items()
                  if issubclass(cls, RemoteDataset) and not issubclass(cls, PackageRebuiltDataset))


@pytest.mark.parametrize("name", _downloaded_plugins())
def test_offline_fetch_of_every_data_set_names_each_source_and_why(name, cache, monkeypatch,
                                                                   capsys):
    from harness import registry

    _serve(monkeypatch, {url: ConnectionError(f"no route to {url}")
                         for remote in registry.get_dataset(name)().remote_files()
                         for url in remote.urls()})
    assert main(["fetch", name]) == 1
    err = capsys.readouterr().err
    for remote in registry.get_dataset(name)().remote_files():
        for url in remote.urls():
            assert f"{url}: download failed (ConnectionError: no route to {url})" in err
    assert f"harness fetch {name} --file PATH" in err and _leftovers(cache) == []


def test_the_downloaded_plugins_include_the_thesis_image_sets():
    assert {"frey", "isolet", "olivetti", "teapot", "usps", "yale_b"} <= set(
        _downloaded_plugins())
