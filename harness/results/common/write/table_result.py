"""The outputs of a grid table, bound to its :class:`TableSpec` and claims.

Tables 2.1 and 3.2 (and Table 2.1's peer comparison) are grids of data sets x
methods (:mod:`harness.results.common.declare.grid_profile`, the cells' work
:mod:`harness.results.common.work.grid`) written as thesis / ours / delta tables
(:mod:`harness.results.common.write.tables`) and checked against the thesis' claims
(:mod:`harness.results.common.write.table_claims`). A table's declaration takes its
profile side from :class:`~harness.results.common.declare.grid_profile.GridTable`, its
``write.py`` the outputs from one :class:`TableResult`::

    write, claims, section = TableResult(SPEC, CLAIMS).functions()
"""

from __future__ import annotations

from pathlib import Path

from harness.outputs import output_paths
from harness.report.sections import read_long_table
from harness.results.common.write.row_claims import RowReading, row_claims
from harness.results.common.write.table_claims import TableClaim, table_claims
from harness.results.common.write.table_section import table_section
from harness.results.common.declare.table_spec import TableSpec
from harness.results.common.write.tables import write_table

__all__ = ["TableResult"]


class TableResult:
    """The outputs of one grid table's result: its write, claims and report section.

    Parameters
    ----------
    spec : TableSpec
    claims : sequence of TableClaim
        The thesis' statements about the table, checked on its long CSV.
    rows : dict, optional
        The register's row entries of the table (:mod:`harness.results.common.write.row_claims`):
        id prefix -> measure; each such entry is a claim checked cell by cell.
    row_readings : sequence of RowReading
        The readings of those entries (their tolerances).
    extra : callable, optional
        ``extra(name, frame) -> list of claim dicts``: further claims decided on the
        long CSV (``frame`` None when it was not generated), appended after the others
        (e.g. a result's ``register_claims``).
    """

    def __init__(self, spec: TableSpec, claims: tuple[TableClaim, ...] = (),
                 rows: dict[str, str] | None = None,
                 row_readings: tuple[RowReading, ...] = (), extra=None):
        self.spec, self.claim_list = spec, tuple(claims)
        self.rows, self.row_readings = dict(rows or {}), tuple(row_readings)
        self.extra = extra

    def functions(self) -> tuple:
        """``write, claims, section``, in this order."""
        return self.write, self.claims, self.section

    def write(self, config: dict) -> list[Path]:
        """``tables/NAME.{csv,md,tex}`` from the cells' records."""
        return write_table(config, self.spec)

    def claims(self, config: dict) -> list[dict]:
        """The claims checked on the generated long CSV (``not measured`` without it)."""
        path = output_paths(config, self.spec.name, "table")["csv"]
        frame = read_long_table(path) if path.exists() else None
        readings = config["results"][self.spec.name].get("readings", {})
        missing = (f"the table was not generated: {path} does not exist; run "
                   f"`harness write {self.spec.name}`")
        stated = table_claims(self.spec, self.claim_list, frame, missing,
                              {column: r["description"] for column, r in readings.items()})
        if self.rows:
            stated += row_claims(self.spec.name, frame, self.rows, self.row_readings,
                                 self.spec.decimals, missing)
        if self.extra is not None:
            stated += self.extra(self.spec.name, frame)
        return stated

    def section(self, config: dict):
        """The report's section (:func:`harness.results.common.write.table_section.table_section`)."""
        return table_section(config, self.spec)
