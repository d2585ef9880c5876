"""The measured explanations printed beside table cells outside the tolerance:
``config/known_deviations.yaml``, read by the tables' writers and by the number audit
(:mod:`harness.number_audit`), which checks every literal number of a reason."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

__all__ = ["DEVIATIONS_FILE", "PLACEHOLDER", "known_deviations"]

#: the measured reasons printed beside table cells (an input of every table result)
DEVIATIONS_FILE = Path(__file__).resolve().parents[1] / "config" / "known_deviations.yaml"

#: a number of this run inside a reason: ``{ours}``, ``{std}`` or ``{runs}`` of the cell
#: the reason explains, or of another cell of the table: ``{ours:METHOD/DATASET/MEASURE}``
PLACEHOLDER = re.compile(r"\{(ours|std|runs)(?::([^{}/]+)/([^{}/]+)/([^{}/]+))?\}")


def known_deviations(table: str, path: Path | None = None) -> dict[tuple[str, str, str], str]:
    """Measured explanations of cells outside the tolerance, by
    ``(method, dataset, measure)``, from ``config/known_deviations.yaml``."""
    path = DEVIATIONS_FILE if path is None else path
    if not path.exists():
        return {}
    entries = (yaml.safe_load(path.read_text()) or {}).get(table, [])
    found = {}
    for entry in entries:
        for measure in entry["measures"]:
            found[(entry["method"], entry["dataset"], measure)] = entry["reason"].strip()
    return found
