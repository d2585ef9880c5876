"""The thesis' own numbers, read from ``results/reference/*.csv`` (copied verbatim
from the thesis tables; never edited).

Each CSV is long-format with the columns ``quantity, method, dataset, value`` (plus
``unit`` in some files); rows with an empty ``method`` describe the data set (``n``,
``k``, ``output_dim`` ...). ``thesis_claims.csv`` is the exception: one quoted number
per row (``id, section, claim, value, unit, conditions``), read by
:func:`thesis_claim`.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported where a frame is read, not to validate a profile
    import pandas as pd

__all__ = ["load_reference", "reference_methods", "reference_value", "CLAIMS_FILE",
           "thesis_claim", "thesis_claim_values"]

CLAIMS_FILE = "thesis_claims.csv"


@functools.cache
def _read(path: str) -> pd.DataFrame:
    import pandas as pd

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


def reference_methods(reference_dir: str | Path, filename: str) -> list[str]:
    """The reference CSV's row labels (its ``method`` column: non-empty, in the file's
    order, each once), read without pandas: what validating a profile needs.

    Raises
    ------
    FileNotFoundError
        As :func:`load_reference`.
    """
    path = Path(reference_dir) / filename
    if not path.exists():
        load_reference(reference_dir, filename)  # raises, naming the file
    with open(path, newline="") as fh:
        return list(dict.fromkeys(row["method"] for row in csv.DictReader(fh)
                                  if row.get("method")))


def reference_value(
    reference_dir: str | Path, filename: str, quantity: str, method: str, dataset: str
) -> float | None:
    """One thesis number, or None when the thesis does not report it (no such row, or
    an empty value). Read without pandas (a job's parameters need it in the parent
    process, :mod:`harness.results.common.declare.grid_profile`); the first matching row
    counts, as in the file's order.

    Raises
    ------
    FileNotFoundError
        As :func:`load_reference`.
    """
    value = _values(str(Path(reference_dir) / filename)).get((quantity, method, dataset))
    return None if value in (None, "") else float(value)


@functools.cache
def _values(path: str) -> dict[tuple[str, str, str], str]:
    if not Path(path).exists():
        load_reference(Path(path).parent, Path(path).name)  # raises, naming the file
    values: dict[tuple[str, str, str], str] = {}
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            key = (row["quantity"], row.get("method") or "", row.get("dataset") or "")
            values.setdefault(key, (row.get("value") or "").strip())
    return values


def thesis_claim(reference_dir: str | Path, claim_id: str, numeric: bool = True) -> dict:
    """One row of ``thesis_claims.csv`` as a dict (``id, section, claim, value, unit,
    conditions``; ``value`` a float, or its text with ``numeric=False``: see
    :func:`thesis_claim_values` for a row that quotes several numbers, ``"100/21/0"``).

    Raises
    ------
    FileNotFoundError
        The file is missing (see :func:`load_reference`).
    KeyError
        No row has this id; the message lists the ids there are.
    """
    path = Path(reference_dir) / CLAIMS_FILE
    if not path.exists():
        load_reference(reference_dir, CLAIMS_FILE)  # raises the explanatory error
    import pandas as pd

    frame = pd.read_csv(path, dtype={"id": "string"})
    hit = frame[frame["id"] == claim_id]
    if hit.empty:
        raise KeyError(f"no thesis claim {claim_id!r} in {path}; ids: "
                       f"{', '.join(frame['id'])}")
    row = hit.iloc[0].to_dict()
    row["value"] = float(row["value"]) if numeric else str(row["value"])
    return row


def thesis_claim_values(reference_dir: str | Path, claim_id: str) -> list[float]:
    """The numbers of a row of ``thesis_claims.csv`` whose value quotes several,
    separated by ``/`` (``"100/21/0"`` -> ``[100.0, 21.0, 0.0]``), in order."""
    value = thesis_claim(reference_dir, claim_id, numeric=False)["value"]
    return [float(part) for part in value.split("/")]
