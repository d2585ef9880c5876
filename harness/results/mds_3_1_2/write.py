"""The outputs of the section 3.1.2-3.1.3 checks from their jobs' records: a long CSV
(one row per number of each record: group, path, value), the Markdown with the verdicts
(:mod:`.register_claims`) and the jobs table
(:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd

from harness.results.common.write.check_groups import (
    group_records, group_rows, jobs_table, write_checks,
)
from harness.results.mds_3_1_2 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.mds_3_1_2.register_claims import register_claims

__all__ = ["records", "build", "claims", "write"]


def records(config: dict) -> dict:
    """``{group: record}`` of every job (a missing one as its ``missing`` stand-in)."""
    return group_records(config, NAME, keys(config))


def build(config: dict) -> pd.DataFrame:
    """One row per (group, number): ``group, status, reason, path, value``."""
    return group_rows(records(config))


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/mds_3_1_2.{csv,md,tex,json}``."""
    recs = records(config)
    return write_checks(config, NAME, KIND, SIDECAR, TITLE, recs, build(config),
                        register_claims(recs),
                        ["Every number of the verdicts is in the CSV (group, path, value).", "",
                         jobs_table(NAME, recs)])
