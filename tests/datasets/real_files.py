"""Where the tests find real copies of thesis data files: ``../shared/data/real/``
beside the repository (CI's clone has a copy of ``shared/`` there), or the folder
``$HARNESS_REAL_DATA`` names (a work tree elsewhere). Absent, the test is skipped
with the reason: a user's clone has no such files, and they are never committed."""

import os
from pathlib import Path

import pytest

REAL_DIR = Path(os.environ.get("HARNESS_REAL_DATA")
                or Path(__file__).resolve().parents[3] / "shared" / "data" / "real")


def real_file(name: str) -> Path:
    """The path of a real data file, or skip the test saying where it was looked for."""
    path = REAL_DIR / name
    if not path.is_file():
        pytest.skip(f"real data file {name} not found at {path} (a copy of shared/ beside "
                    f"the repository, or $HARNESS_REAL_DATA, provides it)")
    return path
