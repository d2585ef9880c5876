"""The one download/verify path of every downloaded data set, without network:
a good file, a corrupt one, a missing one, and trust on first use."""

import hashlib

import pytest

from harness.datasets._remote import file_hash
from harness.datasets.isolet import Isolet
from harness.datasets.teapot import Teapot
from harness.plugin import DataUnavailableError


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    return tmp_path


def test_missing_file_names_file_url_hash_and_place(cache):
    ok, reason = Teapot().available()
    assert not ok
    for part in ("Teapots.mat", Teapot.url, "650e11dd", str(cache), "harness fetch teapot"):
        assert part in reason
    with pytest.raises(DataUnavailableError, match="not available offline"):
        Teapot().load()


def test_git_blob_hash_matches_git():
    # `printf 'hello\n' | git hash-object --stdin` = ce013625030ba8dba906f756967f9e9ca394464a
    import tempfile
    from pathlib import Path

    with tempfile.NamedTemporaryFile(delete=False) as fh:
        fh.write(b"hello\n")
    assert file_hash(Path(fh.name), "gitblob") == "ce013625030ba8dba906f756967f9e9ca394464a"


def test_corrupt_file_is_reported_and_never_used(cache):
    (cache / "Teapots.mat").write_bytes(b"not the teapot")
    ok, reason = Teapot().available()
    assert not ok and "corrupt or not the published one" in reason
    with pytest.raises(DataUnavailableError, match="corrupt"):
        Teapot().load()


def test_good_file_loads_and_trust_on_first_use_pins(cache, monkeypatch):
    """A data set without a published hash (isolet): the first download pins its
    sha256, a later change of the file is caught."""
    from tests.datasets.test_remote_plugins import _isolet_zip

    source = cache / "upstream.zip"
    source.write_bytes(_isolet_zip())

    import pooch

    def fake_retrieve(url, known_hash, fname, path, progressbar):
        (path / fname).write_bytes(source.read_bytes())
        return str(path / fname)

    monkeypatch.setattr(pooch, "retrieve", fake_retrieve)
    message = Isolet().fetch()
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert "pinned sha256" in message and digest in message
    data = Isolet().load(n_components=None)
    assert data.X.shape == (38, 617)
    assert data.meta["sha256"] == digest and data.meta["hash_pinned_on_first_use"]
    (cache / "isolet.zip").write_bytes(b"tampered")
    with pytest.raises(DataUnavailableError, match="corrupt"):
        Isolet().load()
