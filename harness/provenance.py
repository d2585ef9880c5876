"""Where a number came from: commit, versions, machine, threads."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["provenance", "git_commit", "package_versions", "blas_info"]

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "weinberger-harness", "numpy", "scipy", "scikit-learn", "pandas", "snakemake",
    "threadpoolctl", "cvxpy", "clarabel", "scs", "cvxopt", "sdpa-python", "mosek", "numba",
)


@functools.cache
def git_commit() -> dict:
    """The repository's HEAD commit and whether the tree had uncommitted changes."""
    def git(*args: str) -> str:
        out = subprocess.run(
            ["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, timeout=10
        )
        return out.stdout.strip() if out.returncode == 0 else ""

    try:
        commit = git("rev-parse", "HEAD")
        dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "", False
    return {"commit": commit or "unknown", "dirty": dirty}


@functools.cache
def package_versions() -> dict:
    """Installed versions of the packages that can change a result."""
    found = {}
    for name in PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def blas_info() -> list[dict]:
    """threadpoolctl's view of the loaded BLAS/OpenMP libraries and their threads."""
    from threadpoolctl import threadpool_info

    keep = ("user_api", "internal_api", "version", "num_threads", "threading_layer")
    return [{k: lib.get(k) for k in keep} for lib in threadpool_info()]


def provenance() -> dict:
    """Commit, versions, machine and thread settings for a record, and how the job
    was started: ``"job server"`` (forked by :mod:`harness.jobserver`, whose pid is
    in ``HARNESS_SERVED_BY``) or ``"own process"``."""
    return {
        "git": git_commit(),
        "python": platform.python_version(),
        "packages": package_versions(),
        "machine": {
            "node": platform.node(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(),
        },
        "blas": blas_info(),
        "started_by": "job server" if os.environ.get("HARNESS_SERVED_BY") else "own process",
    }
