"""The outputs of the section 2.2.2 checks from their jobs' records: a long CSV (one row
per number of each record: group, path, value, with the derived numbers the verdicts
print), a per-data-set summary table and the verdicts (:mod:`.register_claims`).
"""

from __future__ import annotations

import pandas as pd

from harness.results.common.write.check_groups import (
    group_records, group_rows, jobs_summary, write_checks,
)
from harness.results.mmc_pola import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.mmc_pola.register_claims import pola_pass_slope, register_claims

__all__ = ["records", "build", "claims", "write"]

#: what `harness compare` leaves out: POLA's speed: time ratios and the slope of time in n (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^timing$|^scaling$"

METHODS = ("euclidean", "mmc", "mmc_other", "pola", "lmnn")


def records(config: dict) -> dict:
    """``{key: record}`` of every job (a missing one as its ``missing`` stand-in)."""
    return group_records(config, NAME, keys(config))


def build(config: dict) -> pd.DataFrame:
    """One row per (job, number): ``key, status, path, value``; a job without a measured
    record is one row with its status and reason."""
    parts = []
    for key, record in records(config).items():
        parts.append(group_rows({key: record}, column="key"))
        rows = []
        fitted = pola_pass_slope(record) if key == "scaling" and record.get("status") == "ok" else None
        if fitted is not None:  # the slope and its noise the verdict prints
            rows += [{"key": key, "status": "ok", "reason": "", "path": f"derived.{what}",
                      "value": v} for what, v in zip(("slope", "slope_noise"), fitted)]
        if key.startswith("split_") and record.get("status") == "ok":  # the means over the splits
            rows += [{"key": key, "status": "ok", "reason": "", "path": f"mean.{what}.{m}",
                      "value": v} for what in ("ari", "knn")
                     for m, v in _means(record["splits"], what).items()]
        parts.append(pd.DataFrame(rows))
    return pd.concat([p for p in parts if len(p)], ignore_index=True)


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def _means(rows: list, what: str) -> dict:
    return {m: sum(r[what][m] for r in rows) / len(rows) for m in METHODS if m in rows[0][what]}


def _describe(key: str, r: dict) -> dict:
    row = {"CPU s": f"{r['group_cpu_seconds']:.1f}"}
    if key.startswith("split_"):
        ari, knn = _means(r["splits"], "ari"), _means(r["splits"], "knn")
        row.update({f"ARI {m}": f"{v:.3f}" for m, v in ari.items()})
        row.update({f"kNN % {m}": f"{v:.2f}" for m, v in knn.items()})
    return row


def _summary(recs: dict) -> str:
    return jobs_summary(NAME, recs, _describe)


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/mmc_pola.{csv,md,tex,json}``."""
    recs = records(config)
    return write_checks(config, NAME, KIND, SIDECAR, TITLE, recs, build(config),
                        register_claims(recs),
                        ["Every number of the verdicts is in the CSV (key, path, value). Means "
                         "over the splits (ARI of k-means on the test part; kNN test error); "
                         "`mmc` is the profile's `mmc_solver`, `mmc_other` the other MMC "
                         "solver.", "", _summary(recs)])
