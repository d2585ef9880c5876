"""The register's "number" entries of a thesis table's rows (issue 51): one claim per
row the thesis prints ("PCA 1.93 18.22 ...", "MVU 0.772 0.974 ..."), decided cell by
cell on the table's long CSV under the entry's readings.

A row entry is found in the claims register by its id prefix (a table's
``ROW_PREFIXES``: ``"s2-1-6-table-2-1-test-knn-"`` -> the measure
``test_knn_error``), and its row by the label the quote starts with (the thesis'
words before the first tab, compared without spaces: ``var. MVU (CG) (LLE)`` is the
table's ``var.MVU(CG)(LLE)``). A cell reproduces the thesis' number within a
:class:`RowReading`'s tolerance: the largest of an absolute band, a relative one and a
number of standard errors of our mean (``ours_std / sqrt(n_runs)``), as the entry's
reading states it. Cells of stand-in data, gaps and uncertified SDP solves are left out
(:class:`harness.results.common.write.table_claims.Values`); a row with no measured cell is
not measured.
"""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from harness.claims import Reading, make_claim, readings_claim
from harness.register import load_register
from harness.results.common.write.table_claims import SHORT, uncertified
from harness.results.common.write.tables import AVERAGE

__all__ = ["RowReading", "row_entries", "row_claims"]


@dataclasses.dataclass(frozen=True)
class RowReading:
    """One reading of a row entry: a cell reproduces the thesis' number when
    ``|ours - thesis|`` is at most the largest of ``absolute``, ``relative`` x
    ``|thesis|`` and ``standard_errors`` x our mean's standard error; ``average``
    reads only the Average column, else every data set's column."""

    name: str
    absolute: float = 0.0
    relative: float = 0.0
    standard_errors: float = 0.0
    average: bool = False

    def tolerance(self, thesis: float, std: float, runs: float) -> float:
        """The band of one cell."""
        se = (std / math.sqrt(runs) if runs and runs > 1 and math.isfinite(std)
              else 0.0)
        return max(self.absolute, self.relative * abs(thesis), self.standard_errors * se)


def _key(label: str) -> str:
    return "".join(label.split()).lower()


def row_entries(prefixes: dict[str, str]) -> dict[str, tuple[str, str]]:
    """The register's row entries of a table, by id: ``(measure, row label)``, for
    every entry whose id starts with a key of ``prefixes`` (its value the measure) and
    whose quote starts with the row's label and a tab."""
    found = {}
    for entry in load_register().values():
        for prefix, measure in prefixes.items():
            if entry.id.startswith(prefix) and "\t" in entry.quote:
                found[entry.id] = (measure, entry.quote.split("\t")[0].strip())
    return found


def _cells(frame: pd.DataFrame, measure: str, label: str) -> pd.DataFrame:
    rows = frame[(frame["measure"] == measure)
                 & (frame["thesis_label"].map(_key) == _key(label))
                 & ~frame["stand_in"].astype(bool) & (frame["status"] == "ok")
                 & ~uncertified(frame)]
    thesis = pd.to_numeric(rows["thesis"], errors="coerce")
    return rows[thesis.notna() & pd.to_numeric(rows["ours"], errors="coerce").notna()]


def row_claims(name: str, frame: pd.DataFrame | None, prefixes: dict[str, str],
               readings: tuple[RowReading, ...], decimals: int = 3,
               missing: str = "") -> list[dict]:
    """One claim per row entry of the table ``name`` (:func:`row_entries`), its
    readings :class:`RowReading` each checked cell by cell (a cell outside the band is
    a counterexample of the row's numbers); without a frame every row is not measured,
    its evidence ``missing`` (why)."""
    out = []
    for entry, (measure, label) in row_entries(prefixes).items():
        cells = (_cells(frame, measure, label) if frame is not None
                 else pd.DataFrame(columns=["dataset"]))
        found = []
        for reading in readings:
            part = cells[(cells["dataset"] == AVERAGE) == reading.average]
            checks, said = [], []
            for r in part.itertuples():
                thesis, ours = float(r.thesis), float(r.ours)
                std = float(r.ours_std) if pd.notna(r.ours_std) else math.nan
                runs = float(r.n_runs) if pd.notna(r.n_runs) else 0.0
                band = reading.tolerance(thesis, std, runs)
                checks.append(abs(ours - thesis) <= band)
                said.append(f"{r.dataset} {ours:.{decimals}f} vs {thesis:.{decimals}f} "
                            f"(band {band:.{decimals}f})")
            found.append(Reading(reading.name, checks, "; ".join(said) or (
                missing if frame is None and missing else "no cell measured"), "every"))
        text = (f"{name}: the thesis' row {label} ({SHORT.get(measure, measure)}) is "
                f"reproduced cell by cell")
        if len(found) > 1:
            out.append(readings_claim(name, text, found, entry))
        else:
            out.append(make_claim(name, text, found[0].checks, found[0].evidence,
                                  "every", entry))
    return out
