"""The reproduction report: ``results/<profile>/report.html`` and its Markdown twin
``report.md``, the page a reader opens instead of the thesis.

It shows, for one profile, every generated table (each cell thesis / ours / delta,
coloured by the table's tolerance: inside, outside with a measured reason, inside the
run-to-run noise, unexplained; stand-ins and gaps marked with their reason), the MVU
solver comparison, every figure of the profile's ``figures:`` section (PNG embedded),
the thesis' qualitative claims each with a verdict, and the provenance (commits,
packages, machine, BLAS threads, records and wall time per table and figure).

Everything is read from the generated outputs and records, nothing is recomputed:
tables from their long CSVs and Markdown notes, figures from their Markdown and PNG,
claims from each thesis result module's optional ``claims(config)`` (the interface is
in :mod:`harness.claims`; Tables 2.1 and 3.2 check theirs on their long CSVs). An
output that does not exist becomes a section marked "not generated" naming the command
that makes it. ``harness report`` and the Snakemake rule ``report``
(``rules/report.smk``, the last step of ``reproduce_all``) call :func:`write_report`.

=========================  ============================================================
``build``                  :class:`Report` and :func:`build_report`: gather everything
``sections``               one section per thesis result, cells with their class
``runinfo``                records per section, wall time, provenance
``html``, ``markdown``     the two renderings; ``minimd``: the harness' Markdown to HTML
``templates``              the HTML page's Jinja2 templates and styles (package data)
=========================  ============================================================
"""

from __future__ import annotations

from pathlib import Path

from harness.records import write_text_atomic
from harness.report.build import Report, build_report
from harness.report.html import render_html
from harness.report.markdown import render_markdown
from harness.outputs import outputs_dir

__all__ = ["Report", "build_report", "report_paths", "write_report"]


def report_paths(config: dict) -> dict[str, Path]:
    """``results/<profile>/report.{html,md}`` by suffix."""
    base = outputs_dir(config)
    return {"html": base / "report.html", "md": base / "report.md"}


def write_report(config: dict) -> list[Path]:
    """Build the report of a validated profile and write ``report.html`` and
    ``report.md`` atomically; return their paths."""
    report = build_report(config)
    paths = report_paths(config)
    return [write_text_atomic(paths["html"], render_html(report)),
            write_text_atomic(paths["md"], render_markdown(report))]
