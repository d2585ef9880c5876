"""Where a thesis result's outputs live: ``results/<profile>/<tables|figures>/NAME.*``,
and the JSON sidecar the report reads them from.

A result module whose ``SIDECAR`` is true also writes ``NAME.json``: what the report
shows of it beside its CSV (notes, its Markdown body), so that the report reads data
and never re-parses generated Markdown, and its claims with their verdicts
(``claims``, added by :func:`harness.result_write.write_result` after the result's
``write``), so that a program can compare two runs' verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from harness.records import write_text_atomic

__all__ = ["SUFFIXES", "FOLDERS", "outputs_dir", "output_paths", "result_outputs",
           "write_sidecar", "read_sidecar"]

# a result's KIND -> the suffixes of its outputs, and the folder they are written to
SUFFIXES = {"table": ("csv", "md", "tex"), "figure": ("csv", "png", "md")}
FOLDERS = {"table": "tables", "figure": "figures"}


def outputs_dir(config: dict) -> Path:
    """``<results_dir>/<profile>``."""
    return Path(config["results_dir"]) / config["profile"]


def output_paths(config: dict, name: str, kind: str, sidecar: bool = False) -> dict[str, Path]:
    """The output files of the result ``name`` of ``kind``, by suffix, e.g.
    ``{"csv": results/quick/tables/table_3_2.csv, "md": ..., "tex": ...}``, and
    ``"json"`` (the sidecar) when ``sidecar``."""
    base = outputs_dir(config) / FOLDERS[kind]
    suffixes = SUFFIXES[kind] + (("json",) if sidecar else ())
    return {suffix: base / f"{name}.{suffix}" for suffix in suffixes}


def result_outputs(config: dict, module: ModuleType) -> dict[str, Path]:
    """:func:`output_paths` of a result module (its ``NAME``, ``KIND``, ``SIDECAR``)."""
    return output_paths(config, module.NAME, module.KIND, getattr(module, "SIDECAR", False))


def write_sidecar(path: Path, data: dict) -> Path:
    """Write a result's sidecar (JSON, atomically); written last, after the files it
    describes."""
    return write_text_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def read_sidecar(path: Path) -> dict:
    """A result's sidecar."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
