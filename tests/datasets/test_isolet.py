"""Isolet's real member format: UCI's zip holds ``isolet1+2+3+4.data.Z`` and
``isolet5.data.Z``, LZW-compressed by Unix ``compress``; ``unlzw3`` reads them."""

import hashlib
import sys
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

from harness.datasets.isolet import Isolet
from tests.datasets.isolet_rows import isolet_text, isolet_values

FIXTURES = Path(__file__).parent / "fixtures"
MEMBERS = ("isolet1+2+3+4.data.Z", "isolet5.data.Z")


@pytest.fixture
def lzw_zip(tmp_path, monkeypatch):
    """UCI's layout: a zip of the two ``.Z`` members, hash pinned as published."""
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    path = tmp_path / "isolet.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for member in MEMBERS:
            archive.write(FIXTURES / member, member)
    monkeypatch.setattr(Isolet, "known_hash",
                        "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest())
    return path


def test_fixtures_are_lzw_files_of_the_rows():
    import unlzw3

    for member, (n, offset) in zip(MEMBERS, [(5, 0), (3, 7)]):
        data = (FIXTURES / member).read_bytes()
        assert data[:2] == b"\x1f\x9d"  # the magic number of compress(1)
        assert unlzw3.unlzw(data) == isolet_text(n, offset)


def test_lzw_members_are_decompressed_and_parsed(lzw_zip):
    data = Isolet().load(n_components=None)
    train, test = isolet_values(5, 0), isolet_values(3, 7)
    np.testing.assert_array_equal(data.X, np.vstack([train[0], test[0]]))
    assert list(data.y) == [1, 2, 3, 4, 5, 8, 9, 10]
    assert data.meta["split_protocol"] == {"predefined_n_train": 5, "n_train": 5, "n_test": 3}
    assert data.X[0, 1] == pytest.approx(-0.983) and data.X[5, 0] == pytest.approx(-0.783)


def test_without_unlzw3_the_error_says_what_to_install(lzw_zip, monkeypatch):
    monkeypatch.setitem(sys.modules, "unlzw3", None)  # import unlzw3 -> ImportError
    with pytest.raises(ImportError, match=r"isolet1\+2\+3\+4.data.Z is unix-compressed: "
                                          r"pip install unlzw3"):
        Isolet().load(n_components=None)


def test_unlzw3_is_a_declared_dependency():
    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    assert any(dep.split(">")[0].split("=")[0].strip() == "unlzw3" for dep in deps)
