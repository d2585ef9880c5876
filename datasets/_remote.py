"""Shared core of the dataset plugins whose data is a downloaded file.

One code path for every such data set: the file lives in a cache directory
(``$HARNESS_DATA_DIR``, else pooch's per-user cache), is downloaded by
:func:`pooch.retrieve`, and is verified against a published hash before it is ever
parsed. A wrong hash means the file is reported and not used. Where no hash was ever
published, the first verified download pins one (trust on first use): the hash is
written beside the file and every later load is checked against it, and the dataset
meta says so. Offline and not cached, :meth:`RemoteDataset.load` raises
:class:`harness.plugin.DataUnavailableError` naming the file, its URL, its hash and
where to put it by hand; in a workflow run that becomes a marked gap in the table.
"""

from __future__ import annotations

import abc
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from harness.data_cache import DATA_DIR_ENV, data_dir
from harness.plugin import Dataset, DatasetPlugin, DataUnavailableError

__all__ = ["RemoteDataset", "RemoteFile", "file_hash", "hash_mismatch"]


#: git's blob id (what ``git hash-object FILE`` prints): the one algorithm of a
#: ``known_hash`` that pooch does not provide
GITBLOB = "gitblob"


def file_hash(path: str | Path, algorithm: str) -> str:
    """Hex digest of a file.

    Parameters
    ----------
    path : str or Path
        The file.
    algorithm : str
        Any algorithm :func:`pooch.file_hash` provides (``sha256``, ``md5``, ...), or
        ``gitblob``.

    Returns
    -------
    str
        The lower-case hex digest.
    """
    if algorithm != GITBLOB:
        import pooch

        return pooch.file_hash(str(path), alg=algorithm)
    # By hand, as pooch has no such algorithm: a git blob id is the SHA-1 of the
    # header "blob <size in bytes>\0" followed by the file's content.
    path = Path(path)
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def hash_mismatch(path: str | Path, known_hash: str) -> str:
    """Check a file against a known hash, with pooch's parsing and comparison.

    Parameters
    ----------
    path : str or Path
        The file.
    known_hash : str
        ``"<algorithm>:<hex>"`` as pooch writes it (``sha256:...``, ``md5:...``), or
        ``"gitblob:<hex>"``.

    Returns
    -------
    str
        ``""`` if the file hashes to ``known_hash``; else
        ``"<algorithm> <actual hex>, expected <hex>"`` for an error message.
    """
    from pooch import hashes

    algorithm = hashes.hash_algorithm(known_hash)
    expected = known_hash.split(":")[-1]
    if algorithm == GITBLOB:  # not a pooch algorithm: compared by hand, like pooch does
        matches = file_hash(path, GITBLOB) == expected.lower()
    else:
        matches = hashes.hash_matches(str(path), known_hash)
    return "" if matches else f"{algorithm} {file_hash(path, algorithm)}, expected {expected}"


@dataclass(frozen=True)
class RemoteFile:
    """One downloaded file of a data set.

    Parameters
    ----------
    url : str
        Canonical URL.
    filename : str
        Name of the file in the cache directory.
    known_hash : str or None
        ``"sha256:<hex>"``, ``"gitblob:<hex>"`` or ``"md5:<hex>"``; None when no hash
        was ever published (trust on first use: the first download pins a sha256).
    """

    url: str
    filename: str
    known_hash: str | None = None

    def path(self) -> Path:
        return data_dir() / self.filename

    def pin_path(self) -> Path:
        return self.path().with_name(self.filename + ".pinned-sha256")

    def expected_hash(self) -> str | None:
        pin = self.pin_path()
        if self.known_hash is None and pin.exists():
            return f"sha256:{pin.read_text().strip()}"
        return self.known_hash

    def describe(self) -> str:
        expected = self.expected_hash() or "none published (pinned on first download)"
        return f"file {self.filename!r} from {self.url} (hash {expected})"


