"""The profile side of a data set x method grid (Tables 2.1 and 3.2, Table 2.1's peer
comparison): its cells, their keys, the section's checks and each cell's resolved
parameters. The cells' work is :mod:`harness.results.common.work.grid`.

Imported by the tables' declarations, so at discovery: the thesis' reference tables
(pandas) and the classification task (scikit-learn) are imported where a cell's
parameters need them, not at import.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from harness import registry
from harness.errors import ConfigError, check_names
from harness.reference import reference_methods
from harness.protocol_names import K_BY_VALIDATION
from harness.results.common.declare.grid_finish import finish as grid_finish
from harness.known_deviations import DEVIATIONS_FILE
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["Cell", "check_grid", "grid_cells", "parse_key", "cell_params", "column_dataset",
           "GridTable"]


@dataclasses.dataclass(frozen=True)
class Cell:
    """One (table, data set, method, solver) combination; ``key`` is its job key."""

    table: str
    dataset: str
    method: str
    solver: str | None = None

    @property
    def key(self) -> str:
        """``DATASET/METHOD[/SOLVER]``."""
        return "/".join([self.dataset, self.method] + ([self.solver] if self.solver else []))

    @property
    def id(self) -> str:
        """The job id, ``TABLE/DATASET/METHOD[/SOLVER]``."""
        return f"{self.table}/{self.key}"

    def __str__(self) -> str:
        return self.id


def column_dataset(tconf: dict, column: str) -> str:
    """The data set plugin of a table's column: the plugin a reading names
    (``readings.<column>.dataset``), else the column's own name."""
    return tconf.get("readings", {}).get(column, {}).get("dataset", column)


def _check_readings(tconf: dict, plugins, where: str) -> None:
    """The section's ``readings``: each names one of ``plugins`` (the task's data set
    plugins; :func:`column_dataset`) and is a column of ``datasets``."""
    for column in tconf.get("readings", {}):
        check_names("dataset", [column_dataset(tconf, column)], plugins,
                    f"{where}.readings.{column}.dataset")
        if column not in tconf["datasets"]:
            raise ConfigError(f"{where}.readings.{column}: not a column of {where}.datasets "
                              f"({', '.join(tconf['datasets'])}); list it there or remove "
                              f"the reading")


def _in_thesis_order(config: dict, spec: TableSpec, names: list[str]) -> list[str]:
    """``names`` (methods: all) in the order of the thesis table's rows (the reference
    CSV's), a second reading of a thesis row (its ``reference_aliases`` give it that
    row's numbers, e.g. ``LDA (unshrunk)``) right after it, then the methods with no
    thesis row by name; the registry's order where the table has no reference file or
    it is missing (that error is reported where it is read)."""
    if spec.reference_file is None:
        return names
    try:
        rows = reference_methods(config["reference_dir"], spec.reference_file)
    except FileNotFoundError:
        return names
    reading_of = {label: target for (_, label), (_, target) in spec.reference_aliases.items()
                  if target in rows and target != label}

    def key(name):
        label = registry.method_info(name).thesis_label
        if label in rows:
            return (rows.index(label), 0, "")
        if label in reading_of:
            return (rows.index(reading_of[label]), 1, name)
        return (len(rows), 0, name)

    return sorted(names, key=key)


