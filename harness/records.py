"""JSON records and generated files: atomic writing, reading.

A record (one per job, :mod:`harness.jobs`, where it lives) holds the status (``ok``, ``failed``, ``unavailable``, ``skipped``,
``timeout``), the reason of an expected failure, the resolved parameters, the
numbers the task measured per run, timings and the provenance
(:func:`harness.provenance.provenance`). It is written to a temporary file in the
same directory and renamed into place, so a killed job never leaves a half-written
record.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from pathlib import Path
from typing import Any

__all__ = ["STATUSES", "CSV_FLOAT_FORMAT", "write_json_atomic", "write_text_atomic",
           "write_csv_atomic", "write_bytes_atomic", "read_record"]

SCHEMA_VERSION = 1
STATUSES = ("ok", "failed", "unavailable", "skipped", "timeout")
#: the numbers of a result's CSV: 10 significant digits, so that every number its
#: Markdown prints (a CPU delta of -12081.64 s included) is in the CSV for
#: :mod:`harness.number_audit` and :mod:`harness.runs.compare` (6 digits cut it to
#: -12081.6)
CSV_FLOAT_FORMAT = "%.10g"


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` via a temporary file and ``os.replace``."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_csv_atomic(path: str | Path, frame) -> Path:
    """Write the pandas ``frame`` as CSV (no index, :data:`CSV_FLOAT_FORMAT`) to
    ``path`` atomically (:func:`write_text_atomic`)."""
    return write_text_atomic(path, frame.to_csv(index=False, float_format=CSV_FLOAT_FORMAT))


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temporary file in the same directory and
    ``os.replace``, so a killed job never leaves a half-written file (e.g. a PNG).

    The temporary file is created with mode ``0o666`` less the umask, as a plain
    ``open(path, "w")`` would (:func:`tempfile.mkstemp` creates ``0o600``, which would
    keep the results from other users of a shared file system and from a web
    server)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{uuid.uuid4().hex}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _jsonable(value: Any) -> Any:
    """NumPy scalars/arrays to Python; NaN/inf to None (JSON has neither)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def write_json_atomic(path: str | Path, record: dict) -> Path:
    """Write one record as JSON atomically (see :func:`write_text_atomic`)."""
    if record.get("status") not in STATUSES:
        raise ValueError(f"record status {record.get('status')!r} is not one of {STATUSES}")
    record = {"schema": SCHEMA_VERSION, **record}
    return write_text_atomic(path, json.dumps(_jsonable(record), indent=1, sort_keys=True) + "\n")


def read_record(path: str | Path) -> dict:
    """Read one record."""
    with open(path) as fh:
        return json.load(fh)
