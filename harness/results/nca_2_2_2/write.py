"""The outputs of the section 2.2.2 NCA speed checks from their jobs' records: a long
CSV (one row per number of each record: group, path, value, with the slopes and ratios
the verdicts derive), the jobs table and the verdicts (:mod:`.register_claims`,
:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd

from harness.results.common.write.check_groups import (
    group_records, group_rows, jobs_table, write_checks,
)
from harness.results.nca_2_2_2 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.nca_2_2_2.register_claims import gradient_slopes, register_claims
from harness.results.solver_table.register_claims import TIMING_BAND

__all__ = ["records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: the timings and what derives from them (not
#: reproduced by a rerun; the objectives and the two forms' agreement are compared)
COMPARE_IGNORE = r"seconds|slope|ratio"


def records(config: dict) -> dict:
    """``{group: record}`` of every job (a missing one as its ``missing`` stand-in)."""
    return group_records(config, NAME, keys(config))


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


def build(config: dict) -> pd.DataFrame:
    """One row per (group, number): ``group, status, reason, path, value``."""
    return group_rows(records(config), derive=derived)


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/nca_2_2_2.{csv,md,tex,json}``."""
    recs = records(config)
    return write_checks(config, NAME, KIND, SIDECAR, TITLE, recs, build(config),
                        register_claims(recs),
                        ["Every number of the verdicts is in the CSV (group, path, value). "
                         "CPU seconds, one BLAS thread, medians of repeats.", "",
                         jobs_table(NAME, recs)])
