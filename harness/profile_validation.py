"""Reading and validating a whole profile file (``config/*.yaml``).

:func:`harness.config.validate_tables` checks the schema and the table sections;
the solver table (:func:`harness.solver_points.check_solver_table`) and the figures
(:func:`harness.experiments.check_figures`) check their own sections. This module
sits above all three, so that none of them imports back into another (the checks
used to be imported lazily from :mod:`harness.config`, an import cycle).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from harness.config import ConfigError, validate_tables
from harness.experiments import check_figures
from harness.solver_points import check_solver_table

__all__ = ["validate_config", "load_config"]


def validate_config(config: dict) -> dict:
    """Validate a profile: :func:`harness.config.validate_tables` (its copy with
    defaults filled in is returned), then the ``solver_table:`` and ``figures:``
    sections; any failure is a :class:`harness.config.ConfigError` naming the entry."""
    config = validate_tables(config)
    if "solver_table" in config:
        check_solver_table(config["solver_table"])
    if config.get("figures"):
        check_figures(config)
    return config


def load_config(path: str | Path) -> dict:
    """Read and validate a profile file."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file {path} does not exist")
    with open(path) as fh:
        raw = yaml.safe_load(fh)
    if not isinstance(raw, dict):
        raise ConfigError(f"config file {path} must hold a mapping, not {type(raw).__name__}")
    return validate_config(raw)
