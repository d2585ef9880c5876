"""The outputs of section 3.1.10's out-of-sample checks from the job's record: a long
CSV (one row per number: key, path, value, with the timing slope), the job table and
the verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_table
from harness.results.oos_sdp_3_1_10 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.oos_sdp_3_1_10.register_claims import register_claims, timing_slope

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: the per-point times and their slope
COMPARE_IGNORE = r"seconds|slope"


def derived(value: dict, path: str) -> list:
    """The timing slope and its noise, which the verdict prints."""
    if path or "cost" not in value:
        return []
    slope, noise = timing_slope(value)
    return [("derived.timing_slope", slope), ("derived.timing_slope_noise", noise)]


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value); the per-point gaps "
        "are its rows `tight[i].gaps[j]`, `small[i].gaps[j]`.", "", jobs_table(NAME, recs)],
    column="key", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
