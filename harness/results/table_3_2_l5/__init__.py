"""Table 3.2 at l = 5 (thesis 3.1.9): the table's embeddings measured with smaller and
larger neighbourhoods l of eqs. (3.27)-(3.29).

Thesis 3.1.9 (text after Table 3.2): "If the local trust of MVU is evaluated with l = 5,
the average result improves from 0.799 to 0.938", and, of neighbourhood intersection
(3.29), "as l becomes large N(Y) approaches 1". Table 3.2's records keep no embedding
(its cells store the three scores at l = 15 only), so each cell is recomputed here with
Table 3.2's own job code -- the grid's cell (:mod:`harness.results.common.work.grid`) with
the same resolved parameters -- and measured at every l of :data:`L_GRID`
(:mod:`.work`).

The declaration: its grid (:class:`~harness.results.common.declare.table_spec.TableSpec` of the
embedding task, the thesis' Table 3.2 file for the protocol only) and profile side
(:class:`~harness.results.common.declare.grid_profile.GridTable`); the profile section's schema
is ``schema.yaml``; :mod:`.write` writes the table and the verdicts; ``README.md`` says
what it shows, its choices and sizes.
"""

from __future__ import annotations

from harness.results.common.declare.grid_profile import Cell, GridTable, cell_params, parse_key
from harness.results.common.declare.table_spec import TableSpec
from harness.results.table_3_2_l5.lgrid import L_GRID, l_tag, resolve_l

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "CLAIMS_PER_CELL", "SPEC",
           "L_GRID", "l_tag", "resolve_l", "check", "keys", "params", "inputs", "finish"]

_METRICS = (("local_continuity", "local continuity"), ("local_trust", "local trust"),
            ("neighborhood_intersection", "local intersection"))


def _measures() -> tuple:
    shown = [(f"{m}_{l_tag(l)}", f"{m}_{l_tag(l)}", f"{label} (l = {l})")
             for l in (5, 15) for m, label in _METRICS]
    shown += [(f"neighborhood_intersection_{l_tag(l)}", f"neighborhood_intersection_{l_tag(l)}",
               f"local intersection (l = {l})") for l in L_GRID if l not in (5, 15)]
    return tuple(shown)


SPEC = TableSpec(
    name="table_3_2_l5",
    task="embedding",
    title=("Table 3.2 re-evaluated at l = 5 (and l = 10 ... n-1): local continuity, trust "
           "and intersection of the same embeddings (thesis 3.1.9, eqs. 3.27-3.29)"),
    reference_file="thesis_table_3_2.csv",
    measures=_measures(),
    thesis_datasets=(),
    average=False,
    thesis_values=False,
    notes=(
        "Each cell is Table 3.2's cell (same parameters: k, output dimension, MVU's k = 5, "
        "solver, seed), recomputed because Table 3.2's records keep no embedding, and its "
        "embedding is scored at every l of l = 5, 10, 15, 50, 100, n/2 (n // 2) and n-1; "
        "the l = 15 columns are Table 3.2's own measure of the same embedding.",
        "No thesis value per cell: the thesis gives only MVU's average local trust at "
        "l = 15 (0.799, text; its table says 0.883) and at l = 5 (0.938); the verdict "
        "compares the average over its four data sets.",
        "An MVU cell whose SDP the harness does not certify is marked and not counted.",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "3.1.9"
KIND = "table"
SIDECAR = True
CLAIMS_PER_CELL = True

#: the table whose cells these are: its methods' thesis-fixed parameters apply (MVU's
#: k = 5, ``table_params["table_3_2"]`` of the method plugins)
TABLE = "table_3_2"

check, keys, _grid_params, inputs, finish = GridTable(SPEC).functions()


def params(config: dict, key: str) -> dict:
    """Table 3.2's resolved parameters of the cell -- resolved as Table 3.2's cell
    (:func:`~harness.results.common.declare.grid_profile.cell_params`, so that a method's
    thesis-fixed parameters for Table 3.2 apply, e.g. MVU's k = 5) from this section's
    values -- plus the l grid :data:`L_GRID` the job scores the embedding at."""
    cell = parse_key(NAME, key, config)
    view = {**config, "results": {**config["results"], TABLE: config["results"][NAME]}}
    resolved = cell_params(view, SPEC, Cell(TABLE, cell.dataset, cell.method, cell.solver))
    return {**resolved, "table": NAME, "l_grid": list(L_GRID)}
