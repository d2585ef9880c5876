"""The outputs of the section 2.2.2 checks from their jobs' records: a long CSV (one row
per number of each record: group, path, value, with the derived numbers the verdicts
print), a per-data-set summary table and the verdicts (:mod:`.register_claims`).
"""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.jobs import Job, read_job_record
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.results.common.write.figure_files import claim_lines, gap_mark
from harness.results.linear_methods_2_2_1.write import SKIP, flatten
from harness.results.mmc_pola import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.mmc_pola.register_claims import pola_pass_slope, register_claims

__all__ = ["records", "build", "claims", "write"]

#: what `harness compare` leaves out: POLA's speed: time ratios and the slope of time in n (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^timing$|^scaling$"

METHODS = ("euclidean", "mmc", "mmc_other", "pola", "lmnn")


def records(config: dict) -> dict:
    """``{key: record}`` of every job (a missing one as its ``missing`` stand-in)."""
    return {key: read_job_record(config, Job(NAME, key)) for key in keys(config)}


def build(config: dict) -> pd.DataFrame:
    """One row per (job, number): ``key, status, path, value``; a job without a measured
    record is one row with its status and reason."""
    rows = []
    for key, record in records(config).items():
        if record.get("status") != "ok":
            rows.append({"key": key, "status": record.get("status"),
                         "reason": record.get("reason", ""), "path": "", "value": float("nan")})
            continue
        body = {k: v for k, v in record.items() if k not in SKIP}
        rows += [{"key": key, "status": "ok", "reason": "", "path": p, "value": v}
                 for p, v in flatten(body)]
        fitted = pola_pass_slope(record) if key == "scaling" else None
        if fitted is not None:  # the slope and its noise the verdict prints
            rows += [{"key": key, "status": "ok", "reason": "", "path": f"derived.{what}",
                      "value": v} for what, v in zip(("slope", "slope_noise"), fitted)]
        if key.startswith("split_"):  # the summary table's means over the splits
            rows += [{"key": key, "status": "ok", "reason": "", "path": f"mean.{what}.{m}",
                      "value": v} for what in ("ari", "knn")
                     for m, v in _means(record["splits"], what).items()]
    return pd.DataFrame(rows)


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def _means(rows: list, what: str) -> dict:
    return {m: sum(r[what][m] for r in rows) / len(rows) for m in METHODS if m in rows[0][what]}


def _summary(recs: dict) -> str:
    table = []
    for key, r in recs.items():
        if r.get("status") != "ok":
            table.append({"job": f"{NAME}/{key}", "status": gap_mark(r.get("status", "missing"))})
            continue
        row = {"job": f"{NAME}/{key}", "status": "ok", "CPU s": f"{r['group_cpu_seconds']:.1f}"}
        if key.startswith("split_"):
            ari, knn = _means(r["splits"], "ari"), _means(r["splits"], "knn")
            row.update({f"ARI {m}": f"{v:.3f}" for m, v in ari.items()})
            row.update({f"kNN % {m}": f"{v:.2f}" for m, v in knn.items()})
        table.append(row)
    return tabulate(pd.DataFrame(table).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/mmc_pola.{csv,md,tex,json}``."""
    recs = records(config)
    frame = build(config)
    body = ["Every number of the verdicts is in the CSV (key, path, value). Means over the "
            "splits (ARI of k-means on the test part; kNN test error); `mmc` is the profile's "
            "`mmc_solver`, `mmc_other` the other MMC solver.", "", _summary(recs), ""]
    body += claim_lines(register_claims(recs))
    gaps = [f"- {k}: {r.get('reason', '')}" for k, r in recs.items() if r.get("status") != "ok"]
    body += ["## Gaps", ""] + (gaps or ["- none"])
    out = output_paths(config, NAME, KIND, SIDECAR)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", "", *body]
    return [write_csv_atomic(out["csv"], frame),
            write_text_atomic(out["md"], "\n".join(md) + "\n"),
            write_text_atomic(out["tex"], f"% {TITLE}\n% see {NAME}.csv and {NAME}.md\n"),
            write_sidecar(out["json"], {"title": TITLE, "markdown": "\n".join(body).strip()})]
