"""The outputs of Figs. 3.1 and 3.7 from their jobs' records: a long CSV (one row per
number of each record: key, path, value), the jobs table and the verdicts
(:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_summary
from harness.results.fig_3_1_3_7 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.fig_3_1_3_7.register_claims import register_claims

__all__ = ["RESULT", "records", "build", "claims", "write"]


def _describe(key: str, r: dict) -> dict:
    if key == "fig_3_36":
        return {"rolls": f"3.1.5's, n = {r['n_samples']}", "MVU": r["mvu"]["status"]}
    if key == "fig_3_1":
        return {"rolls": f"3-D, n = {r['n_samples']}", "MVU": r["mvu"]["status"]}
    return {"rolls": ", ".join(f"{name} (n = {x['n_samples']}, {x['n_features']}-D)"
                               for name, x in r["rolls"].items()),
            "MVU": ", ".join(x["mvu"]["status"] for x in r["rolls"].values())}


def _summary(recs: dict) -> str:
    return jobs_summary(NAME, recs, _describe)


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value).", "", _summary(recs)],
    column="key")
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
