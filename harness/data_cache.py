"""Where downloaded data sets live: ``$HARNESS_DATA_DIR``, else pooch's per-user
cache directory. Used by the dataset plugins and by ``harness doctor``."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR_ENV", "data_dir"]

DATA_DIR_ENV = "HARNESS_DATA_DIR"


def data_dir() -> Path:
    """The download cache: ``$HARNESS_DATA_DIR`` or pooch's user cache directory."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    import pooch

    return Path(pooch.os_cache("weinberger-harness"))
