"""The thesis' own numbers, read from ``results/reference/*.csv`` (copied verbatim
from the thesis tables; never edited).

Each CSV is long-format with the columns ``quantity, method, dataset, value`` (plus
``unit`` in some files); rows with an empty ``method`` describe the data set (``n``,
``k``, ``output_dim`` ...).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd

__all__ = ["load_reference", "reference_value"]


@functools.cache
def _read(path: str) -> pd.DataFrame:
    frame = pd.read_csv(path, dtype={"method": "string", "dataset": "string"})
    frame["method"] = frame["method"].fillna("")
    return frame


def load_reference(reference_dir: str | Path, filename: str) -> pd.DataFrame:
    """The reference CSV ``filename`` as a DataFrame (empty method -> ``""``).

    Raises
    ------
    FileNotFoundError
        Naming the missing file and where the reference CSVs come from.
    """
    path = Path(reference_dir) / filename
    if not path.exists():
        raise FileNotFoundError(
            f"thesis reference file {path} is missing; the reference CSVs live in "
            f"results/reference/ of the repository (run from the repository root or "
            f"set reference_dir in the profile)"
        )
    return _read(str(path.resolve()))


def reference_value(
    reference_dir: str | Path, filename: str, quantity: str, method: str, dataset: str
) -> float | None:
    """One thesis number, or None when the thesis does not report it."""
    frame = load_reference(reference_dir, filename)
    hit = frame[
        (frame["quantity"] == quantity)
        & (frame["method"] == method)
        & (frame["dataset"] == dataset)
    ]
    if hit.empty or pd.isna(hit["value"].iloc[0]):
        return None
    return float(hit["value"].iloc[0])
