"""What a thesis table module exposes, bound to its :class:`TableSpec` and claims.

Tables 2.1 and 3.2 (and Table 2.1's peer comparison) are grids of data sets x
methods (:mod:`harness.results.common.grid`) written as thesis / ours / delta tables
(:mod:`harness.results.common.tables`) and checked against the thesis' claims
(:mod:`harness.results.common.table_claims`). A table module declares its spec and claims
and takes its functions from one :class:`TableResult`::

    check, keys, params, write, inputs, claims, section = TableResult(SPEC, CLAIMS).functions()
    work, finish, sources = grid.work, grid.finish, grid.sources
"""

from __future__ import annotations

from pathlib import Path

from harness.outputs import output_paths
from harness.report.sections import read_long_table
from harness.results.common import grid
from harness.results.common.table_claims import TableClaim, table_claims
from harness.results.common.table_section import table_section
from harness.results.common.table_spec import TableSpec
from harness.results.common.tables import DEVIATIONS_FILE, write_table

__all__ = ["TableResult"]


class TableResult:
    """The functions of one table's result module.

    Parameters
    ----------
    spec : TableSpec
    claims : sequence of TableClaim
        The thesis' statements about the table, checked on its long CSV.
    """

    def __init__(self, spec: TableSpec, claims: tuple[TableClaim, ...] = ()):
        self.spec, self.claim_list = spec, tuple(claims)

    def functions(self) -> tuple:
        """``check, keys, params, write, inputs, claims, section``, in this order."""
        return (self.check, self.keys, self.params, self.write, self.inputs, self.claims,
                self.section)

    def check(self, config: dict) -> None:
        """The grid's checks (:func:`harness.results.common.grid.check_grid`)."""
        grid.check_grid(config, self.spec)

    def keys(self, config: dict) -> list[str]:
        """``DATASET/METHOD[/SOLVER]`` of every cell (:func:`grid.grid_cells`)."""
        return [cell.key for cell in grid.grid_cells(config, self.spec.name)]

    def params(self, config: dict, key: str) -> dict:
        """The resolved parameters of one cell (:func:`grid.cell_params`)."""
        return grid.cell_params(config, self.spec, grid.parse_key(self.spec.name, key))

    def write(self, config: dict) -> list[Path]:
        """``tables/NAME.{csv,md,tex}`` from the cells' records."""
        return write_table(config, self.spec)

    def inputs(self, config: dict) -> list[str]:
        """The thesis' reference CSV and ``config/known_deviations.yaml`` (the
        measured reasons printed beside cells): an edit rewrites the table."""
        return [str(Path(config["reference_dir"]) / self.spec.reference_file),
                str(DEVIATIONS_FILE)]

    def claims(self, config: dict) -> list[dict]:
        """The claims checked on the generated long CSV (``not measured`` without it)."""
        path = output_paths(config, self.spec.name, "table")["csv"]
        frame = read_long_table(path) if path.exists() else None
        return table_claims(self.spec, self.claim_list, frame,
                            f"the table was not generated: {path} does not exist; run "
                            f"`harness write {self.spec.name}`")

    def section(self, config: dict):
        """The report's section (:func:`harness.results.common.table_section.table_section`)."""
        return table_section(config, self.spec)
