"""The outputs of the lecture's ARE table: ours alone in every cell (CSV, Markdown,
LaTeX, sidecar) and its report section; the lecture notes' own claims
(lecture register entries; not a thesis result).
"""

from __future__ import annotations

from harness.results.common.write.table_result import TableResult
from harness.results.lecture_are import SPEC
from harness.results.lecture_are.register_claims import register_claims

__all__ = ["write", "claims", "section"]

CLAIMS: tuple = ()  # not a thesis result: no thesis statements

#: the lecture notes' own claims (lecture register entries), decided on the table
write, claims, section = TableResult(SPEC, CLAIMS, extra=register_claims).functions()


#: ``harness compare``'s tolerance (harness.runs.compare). ARE and MVU are SDP solves
#: (native interior point, certified). An interior point solve stops at the first iterate whose
#: certified gap is below its tolerance (1e-3 relative by default,
#: harness.solvers.mvu_sdp.native_solver.solve_native), so another BLAS, machine or commit may stop
#: at another iterate, equally certified: the numbers computed from the kernel agree to
#: about that gap, not to the CSV's six digits. Looser than the default (rtol 1e-6) for
#: that reason; a change of a few per cent, or of a status or verdict, is still listed.
#: Declared here, in the writer, not in the declaration: a declaration can be one of the
#: jobs' source files, and editing it would rerun them.
COMPARE_TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}
