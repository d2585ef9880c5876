"""The outputs of the teapot checks from their jobs' records: a long CSV (one row per
number of each record: key, path, value), the jobs table and the verdicts
(:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_summary
from harness.results.teapot_3_1_5 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.teapot_3_1_5.register_claims import register_claims

__all__ = ["RESULT", "records", "build", "claims", "write"]


def _describe(key: str, r: dict) -> dict:
    return {"data": f"n = {r['n_samples']}, p = {r['n_features']}"
                    + (" (stand-in)" if r.get("stand_in_for") else ""),
            "MVU": f"half turn {r['half_turn'].get('status')}, all frames "
                   f"{r['isomap_vs_mvu']['mvu'].get('status')}"}


def _summary(recs: dict) -> str:
    return jobs_summary(NAME, recs, _describe)


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value).", "", _summary(recs)],
    column="key")
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
