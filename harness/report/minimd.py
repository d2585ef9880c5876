"""The Markdown the harness writes (headings, paragraphs, bullet lists, GitHub pipe
tables, ``**bold**`` and ```code```) to HTML, with no dependency: enough for the
figures' notes, not a general Markdown parser. Everything is HTML-escaped first."""

from __future__ import annotations

import html
import re

__all__ = ["inline", "to_html"]


def inline(text: str) -> str:
    """Escape ``text`` and render ```code``` and ``**bold**``."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if len(part) >= 2 and part.startswith("`") and part.endswith("`"):
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
        else:
            out.append(re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(part)))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> str:
    head, rows = _cells(lines[0]), [_cells(line) for line in lines[2:]]
    th = "".join(f"<th>{inline(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return (f'<div class="scroll"><table class="md"><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def _list(lines: list[str]) -> str:
    items, current = [], []
    for line in lines:
        if line.startswith("- ") and current:
            items.append(" ".join(current))
            current = []
        current.append(line[2:] if line.startswith("- ") else line.strip())
    items.append(" ".join(current))
    return "<ul>" + "".join(f"<li>{inline(i)}</li>" for i in items) + "</ul>"


def _block(lines: list[str], shift: int) -> list[str]:
    heading = re.match(r"^(#{1,6}) (.*)$", lines[0])
    if heading:
        level = min(len(heading.group(1)) + shift, 6)
        rest = _block(lines[1:], shift) if len(lines) > 1 else []
        return [f"<h{level}>{inline(heading.group(2))}</h{level}>", *rest]
    if lines[0].startswith("|") and len(lines) > 1 and set(lines[1]) <= set("|-: "):
        return [_table(lines)]
    if lines[0].startswith("- ") and all(line.startswith(("- ", "  ")) for line in lines):
        return [_list(lines)]
    return [f"<p>{inline(' '.join(line.strip() for line in lines))}</p>"]


def to_html(text: str, shift: int = 0) -> str:
    """HTML of ``text``; headings move down ``shift`` levels (``##`` -> ``<h4>`` with
    shift 2), at most to ``<h6>``."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        if block.strip():
            out += _block(block.splitlines(), shift)
    return "\n".join(out)