def check_grid(config: dict, spec: TableSpec) -> None:
    """Check and normalise the table's section in place (called when the profile is
    validated): data set, method and solver names against the registry (the errors
    name the entry and the valid names); ``"all"`` expanded to the plugins of the
    table's task in the thesis table's row order, then by name, less
    ``exclude_methods``.

    Raises
    ------
    ConfigError
        With the path of the offending entry.
    """
    table, task = spec.name, spec.task
    tconf = config["results"][table]
    where = f"results.{table}"
    readings = tconf.get("readings", {})
    plugins = registry.datasets(task)
    valid = list(plugins) + [r for r in readings if r not in plugins]
    tconf["datasets"] = check_names("dataset", tconf["datasets"], valid, f"{where}.datasets")
    _check_readings(tconf, plugins, where)
    every = tconf["methods"] == "all"
    tconf["methods"] = check_names("method", tconf["methods"], registry.methods(task),
                                   f"{where}.methods")
    if every:
        tconf["methods"] = _in_thesis_order(config, spec, tconf["methods"])
    excluded = check_names("method", tconf.pop("exclude_methods", []),
                           registry.methods(task), f"{where}.exclude_methods")
    tconf["methods"] = [m for m in tconf["methods"] if m not in excluded]
    if not tconf["methods"]:
        raise ConfigError(f"{where}: exclude_methods leaves no method")
    for method, names in tconf.get("solvers", {}).items():
        offered = registry.method_info(method).solvers if method in tconf["methods"] else ()
        bad = [s for s in names if s not in offered]
        if bad:
            raise ConfigError(
                f"{where}.solvers.{method}: unknown solver(s) "
                f"{', '.join(map(repr, bad))}; {method} accepts: "
                f"{', '.join(offered) or '(none; is it in the table?)'}")


def grid_cells(config: dict, table: str) -> list[Cell]:
    """Every cell of one table in a validated profile (datasets x methods x solvers).

    A method with solver backends gets one cell per solver listed under the table's
    ``solvers:`` entry, by default only its first (preferred) solver.
    """
    tconf = config["results"][table]
    cells = []
    for dataset in tconf["datasets"]:
        for method in tconf["methods"]:
            offered = registry.method_info(method).solvers
            chosen = tconf.get("solvers", {}).get(method, list(offered[:1]))
            for solver in chosen or (None,):
                cells.append(Cell(table, dataset, method, solver))
    return cells


def parse_key(table: str, key: str, config: dict | None = None) -> Cell:
    """``swiss_roll/isomap[/solver]`` of ``table`` -> :class:`Cell` (names checked; with
    ``config``, a column may be one of the section's ``readings``)."""
    parts = key.strip("/").split("/")
    if len(parts) not in (2, 3):
        raise ConfigError(f"cell {table}/{key}: must look like {table}/DATASET/METHOD"
                          f"[/SOLVER], e.g. table_3_2/swiss_roll/isomap")
    tconf = (config or {}).get("results", {}).get(table, {})
    registry.dataset_info(column_dataset(tconf, parts[0]))
    registry.method_info(parts[1])
    return Cell(table, parts[0], parts[1], parts[2] if len(parts) == 3 else None)


