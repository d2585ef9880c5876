"""Shared core of the dataset plugins whose data is a downloaded file.

One code path for every such data set: the file lives in a cache directory
(``$HARNESS_DATA_DIR``, else pooch's per-user cache), is downloaded by
:func:`pooch.retrieve` from its sources in turn (the canonical URL, then public
mirrors), and is verified before it is ever parsed, by a published hash of its bytes
or, where public copies differ in their container bytes but not in their data, by
the hash of its decoded content (:data:`harness.datasets._hashes.CONTENT`). A file that does
not verify is reported and never used. Where no hash was ever published, the first
verified file pins one (trust on first use): the hash is written beside the file,
every later load is checked against it, and the dataset meta says so.

A user who already has the file installs it without the network: ``harness fetch
NAME --file PATH`` verifies it the same way and writes it into the cache atomically
(:meth:`RemoteDataset.install`). Offline and not cached, :meth:`RemoteDataset.load`
raises :class:`harness.plugin.DataUnavailableError` naming the file, its sources,
its hash and where to put it; ``fetch`` names every source it tried and why it
failed. In a workflow run that becomes a marked gap in the table.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from harness.datasets._hashes import (CONTENT, GITBLOB, content_sha256, describe_content,
                              file_hash, hash_mismatch)
from harness.data_cache import DATA_DIR_ENV, data_dir
from harness.plugin import Dataset, DatasetPlugin, DataUnavailableError
from harness.records import write_bytes_atomic, write_text_atomic

__all__ = ["CONTENT", "GITBLOB", "RemoteDataset", "RemoteFile", "file_hash",
           "hash_mismatch"]


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
        ``"sha256:<hex>"``, ``"gitblob:<hex>"``, ``"md5:<hex>"`` (of the file's bytes)
        or ``"content-sha256:<hex>"`` (of its decoded content,
        :meth:`RemoteDataset.content`); None when no hash was ever published (trust
        on first use: the first verified file pins one of ``pin_algorithm``).
    mirrors : tuple of str
        Further sources, tried in order after ``url``; each is verified by the same
        hash.
    pin_algorithm : str
        What a trust-on-first-use pin hashes: ``"sha256"`` (the bytes) or
        ``"content-sha256"`` (the decoded content).
    """

    url: str
    filename: str
    known_hash: str | None = None
    mirrors: tuple[str, ...] = ()
    pin_algorithm: str = "sha256"

    def urls(self) -> tuple[str, ...]:
        """Every source: the canonical URL first, then the mirrors."""
        return (self.url, *self.mirrors)

    def path(self) -> Path:
        return data_dir() / self.filename

    def pin_path(self) -> Path:
        return self.path().with_name(f"{self.filename}.pinned-{self.pin_algorithm}")

    def expected_hash(self) -> str | None:
        pin = self.pin_path()
        if self.known_hash is None and pin.exists():
            return f"{self.pin_algorithm}:{pin.read_text().strip()}"
        return self.known_hash

    def describe(self) -> str:
        expected = self.expected_hash() or (
            f"none published ({self.pin_algorithm} pinned on first use)")
        return (f"file {self.filename!r} from {' or '.join(self.urls())} "
                f"(hash {expected})")


