"""The outputs of the MVU solver comparison: ``tables/solver_table.{csv,md,tex,json}``
from the solve records (:mod:`harness.results.common.solver_frame`) and its report
section, the grids coloured by verdict (:mod:`.section`)."""

from __future__ import annotations

from harness.results.common.solver_frame import write_solver_table
from harness.results.solver_table.section import solver_section

__all__ = ["write", "section"]


def write(config: dict) -> list:
    """``tables/solver_table.{csv,md,tex}`` from the solve records."""
    return write_solver_table(config)


def section(config: dict):
    """The report's section: the grids, coloured by verdict."""
    return solver_section(config)
