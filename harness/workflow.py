"""What the Snakefile needs from the harness: the validated profile, the cells, and
the file names of records and tables.

Kept out of the Snakefile so that it is plain, tested Python; the Snakefile and
``rules/*.smk`` stay thin.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import shlex
import sys
from pathlib import Path

from harness import registry
from harness.config import ConfigError, load_config, parse_cell, table_cells, cell_params

__all__ = ["WorkflowConfig", "DEFAULT_CONFIGFILE"]

DEFAULT_CONFIGFILE = "config/quick.yaml"
TABLE_SUFFIXES = ("csv", "md", "tex")


@dataclasses.dataclass
class WorkflowConfig:
    """The validated profile plus the path helpers used by ``rules/*.smk``."""

    configfile: str
    config: dict

    @classmethod
    def from_snakemake(cls, workflow, config: dict) -> "WorkflowConfig":
        """Build from Snakemake's ``workflow`` object.

        The cells re-read the profile *file* (``harness run --config FILE``), so one
        profile file is required and ``--config KEY=VALUE`` overrides are refused
        (they would not reach the cells): put changes in a profile file instead.
        """
        files = [str(f) for f in workflow.overwrite_configfiles]
        if len(files) > 1:
            raise ConfigError(
                f"give one profile file, not {len(files)} ({', '.join(files)}): the "
                f"cells read exactly one; merge them into one file"
            )
        if workflow.config_settings.config:
            keys = ", ".join(workflow.config_settings.config)
            raise ConfigError(
                f"--config overrides ({keys}) do not reach the cells; copy the profile "
                f"and edit it, then pass it with --configfile"
            )
        path = files[0] if files else DEFAULT_CONFIGFILE
        return cls(configfile=path, config=load_config(path))

    @property
    def command(self) -> str:
        """How jobs call the harness: this interpreter's ``-m harness``, so that a
        job finds the same installation whether or not the venv is activated."""
        return f"{shlex.quote(sys.executable)} -m harness"

    # ---- paths -------------------------------------------------------------
    @property
    def _base(self) -> Path:
        return Path(self.config["results_dir"]) / self.config["profile"]

    @property
    def record_pattern(self) -> str:
        return str(self._base / "cells" / "{cell}.json")

    @property
    def log_pattern(self) -> str:
        return str(Path("logs") / self.config["profile"] / "{cell}.log")

    def reference(self, filename: str) -> str:
        return str(Path(self.config["reference_dir"]) / filename)

    def table_outputs(self, table: str) -> list[str]:
        return [str(self._base / "tables" / f"{table}.{s}") for s in TABLE_SUFFIXES]

    def table_records(self, table: str) -> list[str]:
        if table not in self.config["tables"]:
            return []
        return [self.record_pattern.format(cell=c.id) for c in table_cells(self.config, table)]

    def all_outputs(self) -> list[str]:
        return [p for table in self.config["tables"] for p in self.table_outputs(table)]

    # ---- per-cell callables (Snakemake passes the wildcards) ----------------
    def cell_sources(self, wildcards) -> list[str]:
        """The method's and the data set's plugin files: editing either reruns the cell."""
        cell = parse_cell(wildcards.cell)
        classes = (registry.get_method(cell.method), registry.get_dataset(cell.dataset))
        return [str(Path(inspect.getsourcefile(c)).resolve()) for c in classes]

    def cell_params_json(self, wildcards) -> str:
        self._require_table(wildcards.cell)
        return json.dumps(cell_params(self.config, parse_cell(wildcards.cell)), sort_keys=True)

    def cell_runtime_minutes(self, wildcards) -> int:
        cell = parse_cell(wildcards.cell)
        return math.ceil(self.config["tables"][cell.table]["time_limit_seconds"] / 60) + 1

    def _require_table(self, cell_id: str) -> None:
        cell = parse_cell(cell_id)
        if cell.table not in self.config["tables"]:
            raise ConfigError(
                f"cell {cell_id}: table {cell.table} is not in the profile "
                f"{self.configfile}; tables there: {', '.join(self.config['tables'])}"
            )