class RemoteDataset(DatasetPlugin):
    """Base of the downloaded data sets.

    Class attributes
    ----------------
    url, filename, known_hash : str, str, str or None
        The data set's (first) file: see :class:`RemoteFile`. Its path is what
        :meth:`parse` receives.
    mirrors : tuple of str
        Public copies of the first file, tried after ``url``.
    pin_algorithm : str
        ``"sha256"`` or ``"content-sha256"``: what a trust-on-first-use pin of the
        first file hashes.
    extra_files : tuple of RemoteFile
        Further files of the same data set (e.g. a separate test file); each is
        downloaded, hash-checked and pinned exactly like the first, and
        :meth:`file_path` gives their cached paths inside :meth:`parse`.
    """

    url: ClassVar[str] = ""
    filename: ClassVar[str] = ""
    known_hash: ClassVar[str | None] = None
    mirrors: ClassVar[tuple[str, ...]] = ()
    pin_algorithm: ClassVar[str] = "sha256"
    extra_files: ClassVar[tuple[RemoteFile, ...]] = ()

    def remote_files(self) -> tuple[RemoteFile, ...]:
        """Every file of the data set, the one :meth:`parse` receives first."""
        first = RemoteFile(self.url, self.filename, self.known_hash, tuple(self.mirrors),
                           self.pin_algorithm)
        return (first, *self.extra_files)

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

    def content(self, path: Path) -> np.ndarray:
        """The decoded content of a file whose hash is a ``content-sha256``: an array
        of fixed shape and dtype in a canonical order; raise ``ValueError`` naming
        what is wrong if ``path`` does not hold it. Plugins pinned by content
        override this; any other plugin has no content to hash (a plugin bug)."""
        raise TypeError(f"{self.name} pins no content hash: only a plugin whose file has a "
                        f"content-sha256 hash defines content(path); override it there")

    def cache_form(self, src: Path) -> Path:
        """The file in the form the cache keeps (and :meth:`parse` reads). Default:
        ``src`` itself; a plugin that accepts other forms (e.g. R data for a MATLAB
        file) writes the converted file beside ``src`` and returns its path."""
        return src

    def _describe(self, remote: RemoteFile | None = None) -> str:
        remote = remote or self.remote_files()[0]
        return (
            f"{remote.describe()}; run `{self.fetch_command()}` where the network is "
            f"reachable, or `{self.fetch_command()} --file PATH` with a copy you have, "
            f"or put the file by hand at {remote.path()} (set ${DATA_DIR_ENV} to use "
            f"another folder)"
        )

    def _verify_file(self, remote: RemoteFile) -> tuple[bool, str]:
        path = remote.path()
        if not path.exists():
            return False, f"{self.name} is not available offline: {self._describe(remote)}"
        expected = remote.expected_hash()
        if expected is None:
            return True, "no published hash and none pinned yet"
        return self._check_hash(path, expected)

    def mismatch(self, path: Path, known_hash: str) -> str:
        """``""`` if ``path`` verifies against ``known_hash`` (of its bytes or, for
        ``content-sha256:``, of :meth:`content`); else what was expected and found."""
        algorithm, _, expected = known_hash.partition(":")
        if algorithm != CONTENT:
            return hash_mismatch(path, known_hash)
        try:
            array = self.content(path)
        except Exception as exc:  # a wrong file fails to decode in many ways
            return (f"expected content sha256 {expected}, found a file whose content "
                    f"cannot be read ({type(exc).__name__}: {exc})")
        found = content_sha256(array)
        if found == expected.lower():
            return ""
        return f"expected content sha256 {expected}, found {describe_content(array)}"

    def _check_hash(self, path: Path, known_hash: str) -> tuple[bool, str]:
        """``(True, "")`` if the cached file ``path`` verifies against
        ``known_hash``, else ``(False, reason)``: the file is corrupt and not used."""
        mismatch = self.mismatch(path, known_hash)
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

    def _install_as(self, remote: RemoteFile, src: Path, origin: str) -> str:
        """Verify ``src`` as ``remote`` and write it into the cache atomically; raise
        :class:`DataUnavailableError` naming what was expected and found otherwise.
        Returns the line to print."""
        converted = None
        try:
            form = self.cache_form(Path(src))
            converted = form if form != Path(src) else None
        except Exception as exc:  # a wrong file fails to convert in many ways
            raise DataUnavailableError(
                f"{origin} is not {remote.filename} (expected "
                f"{remote.expected_hash() or 'a file to pin'}; found {type(exc).__name__}: "
                f"{exc})") from None
        try:
            expected = remote.expected_hash()
            if expected is not None:
                mismatch = self.mismatch(form, expected)
                if mismatch:
                    raise DataUnavailableError(f"{origin} is not {remote.filename}: {mismatch}")
                pin = None
            elif remote.pin_algorithm == CONTENT:
                pin = content_sha256(self.content(form))
            else:
                pin = file_hash(form, remote.pin_algorithm)
            write_bytes_atomic(remote.path(), form.read_bytes())
        except ValueError as exc:  # content() of a trust-on-first-use file
            raise DataUnavailableError(f"{origin} is not {remote.filename}: {exc}") from None
        finally:
            if converted is not None:
                converted.unlink(missing_ok=True)
        if pin is None:
            return f"{self.name}: {remote.path()} from {origin}, verified ({expected})"
        write_text_atomic(remote.pin_path(), pin + "\n")
        return (f"{self.name}: {remote.path()} from {origin}; no published hash, pinned "
                f"{remote.pin_algorithm} {pin} (trust on first use)")

    def install(self, src: str | Path) -> str:
        """Install a file the user already has (``harness fetch NAME --file PATH``).

        The file is verified like a download (by content where the data set is pinned
        by content) and written into the cache atomically, in the form the loader
        reads. It is matched to the data set's file of the same name, else to the
        first whose hash it has.

        Parameters
        ----------
        src : str or Path
            The file.

        Returns
        -------
        str
            What was installed where, and the hash it was verified by.

        Raises
        ------
        DataUnavailableError
            If the file verifies as none of the data set's files: the message names
            what each expected and what was found.
        """
        src = Path(src)
        if not src.is_file():
            raise DataUnavailableError(f"{self.name}: --file {src} does not exist")
        files = self.remote_files()
        same_name = [remote for remote in files if remote.filename == src.name]
        if len(files) == 1:
            candidates = list(files)
        else:  # a file of a data set of several files: by name, else by hash
            candidates = same_name + [remote for remote in files
                                      if remote not in same_name and remote.expected_hash()]
        refusals = []
        for remote in candidates:
            try:
                return self._install_as(remote, src, str(src))
            except DataUnavailableError as exc:
                refusals.append(str(exc))
        raise DataUnavailableError(f"{self.name}: refused {src}:\n  - "
                                   + "\n  - ".join(refusals))

    def _fetch_file(self, remote: RemoteFile) -> str:
        if self._verify_file(remote)[0]:
            if remote.expected_hash() is not None:
                return f"{self.name}: {remote.path()} verified ({remote.expected_hash()})"
            try:  # put in the cache by hand and not pinned yet: pin it if it is the data
                return self._install_as(remote, remote.path(), str(remote.path()))
            except DataUnavailableError as exc:
                failures = [str(exc)]
        else:
            failures = []
        import pooch

        partial = data_dir() / ".downloads"
        partial.mkdir(parents=True, exist_ok=True)
        for url in remote.urls():
            download = partial / remote.filename
            try:
                pooch.retrieve(url, known_hash=None, fname=remote.filename, path=partial,
                               progressbar=False)
                return self._install_as(remote, download, url)
            except DataUnavailableError as exc:
                failures.append(f"{exc} (the download was deleted)")
            except Exception as exc:  # network errors come in many types
                failures.append(f"{url}: download failed ({type(exc).__name__}: {exc})")
            finally:
                download.unlink(missing_ok=True)
        raise DataUnavailableError(
            f"{self.name}: no source gave {remote.filename}; tried:\n  - "
            + "\n  - ".join(failures) + f"\n{self._describe(remote)}")

    def fetch(self) -> str:
        """Download every file into the cache (pooch), from its sources in turn,
        verify each, pin a hash where none was published. Every file is tried; if
        any fails, the error names each failure (and what did arrive)."""
        done, failed = [], []
        for remote in self.remote_files():
            try:
                done.append(self._fetch_file(remote))
            except DataUnavailableError as exc:
                failed.append(str(exc))
        if failed:
            raise DataUnavailableError("\n".join(failed + done))
        return "\n".join(done)

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
            "sources": list(self.remote_files()[0].urls()),
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
