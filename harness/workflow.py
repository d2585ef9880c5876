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

from harness import claims, experiments, registry, report, runner
from harness.tables import DEVIATIONS_FILE
from harness.config import ConfigError, parse_cell, table_cells, cell_params
from harness.profile_validation import load_config
from harness.sources import source_closure
from harness.table_specs import TABLES
from harness.solver_points import (
    SolverPoint, point_params, point_path, point_sources, solver_points,
)

__all__ = ["WorkflowConfig", "DEFAULT_CONFIGFILE", "workdir_relative"]

DEFAULT_CONFIGFILE = "config/quick.yaml"
TABLE_SUFFIXES = ("csv", "md", "tex")


def workdir_relative(paths) -> list[str]:
    """Source files as Snakemake's inputs: relative to the working directory where
    they lie under it (absolute elsewhere, e.g. an installed package), so that the
    input sets Snakemake records do not change when the checkout is moved or cloned
    elsewhere with its results (an absolute path would rerun every job)."""
    here = Path.cwd().resolve()
    out = []
    for path in paths:
        path = Path(path).resolve()
        out.append(str(path.relative_to(here)) if path.is_relative_to(here) else str(path))
    return out


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

    def table_records_of(self, wildcards) -> list[str]:
        """The cell records of the table named by the ``table`` wildcard."""
        return self.table_records(wildcards.table)

    def table_reference(self, wildcards) -> str:
        """The thesis' reference CSV of the table named by the ``table`` wildcard."""
        return self.reference(TABLES[wildcards.table].reference_file)

    @property
    def known_deviations_file(self) -> str:
        """``config/known_deviations.yaml``: the measured reasons printed beside cells
        (an input of every table, so that a new or changed reason rebuilds it)."""
        return workdir_relative([DEVIATIONS_FILE])[0]

    def result_outputs(self) -> list[str]:
        """Every table and figure output of the profile (the report's inputs)."""
        outputs = [p for table in self.config["tables"] for p in self.table_outputs(table)]
        if "solver_table" in self.config:
            outputs += self.table_outputs("solver_table")
        for figure in self.config.get("figures") or {}:
            outputs += self.figure_outputs(figure)
        return outputs

    def report_outputs(self) -> list[str]:
        """``results/<profile>/report.{html,md}``."""
        return [str(self._base / f"report.{s}") for s in ("html", "md")]

    def report_sources(self) -> list[str]:
        """The report's code and the profile's figure modules (their ``claims``):
        editing them rewrites the report."""
        files = sorted(Path(report.__file__).parent.glob("*.py"))
        files.append(claims.__file__)
        files += [inspect.getsourcefile(experiments.get_figure(f))
                  for f in self.config.get("figures") or {}]
        return workdir_relative(files)

    def all_outputs(self) -> list[str]:
        """What ``reproduce_all`` builds: every table and figure, then the report."""
        return self.result_outputs() + self.report_outputs()

    # ---- per-cell callables (Snakemake passes the wildcards) ----------------
    def cell_sources(self, wildcards) -> list[str]:
        """The project files a cell's code imports (:mod:`harness.sources`): the
        runner, the method and data set plugins and every module they use, e.g.
        ``methods/_lmnn_core.py`` or the native MVU solver. Editing one reruns the
        cell."""
        cell = parse_cell(wildcards.cell)
        return workdir_relative(source_closure(
            runner, registry.get_method(cell.method), registry.get_dataset(cell.dataset)))

    def cell_params_json(self, wildcards) -> str:
        self._require_table(wildcards.cell)
        return json.dumps(cell_params(self.config, parse_cell(wildcards.cell)), sort_keys=True)

    def cell_runtime_minutes(self, wildcards) -> int:
        cell = parse_cell(wildcards.cell)
        return math.ceil(self.config["tables"][cell.table]["time_limit_seconds"] / 60) + 1

    # ---- the solver table: one job per solve (harness.solver_points) -----------
    @property
    def solver_point_pattern(self) -> str:
        return str(point_path(self.config, SolverPoint("{backend}", "{n}", "{variant}")))

    @property
    def solver_point_log_pattern(self) -> str:
        return str(Path("logs") / self.config["profile"] / "solver_table"
                   / "{variant}" / "{backend}" / "n{n}.log")

    def solver_point_records(self) -> list[str]:
        if "solver_table" not in self.config:
            return []
        return [str(point_path(self.config, p)) for p in solver_points(self.config)]

    def solver_point_sources(self, wildcards) -> list[str]:
        """The solver's and the problem's source files: editing them reruns the point."""
        return workdir_relative(point_sources(wildcards.backend))

    def solver_point_params_json(self, wildcards) -> str:
        point = SolverPoint(wildcards.backend, int(wildcards.n), wildcards.variant)
        return json.dumps(point_params(self.config, point), sort_keys=True)

    def solver_point_runtime_minutes(self, wildcards) -> int:
        section = self.config["solver_table"]
        return math.ceil((section["time_limit_seconds"] + section["grace_seconds"]) / 60) + 1

    # ---- thesis figures: one job per point (harness.experiments) -----------------
    @property
    def figure_point_pattern(self) -> str:
        return str(experiments.points_dir(self.config) / "{point}.json")

    @property
    def figure_point_log_pattern(self) -> str:
        return str(Path("logs") / self.config["profile"] / "figures" / "{point}.log")

    def figure_outputs(self, figure: str) -> list[str]:
        """``results/<profile>/figures/<figure>.{csv,png,md}``."""
        return [str(p) for p in experiments.figure_paths(self.config, figure).values()]

    def figure_point_records(self, figure: str) -> list[str]:
        if figure not in (self.config.get("figures") or {}):
            return []
        return [str(experiments.point_path(self.config, p))
                for p in experiments.figure_points(self.config, figure)]

    def figure_records_of(self, wildcards) -> list[str]:
        """The point records of the figure named by the ``figure`` wildcard."""
        return self.figure_point_records(wildcards.figure)

    def figure_point_sources(self, wildcards) -> list[str]:
        """Data set, MVU and solver source files: editing them reruns the point."""
        return workdir_relative(experiments.point_sources(
            self.config, experiments.parse_point(wildcards.point)))

    def figure_point_params_json(self, wildcards) -> str:
        point = experiments.parse_point(wildcards.point)
        return json.dumps(experiments.point_params(self.config, point), sort_keys=True)

    def figure_point_runtime_minutes(self, wildcards) -> int:
        params = experiments.point_params(self.config, experiments.parse_point(wildcards.point))
        return math.ceil(params["time_limit_seconds"] / 60) + 1

    def _require_table(self, cell_id: str) -> None:
        cell = parse_cell(cell_id)
        if cell.table not in self.config["tables"]:
            raise ConfigError(
                f"cell {cell_id}: table {cell.table} is not in the profile "
                f"{self.configfile}; tables there: {', '.join(self.config['tables'])}"
            )