def cell_params(config: dict, spec: TableSpec, cell: Cell) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one cell.

    ``n_neighbors`` and ``n_components`` follow the table's rules: explicit
    per-dataset values in the profile win; otherwise the thesis' Table 3.2 rows ``k``
    (``neighbors_from: table``) or 15 (``neighbors_from: text``) and ``output_dim``,
    looked up under the data set's thesis name (a stand-in uses its original's).
    Clustering cells take the method's ``table_params``, ``methods:`` and
    ``method_params`` alone (``n_clusters`` defaults to the number of labels,
    :mod:`harness.tasks.clustering`).
    Method-specific constructor arguments in ``methods:`` override both, and the
    section's ``method_params[dataset][method]`` override those (e.g. MVU's solver
    ``time_limit`` on a thesis-size real data set). ``time_limit_by_dataset[dataset]``,
    when given, replaces ``time_limit_seconds`` as the cell's CPU budget. A data set's
    ``load()`` arguments are its plugin's defaults, overridden by the profile's
    ``datasets:`` entry, by a reading's ``dataset_params`` (a column of the section's
    ``readings``: the cell's ``dataset`` is then the reading's plugin and ``reading``
    the column), and by the section's ``dataset_params[dataset]`` (a classification
    table's own preprocessing, e.g. Table 2.1's olivetti eigenfaces). Every other
    per-data-set setting is keyed by the column.
    """
    tconf = config["results"][cell.table]
    plugin = column_dataset(tconf, cell.dataset)
    dataset_cls = registry.dataset_info(plugin)  # no plugin imported in the parent
    method_cls = registry.method_info(cell.method)
    thesis_dataset = dataset_cls.thesis_name or plugin
    reading = tconf.get("readings", {}).get(cell.dataset)
    ref_dir = Path(config["reference_dir"])

    params: dict[str, Any] = {
        "table": cell.table,
        "dataset": plugin,
        "method": cell.method,
        "seed": config["seed"],
        "n_runs": tconf.get("n_runs", 1),
        "time_limit_seconds": tconf.get("time_limit_by_dataset", {}).get(
            cell.dataset, tconf["time_limit_seconds"]),
        "blas_threads": config["blas_threads"],
        "dataset_params": {**dataset_cls.params, **config["datasets"].get(plugin, {}),
                           **(reading or {}).get("dataset_params", {}),
                           **tconf.get("dataset_params", {}).get(cell.dataset, {})},
    }
    if plugin != cell.dataset:  # a reading's column: the record says which
        params["reading"] = cell.dataset
    if spec.task == "embedding":
        k_table = _thesis_protocol(ref_dir, spec, "k", thesis_dataset)
        if cell.dataset in tconf["n_neighbors"]:
            k, k_source = tconf["n_neighbors"][cell.dataset], "profile"
        elif tconf["neighbors_from"] == "table" and k_table is not None:
            k, k_source = int(k_table), "thesis Table 3.2, row k"
        elif tconf["neighbors_from"] == "text" and k_table is not None:
            k, k_source = 15, "thesis 3.1.9 text (k = 15 for all but MVU)"
        else:
            k, k_source = tconf["default_n_neighbors"], "profile default"
        r_table = _thesis_protocol(ref_dir, spec, "output_dim", thesis_dataset)
        if cell.dataset in tconf["n_components"]:
            r, r_source = tconf["n_components"][cell.dataset], "profile"
        elif r_table is not None:
            r, r_source = int(r_table), "thesis Table 3.2, row output dim"
        else:
            r, r_source = tconf["default_n_components"], "profile default"
        method_kwargs = {"n_components": r}
        if method_cls.uses_neighbors:
            method_kwargs["n_neighbors"] = k
        thesis_fixed = method_cls.table_params.get(cell.table, {})
        if "n_neighbors" in thesis_fixed and cell.dataset not in tconf["n_neighbors"]:
            k_source = f"thesis: {method_cls.thesis_label or cell.method} uses k = " \
                       f"{thesis_fixed['n_neighbors']} in this table"
        method_kwargs.update(thesis_fixed)
        method_kwargs.update(config["methods"].get(cell.method, {}))
        method_kwargs.update(tconf["method_params"].get(cell.dataset, {}).get(cell.method, {}))
        params.update(
            eval_neighbors=tconf["eval_neighbors"],
            n_neighbors_source=k_source if method_cls.uses_neighbors else "not used",
            n_components_source=r_source,
            method_params=method_kwargs,
        )
    if spec.task == "classification":
        params.update(_classification_params(config, spec, cell, tconf, ref_dir,
                                             thesis_dataset))
    if spec.task == "clustering":  # n_clusters: the task's rule unless set here
        method_kwargs = dict(method_cls.table_params.get(cell.table, {}))
        method_kwargs.update(config["methods"].get(cell.method, {}))
        method_kwargs.update(tconf.get("method_params", {}).get(cell.dataset, {})
                             .get(cell.method, {}))
        params["method_params"] = method_kwargs
    if cell.solver is not None:
        params["solver"] = cell.solver
        params.setdefault("method_params", {})["solver"] = cell.solver
    return params


def _thesis_protocol(ref_dir: Path, spec: TableSpec, quantity: str,
                     thesis_dataset: str) -> float | None:
    """A data set row of the thesis table (``k``, ``n_training``, ...), or None where
    the table has no reference file or the thesis no such number."""
    if spec.reference_file is None:
        return None
    from harness.reference import reference_value  # pandas: per job, not at import

    return reference_value(ref_dir, spec.reference_file, quantity, "", thesis_dataset)


def _classification_params(config: dict, spec: TableSpec, cell: Cell, tconf: dict,
                           ref_dir: Path, thesis_dataset: str) -> dict[str, Any]:
    """Table 2.1's per-cell settings: k, the training fraction and the number of runs,
    from the profile or else the thesis' Table 2.1 rows for the data set."""

    def thesis(quantity):
        return _thesis_protocol(ref_dir, spec, quantity, thesis_dataset)

    if cell.dataset in tconf["train_fraction"]:
        fraction, fraction_source = tconf["train_fraction"][cell.dataset], "profile"
    elif thesis("n_training") and thesis("n_inputs"):
        fraction = thesis("n_training") / thesis("n_inputs")
        fraction_source = "thesis Table 2.1, # training / # inputs"
    else:
        fraction, fraction_source = 0.7, "thesis 2.1.6, 70/30 splits"
    if "n_runs" in tconf:
        runs, runs_source = tconf["n_runs"], "profile"
    elif thesis("n_runs"):
        runs, runs_source = int(thesis("n_runs")), "thesis Table 2.1, # runs"
    else:
        runs, runs_source = 1, "default"
    if runs_source == "profile" and thesis("n_runs"):
        runs_source = f"profile; the thesis used {int(thesis('n_runs'))}"
    method_cls = registry.method_info(cell.method)
    method_kwargs = {}
    if method_cls.uses_neighbors:
        method_kwargs["n_neighbors"] = tconf["n_neighbors"].get(cell.dataset,
                                                                tconf["default_n_neighbors"])
    method_kwargs.update(method_cls.table_params.get(cell.table, {}))
    method_kwargs.update(config["methods"].get(cell.method, {}))
    method_kwargs.update(tconf["method_params"].get(cell.dataset, {}).get(cell.method, {}))
    params = {"n_runs": runs, "n_runs_source": runs_source, "train_fraction": fraction,
              "train_fraction_source": fraction_source, "method_params": method_kwargs}
    if method_kwargs.get("n_neighbors") == K_BY_VALIDATION:
        params["n_neighbors_candidates"] = list(tconf["n_neighbors_candidates"])
    return params


