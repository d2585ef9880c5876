"""``harness export-run RESULTS_DIR DEST``: keep a finished run as a reference run.

DEST gets every result's CSV, Markdown and JSON sidecar (in ``tables/`` and
``figures/``, as in the run), the report's Markdown, ``records.csv`` (one line per job
record, :func:`harness.runs.records_csv.record_row`) and ``run.json`` (commit, profile,
machine, dates and number of jobs from the records' provenance,
:func:`harness.runs.records_csv.run_summary`, plus where and when it was exported). No
PNGs, no certificate arrays, no LaTeX, no HTML. It is written into a temporary folder
beside DEST and renamed into place, so DEST is either complete or absent.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

from harness.records import read_record
from harness.runs.layout import RECORDS_FILE, RUN_FILE, NotARunError, open_run
from harness.runs.records_csv import RECORD_COLUMNS, record_paths, record_row, run_summary

__all__ = ["EXPORTED_SUFFIXES", "export_run"]

#: the files of a result a reference run keeps
EXPORTED_SUFFIXES = ("csv", "md", "json")


def _records_csv(rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=RECORD_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if row[k] is None else row[k]) for k in RECORD_COLUMNS})
    return buffer.getvalue()


def export_run(results_dir: str | Path, dest: str | Path, force: bool = False) -> Path:
    """Write the reference run of the run directory ``results_dir`` to ``dest``;
    return ``dest``.

    Parameters
    ----------
    results_dir : path
        A run directory, ``results/<profile>`` (with ``records/``).
    dest : path
        The reference run to write; must not exist unless ``force``.
    force : bool
        Replace an existing ``dest`` (still atomically: the new one is complete
        before the old one is removed).

    Raises
    ------
    NotARunError
        ``results_dir`` is not a run directory, or has no records.
    FileExistsError
        ``dest`` exists and ``force`` is false.
    """
    run = open_run(results_dir)
    if run.kind != "run":
        raise NotARunError(f"{run.root} is already a reference run (it has {RUN_FILE}, no "
                           f"records/); export a run directory, results/<profile>")
    paths = record_paths(run.records_dir)
    if not paths:
        raise NotARunError(f"{run.records_dir} holds no records; run the profile first")
    dest = Path(dest)
    if dest.exists() and not force:
        raise FileExistsError(f"{dest} exists; remove it or pass --force to replace it")
    records = [read_record(p) for p in paths]
    summary = run_summary(paths, records)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent))
    try:
        exported = []
        for name, files in sorted(run.outputs.items()):
            for suffix in EXPORTED_SUFFIXES:
                if suffix in files:
                    target = tmp / files[suffix].relative_to(run.root)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(files[suffix], target)
                    exported.append(str(target.relative_to(tmp)))
        if run.report.exists():
            shutil.copyfile(run.report, tmp / "report.md")
            exported.append("report.md")
        (tmp / RECORDS_FILE).write_text(
            _records_csv([record_row(r, p) for r, p in zip(records, paths)]), encoding="utf-8")
        summary.update({
            "exported_from": str(run.root.resolve()),
            "exported_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "results": sorted(run.outputs),
            "files": sorted(exported) + [RECORDS_FILE, RUN_FILE],
        })
        (tmp / RUN_FILE).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        os.chmod(tmp, 0o777 & ~_umask())
        if dest.exists():
            old = dest.with_name(f".{dest.name}.old.{os.getpid()}")
            os.rename(dest, old)
            os.rename(tmp, dest)
            shutil.rmtree(old)
        else:
            os.rename(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
