"""A :class:`~harness.report.build.Report` as Markdown: the HTML page's twin, with the
same sections and tables (cells as in the tables' own Markdown, ✓ inside the
tolerance) and the figures linked as ``figures/<figure>.png`` beside it."""

from __future__ import annotations

import re

from tabulate import tabulate

from harness.report.build import GROUPS, TITLE, Report
from harness.report.sections import CLASSES, Section

__all__ = ["render_markdown"]

LEGEND = ("Cells read thesis / ours / delta (ours − thesis). Marks: "
          + "; ".join(text for css, text in CLASSES.items() if css != "plain") + ".")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _section(section: Section, run_line: str) -> list[str]:
    out = [f"## {section.title}", ""]
    if section.missing:
        out += [f"**Not generated:** {section.missing}", ""]
    if section.summary:
        out += [f"**{section.summary}.**", ""]
    out += [f"Records: {run_line}.", ""]
    if section.grids and section.kind == "table" and not section.group:
        out += [LEGEND, ""]
    for grid in section.grids:
        out += [f"### {grid.label}", "",
                tabulate(grid.frame.map(_cell), headers="keys", tablefmt="github"), ""]
    out += [f"- [{i + 1}] {text}" for i, text in enumerate(section.footnotes)]
    if section.footnotes:
        out.append("")
    if section.notes:
        out += ["### Notes", ""] + [f"- {n}" for n in section.notes] + [""]
    if section.png:
        out += [f"![{section.title}](figures/{section.key}.png)", ""]
    if section.markdown:  # the figure's own headings one level down
        out += [re.sub(r"^(#+) ", r"#\1 ", section.markdown, flags=re.M), ""]
    return out


def render_markdown(report: Report) -> str:
    """The whole Markdown report."""
    out = [f"# {TITLE}", "", f"Profile `{report.profile}`. {report.description}", "",
           "## Summary", ""]
    for group, heading, sections in report.parts():
        if heading:
            out += ["", f"{heading}:", ""]
        out += [f"- {s.title}: {report.overview(s)}" for s in sections]
    if report.not_in_profile:
        out += ["", f"Not in this profile: {', '.join(report.not_in_profile)}."]
    decided = [[f"{r['id']} ({r['thesis_line']})", r["kind"], r["verdict"], r["quote"],
                r["checked"], (f"{r['result']}: " if r["result"] else "") + r["evidence"]]
               for r in report.register_decided()]
    out += ["", "## The thesis' claims and our verdicts", "",
            "The claims register (`harness claims`): one entry per measurable sentence, "
            "its reading fixed from the text before any number was computed.", ""]
    out += [f"- {line}" for line in report.register_counts()]
    out += ["", "Stand-in data never counts as the thesis' data set; 'not yet built' is "
            "counted apart, never as a pass.", "",
            tabulate([[_cell(v) for v in row] for row in decided],
                     headers=["entry (line)", "kind", "verdict", "quote", "checked as",
                              "evidence"],
                     tablefmt="github"), "",
            f"Not yet built ({len(report.register_open())} entries):", ""]
    out += [f"- {r['id']} ({r['thesis_line']}): {_cell(r['quote'])}"
            for r in report.register_open()]
    out += [""]
    for group, heading, sections in report.parts():
        if heading:
            out += [f"## {heading}", "", GROUPS[group][1], ""]
        for section in sections:
            out += _section(section, report.runs[section.key].line())
    out += ["## Provenance", "", "### Records and time per table and figure", ""]
    out += [f"- {s.key}: {report.runs[s.key].line()}" for s in report.sections]
    out += ["", "### Numbers in the generated text", ""]
    out += [f"- {line}" for line in report.audit]
    out += ["", "### Commits, packages, machine, threads", ""]
    out += [f"- {what}: {value}" for what, value in report.provenance]
    return "\n".join(out) + "\n"
