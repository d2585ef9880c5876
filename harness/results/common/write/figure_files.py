"""What the thesis figures share beyond their jobs: reading their records, the gap
marks, the data set notes and writing ``<figure>.{csv,png,md,json}``.

A figure's jobs are MVU embeddings (:mod:`harness.results.common.work.mvu_point`, the job code:
editing this module reruns no job)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from harness import registry
from harness.jobs import Job, read_job_record
from harness.outputs import output_paths, write_sidecar
from harness.records import write_bytes_atomic, write_csv_atomic, write_text_atomic
from harness.formatting import certificate_text, fmt_number
from harness.results.common.declare.profile import thesis_column
from harness.results.common.write.tables import GAP_MARKS

__all__ = [
    "KIND", "figure_paths", "section_of", "read_point", "gap_mark", "save_png",
    "measured_frame", "point_line", "harmonic_mean", "write_figure_files",
    "dataset_notes", "missing_column_reason", "claim_lines", "figure_markdown",
]

KIND = "figure"


def figure_paths(config: dict, figure: str) -> dict[str, Path]:
    """``results/<profile>/figures/<figure>.{csv,png,md,json}`` by suffix."""
    return output_paths(config, figure, KIND, sidecar=True)


def section_of(config: dict, figure: str) -> dict:
    """The figure's validated profile section ``results.<figure>``."""
    return config["results"][figure]


def read_point(config: dict, figure: str, key: str) -> dict:
    """The record of the job ``figure/key``, or a ``missing`` stand-in naming the
    command that makes it."""
    return read_job_record(config, Job(figure, key))




def gap_mark(status: str) -> str:
    """The mark a gap shows in a figure's Markdown and plot (as in the tables)."""
    return GAP_MARKS.get(status, status)


def measured_frame(rows: list[dict], measured) -> pd.DataFrame:
    """``pd.DataFrame(rows)`` with a column for every name in ``measured`` (NaN where
    no record has it): a figure whose jobs all timed out, died or were skipped still
    has the columns its claims and plots read, and renders its gaps."""
    frame = pd.DataFrame(rows)
    missing = [name for name in measured if name not in frame.columns]
    return frame.reindex(columns=[*frame.columns, *missing])


def harmonic_mean(values) -> float:
    """Harmonic mean of non-negative scores; 0 if one is 0, NaN if one is missing
    (thesis Fig. 3.28 shows the harmonic mean of the three metrics)."""
    values = np.asarray(values, dtype=float)
    if values.size == 0 or not np.isfinite(values).all():
        return float("nan")
    if (values <= 0).any():
        return 0.0
    return float(values.size / np.sum(1.0 / values))


def save_png(fig, path: Path) -> Path:
    """Render a Matplotlib figure to PNG and write it atomically."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    return write_bytes_atomic(path, buffer.getvalue())


def point_line(record: dict) -> str:
    """One line of provenance for a figure's notes: id, status, solver verdict, time,
    commit."""
    solve = record.get("solve") or {}
    wall = (record.get("timing") or {}).get("wall_seconds")
    git = (record.get("provenance") or {}).get("git", {})
    parts = [f"{record.get('job', '?')}: {record['status']}"]
    if solve:
        parts.append(f"solve={solve.get('status')} {certificate_text(solve)}")
    if record.get("n_samples") is not None:
        parts.append(f"n={record['n_samples']}")
    if wall is not None:
        parts.append(f"wall={fmt_number(wall, '.1f')}s")
    if git:
        parts.append(f"commit={git.get('commit', '')[:10]}" + (" (dirty)" if git.get("dirty") else ""))
    return ", ".join(parts)


def claim_lines(claims) -> list[str]:
    """A figure note's Markdown for its claims: each claim and our verdict with its
    evidence, as paragraphs."""
    md = []
    for claim in claims:
        md += [f"**Thesis' claim:** {claim['claim']}", "",
               f"**Our verdict:** {claim['verdict']}: {claim['evidence']}", ""]
    return md


def figure_markdown(config: dict, title: str, claims, body: list[str], image: str,
                    choices: list[str]) -> list[str]:
    """A figure note's Markdown before its gaps: the title, the profile, the claims
    (:func:`claim_lines`), the ``body`` lines (tables), the ``image`` line and the
    choices where the thesis is ambiguous, one bullet each."""
    return ([f"# {title}", "", f"Profile `{config['profile']}`.", ""] + claim_lines(claims)
            + body + [image, "", "## Choices where the thesis is ambiguous", ""]
            + [f"- {line}" for line in choices])


def write_figure_files(config: dict, figure: str, keys: list[str], frame, md: list[str],
                       gap_notes: list[str], plot, records: list[dict] | None = None
                       ) -> list[Path]:
    """Finish a figure: append the numbered gaps and the provenance line of every
    point that has a record to the Markdown ``md`` (its first line the title), draw
    ``plot(frame, config, path)`` and write ``<figure>.{csv,png,md}`` and the sidecar
    ``<figure>.json`` (the title, and the Markdown body the report shows: no title,
    no image line) atomically; return the four paths. ``records``: the records the
    figure is built from, if not those of its own ``keys`` (a figure without jobs
    that reads another result's)."""
    paths = figure_paths(config, figure)
    md = md + ["", "## Gaps", ""] + ([f"- [{i + 1}] {t}" for i, t in enumerate(gap_notes)]
                                     or ["- none"])
    md += ["", "## Points", ""]
    if records is None:
        records = [read_point(config, figure, key) for key in keys]
    md += [f"- `{point_line(r)}`" for r in records if r["status"] != "missing"]
    plot(frame, config, paths["png"])
    write_csv_atomic(paths["csv"], frame)
    write_text_atomic(paths["md"], "\n".join(md) + "\n")
    body = [line for line in md[1:] if not line.startswith("![")]
    write_sidecar(paths["json"], {"title": md[0].removeprefix("# "),
                                  "markdown": "\n".join(body).strip()})
    return [paths["csv"], paths["png"], paths["md"], paths["json"]]








def dataset_notes(names) -> list[str]:
    """Note lines on a figure's data sets where the plugin says more than a name: a
    stand-in is no reproduction claim; a plugin's ``table_note`` states its choices
    (e.g. which MNIST fives, and their pre-processing)."""
    lines = []
    for name in dict.fromkeys(names):
        cls = registry.get_dataset(name)
        if cls.stand_in_for:
            lines.append(f"{name} is a synthetic stand-in for the thesis' {cls.stand_in_for} "
                         f"data ({cls.description}); its ratios are no reproduction claim.")
        if getattr(cls, "table_note", ""):
            lines.append(cls.table_note)
    return lines


def missing_column_reason(figure: str, column: str, label: str) -> str:
    """Why a figure has no data for the thesis' data set ``column`` (shown as ``label``):
    the plugins that provide it but are not listed, or that none does."""
    plugins = [n for n in registry.datasets("embedding") if thesis_column(n) == column]
    if plugins:
        return (f"the thesis' {label} is not in results.{figure}.datasets; plugins that "
                f"provide it: {', '.join(plugins)}")
    return (f"no dataset plugin provides the thesis' {label} (thesis_name {column!r}); "
            f"add one to harness/datasets/ and list it under results.{figure}.datasets")




