"""Where the report's numbers came from: the records behind each table and figure
(count, statuses, summed wall and CPU time), and across all of them the commits,
package versions, machines and BLAS threads (:mod:`harness.provenance` wrote them into
every record)."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from pathlib import Path

from harness.provenance import git_commit, package_versions
from harness.record_check import CorruptRecordError, read_checked

__all__ = ["RunInfo", "run_info", "provenance_summary"]


@dataclasses.dataclass
class RunInfo:
    """The records of one table or figure: how many exist of how many expected, their
    statuses, and the wall and CPU seconds summed over them (jobs may have run in
    parallel, so this is work, not elapsed time)."""

    expected: int
    found: int
    statuses: Counter
    wall_seconds: float
    cpu_seconds: float
    slowest: str

    def line(self) -> str:
        """One line: ``12 of 12 records (10 ok, 2 unavailable), wall 34.5 s summed, ...``;
        a result with no jobs (Figs. 2.9/2.12 read Table 2.1's records) says so."""
        if not self.expected:
            return "no jobs of its own"
        statuses = ", ".join(f"{n} {s}" for s, n in self.statuses.most_common())
        text = f"{self.found} of {self.expected} records ({statuses or 'none'})"
        if self.found:
            text += (f", wall {_seconds(self.wall_seconds)} and CPU "
                     f"{_seconds(self.cpu_seconds)} summed over them")
            if self.slowest:
                text += f"; slowest {self.slowest}"
        return text


def _seconds(t: float) -> str:
    if t < 120:
        return f"{t:.1f} s"
    return f"{t / 60:.1f} min" if t < 7200 else f"{t / 3600:.1f} h"


def _timing(record: dict, key: str) -> float:
    value = (record.get("timing") or {}).get(key)
    return float(value) if value is not None and math.isfinite(value) else 0.0


def run_info(paths: list[Path]) -> tuple[RunInfo, list[dict]]:
    """Read the existing records among ``paths``; their :class:`RunInfo` and the
    records themselves."""
    records, unreadable = [], 0
    for path in paths:
        if path.exists():
            try:
                records.append((path, read_checked(path)))
            except CorruptRecordError:
                unreadable += 1  # named by the audit; counted here as a status
    slowest = max(records, key=lambda pr: _timing(pr[1], "wall_seconds"), default=None)
    label = ""
    if slowest is not None:
        rec = slowest[1]
        name = rec.get("job") or slowest[0].stem
        label = f"{name} ({_seconds(_timing(rec, 'wall_seconds'))})"
    info = RunInfo(expected=len(paths), found=len(records),
                   statuses=Counter([r.get("status", "?") for _, r in records]
                                    + ["unreadable"] * unreadable),
                   wall_seconds=sum(_timing(r, "wall_seconds") for _, r in records),
                   cpu_seconds=sum(_timing(r, "cpu_seconds") for _, r in records),
                   slowest=label)
    return info, [r for _, r in records]


def _counted(values) -> list[str]:
    counts = Counter(v for v in values if v)
    if len(counts) == 1:
        return [next(iter(counts))]
    return [f"{v} ({n} record{'s' if n > 1 else ''})" for v, n in counts.most_common()]


def provenance_summary(records: list[dict], config: dict) -> list[tuple[str, str]]:
    """``(what, value)`` lines over every record of the report, and the commit and
    packages of the process writing the report."""
    prov = [r["provenance"] for r in records if r.get("provenance")]
    git = [p.get("git") or {} for p in prov]
    commits = _counted(g.get("commit", "")[:10] + (" (dirty)" if g.get("dirty") else "")
                       for g in git)
    machines = _counted(
        f"{m.get('node')} ({m.get('processor')}, {m.get('cpu_count')} CPUs, {m.get('platform')})"
        for m in (p.get("machine") for p in prov) if m)
    pythons = _counted(p.get("python", "") for p in prov)
    names = list(dict.fromkeys(k for p in prov for k in (p.get("packages") or {})))
    packages = []
    for name in names:
        versions = _counted((p.get("packages") or {}).get(name, "") for p in prov)
        packages.append(f"{name} {' / '.join(versions)}")
    seen = sorted({lib.get("num_threads") for r in records
                   for lib in (r.get("blas_during_run") or []) if lib.get("num_threads")})
    libraries = _counted(f"{lib.get('internal_api')} {lib.get('version') or ''}".strip()
                         for r in records for lib in (r.get("blas_during_run") or []))
    now = git_commit()
    current = "; ".join(f"{k} {v}" for k, v in package_versions().items())
    if sorted(packages) == sorted(current.split("; ")):
        packages, current = [current], "the same"
    return [
        ("records", f"{len(records)} (one per job: table cells, solver points, figure points)"),
        ("commits of the records", "; ".join(commits) or "none"),
        ("report written at commit", now["commit"][:10] + (" (dirty)" if now["dirty"] else "")),
        ("machines", "; ".join(machines) or "none"),
        ("Python", "; ".join(pythons) or "none"),
        ("packages (records)", "; ".join(packages) or "none"),
        ("packages (report)", current),
        ("BLAS threads", f"blas_threads = {config['blas_threads']} in the profile; seen "
                         f"during the runs: {', '.join(map(str, seen)) or 'not recorded'}"),
        ("BLAS/OpenMP libraries", "; ".join(dict.fromkeys(v.split(' (')[0] for v in libraries))
         or "not recorded"),
    ]
