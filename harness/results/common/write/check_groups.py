"""The outputs of a result made of groups of numerical checks (one job per group, each
record a nested dict of numbers; e.g. :mod:`harness.results.linear_methods_2_2_1`,
:mod:`harness.results.mmc_pola`, :mod:`harness.results.mds_3_1_2`): a long CSV with one
row per number of each record, a jobs table, the verdicts and the gaps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
from tabulate import tabulate

from harness.jobs import Job, read_job_record
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.results.common.write.figure_files import claim_lines, gap_mark

__all__ = ["SKIP", "group_records", "flatten", "group_rows", "jobs_table", "write_checks",
           "CheckGroupsResult"]

#: record fields that are bookkeeping, not measurements
SKIP = ("params", "provenance", "timing", "schema", "job", "key", "result", "profile",
        "params_hash", "status", "reason")

#: ``derive(dict_value, path) -> [(path, number)]``: numbers a result's verdicts derive
#: from one nested dict of a record (so that every number of the evidence is a row)
Derive = Callable[[dict, str], list]


def group_records(config: dict, name: str, keys) -> dict:
    """``{key: record}`` of every job of result ``name`` (a missing one as its
    ``missing`` stand-in)."""
    return {key: read_job_record(config, Job(name, key)) for key in keys}


def flatten(value, path: str = "", derive: Derive | None = None) -> Iterator[tuple[str, float]]:
    """``(path, number)`` for every number in a record's nested dicts and lists
    (booleans as 0 / 1; a list's dicts labelled by their ``dataset/objective/d`` when
    they have an ``objective``, else by index), with twice every comparison's standard
    error (``se_difference``) and what ``derive`` adds for each dict.

    Examples
    --------
    >>> list(flatten({"a": {"b": [1, 2.5]}, "ok": True}))
    [('a.b[0]', 1.0), ('a.b[1]', 2.5), ('ok', 1.0)]
    """
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(v, f"{path}.{k}" if path else str(k), derive)
        if "se_difference" in value:
            yield f"{path}.two_se", 2.0 * float(value["se_difference"])
        if derive is not None:
            yield from derive(value, path)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            label = v.get("dataset", "") + f"/{v.get('objective', '')}/d{v.get('d', '')}" \
                if isinstance(v, dict) and "objective" in v else str(i)
            yield from flatten(v, f"{path}[{label}]", derive)
    elif isinstance(value, (bool, int, float)) and not isinstance(value, str):
        yield path, float(value)


def record_ok(record) -> bool:
    """Whether a job's record exists and is measured (status ``ok``)."""
    return record is not None and record.get("status") == "ok"


def not_run(name: str, key: str, record, limit: int = 160) -> str:
    """The evidence of a check whose job ``name/key`` is not measured: its status and
    reason (the reason cut at ``limit`` characters) and the command that runs it."""
    status = ("no record" if not record
              else f"{record.get('status')}: {record.get('reason', '')}"[:limit])
    command = f"`harness job {name}/{key}`"
    run = "" if command in status else f"; run {command}"  # a missing record names it
    return f"job {name}/{key} not measured ({status}{run})"


def group_rows(recs: dict, column: str = "group", derive: Derive | None = None) -> pd.DataFrame:
    """One row per (job, number): ``<column>, status, reason, path, value``; a job
    without a measured record is one row with its status and reason."""
    rows = []
    for key, record in recs.items():
        if record.get("status") != "ok":
            rows.append({column: key, "status": record.get("status"),
                         "reason": record.get("reason", ""), "path": "", "value": math.nan})
            continue
        body = {k: v for k, v in record.items() if k not in SKIP}
        rows += [{column: key, "status": "ok", "reason": "", "path": p, "value": v}
                 for p, v in flatten(body, derive=derive)]
    return pd.DataFrame(rows)


def jobs_table(name: str, recs: dict) -> str:
    """Each job's status and CPU seconds (``group_cpu_seconds``) as a GitHub table."""
    rows = [{"job": f"{name}/{key}", "status": gap_mark(r.get("status", "missing"))
             if r.get("status") != "ok" else "ok",
             "CPU s": f"{r['group_cpu_seconds']:.1f}" if r.get("status") == "ok" else ""}
            for key, r in recs.items()]
    return tabulate(pd.DataFrame(rows), headers="keys", tablefmt="github", showindex=False)


