"""The outputs of the section 2.2.1 checks from their jobs' records: a long CSV (one row
per number of each record: group, path, value; the claims' derived numbers are in the
records), the Markdown with the verdicts (:mod:`.register_claims`) and a summary table
(:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_table
from harness.results.linear_methods_2_2_1 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.linear_methods_2_2_1.register_claims import advantage, register_claims

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: RCA's timing rows (shares of its fit time) (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^rca_timing$"


def derived(value: dict, path: str) -> list:
    """An optimum case's relative advantages, which the verdicts print."""
    if "objective" not in value:
        return []
    return [(f"{path}.advantage_over_{against}", advantage(value, against))
            for against in ("best_random", "best_optimiser")]


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims,
    lambda recs: ["Every number of the verdicts is in the CSV (group, path, value).", "",
                  jobs_table(NAME, recs)], derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
