"""A run's job records as data: one line per record (``records.csv`` of a reference
run) and the run's provenance (``run.json``), both read from the records, nothing
assumed.

The certificate columns of a line: for a record with a ``certificate`` (the solver
table: the harness' own recomputation, never the solver's report) its gap and
violation; else the worst (largest) ``gap`` and ``violation`` over every solve the
record holds (a figure point's ``solve``, a figure's ``mvu_solves``, a table cell's
runs' ``solve_info``, Table 3.3's kernels, ...), ``n_certificates`` saying how many
there were. The solver's own report (``solver_reported``), an MVE's per-iteration
``history`` and the job's params are not solves and are left out.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import math
from collections import Counter
from pathlib import Path

from harness.records import read_record

__all__ = ["RECORD_COLUMNS", "record_paths", "record_row", "records_from_csv", "certificates",
           "run_summary"]

RECORD_COLUMNS = ("job", "result", "key", "status", "reason", "cpu_seconds", "wall_seconds",
                  "peak_memory_mb", "cpu_budget_seconds", "gap", "violation",
                  "n_certificates", "commit", "params")
#: keys of a record that hold no solve of the job's
_NOT_SOLVES = frozenset({"params", "provenance", "solver_reported", "history", "timing",
                         "blas_during_run", "dataset_meta"})


def record_paths(records_dir: Path) -> list[Path]:
    """Every record ``RESULT/KEY.json`` under ``records_dir``, sorted (certificate
    arrays and temporary files left out)."""
    return sorted(p for p in Path(records_dir).rglob("*.json") if not p.name.startswith("."))


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def certificates(record: dict) -> list[dict]:
    """The certificates of the solves a record holds (see the module's note): each a
    dict with ``gap`` and ``violation`` (None where absent)."""
    if isinstance(record.get("certificate"), dict):
        cert = record["certificate"]
        return [{"gap": _number(cert.get("gap")), "violation": _number(cert.get("violation"))}]
    found = []

    def walk(value):
        if isinstance(value, dict):
            if "gap" in value and _number(value.get("gap")) is not None:
                found.append({"gap": _number(value["gap"]),
                              "violation": _number(value.get("violation"))})
            for key, item in value.items():
                if key not in _NOT_SOLVES:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk({k: v for k, v in record.items() if k not in _NOT_SOLVES})
    return found


def _worst(values) -> float | None:
    values = [v for v in values if v is not None]
    return max(values) if values else None


def record_row(record: dict, path: Path | None = None) -> dict:
    """One line of ``records.csv``: id, status, reason, CPU/wall seconds, peak memory,
    CPU budget, the worst certificate gap and violation, the commit and the job's
    resolved params (JSON, keys sorted: what ``harness plan`` matches a job by)."""
    timing = record.get("timing") or {}
    certs = certificates(record)
    job = record.get("job") or (f"{path.parent.name}/{path.stem}" if path else "")
    git = (record.get("provenance") or {}).get("git") or {}
    return {
        "job": job, "result": record.get("result") or job.partition("/")[0],
        "key": record.get("key") or job.partition("/")[2],
        "status": record.get("status", ""), "reason": record.get("reason") or "",
        "cpu_seconds": _number(timing.get("cpu_seconds")),
        "wall_seconds": _number(timing.get("wall_seconds")),
        "peak_memory_mb": _number(timing.get("peak_memory_mb")),
        "cpu_budget_seconds": _number(timing.get("cpu_budget_seconds")),
        "gap": _worst(c["gap"] for c in certs),
        "violation": _worst(c["violation"] for c in certs),
        "n_certificates": len(certs),
        "commit": (git.get("commit") or "") + ("-dirty" if git.get("dirty") else ""),
        "params": json.dumps(record.get("params") or {}, sort_keys=True),
    }


def records_from_csv(path: Path) -> dict[str, dict]:
    """The records a reference run's ``records.csv`` summarises, as much of them as
    it holds (job, result, key, status, reason, params and ``timing``'s CPU, wall,
    peak memory and budget), by job id: enough for ``harness plan``."""
    def number(text):
        return float(text) if text not in ("", None) else None

    found = {}
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            found[row["job"]] = {
                "job": row["job"], "result": row["result"], "key": row["key"],
                "status": row["status"], "reason": row["reason"],
                "params": json.loads(row["params"]) if row.get("params") else {},
                "timing": {key: number(row.get(key)) for key in (
                    "cpu_seconds", "wall_seconds", "peak_memory_mb", "cpu_budget_seconds")},
            }
    return found


def _counted(values) -> list[dict]:
    return [{"value": v, "records": n} for v, n in Counter(values).most_common()]


def _iso(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).isoformat(timespec="seconds")


def run_summary(paths: list[Path], records: list[dict] | None = None) -> dict:
    """What ``run.json`` says of a run, from its records: the profile, the commit
    (and every commit with its number of records), the machine, Python and package
    versions, the number of jobs by status and result, and the dates of the first
    and last record (the records hold no date: their files' modification times).

    Raises
    ------
    ValueError
        No records.
    """
    if not paths:
        raise ValueError("a run without records has no provenance to summarise")
    if records is None:
        records = [read_record(p) for p in paths]
    prov = [r.get("provenance") or {} for r in records]
    commits = _counted((p.get("git") or {}).get("commit", "") +
                       ("-dirty" if (p.get("git") or {}).get("dirty") else "") for p in prov)
    machines = Counter()
    for p in prov:
        m = p.get("machine") or {}
        machines[(m.get("node"), m.get("processor"), m.get("cpu_count"), m.get("platform"))] += 1
    packages: dict[str, list[str]] = {}
    for p in prov:
        for name, version in (p.get("packages") or {}).items():
            packages.setdefault(name, [])
            if version not in packages[name]:
                packages[name].append(version)
    profiles = _counted(r.get("profile", "") for r in records)
    mtimes = [p.stat().st_mtime for p in paths]
    return {
        "profile": profiles[0]["value"] if len(profiles) == 1 else None,
        "profiles": profiles,
        "commit": commits[0]["value"] if len(commits) == 1 else None,
        "commits": commits,
        "machines": [{"node": k[0], "processor": k[1], "cpu_count": k[2], "platform": k[3],
                      "records": n} for k, n in machines.most_common()],
        "python": _counted(p.get("python", "") for p in prov),
        "packages": packages,
        "jobs": len(records),
        "statuses": dict(Counter(r.get("status", "") for r in records).most_common()),
        "jobs_per_result": dict(sorted(Counter(r.get("result", "") for r in records).items())),
        "date": {"first_record": _iso(min(mtimes)), "last_record": _iso(max(mtimes)),
                 "source": "modification times of the record files (records hold no date)"},
    }