class GridTable:
    """The profile side of one grid table's declaration, bound to its spec.

    ``check, keys, params, inputs, finish = GridTable(SPEC).functions()``; its jobs run
    :mod:`harness.results.common.work.grid` (``WORK``), its outputs
    :class:`harness.results.common.write.table_result.TableResult`.
    """

    def __init__(self, spec: TableSpec):
        self.spec = spec

    def functions(self) -> tuple:
        """``check, keys, params, inputs, finish``, in this order (``finish``:
        :func:`harness.results.common.declare.grid_finish.finish`, the cell's identity)."""
        return self.check, self.keys, self.params, self.inputs, grid_finish

    def check(self, config: dict) -> None:
        """The grid's checks (:func:`check_grid`)."""
        check_grid(config, self.spec)

    def keys(self, config: dict) -> list[str]:
        """``DATASET/METHOD[/SOLVER]`` of every cell (:func:`grid_cells`)."""
        return [cell.key for cell in grid_cells(config, self.spec.name)]

    def params(self, config: dict, key: str) -> dict:
        """The resolved parameters of one cell (:func:`cell_params`)."""
        return cell_params(config, self.spec, parse_key(self.spec.name, key, config))

    def inputs(self, config: dict) -> list[str]:
        """The thesis' reference CSV (if the table has one) and
        ``config/known_deviations.yaml`` (the measured reasons printed beside cells):
        an edit rewrites the table."""
        reference = ([str(Path(config["reference_dir"]) / self.spec.reference_file)]
                     if self.spec.reference_file else [])
        return reference + [str(DEVIATIONS_FILE)]