def jobs_summary(name: str, recs: dict, describe, skip=()) -> str:
    """The jobs as a GitHub table: each job's id and status (a gap's mark), and for a
    measured record the columns ``describe(key, record)`` gives; keys in ``skip`` are
    left out."""
    rows = []
    for key, r in recs.items():
        if key in skip:
            continue
        if r.get("status") != "ok":
            rows.append({"job": f"{name}/{key}", "status": gap_mark(r.get("status", "missing"))})
        else:
            rows.append({"job": f"{name}/{key}", "status": "ok", **describe(key, r)})
    return tabulate(pd.DataFrame(rows).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def write_checks(config: dict, name: str, kind: str, sidecar: bool, title: str,
                 recs: dict, frame: pd.DataFrame, claims: list[dict],
                 tables: list[str]) -> list[Path]:
    """Write ``<name>.{csv,md,tex,json}``: the long CSV ``frame``, and the Markdown
    (and the report's sidecar) with the ``tables`` lines, the verdicts ``claims`` and
    the gaps (every job not measured, with its reason)."""
    body = [*tables, ""] + claim_lines(claims)
    gaps = [f"- {k}: {r.get('reason', '')}" for k, r in recs.items() if r.get("status") != "ok"]
    body += ["## Gaps", ""] + (gaps or ["- none"])
    out = output_paths(config, name, kind, sidecar)
    md = [f"# {title}", "", f"Profile `{config['profile']}`.", "", *body]
    return [write_csv_atomic(out["csv"], frame),
            write_text_atomic(out["md"], "\n".join(md) + "\n"),
            write_text_atomic(out["tex"], f"% {title}\n% see {name}.csv and {name}.md\n"),
            write_sidecar(out["json"], {"title": title, "markdown": "\n".join(body).strip()})]


class CheckGroupsResult:
    """The outputs of one check-groups result, bound to its declaration: its
    ``write.py`` takes ``records``, ``build``, ``claims`` and ``write`` from one of
    these (the table of :func:`write_checks`, the long CSV of :func:`group_rows`).

    Parameters
    ----------
    name, kind, sidecar, title : the result's declaration
    keys : callable
        ``keys(config)``, its jobs.
    register_claims : callable
        ``register_claims({key: record}) -> list[dict]``, its verdicts.
    tables : callable
        ``tables({key: record}) -> list[str]``, the Markdown lines before the verdicts.
    column : str, default "group"
        The CSV's column of job keys.
    derive : callable, optional
        :func:`flatten`'s hook: the numbers the verdicts derive, as rows.
    extra : callable, optional
        ``extra(config) -> {key: record}``: records of other results the verdicts read
        (the result's ``reads``), beside its own jobs' (shown in the CSV and the gaps).
    """

    def __init__(self, name: str, kind: str, sidecar: bool, title: str, keys, register_claims,
                 tables, column: str = "group", derive: Derive | None = None, extra=None):
        self.name, self.kind, self.sidecar, self.title = name, kind, sidecar, title
        self.keys, self.register_claims, self.tables = keys, register_claims, tables
        self.column, self.derive, self.extra = column, derive, extra

    def records(self, config: dict) -> dict:
        """``{key: record}`` of every job (a missing one as its ``missing`` stand-in),
        and the other results' records ``extra`` reads."""
        recs = group_records(config, self.name, self.keys(config))
        return {**recs, **self.extra(config)} if self.extra else recs

    def build(self, config: dict) -> pd.DataFrame:
        """One row per (job, number), with the numbers the verdicts derive."""
        return group_rows(self.records(config), self.column, self.derive)

    def claims(self, config: dict) -> list[dict]:
        """The register's entries this result decides."""
        return self.register_claims(self.records(config))

    def write(self, config: dict) -> list[Path]:
        """Write ``results/<profile>/tables/<name>.{csv,md,tex,json}``."""
        recs = self.records(config)
        return write_checks(config, self.name, self.kind, self.sidecar, self.title, recs,
                            self.build(config), self.register_claims(recs), self.tables(recs))
