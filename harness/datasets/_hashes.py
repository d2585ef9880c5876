"""Hashes of downloaded data files: of the bytes (pooch's algorithms and git's blob
id) and of the decoded content (:func:`content_sha256`), for data sets whose
public copies differ in their container bytes but not in their content."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

__all__ = ["CONTENT", "GITBLOB", "content_sha256", "describe_content", "file_hash",
           "hash_mismatch"]

#: the "algorithm" of a hash of a data set's decoded content (:func:`content_sha256`)
CONTENT = "content-sha256"


def content_sha256(array: np.ndarray) -> str:
    """sha256 of an array's values: its bytes in C order (the dtype and shape are
    checked by the caller and named in messages, :func:`describe_content`)."""
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def describe_content(array: np.ndarray) -> str:
    """``"content sha256 <hex> of a (400, 112, 92) uint8 array"``."""
    return f"content sha256 {content_sha256(array)} of a {array.shape} {array.dtype} array"


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