class RemoteDataset(DatasetPlugin):
    """Base of the downloaded data sets.

    Class attributes
    ----------------
    url, filename, known_hash : str, str, str or None
        The data set's (first) file: see :class:`RemoteFile`. Its path is what
        :meth:`parse` receives.
    extra_files : tuple of RemoteFile
        Further files of the same data set (e.g. a separate test file); each is
        downloaded, hash-checked and pinned exactly like the first, and
        :meth:`file_path` gives their cached paths inside :meth:`parse`.
    """

    url: ClassVar[str] = ""
    filename: ClassVar[str] = ""
    known_hash: ClassVar[str | None] = None
    extra_files: ClassVar[tuple[RemoteFile, ...]] = ()

    def remote_files(self) -> tuple[RemoteFile, ...]:
        """Every file of the data set, the one :meth:`parse` receives first."""
        return (RemoteFile(self.url, self.filename, self.known_hash), *self.extra_files)

    def path(self) -> Path:
        return self.remote_files()[0].path()

    def file_path(self, filename: str) -> Path:
        """Cached path of one of :meth:`remote_files` (by file name)."""
        files = {f.filename: f for f in self.remote_files()}
        if filename not in files:
            raise KeyError(f"{self.name} has no file {filename!r} (files: {list(files)})")
        return files[filename].path()

    def expected_hash(self) -> str | None:
        return self.remote_files()[0].expected_hash()

    def _describe(self, remote: RemoteFile | None = None) -> str:
        remote = remote or self.remote_files()[0]
        return (
            f"{remote.describe()}; run `{self.fetch_command()}` where the network is "
            f"reachable, or put the file by hand at {remote.path()} (set ${DATA_DIR_ENV} "
            f"to use another folder)"
        )

    def _verify_file(self, remote: RemoteFile) -> tuple[bool, str]:
        path = remote.path()
        if not path.exists():
            return False, f"{self.name} is not available offline: {self._describe(remote)}"
        expected = remote.expected_hash()
        if expected is None:
            return True, "no published hash and none pinned yet"
        return self._check_hash(path, expected)

    def _check_hash(self, path: Path, known_hash: str) -> tuple[bool, str]:
        """``(True, "")`` if the cached file ``path`` hashes to ``known_hash``, else
        ``(False, reason)``: the file is corrupt and not used."""
        mismatch = hash_mismatch(path, known_hash)
        if mismatch:
            return False, (
                f"{self.name}: cached file {path} is corrupt or not the published one "
                f"({mismatch}); it was not used. Delete it and run `{self.fetch_command()}`"
            )
        return True, ""

    def verify(self) -> tuple[bool, str]:
        """Check every cached file against its hash; ``(ok, reason)`` (the first
        problem found, or the note of a file still waiting for its pin)."""
        notes = []
        for remote in self.remote_files():
            ok, reason = self._verify_file(remote)
            if not ok:
                return False, reason
            notes.append(reason)
        return True, next((note for note in notes if note), "")

    def available(self) -> tuple[bool, str]:
        return self.verify()

    def files_present(self) -> bool:
        return all(remote.path().exists() for remote in self.remote_files())

    def _fetch_file(self, remote: RemoteFile) -> str:
        import pooch

        if not self._verify_file(remote)[0]:
            try:
                pooch.retrieve(remote.url, known_hash=None, fname=remote.filename,
                               path=data_dir(), progressbar=False)
            except Exception as exc:  # network errors come in many types
                raise DataUnavailableError(
                    f"{self.name}: download failed ({type(exc).__name__}: {exc}); "
                    f"{self._describe(remote)}"
                ) from None
        ok, reason = self._verify_file(remote)
        if not ok:
            remote.path().unlink(missing_ok=True)
            raise DataUnavailableError(reason + " (the downloaded file was deleted)")
        if remote.expected_hash() is None:
            digest = file_hash(remote.path(), "sha256")
            remote.pin_path().write_text(digest + "\n")
            return (f"{self.name}: downloaded {remote.path()}; no published hash, pinned "
                    f"sha256 {digest}")
        return f"{self.name}: {remote.path()} verified ({remote.expected_hash()})"

    def fetch(self) -> str:
        """Download every file into the cache (pooch), verify each, pin a hash where
        none was published."""
        return "\n".join(self._fetch_file(remote) for remote in self.remote_files())

    @abc.abstractmethod
    def parse(self, path: Path, **params) -> tuple[np.ndarray, np.ndarray | None, dict]:
        """Turn the verified file into ``(X, y, extra meta)``."""

    def load(self, **params) -> Dataset:
        ok, reason = self.verify()
        if not ok:
            raise DataUnavailableError(reason)
        X, y, extra = self.parse(self.path(), **params)
        meta = {
            "source": "downloaded",
            "url": self.url,
            "file": str(self.path()),
            "sha256": file_hash(self.path(), "sha256"),
            "hash_checked": self.expected_hash() or "none (trust on first use)",
            "hash_pinned_on_first_use": self.known_hash is None,
            "stand_in_for": None,
            "thesis_name": self.thesis_name,
            "description": self.description,
            **extra,
        }
        if self.extra_files:
            meta["extra_files"] = {
                remote.filename: {"url": remote.url, "sha256": file_hash(remote.path(), "sha256"),
                                  "hash_checked": remote.expected_hash()
                                  or "none (trust on first use)"}
                for remote in self.extra_files}
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), y, meta)
