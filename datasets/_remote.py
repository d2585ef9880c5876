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
from pathlib import Path
from typing import ClassVar

import numpy as np

from harness.data_cache import DATA_DIR_ENV, data_dir
from harness.plugin import Dataset, DatasetPlugin, DataUnavailableError

__all__ = ["RemoteDataset", "file_hash"]

def file_hash(path: str | Path, algorithm: str) -> str:
    """Hex digest of a file: ``sha256``, ``md5`` or ``gitblob`` (git's blob SHA-1)."""
    path = Path(path)
    if algorithm == "gitblob":
        digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    else:
        digest = hashlib.new(algorithm)
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class RemoteDataset(DatasetPlugin):
    """Base of the downloaded data sets.

    Class attributes
    ----------------
    url : str
        Canonical URL.
    filename : str
        Name of the file in the cache directory.
    known_hash : str or None
        ``"sha256:<hex>"``, ``"gitblob:<hex>"`` or ``"md5:<hex>"``; None when no hash
        was ever published (trust on first use).
    """

    url: ClassVar[str] = ""
    filename: ClassVar[str] = ""
    known_hash: ClassVar[str | None] = None

    def path(self) -> Path:
        return data_dir() / self.filename

    def _pinned_hash(self) -> str | None:
        pin = self.path().with_name(self.filename + ".pinned-sha256")
        return f"sha256:{pin.read_text().strip()}" if pin.exists() else None

    def expected_hash(self) -> str | None:
        return self.known_hash or self._pinned_hash()

    def _describe(self) -> str:
        expected = self.expected_hash() or "none published (pinned on first download)"
        return (
            f"file {self.filename!r} from {self.url} (hash {expected}); "
            f"run `{self.fetch_command()}` where the network is reachable, or put the "
            f"file by hand at {self.path()} (set ${DATA_DIR_ENV} to use another folder)"
        )

    def verify(self) -> tuple[bool, str]:
        """Check the cached file against its hash; ``(ok, reason)``."""
        path = self.path()
        if not path.exists():
            return False, f"{self.name} is not available offline: {self._describe()}"
        expected = self.expected_hash()
        if expected is None:
            return True, "no published hash and none pinned yet"
        algorithm, _, hexdigest = expected.partition(":")
        actual = file_hash(path, algorithm)
        if actual != hexdigest.lower():
            return False, (
                f"{self.name}: cached file {path} is corrupt or not the published one "
                f"({algorithm} {actual}, expected {hexdigest}); it was not used. Delete it "
                f"and run `{self.fetch_command()}`"
            )
        return True, ""

    def available(self) -> tuple[bool, str]:
        return self.verify()

    def fetch(self) -> str:
        """Download into the cache (pooch), verify, pin a hash if none was published."""
        import pooch

        if not self.verify()[0] or not self.path().exists():
            try:
                pooch.retrieve(self.url, known_hash=None, fname=self.filename,
                               path=data_dir(), progressbar=False)
            except Exception as exc:  # network errors come in many types
                raise DataUnavailableError(
                    f"{self.name}: download failed ({type(exc).__name__}: {exc}); "
                    f"{self._describe()}"
                ) from None
        ok, reason = self.verify()
        if not ok:
            self.path().unlink(missing_ok=True)
            raise DataUnavailableError(reason + " (the downloaded file was deleted)")
        if self.expected_hash() is None:
            digest = file_hash(self.path(), "sha256")
            self.path().with_name(self.filename + ".pinned-sha256").write_text(digest + "\n")
            return f"{self.name}: downloaded {self.path()}; no published hash, pinned sha256 {digest}"
        return f"{self.name}: {self.path()} verified ({self.expected_hash()})"

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
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), y, meta)
