"""The outputs of the section 2.2.1 checks from their jobs' records: a long CSV (one row
per number of each record: group, path, value; the claims' derived numbers are in the
records), the Markdown with the verdicts (:mod:`.register_claims`) and a summary table.
"""

from __future__ import annotations

import math

import pandas as pd
from tabulate import tabulate

from harness.jobs import Job, read_job_record
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.results.common.write.figure_files import claim_lines, gap_mark
from harness.results.linear_methods_2_2_1 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.linear_methods_2_2_1.register_claims import advantage, register_claims

__all__ = ["records", "flatten", "build", "claims", "write"]

#: what `harness compare` leaves out: RCA's timing rows (shares of its fit time) (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^rca_timing$"

#: record fields that are bookkeeping, not measurements
SKIP = ("params", "provenance", "timing", "schema", "job", "key", "result", "profile",
        "params_hash", "status", "reason")


def records(config: dict) -> dict:
    """``{group: record}`` of every job (a missing one as its ``missing`` stand-in)."""
    return {key: read_job_record(config, Job(NAME, key)) for key in keys(config)}


def flatten(value, path: str = ""):
    """``(path, number)`` for every number in a record's nested dicts and lists
    (booleans as 0 / 1), and the numbers the claims derive from them: twice a
    comparison's standard error, an optimum case's relative advantages."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(v, f"{path}.{k}" if path else str(k))
        # the numbers the claims derive (so that every number of the evidence is a row)
        if "se_difference" in value:
            yield f"{path}.two_se", 2.0 * float(value["se_difference"])
        if "objective" in value:
            for against in ("best_random", "best_optimiser"):
                yield f"{path}.advantage_over_{against}", advantage(value, against)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            label = v.get("dataset", "") + f"/{v.get('objective', '')}/d{v.get('d', '')}" \
                if isinstance(v, dict) and "objective" in v else str(i)
            yield from flatten(v, f"{path}[{label}]")
    elif isinstance(value, (bool, int, float)) and not isinstance(value, str):
        yield path, float(value)


def build(config: dict) -> pd.DataFrame:
    """One row per (group, number): ``group, status, path, value``; a group without a
    measured record is one row with its status and reason."""
    rows = []
    for group, record in records(config).items():
        if record.get("status") != "ok":
            rows.append({"group": group, "status": record.get("status"),
                         "reason": record.get("reason", ""), "path": "", "value": math.nan})
            continue
        body = {k: v for k, v in record.items() if k not in SKIP}
        rows += [{"group": group, "status": "ok", "reason": "", "path": p, "value": v}
                 for p, v in flatten(body)]
    return pd.DataFrame(rows)


def claims(config: dict) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(records(config))


def _jobs_table(recs: dict) -> str:
    rows = [{"job": f"{NAME}/{group}", "status": gap_mark(r.get("status", "missing"))
             if r.get("status") != "ok" else "ok",
             "CPU s": f"{r['group_cpu_seconds']:.1f}" if r.get("status") == "ok" else ""}
            for group, r in recs.items()]
    return tabulate(pd.DataFrame(rows), headers="keys", tablefmt="github", showindex=False)


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/linear_methods_2_2_1.{csv,md,tex,json}``."""
    recs = records(config)
    frame = build(config)
    body = ["Every number of the verdicts is in the CSV (group, path, value).", "",
            _jobs_table(recs), ""]
    body += claim_lines(register_claims(recs))
    gaps = [f"- {g}: {r.get('reason', '')}" for g, r in recs.items() if r.get("status") != "ok"]
    body += ["## Gaps", ""] + (gaps or ["- none"])
    out = output_paths(config, NAME, KIND, SIDECAR)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", "", *body]
    return [write_csv_atomic(out["csv"], frame),
            write_text_atomic(out["md"], "\n".join(md) + "\n"),
            write_text_atomic(out["tex"], f"% {TITLE}\n% see {NAME}.csv and {NAME}.md\n"),
            write_sidecar(out["json"], {"title": TITLE, "markdown": "\n".join(body).strip()})]
