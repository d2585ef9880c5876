"""The Markdown the harness writes (figures' notes, footnotes, claims) to HTML, by
markdown-it-py (CommonMark plus GitHub tables) with raw HTML turned off, so every
text is escaped. Headings can be moved down a few levels to nest a figure's own
Markdown under the report's section heading, and tables are wrapped to scroll."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

__all__ = ["inline", "to_html"]

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


def inline(text: str) -> str:
    """``text`` escaped, with its inline Markdown (```code```, ``**bold**``) rendered."""
    return _MD.renderInline(text)


def to_html(text: str, shift: int = 0) -> str:
    """HTML of ``text``; headings move down ``shift`` levels (``##`` -> ``<h4>`` with
    shift 2), at most to ``<h6>``."""
    if shift:
        text = re.sub(r"^(#{1,6}) ", lambda m: "#" * min(len(m.group(1)) + shift, 6) + " ",
                      text, flags=re.M)
    out = _MD.render(text)
    return (out.replace("<table>", '<div class="scroll"><table class="md">')
               .replace("</table>", "</table></div>"))
