"""The report's sections, read from the generated outputs of a profile.

Tables come from their long CSVs (``results/<profile>/tables/<table>.csv``), laid out
by the same function that writes the table's Markdown
(:func:`harness.tables.wide_tables`, :func:`harness.solver_table.blocks`), each cell
wrapped in a :class:`Cell` that carries its class: inside the tolerance, outside it
(with a measured reason, inside the run-to-run spread, or unexplained), a stand-in,
not compared, or a gap. The notes (the choices where the thesis is ambiguous) come
from the table's own Markdown. Figures come from their Markdown and PNG. A missing
output becomes a section that says so and names the command that makes it.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pandas as pd

from harness import experiments
from harness.solver_table import TABLE as SOLVER_TABLE, TITLE as SOLVER_TITLE, blocks
from harness.table_specs import TABLES
from harness.tables import UNEXPLAINED, WITHIN_SPREAD, Footnotes, wide_tables

__all__ = ["Cell", "Grid", "Section", "CLASSES", "table_sections", "solver_section",
           "figure_sections", "read_long_table", "outputs_dir"]

# class -> what it means (the report's legend), in the order of the legend
CLASSES = {
    "inside": "inside the tolerance (✓)",
    "explained": "outside the tolerance, with a measured reason (‡)",
    "spread": "outside the tolerance, inside the run-to-run spread (~)",
    "unexplained": "outside the tolerance, not yet explained (!)",
    "standin": "stand-in data: shown, no reproduction claim",
    "plain": "not compared (no thesis number, or a measure without a claim)",
    "gap": "gap: not measured, with its reason in the footnote",
}
TEXT_COLUMNS = ("measure", "method", "thesis_label", "dataset", "thesis_dataset",
                "deviation_note", "status", "reason", "solver_note")
SOLVER_TEXT_COLUMNS = ("variant", "backend", "status", "verdict", "reason",
                       "solver_status", "commit")


@dataclasses.dataclass(frozen=True)
class Cell:
    """One grid cell: its text, its class (a key of :data:`CLASSES`) and the reason
    shown when hovering (gap reason, deviation note)."""

    text: str
    css: str = "plain"
    note: str = ""

    def __str__(self) -> str:
        return self.text


@dataclasses.dataclass
class Grid:
    """One block of a table: a heading and rows x columns of :class:`Cell` or text."""

    label: str
    frame: pd.DataFrame


@dataclasses.dataclass
class Section:
    """One table or figure of the report.

    ``missing`` is non-empty when its outputs were not generated: it names the files
    and the command that makes them, and the section has no content.
    """

    key: str
    kind: str  # "table", "solver", "figure"
    title: str
    files: list[Path]
    missing: str = ""
    grids: list[Grid] = dataclasses.field(default_factory=list)
    footnotes: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    summary: str = ""
    markdown: str = ""  # a figure's own Markdown, without its title
    png: bytes | None = None
    frame: pd.DataFrame | None = None  # a table's long frame (for the claims)


def outputs_dir(config: dict) -> Path:
    """``<results_dir>/<profile>``."""
    return Path(config["results_dir"]) / config["profile"]


def _missing(files: list[Path], command: str) -> str:
    absent = [str(p) for p in files if not p.exists()]
    if not absent:
        return ""
    return (f"{', '.join(absent)} {'does' if len(absent) == 1 else 'do'} not exist; "
            f"run `{command}` (or `snakemake {absent[0]}`)")


def _md_section(text: str, heading: str) -> list[str]:
    """The bullet lines under ``## heading`` of a generated Markdown file."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    if not match:
        return []
    return [line[2:] for line in match.group(1).splitlines() if line.startswith("- ")]


# ---- the thesis tables ------------------------------------------------------------
def read_long_table(path: Path, text_columns=TEXT_COLUMNS) -> pd.DataFrame:
    """A table's long CSV with the types :func:`harness.tables.build_table` gives it
    (empty text instead of NaN, ``within_tolerance`` as nullable booleans)."""
    frame = pd.read_csv(path)
    for column in text_columns:
        if column in frame:
            frame[column] = [("" if pd.isna(v) else str(v)) for v in frame[column]]
    if "stand_in" in frame:
        frame["stand_in"] = frame["stand_in"].astype(bool)
    if "within_tolerance" in frame:
        flags = {True: True, False: False, "True": True, "False": False}
        frame["within_tolerance"] = frame["within_tolerance"].map(flags).astype("boolean")
    return frame


def cell_class(row) -> str:
    """The class of one long-table row (see :data:`CLASSES`)."""
    if row["status"] != "ok":
        return "gap"
    if row["stand_in"]:
        return "standin"
    within = row["within_tolerance"]
    if pd.isna(within):
        return "plain"
    if within:
        return "inside"
    return {WITHIN_SPREAD: "spread", UNEXPLAINED: "unexplained"}.get(row["deviation_note"],
                                                                   "explained")


