"""A :class:`~harness.report.build.Report` as one self-contained HTML page: inline CSS,
PNGs embedded as ``data:`` URIs, no scripts, no external styles or fonts, so it opens
in a browser with no network."""

from __future__ import annotations

import base64
import html
import re

from harness.claims import VERDICTS
from harness.report.build import TITLE, Report
from harness.report.minimd import inline, to_html
from harness.report.sections import CLASSES, Cell, Grid, Section

__all__ = ["render_html"]

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       margin: 0 auto; max-width: 1400px; padding: 1em 2em; color: #1d1d1f; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #ccc; padding-top: .6em; }
h3 { margin-bottom: .3em; }
code { background: #f2f2f2; padding: 0 .2em; font-size: .9em; }
.scroll { overflow-x: auto; margin: .4em 0 1em; }
table { border-collapse: collapse; font-size: .82em; }
th, td { border: 1px solid #ccc; padding: .25em .5em; vertical-align: top; }
th { background: #f0f0f0; text-align: left; }
td.num { white-space: nowrap; }
.c-inside { background: #d8f0d2; } .c-explained { background: #fde2bf; }
.c-spread { background: #f8f1b8; } .c-unexplained { background: #f7c6c6; }
.c-standin { background: #dde8f6; } .c-plain { background: #fff; }
.c-gap { background: #ececec; color: #666; font-style: italic; }
.legend span { display: inline-block; padding: .1em .5em; margin: .1em .3em .1em 0;
               border: 1px solid #ccc; font-size: .85em; }
.v { font-weight: bold; white-space: nowrap; padding: .1em .4em; border-radius: .3em; }
.v-holds { background: #bfe6b6; } .v-partly-holds { background: #f8e58c; }
.v-does-not-hold { background: #f3a9a9; } .v-not-measured { background: #ddd; color: #555; }
.missing { background: #f7c6c6; padding: .5em; border-left: 4px solid #c33; }
.summary { font-weight: 600; } .runs { color: #555; font-size: .9em; }
ol.footnotes, details { font-size: .85em; color: #333; }
img { max-width: 100%; border: 1px solid #ddd; }
nav ol { columns: 2; } nav li { break-inside: avoid; }
"""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _verdict(verdict: str) -> str:
    return f'<span class="v v-{_slug(verdict)}">{html.escape(verdict)}</span>'


def _linked(text: str, key: str) -> str:
    """Escape a cell's text and link its footnote marks ``[n]`` to the footnotes."""
    return re.sub(r"\[(\d+)\]", rf'<a href="#fn-{key}-\1">[\1]</a>', html.escape(text))


def _cell(value, key: str) -> str:
    if isinstance(value, Cell):
        title = f' title="{html.escape(value.note)}"' if value.note else ""
        return f'<td class="num c-{value.css}"{title}>{_linked(value.text, key)}</td>'
    return f'<td class="num">{_linked(str(value), key)}</td>'


def _grid(grid: Grid, key: str) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in grid.frame.columns)
    rows = "".join(f"<tr><th>{html.escape(str(index))}</th>"
                   + "".join(_cell(v, key) for v in row) + "</tr>"
                   for index, row in zip(grid.frame.index, grid.frame.itertuples(index=False)))
    return (f"<h3>{html.escape(grid.label)}</h3><div class=\"scroll\"><table><thead><tr>"
            f"<th></th>{head}</tr></thead><tbody>{rows}</tbody></table></div>")


def _legend(kind: str) -> str:
    if kind == "solver":
        items = [("inside", "certified optimal"), ("unexplained", "inaccurate (not certified)"),
                 ("gap", "failed, timed out or skipped: reason in the footnote")]
    else:
        items = list(CLASSES.items())
    spans = "".join(f'<span class="c-{css}">{html.escape(text)}</span>' for css, text in items)
    return f'<p class="legend">{spans}</p>'


def _section(section: Section, run_line: str) -> str:
    out = [f'<section id="{section.key}"><h2>{html.escape(section.title)}</h2>']
    if section.missing:
        out.append(f'<p class="missing">Not generated: {inline(section.missing)}</p>')
    if section.summary:
        out.append(f'<p class="summary">{html.escape(section.summary)}</p>')
    out.append(f'<p class="runs">Records: {html.escape(run_line)}.</p>')
    if section.grids:
        out.append(_legend(section.kind))
        out += [_grid(grid, section.key) for grid in section.grids]
    if section.footnotes:
        out.append('<ol class="footnotes">' + "".join(
            f'<li id="fn-{section.key}-{i + 1}">{inline(t)}</li>'
            for i, t in enumerate(section.footnotes)) + "</ol>")
    if section.notes:
        out.append("<details open><summary>Notes: choices where the thesis is ambiguous, "
                   "settings</summary><ul>" + "".join(f"<li>{inline(n)}</li>"
                                                      for n in section.notes) + "</ul></details>")
    if section.png:
        data = base64.b64encode(section.png).decode("ascii")
        out.append(f'<p><img alt="{html.escape(section.title)}" '
                   f'src="data:image/png;base64,{data}"></p>')
    if section.markdown:
        out.append(to_html(section.markdown, shift=1))
    out.append("</section>")
    return "\n".join(out)


def _claims(report: Report) -> str:
    rows = "".join(
        f'<tr><td><a href="#{html.escape(c["source"])}">{html.escape(c["source"])}</a></td>'
        f'<td>{inline(c["claim"])}</td><td>{_verdict(c["verdict"])}</td>'
        f'<td>{inline(c["evidence"])}</td></tr>' for c in report.claims)
    tally = ", ".join(f"{_verdict(v)} {sum(c['verdict'] == v for c in report.claims)}"
                      for v in VERDICTS)
    return (f'<section id="claims"><h2>The thesis\' claims and our verdicts</h2>'
            f"<p>{len(report.claims)} claims: {tally}. Stand-in data never counts as the "
            f"thesis' data set.</p><div class=\"scroll\"><table><thead><tr><th>source</th>"
            f"<th>claim (thesis section)</th><th>verdict</th><th>evidence</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div></section>")


def _summary(report: Report) -> str:
    items = []
    for s in report.sections:
        state = report.overview(s)
        items.append(f'<li><a href="#{s.key}">{html.escape(s.title)}</a>: {inline(state)}</li>')
    others = (f"<p>Not in this profile: {html.escape(', '.join(report.not_in_profile))}.</p>"
              if report.not_in_profile else "")
    return (f'<section id="summary"><h2>Summary</h2><ul>{"".join(items)}</ul>{others}'
            f"</section>")


def _provenance(report: Report) -> str:
    rows = "".join(f'<tr><th><a href="#{s.key}">{html.escape(s.key)}</a></th>'
                   f"<td>{html.escape(report.runs[s.key].line())}</td></tr>"
                   for s in report.sections)
    facts = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                    for k, v in report.provenance)
    return (f'<section id="provenance"><h2>Provenance</h2><h3>Records and time per table '
            f"and figure</h3><table><tbody>{rows}</tbody></table><h3>Commits, packages, "
            f"machine, threads</h3><table><tbody>{facts}</tbody></table></section>")


def render_html(report: Report) -> str:
    """The whole page."""
    title = TITLE
    nav = [("summary", "Summary"), ("claims", "The thesis' claims and our verdicts"),
           *[(s.key, s.title) for s in report.sections], ("provenance", "Provenance")]
    body = [
        f"<header><h1>{html.escape(title)}</h1><p>Profile <code>{html.escape(report.profile)}"
        f"</code>. {html.escape(report.description)}</p><p>Every table cell reads thesis / "
        f"ours / delta (ours − thesis), coloured by the table's tolerance; gaps and stand-in "
        f"data are marked with their reason.</p></header>",
        "<nav><h2>Contents</h2><ol>" + "".join(
            f'<li><a href="#{k}">{html.escape(t)}</a></li>' for k, t in nav) + "</ol></nav>",
        _summary(report), _claims(report),
        *[_section(s, report.runs[s.key].line()) for s in report.sections],
        _provenance(report),
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)} ({html.escape(report.profile)})</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
