"""Unreadable records: found, named and moved aside, outside the jobs' own code.

A record (:mod:`harness.records`) that is truncated or not JSON used to break every
step after it with a ``JSONDecodeError`` that named no file, and Snakemake never redid
its job (issue 53). Here, for the commands that read records (``harness write``, the
report, the audit) and for the workflow:

- :func:`read_checked` reads a record or raises :class:`CorruptRecordError`, which
  names the file and how to recompute it;
- :func:`check_readable` does so for a list of records (the inputs of a write);
- :func:`quarantine_corrupt` moves unreadable records aside to ``<record>.corrupt``
  so that the workflow sees them missing and reruns their jobs.

Kept apart from :mod:`harness.records`, which every job imports: an edit here reruns
no job.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["CorruptRecordError", "read_checked", "check_readable", "quarantine_corrupt"]


class CorruptRecordError(ValueError):
    """A record file that is not a readable record (truncated, not JSON, not an
    object with a status): the message names the file and how to recompute it."""

    def __init__(self, path: str | Path, why: str):
        self.path = Path(path)
        super().__init__(f"{path} is not a readable record ({why}); delete it and run "
                         f"snakemake again (or `harness job RESULT/KEY`) to recompute it")


def read_checked(path: str | Path) -> dict:
    """Read one record.

    Raises
    ------
    CorruptRecordError
        The file is not a record (naming it and the fix).
    """
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorruptRecordError(path, f"{type(exc).__name__}: {exc}") from None
    if not isinstance(record, dict) or "status" not in record:
        raise CorruptRecordError(path, "not a JSON object with a status")
    return record


def check_readable(paths) -> None:
    """Raise :class:`CorruptRecordError` for the first existing unreadable record of
    ``paths`` (a missing one is a job not run yet, not an error)."""
    for path in map(Path, paths):
        if path.exists():
            read_checked(path)


def quarantine_corrupt(paths) -> list[Path]:
    """Move every existing unreadable record among ``paths`` aside to
    ``<name>.corrupt`` (replacing an older one), so that the workflow sees it missing
    and reruns its job; return the moved records' paths."""
    moved = []
    for path in map(Path, paths):
        if not path.exists():
            continue
        try:
            read_checked(path)
        except CorruptRecordError:
            os.replace(path, path.with_name(path.name + ".corrupt"))
            moved.append(path)
    return moved