def _table_cell(row, text: str) -> Cell:
    css = cell_class(row)
    note = row["reason"] if css == "gap" else row["deviation_note"]
    return Cell(text + (" ✓" if css == "inside" else ""), css, note)


def _tolerance_summary(frame: pd.DataFrame, tolerance: float) -> str:
    """``16 of 30 compared cells inside the tolerance (±0.05); outside: ...; 30 stand-in
    cells, 120 gaps`` (zero counts left out)."""
    counts = frame.apply(cell_class, axis=1).value_counts()
    compared = sum(counts.get(c, 0) for c in ("inside", "explained", "spread", "unexplained"))
    if compared:
        text = (f"{counts.get('inside', 0)} of {compared} compared cells inside the "
                f"tolerance (±{tolerance:g})")
        outside = [f"{counts[c]} {what}" for c, what in (
            ("explained", "with a measured reason"), ("spread", "inside the run-to-run spread"),
            ("unexplained", "unexplained")) if counts.get(c, 0)]
        text += f"; outside: {', '.join(outside)}" if outside else ""
    else:
        text = "no cell compared with the thesis"
    others = [f"{counts[c]} {what}" for c, what in (
        ("standin", "stand-in cells"), ("plain", "cells without a comparison"),
        ("gap", "gaps")) if counts.get(c, 0)]
    return text + (f"; {', '.join(others)}" if others else "")


def table_section(config: dict, table: str) -> Section:
    """One thesis table (Table 2.1, 3.2, ...) from its CSV and Markdown."""
    spec = TABLES[table]
    base = outputs_dir(config) / "tables"
    files = [base / f"{table}.csv", base / f"{table}.md"]
    section = Section(table, "table", spec.title, files,
                      missing=_missing(files, f"harness table {table}"))
    if section.missing:
        return section
    frame = read_long_table(files[0])
    heading = spec.heading.format(**config["tables"][table])
    layout, section.footnotes = wide_tables(frame, spec, cell=_table_cell)
    section.grids = [Grid(label + heading, grid.fillna("")) for label, grid in layout]
    section.notes = [line for line in _md_section(files[1].read_text(), "Notes")
                     if not re.match(r"\[\d+\] ", line)]
    section.summary = _tolerance_summary(frame, spec.tolerance)
    section.frame = frame
    return section


def table_sections(config: dict) -> list[Section]:
    """Every thesis table of the profile, in the profile's order."""
    return [table_section(config, table) for table in config["tables"]]


# ---- the solver table -------------------------------------------------------------
def _solver_cell(row, text: str) -> Cell:
    if row["status"] != "ok":
        return Cell(text, "gap", row["reason"])
    if row["verdict"] == "optimal":
        return Cell(text, "inside")
    return Cell(text, "unexplained", row["reason"])


def solver_section(config: dict) -> Section | None:
    """The MVU solver comparison, or None if the profile has no ``solver_table:``."""
    if "solver_table" not in config:
        return None
    base = outputs_dir(config) / "tables"
    files = [base / f"{SOLVER_TABLE}.csv", base / f"{SOLVER_TABLE}.md"]
    section = Section(SOLVER_TABLE, "solver", SOLVER_TITLE, files,
                      missing=_missing(files, "harness solver-table"))
    if section.missing:
        return section
    frame = read_long_table(files[0], SOLVER_TEXT_COLUMNS)
    frame = frame.astype({"m": "Int64", "rank": "Int64"})
    notes = Footnotes()
    section.grids = [Grid(label, grid) for label, grid in blocks(frame, notes, cell=_solver_cell)]
    section.footnotes = notes.texts
    section.notes = [line for line in _md_section(files[1].read_text(), "Notes")
                     if not re.match(r"\[\d+\] ", line)]
    verdicts = frame["verdict"].where(frame["status"] == "ok", frame["status"]).value_counts()
    section.summary = (f"{len(frame)} solves: "
                       + ", ".join(f"{n} {v}" for v, n in verdicts.items()))
    section.frame = frame
    return section


# ---- the thesis figures -----------------------------------------------------------
def figure_section(config: dict, figure: str) -> Section:
    """One figure from its Markdown (claim, verdict, numbers, choices, gaps, points)
    and its PNG."""
    module = experiments.get_figure(figure)
    paths = experiments.figure_paths(config, figure)
    files = [paths["md"], paths["png"], paths["csv"]]
    section = Section(figure, "figure", module.TITLE, files,
                      missing=_missing(files, f"harness figure {figure}"))
    if section.missing:
        return section
    text = paths["md"].read_text()
    body = text.split("\n", 1)[1] if text.startswith("# ") else text
    # the image line points at the PNG beside the Markdown; the report embeds it
    section.markdown = re.sub(r"^!\[[^\]]*\]\([^)]*\)\n?", "", body, flags=re.M).strip()
    section.png = paths["png"].read_bytes()
    return section


def figure_sections(config: dict) -> list[Section]:
    """Every figure of the profile's ``figures:`` section, in its order."""
    return [figure_section(config, figure) for figure in config.get("figures") or {}]
