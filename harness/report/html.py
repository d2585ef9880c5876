"""A :class:`~harness.report.build.Report` as one self-contained HTML page, rendered by
Jinja2 from ``harness/report/templates/`` (``report.html.j2``, its macros in
``macros.html.j2``, its inline styles in ``report.css.j2``): PNGs embedded as ``data:``
URIs, no scripts, no external styles or fonts, so it opens in a browser offline.

The environment autoescapes every value. The only fragments marked safe
(:class:`markupsafe.Markup`) are the ones built here, each from escaped input: the
harness' Markdown rendered by :mod:`harness.report.minimd` (raw HTML off), a cell's
text with its footnote marks ``[n]`` linked, and a PNG's ``data:`` URI (base64).
"""

from __future__ import annotations

import base64
import functools
import re
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from harness.claims import VERDICTS
from harness.report.build import GROUPS, TITLE, Report
from harness.report.minimd import inline, to_html
from harness.report.sections import CLASSES, Cell, Grid

__all__ = ["render_html"]

TEMPLATES = Path(__file__).with_name("templates")
PAGE = "report.html.j2"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _linked(text: str, key: str) -> Markup:
    """``text`` escaped, its footnote marks ``[n]`` linked to the section's footnotes."""
    def link(mark: re.Match) -> str:
        return f'<a href="#fn-{escape(key)}-{mark[1]}">[{mark[1]}]</a>'

    return Markup(re.sub(r"\[(\d+)\]", link, str(escape(text))))


def _png_src(png: bytes) -> Markup:
    """A PNG as a ``data:`` URI (base64: nothing to escape)."""
    return Markup("data:image/png;base64," + base64.b64encode(png).decode("ascii"))


def _rows(grid: Grid):
    """(row label, row values) of a grid, in order."""
    return zip(grid.frame.index, grid.frame.itertuples(index=False))


@functools.cache
def _environment(directory: Path) -> jinja2.Environment:
    """The autoescaping environment of the templates in ``directory``, with the
    filters, the ``cell`` test and the globals the templates use."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(directory), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(slug=_slug, linked=_linked, png_src=_png_src,
                       md=lambda text: Markup(inline(text)),
                       md_block=lambda text, shift=0: Markup(to_html(text, shift=shift)))
    env.tests["cell"] = lambda value: isinstance(value, Cell)
    env.globals.update(rows=_rows, classes=CLASSES)
    return env


def render_html(report: Report) -> str:
    """The whole page.

    Parameters
    ----------
    report : Report

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    FileNotFoundError
        A template is missing from ``harness/report/templates/`` (an install without
        the package data).
    """
    try:
        page = _environment(TEMPLATES).get_template(PAGE)
        return page.render(report=report, title=TITLE, verdicts=VERDICTS, groups=GROUPS)
    except jinja2.TemplateNotFound as error:
        raise FileNotFoundError(
            f"the report template {error.name!r} is not in {TEMPLATES}: the harness was "
            "installed without its package data (pyproject.toml, "
            "[tool.setuptools.package-data])") from error
