"""The claims-register entries Table 3.3's cells decide (issue 51), beyond the two
statements of :data:`harness.results.table_3_3.write.CLAIMS`: the table's four rows
(``s3-2-2-table-3-3-*``, lines 2173-2176: one task each, its four kernels' percent
test errors) and the sentences of 3.2.2 that compare the kernels (lines 2154, 2183).

Every reading is the register's: a cell is a kernel's mean test error over the runs
of a task; the noise of a comparison is 2 standard errors of the difference of two
such means (``sqrt(sd_a^2 / n_a + sd_b^2 / n_b)`` from the CSV's ``ours_std`` and
``n_runs``: the register says "2 standard errors over the 10 splits" and the CSV
keeps each kernel's spread, not the paired one -- the literal sense taken). A
comparator ``<=`` ("at most") passes when the claimed side is not worse beyond that
noise and fails when it is; ``<`` and ``>`` pass beyond the noise, fail beyond it the
other way and are undecided in between (:func:`harness.claims.beyond_noise`). A row
reproduces the thesis' numbers when every kernel's mean is within the reading's band:
2 standard errors of our mean with a floor of 0.3 points, or 1.11 points (one test
error of 90).

USPS (the thesis' data) is read from its file; where it is not reachable the
stand-in's cells are checked the same way and shown, never counted
(:func:`harness.claims.stand_in_claim`: "not measured (stand-in)"); with neither the
claim is "not measured". An MVU cell whose SDP solve is not certified optimal is left
out (:func:`~harness.results.common.write.table_claims.uncertified`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import pandas as pd

from harness.claims import (
    Reading, beyond_noise, make_claim, readings_claim, stand_in_claim, verdict_of,
)
from harness.outputs import output_paths
from harness.register import load_register
from harness.report.sections import read_long_table
from harness.results.common.write.table_claims import uncertified
from harness.results.table_3_2.register_claims import at_least
from harness.results.table_3_3 import MEASURE, NAME, THESIS_TASKS

__all__ = ["Cell", "Cells", "Part", "ENTRIES", "ROW_PREFIX", "row_entries", "register_claims"]

KERNELS = ("Linear", "Polynomial", "Gaussian", "MVU")
#: the register's row entries of Table 3.3, by id prefix (the task is the quote's label)
ROW_PREFIX = "s3-2-2-table-3-3-"
#: the row readings' bands: 2 standard errors with a floor, or one test error of 90
FLOOR, ONE_ERROR = 0.3, 1.11


@dataclasses.dataclass(frozen=True)
class Cell:
    """One kernel's mean percent test error on one task, its spread and runs, and the
    thesis' number."""

    mean: float
    sd: float
    runs: int
    thesis: float

    @property
    def se(self) -> float:
        """The standard error of the mean (0 with one run)."""
        return self.sd / math.sqrt(self.runs) if self.runs > 1 and self.sd == self.sd else 0.0


class Cells:
    """The measured cells of one kind of data (the thesis' USPS, or a stand-in), by
    (task, kernel label)."""

    def __init__(self, frame: pd.DataFrame, stand_in: bool):
        rows = frame[(frame["measure"] == MEASURE) & (frame["stand_in"].astype(bool) == stand_in)
                     & (frame["status"] == "ok") & ~uncertified(frame)]
        self.cells: dict[tuple[str, str], Cell] = {}
        self.sources = list(dict.fromkeys(rows["source_dataset"])) if len(rows) else []
        for r in rows.itertuples():
            if r.thesis_label in KERNELS and pd.notna(r.ours):
                self.cells[(str(r.task), r.thesis_label)] = Cell(
                    float(r.ours), float(r.ours_std) if pd.notna(r.ours_std) else math.nan,
                    int(r.n_runs), float(r.thesis) if pd.notna(r.thesis) else math.nan)

    def get(self, task: str, kernel: str) -> Cell | None:
        return self.cells.get((task, kernel))

    def __bool__(self) -> bool:
        return bool(self.cells)


def _noise(a: Cell, b: Cell) -> float:
    """2 standard errors of the difference of the two means."""
    return 2 * math.sqrt(a.se ** 2 + b.se ** 2)


def _compare(cells: Cells, task: str, low: str, high: str, comparator: str):
    """``low``'s error below ``high``'s (``<``: beyond the noise; ``<=``: not above
    beyond it); None where one is not measured."""
    a, b = cells.get(task, low), cells.get(task, high)
    if a is None or b is None:
        return None
    noise = _noise(a, b)
    check = (b.mean - a.mean >= -noise) if comparator == "<=" else beyond_noise(b.mean - a.mean,
                                                                              noise)
    word = {True: "passes", False: "fails"}.get(check, "within 2 standard errors")
    return check, (f"{task} {low} {a.mean:.2f} vs {high} {b.mean:.2f} "
                   f"({low} {comparator} {high}: {word})")


def _over_tasks(low: str, high: str, comparator: str, k: int | None) -> Callable:
    """A test: ``low`` ``comparator`` ``high`` on every task (``k`` None) or on at
    least ``k`` of the four."""
    def test(cells: Cells) -> tuple[list, str]:
        found = [_compare(cells, t, low, high, comparator) for t in THESIS_TASKS]
        found = [f for f in found if f is not None]
        checks, text = [c for c, _ in found], "; ".join(t for _, t in found)
        if k is not None:
            checks, count = at_least(k, len(THESIS_TASKS), checks, "tasks")
            text = "; ".join(x for x in (text, count) if x)
        elif len(found) < len(THESIS_TASKS) and False not in checks:
            checks, text = [], text + f"; no verdict: {len(found)} of 4 tasks measured"
        return checks, text
    return test


