"""The outputs of the section 2.2.2 NCA speed checks from their jobs' records: a long
CSV (one row per number of each record: group, path, value, with the slopes and ratios
the verdicts derive), the jobs table and the verdicts (:mod:`.register_claims`,
:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_table
from harness.results.nca_2_2_2 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.nca_2_2_2.register_claims import gradient_slopes, register_claims
from harness.results.solver_table.register_claims import TIMING_BAND

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: the timings and what derives from them (not
#: reproduced by a rerun; the objectives and the two forms' agreement are compared)
COMPARE_IGNORE = r"seconds|slope|ratio"


def derived(value: dict, path: str) -> list:
    """The slopes and ratios the verdicts print."""
    if path:
        return []
    out = []
    if value.get("cases") and "axis" in value["cases"][0]:
        out += [(f"slope.{form}.{axis}", v) for (form, axis), v in gradient_slopes(value).items()]
    if "unavailable" in value and "repeats" in value:  # the diagonal fits
        out += [(f"ratio.{c['dataset']}", c["full"]["seconds"] / c["diagonal"]["seconds"])
                for c in value["cases"]] + [("timing_band_factor", 1 + TIMING_BAND)]
    if "projected_seconds" in value:
        out.append(("ratio.projected_over_input", value["projected_seconds"] / value["input_seconds"]))
    return out


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (group, path, value). CPU seconds, one "
        "BLAS thread, medians of repeats.", "", jobs_table(NAME, recs)],
    column="group", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
