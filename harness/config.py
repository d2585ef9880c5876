"""Profiles (``config/*.yaml``): loading, validation, and the parameters of one cell.

A *cell* is one (table, dataset, method[, solver]) combination, written as an id such
as ``t3_2/swiss_roll/isomap`` or ``t3_2/swiss_roll/mvu/native``. Its parameters are
resolved here, once, from the profile and the thesis' reference CSVs, so that the
Snakemake ``params:`` (the rerun trigger) and ``harness run`` see the same values.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from harness import registry
from harness.reference import load_reference, reference_value
from harness.schema_defaults import validate_with_defaults
from harness.table_specs import TABLES, TableSpec, spec_for_prefix
from harness.tasks.classification import K_BY_VALIDATION

__all__ = [
    "ConfigError",
    "Cell",
    "validate_tables",
    "parse_cell",
    "table_cells",
    "cell_params",
    "params_hash",
]

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "config" / "schema.yaml"


class ConfigError(ValueError):
    """The profile is malformed or names something that does not exist."""


@dataclasses.dataclass(frozen=True)
class Cell:
    """One (table, dataset, method, solver) combination."""

    table: str
    dataset: str
    method: str
    solver: str | None = None

    @property
    def spec(self) -> TableSpec:
        return TABLES[self.table]

    @property
    def id(self) -> str:
        parts = [self.spec.cell_prefix, self.dataset, self.method]
        if self.solver:
            parts.append(self.solver)
        return "/".join(parts)

    def __str__(self) -> str:
        return self.id


def _schema() -> dict:
    with open(SCHEMA_PATH) as fh:
        return yaml.safe_load(fh)


def _check_names(kind: str, value: Any, valid: dict, where: str) -> list[str]:
    if value == "all":
        return list(valid)
    unknown = [v for v in value if v not in valid]
    if unknown:
        raise ConfigError(
            f"{where}: unknown {kind} {', '.join(map(repr, unknown))}; "
            f"valid {kind}s: {', '.join(valid) or '(none)'}"
        )
    return list(value)


def _in_thesis_order(config: dict, spec: TableSpec, names: list[str]) -> list[str]:
    """``names`` (methods: all) in the order of the thesis table's rows (the reference
    CSV's), then the methods with no thesis row by name; the registry's order where
    the reference file is missing (that error is reported where it is read)."""
    try:
        frame = load_reference(config["reference_dir"], spec.reference_file)
    except FileNotFoundError:
        return names
    rows = list(dict.fromkeys(m for m in frame["method"] if m))

    def key(name):
        label = registry.get_method(name).thesis_label
        return (rows.index(label), "") if label in rows else (len(rows), name)

    return sorted(names, key=key)


def validate_tables(config: dict) -> dict:
    """Validate a profile against ``config/schema.yaml`` and the plugin registry: the
    schema, the defaults and the ``tables:``, ``datasets:`` and ``methods:`` sections.
    :func:`harness.profile_validation.validate_config` adds the sections owned by
    the modules above this one (the solver table, the figures).

    Returns a copy with defaults filled in and ``"all"`` expanded to the names of
    the registered plugins of the table's task (in the thesis table's row order, then
    by name), less the table's ``exclude_methods``.

    Raises
    ------
    ConfigError
        With the path of the offending entry and, for an unknown method or data set
        name, the list of valid names.
    """
    config = copy.deepcopy(dict(config))
    schema = _schema()
    try:
        validate_with_defaults(config, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(top level)"
        raise ConfigError(f"config entry {where}: {exc.message}") from None
    for table, tconf in config["tables"].items():
        task = TABLES[table].task
        tconf["datasets"] = _check_names(
            "dataset", tconf["datasets"], registry.datasets(task), f"tables.{table}.datasets"
        )
        every = tconf["methods"] == "all"
        tconf["methods"] = _check_names(
            "method", tconf["methods"], registry.methods(task), f"tables.{table}.methods"
        )
        if every:
            tconf["methods"] = _in_thesis_order(config, TABLES[table], tconf["methods"])
        excluded = _check_names("method", tconf.pop("exclude_methods", []),
                                registry.methods(task), f"tables.{table}.exclude_methods")
        tconf["methods"] = [m for m in tconf["methods"] if m not in excluded]
        if not tconf["methods"]:
            raise ConfigError(f"tables.{table}: exclude_methods leaves no method")
        for method, names in tconf.get("solvers", {}).items():
            offered = registry.get_method(method).solvers if method in tconf["methods"] else ()
            bad = [s for s in names if s not in offered]
            if bad:
                raise ConfigError(
                    f"tables.{table}.solvers.{method}: unknown solver(s) "
                    f"{', '.join(map(repr, bad))}; {method} accepts: "
                    f"{', '.join(offered) or '(none; is it in the table?)'}")
    for kind, valid in (("dataset", registry.datasets()), ("method", registry.methods())):
        _check_names(kind, list(config[kind + "s"]), valid, f"{kind}s")
    return config


def parse_cell(cell_id: str) -> Cell:
    """Parse ``t3_2/swiss_roll/isomap[/solver]`` into a :class:`Cell`."""
    parts = cell_id.strip("/").split("/")
    if len(parts) not in (3, 4):
        raise ConfigError(
            f"cell id {cell_id!r} must look like TABLE/DATASET/METHOD[/SOLVER], "
            f"e.g. t3_2/swiss_roll/isomap"
        )
    spec = spec_for_prefix(parts[0])
    registry.get_dataset(parts[1])
    registry.get_method(parts[2])
    return Cell(spec.name, parts[1], parts[2], parts[3] if len(parts) == 4 else None)


def table_cells(config: dict, table: str) -> list[Cell]:
    """Every cell of one table in a validated profile (datasets x methods x solvers).

    A method with solver backends gets one cell per solver listed under the table's
    ``solvers:`` entry, by default only its first (preferred) solver.
    """
    tconf = config["tables"][table]
    cells = []
    for dataset in tconf["datasets"]:
        for method in tconf["methods"]:
            offered = registry.get_method(method).solvers
            chosen = tconf.get("solvers", {}).get(method, list(offered[:1]))
            for solver in chosen or (None,):
                cells.append(Cell(table, dataset, method, solver))
    return cells


def cell_params(config: dict, cell: Cell) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one cell.

    ``n_neighbors`` and ``n_components`` follow the table's rules: explicit
    per-dataset values in the profile win; otherwise the thesis' Table 3.2 rows ``k``
    (``neighbors_from: table``) or 15 (``neighbors_from: text``) and ``output_dim``,
    looked up under the data set's thesis name (a stand-in uses its original's).
    Method-specific constructor arguments in ``methods:`` override both.
    """
    spec = cell.spec
    tconf = config["tables"][cell.table]
    dataset_cls = registry.get_dataset(cell.dataset)
    method_cls = registry.get_method(cell.method)
    thesis_dataset = dataset_cls.thesis_name or cell.dataset
    ref_dir = Path(config["reference_dir"])

    params: dict[str, Any] = {
        "table": cell.table,
        "seed": config["seed"],
        "n_runs": tconf.get("n_runs", 1),
        "time_limit_seconds": tconf["time_limit_seconds"],
        "blas_threads": config["blas_threads"],
        "dataset_params": {**dataset_cls.params, **config["datasets"].get(cell.dataset, {})},
    }
    if spec.task == "embedding":
        k_table = reference_value(ref_dir, spec.reference_file, "k", "", thesis_dataset)
        if cell.dataset in tconf["n_neighbors"]:
            k, k_source = tconf["n_neighbors"][cell.dataset], "profile"
        elif tconf["neighbors_from"] == "table" and k_table is not None:
            k, k_source = int(k_table), "thesis Table 3.2, row k"
        elif tconf["neighbors_from"] == "text" and k_table is not None:
            k, k_source = 15, "thesis 3.1.9 text (k = 15 for all but MVU)"
        else:
            k, k_source = tconf["default_n_neighbors"], "profile default"
        r_table = reference_value(ref_dir, spec.reference_file, "output_dim", "", thesis_dataset)
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
        params.update(
            eval_neighbors=tconf["eval_neighbors"],
            n_neighbors_source=k_source if method_cls.uses_neighbors else "not used",
            n_components_source=r_source,
            method_params=method_kwargs,
        )
    if spec.task == "classification":
        params.update(_classification_params(config, cell, tconf, ref_dir, thesis_dataset))
    if cell.solver is not None:
        params["solver"] = cell.solver
        params.setdefault("method_params", {})["solver"] = cell.solver
    return params


def _classification_params(config: dict, cell: Cell, tconf: dict, ref_dir: Path,
                           thesis_dataset: str) -> dict[str, Any]:
    """Table 2.1's per-cell settings: k, the training fraction and the number of runs,
    from the profile or else the thesis' Table 2.1 rows for the data set."""
    spec = cell.spec

    def thesis(quantity):
        return reference_value(ref_dir, spec.reference_file, quantity, "", thesis_dataset)

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
    method_cls = registry.get_method(cell.method)
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


def params_hash(params: dict) -> str:
    """A short, stable hash of resolved cell parameters."""
    blob = json.dumps(params, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