def _both(*tests: Callable) -> Callable:
    """A test that is all of ``tests`` (each a reading's part over one kernel)."""
    def test(cells: Cells) -> tuple[list, str]:
        parts = [t(cells) for t in tests]
        checks = [c for p in parts for c in p[0]]
        if any(not p[0] for p in parts) and False not in checks:
            checks = []
        return checks, "; ".join(p[1] for p in parts)
    return test


def _row(task: str, band: Callable[[Cell], float], name: str) -> Callable:
    """A row reading: every kernel's mean within ``band`` of the thesis' number."""
    def test(cells: Cells) -> tuple[list, str]:
        checks, said = [], []
        for kernel in KERNELS:
            c = cells.get(task, kernel)
            if c is None:
                continue
            ok = abs(c.mean - c.thesis) <= band(c)
            checks.append(ok)
            said.append(f"{kernel} {c.mean:.2f} vs {c.thesis:.2f} "
                        f"({'within' if ok else 'outside'} {name})")
        if len(checks) < len(KERNELS) and False not in checks:
            return [], "; ".join(said + [f"no verdict: {len(checks)} of 4 kernels measured"])
        return checks, "; ".join(said)
    return test


@dataclasses.dataclass(frozen=True)
class Part:
    """One register reading: its name and test (cells -> checks, text), its checks
    judged under ``every`` (the tests count tasks themselves)."""

    name: str
    test: Callable


@dataclasses.dataclass(frozen=True)
class Entry:
    id: str
    claim: str
    parts: tuple[Part, ...]


ENTRIES: tuple[Entry, ...] = (
    Entry("s3-2-2-gaussian-good-classification",
          "The Gaussian kernel's generally good performance for large margin "
          "classification: at most the linear kernel's error on at least 3 of 4 tasks, "
          "below MVU's on every task (3.2.2, Table 3.3)",
          (Part("vs linear", _over_tasks("Gaussian", "Linear", "<=", 3)),
           Part("vs MVU", _over_tasks("Gaussian", "MVU", "<", None)))),
    Entry("s3-2-2-mvu-strength-weakness",
          "The strength of MVU for nonlinear dimensionality reduction is generally a "
          "weakness for large margin classification: MVU's error above the linear "
          "kernel's on at least 3 of 4 tasks (3.2.2, Table 3.3)",
          (Part("most tasks", _over_tasks("Linear", "MVU", "<", 3)),)),
    Entry("s3-2-2-poly-gauss-more-powerful",
          "The polynomial and Gaussian kernels lead to more powerful classifiers: each at "
          "most the linear kernel's error on most tasks, and below MVU's on every task "
          "(3.2.2, Table 3.3)",
          (Part("vs linear", _both(_over_tasks("Polynomial", "Linear", "<=", 3),
                                   _over_tasks("Gaussian", "Linear", "<=", 3))),
           Part("vs MVU", _both(_over_tasks("Polynomial", "MVU", "<", None),
                                _over_tasks("Gaussian", "MVU", "<", None))))),
)


def row_entries() -> list[Entry]:
    """The register's entries of Table 3.3's rows (id prefix :data:`ROW_PREFIX`, the
    quote's label ``1 vs 2`` naming the task ``1vs2``), each with the register's two
    readings."""
    found = []
    for entry in load_register().values():
        if entry.id.startswith(ROW_PREFIX) and "\t" in entry.quote:
            task = "".join(entry.quote.split("\t")[0].split())
            found.append(Entry(entry.id, f"Table 3.3's row {entry.quote.split(chr(9))[0]}: "
                                         f"the four kernels' percent test errors are "
                                         f"reproduced (3.2.2)",
                               (Part("2 SE", _row(task, lambda c: max(2 * c.se, FLOOR),
                                                  "2 standard errors, floor 0.3")),
                                Part("one error", _row(task, lambda c: ONE_ERROR,
                                                       "1.11 points")))))
    return found


def _readings(entry: Entry, cells: Cells) -> list[Reading]:
    return [Reading(p.name, *p.test(cells), quantifier="every") for p in entry.parts]


def _decide(entry: Entry, real: Cells, stand_in: Cells) -> dict:
    """The entry's claim on USPS; else shown on the stand-in; else not measured."""
    if real:
        readings = _readings(entry, real)
        if len(readings) == 1:
            r = readings[0]
            return make_claim(NAME, entry.claim, r.checks, r.evidence + ".", "every", entry.id)
        return readings_claim(NAME, entry.claim, readings, entry.id)
    if stand_in:
        text = "; ".join(f"reading {r.name} ({verdict_of(r.checks, 'every')} on the "
                         f"stand-in): {r.evidence}" for r in _readings(entry, stand_in))
        return stand_in_claim(NAME, entry.claim, stand_in.sources, text + ".", entry.id)
    return make_claim(NAME, entry.claim, [], "no USPS cell measured (the thesis' data) "
                      "and no stand-in.", register=entry.id)


def register_claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The claims of :data:`ENTRIES` and :func:`row_entries` on the table's long CSV
    (read when ``frame`` is None; ``not measured`` without it)."""
    entries = list(ENTRIES) + row_entries()
    if frame is None:
        path = output_paths(config, NAME, "table")["csv"]
        if not path.exists():
            why = (f"the table was not generated: {path} does not exist; run "
                   f"`harness write {NAME}`")
            return [make_claim(NAME, e.claim, [], why, register=e.id) for e in entries]
        frame = read_long_table(path)
    real, stand_in = Cells(frame, False), Cells(frame, True)
    return [_decide(e, real, stand_in) for e in entries]
