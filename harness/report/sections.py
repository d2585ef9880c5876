"""The report's sections, read from the generated outputs of a profile.

A thesis result module may build its own :class:`Section` (``section(config)``):
the thesis tables do, from their long CSVs laid out by the same function that writes
their Markdown, each cell wrapped in a :class:`Cell` that carries its class (inside the
tolerance, outside it with a measured reason, inside the run-to-run spread, or
unexplained, a stand-in, not compared, or a gap; :mod:`harness.results.common.write.table_result`,
:mod:`harness.results.solver_table.frame`), and their notes from their Markdown. Figures, and any result without a section of its own,
come from their Markdown and PNG (:func:`output_section`). A missing output becomes a
section that says so and names the command that makes it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from harness.outputs import outputs_dir, read_sidecar, result_outputs
from harness.result_registry import hook

__all__ = ["Cell", "Grid", "Section", "CLASSES", "missing_outputs",
           "output_section", "result_section", "read_long_table", "outputs_dir"]

# class -> what it means (the report's legend), in the order of the legend
CLASSES = {
    "inside": "inside the tolerance (✓)",
    "explained": "outside the tolerance, with a measured reason (‡)",
    "spread": "outside the tolerance, inside the run-to-run noise (~)",
    "unexplained": "outside the tolerance, not yet explained (!)",
    "standin": "stand-in data: shown, no reproduction claim",
    "plain": "not compared (no thesis number, or a measure without a claim)",
    "gap": "gap: not measured, with its reason in the footnote",
}
TEXT_COLUMNS = ("measure", "method", "thesis_label", "dataset", "thesis_dataset",
                "deviation_note", "status", "reason", "solver_note")


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
    kind: str  # "table", "solver", "figure" (a figure or any result shown from its files)
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
    group: str = ""  # the report's part (harness.report.build.GROUPS); "": the thesis'


def missing_outputs(files: list[Path], command: str) -> str:
    absent = [str(p) for p in files if not p.exists()]
    if not absent:
        return ""
    return (f"{', '.join(absent)} {'does' if len(absent) == 1 else 'do'} not exist; "
            f"run `{command}` (or `snakemake {absent[0]}`)")


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


# ---- the thesis figures, and any result shown from its files ---------------------
def output_section(config: dict, module) -> Section:
    """A result from its Markdown (claim, verdict, numbers, choices, gaps, points) and
    its PNG, if it has one: the figures' section, and the default of a result module
    without a ``section`` of its own. The Markdown body comes from the result's sidecar
    (``SIDECAR``); a result without one is shown from its Markdown file, less its
    title line and image lines."""
    paths = result_outputs(config, module)
    files = list(paths.values())
    section = Section(module.NAME, "figure", module.TITLE, files,
                      missing=missing_outputs(files, f"harness write {module.NAME}"))
    if section.missing:
        return section
    if "json" in paths:
        section.markdown = read_sidecar(paths["json"])["markdown"]
    else:
        lines = paths["md"].read_text().splitlines()
        lines = lines[1:] if lines and lines[0].startswith("# ") else lines
        section.markdown = "\n".join(l for l in lines if not l.startswith("![")).strip()
    section.png = paths["png"].read_bytes() if "png" in paths else None
    return section


def result_section(config: dict, module) -> Section:
    """The report section of one thesis result module: its own ``section(config)``,
    else :func:`output_section`."""
    if section := hook(module, "section"):
        return section(config)
    return output_section(config, module)
