"""A thesis table's section of the report: its grids, each cell coloured by its class.

The long CSV (``tables/<table>.csv``) laid out by the same function that writes the
table's Markdown (:func:`harness.results.common.write.tables.wide_tables`), each cell a
:class:`harness.report.sections.Cell` carrying its class (:data:`CLASSES`): inside the
tolerance, outside it (with a measured reason, inside the run-to-run spread, or
unexplained), a stand-in, not compared, or a gap; the notes from the table's sidecar
``tables/<table>.json``.
"""

from __future__ import annotations


import pandas as pd

from harness.outputs import output_paths, read_sidecar
from harness.report.sections import (CLASSES, Cell, Grid, Section, missing_outputs,
                                     read_long_table)
from harness.results.common.declare.table_spec import TableSpec
from harness.results.common.write.tables import UNEXPLAINED, WITHIN_SPREAD, wide_tables

__all__ = ["CLASSES", "cell_class", "table_section"]


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
            ("explained", "with a measured reason"), ("spread", "inside the run-to-run noise"),
            ("unexplained", "unexplained")) if counts.get(c, 0)]
        text += f"; outside: {', '.join(outside)}" if outside else ""
    else:
        text = "no cell compared with the thesis"
    others = [f"{counts[c]} {what}" for c, what in (
        ("standin", "stand-in cells"), ("plain", "cells without a comparison"),
        ("gap", "gaps")) if counts.get(c, 0)]
    return text + (f"; {', '.join(others)}" if others else "")


def _measured_summary(frame: pd.DataFrame) -> str:
    """``24 cells measured, 2 gaps; no thesis values, nothing compared``: a table
    without thesis values (zero gaps left out)."""
    ok = int((frame["status"] == "ok").sum())
    gaps = len(frame) - ok
    return (f"{ok} cells measured" + (f", {gaps} gaps" if gaps else "")
            + "; no thesis values, nothing compared")


def table_section(config: dict, spec: TableSpec) -> Section:
    """One thesis table (Table 2.1, 3.2, ...) from its CSV and Markdown."""
    table = spec.name
    paths = output_paths(config, table, "table", sidecar=True)
    files = [paths["csv"], paths["md"], paths["json"]]
    section = Section(table, "table", spec.title, files,
                      missing=missing_outputs(files, f"harness write {table}"))
    if section.missing:
        return section
    frame = read_long_table(files[0])
    heading = spec.heading.format(**config["results"][table])
    layout, section.footnotes = wide_tables(frame, spec, cell=_table_cell)
    section.grids = [Grid(label + heading, grid.fillna("")) for label, grid in layout]
    section.notes = read_sidecar(paths["json"])["notes"]
    section.summary = (_tolerance_summary(frame, spec.tolerance) if spec.thesis_values
                       else _measured_summary(frame))
    section.frame = frame
    return section
