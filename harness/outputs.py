"""Where a thesis result's outputs live: ``results/<profile>/<tables|figures>/NAME.*``."""

from __future__ import annotations

from pathlib import Path

__all__ = ["SUFFIXES", "FOLDERS", "outputs_dir", "output_paths"]

# a result's KIND -> the suffixes of its outputs, and the folder they are written to
SUFFIXES = {"table": ("csv", "md", "tex"), "figure": ("csv", "png", "md")}
FOLDERS = {"table": "tables", "figure": "figures"}


def outputs_dir(config: dict) -> Path:
    """``<results_dir>/<profile>``."""
    return Path(config["results_dir"]) / config["profile"]


def output_paths(config: dict, name: str, kind: str) -> dict[str, Path]:
    """The output files of the result ``name`` of ``kind``, by suffix, e.g.
    ``{"csv": results/quick/tables/table_3_2.csv, "md": ..., "tex": ...}``."""
    base = outputs_dir(config) / FOLDERS[kind]
    return {suffix: base / f"{name}.{suffix}" for suffix in SUFFIXES[kind]}
