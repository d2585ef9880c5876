"""The outputs of section 3.1.10's out-of-sample checks from the job's record: a long
CSV (one row per number: key, path, value, with the timing slope), the job table and
the verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd

from harness.results.common.write.check_groups import (
    group_records, group_rows, jobs_table, write_checks,
)
from harness.results.oos_sdp_3_1_10 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.oos_sdp_3_1_10.register_claims import register_claims, timing_slope

__all__ = ["records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: the per-point times and their slope
COMPARE_IGNORE = r"seconds|slope"


def records(config: dict) -> dict:
    """``{key: record}`` of the job (a missing one as its ``missing`` stand-in)."""
    return group_records(config, NAME, keys(config))


def derived(value: dict, path: str) -> list:
    """The timing slope and its noise, which the verdict prints."""
    if path or "cost" not in value:
        return []
    slope, noise = timing_slope(value)
    return [("derived.timing_slope", slope), ("derived.timing_slope_noise", noise)]


def build(config: dict) -> pd.DataFrame:
    """One row per (key, number): ``key, status, reason, path, value``."""
    return group_rows(records(config), column="key", derive=derived)


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/oos_sdp_3_1_10.{csv,md,tex,json}``."""
    recs = records(config)
    return write_checks(config, NAME, KIND, SIDECAR, TITLE, recs, build(config),
                        register_claims(recs),
                        ["Every number of the verdicts is in the CSV (key, path, value); the "
                         "per-point gaps are its rows `tight[i].gaps[j]`, `small[i].gaps[j]`.",
                         "", jobs_table(NAME, recs)])
