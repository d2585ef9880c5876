"""The solver table's section of the report: per variant, backends x n, coloured by
the certified verdict (optimal, inaccurate, a gap with its reason)."""

from __future__ import annotations


from harness.outputs import output_paths, read_sidecar
from harness.report.sections import Cell, Grid, Section, missing_outputs, read_long_table
from harness.results.solver_table.frame import blocks
from harness.results.solver_table.points import TABLE, TITLE
from harness.results.common.write.tables import Footnotes

__all__ = ["SOLVER_TEXT_COLUMNS", "solver_section"]

SOLVER_TEXT_COLUMNS = ("variant", "backend", "status", "verdict", "reason",
                       "solver_status", "commit")


def _solver_cell(row, text: str) -> Cell:
    if row["status"] != "ok":
        return Cell(text, "gap", row["reason"])
    if row["verdict"] == "optimal":
        return Cell(text, "inside")
    return Cell(text, "unexplained", row["reason"])


def solver_section(config: dict) -> Section:
    """The MVU solver comparison from its CSV and its sidecar (the notes)."""
    paths = output_paths(config, TABLE, "table", sidecar=True)
    files = [paths["csv"], paths["md"], paths["json"]]
    section = Section(TABLE, "solver", TITLE, files,
                      missing=missing_outputs(files, f"harness write {TABLE}"))
    if section.missing:
        return section
    frame = read_long_table(files[0], SOLVER_TEXT_COLUMNS)
    frame = frame.astype({"m": "Int64", "rank": "Int64"})
    notes = Footnotes()
    section.grids = [Grid(label, grid) for label, grid in blocks(frame, notes, cell=_solver_cell)]
    section.footnotes = notes.texts
    section.notes = read_sidecar(paths["json"])["notes"]
    verdicts = frame["verdict"].where(frame["status"] == "ok", frame["status"]).value_counts()
    section.summary = (f"{len(frame)} solves: "
                       + ", ".join(f"{n} {v}" for v, n in verdicts.items()))
    section.frame = frame
    return section
