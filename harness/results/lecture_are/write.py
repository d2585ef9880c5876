"""The outputs of the lecture's ARE table: ours alone in every cell (CSV, Markdown,
LaTeX, sidecar) and its report section; no claims (not a thesis result).
"""

from __future__ import annotations

from harness.results.common.table_result import TableResult
from harness.results.lecture_are import SPEC

__all__ = ["write", "claims", "section"]

CLAIMS: tuple = ()  # not a thesis result: no statements, no verdicts

write, claims, section = TableResult(SPEC, CLAIMS).functions()
