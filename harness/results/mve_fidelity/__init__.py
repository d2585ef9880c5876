"""MVE fidelity (the lecture's "MVE Results", not a thesis table): % energy in the
top two dimensions of kPCA, SDE (= MVU) and minimum volume embedding.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts (the table
itself: :mod:`.table`); ``README.md`` says what the result shows, the choices where the
lecture is ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import registry
from harness.errors import ConfigError
from harness.results.common.declare.profile import dataset_choice

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "REFERENCE_FILE", "check",
           "keys", "point_params", "params", "inputs"]

NAME = "mve_fidelity"
TITLE = ("MVE fidelity: % energy in the top two dimensions of kPCA, SDE (MVU) and minimum "
         "volume embedding (Shaw & Jebara 2007; lecture 'MVE Results')")
THESIS_SECTION = "lecture (Jebara): MVE Results; thesis 3.1.4 for SDE"
KIND = "table"
SIDECAR = True
REFERENCE_FILE = "mve_fidelity_top2.csv"  # the lecture's numbers


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def _entry_key(entry: dict) -> str:
    return f"{entry['column']}/{entry.get('dataset') or entry['graph']}"


def check(config: dict) -> None:
    """Data set names, unique keys, k below n, the thresholds in order."""
    conf, where = _conf(config), f"results.{NAME}"
    seen = set()
    for i, entry in enumerate(conf["datasets"]):
        key = _entry_key(entry)
        if key in seen:
            raise ConfigError(f"{where}.datasets[{i}]: {key} is listed twice")
        seen.add(key)
        if "dataset" in entry and entry["dataset"] not in registry.datasets():
            raise ConfigError(f"{where}.datasets[{i}]: unknown dataset {entry['dataset']!r}; "
                              f"valid: {', '.join(registry.datasets())}")
        n = entry.get("n_samples")
        if "graph" in entry and n is None:
            raise ConfigError(f"{where}.datasets[{i}]: a graph needs n_samples")
        if n is not None and "dataset" in entry and entry["n_neighbors"] >= n:
            raise ConfigError(f"{where}.datasets[{i}]: n_neighbors = {entry['n_neighbors']} "
                              f"must be below n_samples = {n}")
    if conf["n_components"] != 2:
        raise ConfigError(f"{where}.n_components = {conf['n_components']}: the lecture's "
                          f"table is about the top 2 dimensions; keep 2")
    if conf["low_fidelity"] >= conf["high_fidelity"]:
        raise ConfigError(f"{where}: low_fidelity ({conf['low_fidelity']}) must be below "
                          f"high_fidelity ({conf['high_fidelity']})")


def keys(config: dict) -> list[str]:
    """``<column>/<data set or graph>`` of every entry."""
    return [_entry_key(entry) for entry in _conf(config)["datasets"]]


def params(config: dict, key: str) -> dict:
    """The resolved parameters of one column entry's job."""
    for entry in _conf(config)["datasets"]:
        if _entry_key(entry) == key:
            return point_params(config, _conf(config), entry, key)
    raise ConfigError(f"job {NAME}/{key}: no such entry; valid: {', '.join(keys(config))}")


def inputs(config: dict) -> list[str]:
    """The lecture's numbers: an edit rewrites the table."""
    return [str(Path(config["reference_dir"]) / REFERENCE_FILE)]


def point_params(config: dict, conf: dict, entry: dict, key: str) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one column's job."""
    limit = float(conf["time_limit_seconds"])
    common = {"result": "mve_fidelity", "key": key, "column": entry["column"],
              "seed": config["seed"], "blas_threads": config["blas_threads"],
              "time_limit_seconds": limit, "n_neighbors": entry.get("n_neighbors"),
              **{name: conf[name] for name in ("connectivity", "kernel", "gamma",
                                               "n_components", "init", "eps", "max_iter",
                                               "tol_gap", "tol_violation", "solver")}}
    if "graph" in entry:
        return {**common, "graph": entry["graph"], "n_samples": int(entry["n_samples"]),
                "graph_params": dict(entry.get("graph_params", {}))}
    choice = dataset_choice(config, entry["dataset"], entry.get("n_samples"),
                            entry.get("dataset_params"))
    return {**common, **choice}
