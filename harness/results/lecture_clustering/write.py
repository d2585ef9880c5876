"""The outputs of the lecture's spectral clustering table: ours alone in every cell
(CSV, Markdown, LaTeX, sidecar) and its report section; the lecture notes' own
claims (lecture register entries; not a thesis result).
"""

from __future__ import annotations

from harness.results.common.write.table_result import TableResult
from harness.results.lecture_clustering import SPEC
from harness.results.lecture_clustering.register_claims import register_claims

__all__ = ["write", "claims", "section"]

CLAIMS: tuple = ()  # not a thesis result: no thesis statements

#: the lecture notes' own claims (lecture register entries), decided on the table
write, claims, section = TableResult(SPEC, CLAIMS, extra=register_claims).functions()
