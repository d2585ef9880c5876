"""The outputs of the lecture's supervised PCA table: ours alone in every cell (CSV,
Markdown, LaTeX, sidecar) and its report section; no claims (not a thesis result).
"""

from __future__ import annotations

from harness.results.common.write.table_result import TableResult
from harness.results.lecture_spca import SPEC

__all__ = ["write", "claims", "section"]

CLAIMS: tuple = ()  # not a thesis result: no statements, no verdicts

write, claims, section = TableResult(SPEC, CLAIMS).functions()
