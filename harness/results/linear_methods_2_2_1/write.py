"""The outputs of the section 2.2.1 checks from their jobs' records: a long CSV (one row
per number of each record: group, path, value; the claims' derived numbers are in the
records), the Markdown with the verdicts (:mod:`.register_claims`) and a summary table
(:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd

from harness.results.common.write.check_groups import (
    group_records, group_rows, jobs_table, write_checks,
)
from harness.results.linear_methods_2_2_1 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.linear_methods_2_2_1.register_claims import advantage, register_claims

__all__ = ["records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: RCA's timing rows (shares of its fit time) (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^rca_timing$"


def records(config: dict) -> dict:
    """``{group: record}`` of every job (a missing one as its ``missing`` stand-in)."""
    return group_records(config, NAME, keys(config))


def derived(value: dict, path: str) -> list:
    """An optimum case's relative advantages, which the verdicts print."""
    if "objective" not in value:
        return []
    return [(f"{path}.advantage_over_{against}", advantage(value, against))
            for against in ("best_random", "best_optimiser")]


def build(config: dict) -> pd.DataFrame:
    """One row per (group, number): ``group, status, path, value``; a group without a
    measured record is one row with its status and reason."""
    return group_rows(records(config), derive=derived)


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/linear_methods_2_2_1.{csv,md,tex,json}``."""
    recs = records(config)
    return write_checks(config, NAME, KIND, SIDECAR, TITLE, recs, build(config),
                        register_claims(recs),
                        ["Every number of the verdicts is in the CSV (group, path, value).", "",
                         jobs_table(NAME, recs)])
