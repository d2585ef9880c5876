"""The outputs of Table 3.2 at other l (thesis 3.1.9): ours alone in every cell (CSV,
Markdown, LaTeX, sidecar), its report section, and the verdicts of the register entries
it decides (:mod:`.register_claims`)."""

from __future__ import annotations

from harness.results.common.write.table_result import TableResult
from harness.results.table_3_2_l5 import SPEC
from harness.results.table_3_2_l5.register_claims import register_claims

__all__ = ["write", "claims", "section"]

CLAIMS: tuple = ()  # the thesis' statements are register entries (register_claims)

write, claims, section = TableResult(SPEC, CLAIMS, extra=register_claims).functions()

#: ``harness compare``'s tolerance, as Table 3.2's MVU cells: an interior-point solve
#: stops at the first certified iterate (gap 1e-3), so another machine's scores agree
#: to about that gap
COMPARE_TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}
