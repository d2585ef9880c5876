"""The outputs of the section 3.1.2-3.1.3 checks from their jobs' records: a long CSV
(one row per number of each record: group, path, value), the Markdown with the verdicts
(:mod:`.register_claims`) and the jobs table
(:class:`harness.results.common.write.check_groups.CheckGroupsResult`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_table
from harness.results.mds_3_1_2 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.mds_3_1_2.register_claims import register_claims

__all__ = ["RESULT", "records", "build", "claims", "write"]

RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims,
    lambda recs: ["Every number of the verdicts is in the CSV (group, path, value).", "",
                  jobs_table(NAME, recs)])
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
