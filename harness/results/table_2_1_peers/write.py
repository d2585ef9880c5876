"""The outputs of LMNN implementations side by side: the thesis / ours / delta table
(CSV, Markdown, LaTeX, sidecar), its report section and the verdicts on the thesis'
statements about it.
"""

from __future__ import annotations

from harness.results.common.write.table_result import TableResult
from harness.results.table_2_1_peers import SPEC

__all__ = ["write", "claims", "section"]

CLAIMS: tuple = ()


write, claims, section = TableResult(SPEC, CLAIMS).functions()
