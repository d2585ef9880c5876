"""Fig. 3.23 (thesis 3.1.10): consistency of three out-of-sample extensions of MVU.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness import registry
from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    SOLVER_BUDGET, check_mvu_solver, check_registered_dataset, dataset_choice, thesis_column,
)

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "ALIGNMENTS",
           "MVU_FITS", "check", "keys", "params"]

NAME = "fig_3_23"
TITLE = "Fig. 3.23: consistency of out-of-sample extensions relative to MVU (thesis 3.1.10)"
THESIS_SECTION = "3.1.10"
KIND = "figure"
SIDECAR = True
ALIGNMENTS = ("linear", "affine")
MVU_FITS = ("AC", "BC", "A", "B")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: names, and split sizes that fit."""
    conf = _conf(config)
    where = f"results.{NAME}"
    for name in conf["datasets"]:
        check_registered_dataset(name, f"{where}.datasets")
    for name in conf["extensions"]:
        methods = registry.methods("out_of_sample")
        if name not in methods:
            raise ConfigError(f"{where}.extensions: unknown extension {name!r}; valid: "
                              f"{', '.join(methods)}")
    check_mvu_solver(conf["solver"], where)
    if conf["alignment"] not in ALIGNMENTS:
        raise ConfigError(f"{where}.alignment must be one of {ALIGNMENTS}")
    for name in conf["datasets"]:
        n_ab, n_c = _split(conf, name)
        if n_ab <= conf["n_neighbors"]:
            raise ConfigError(f"{where}.split.{name}: |A| = {n_ab} must exceed n_neighbors "
                              f"= {conf['n_neighbors']}")
        n = conf["n_samples"].get(name)
        if n is not None and 2 * n_ab + n_c > n:
            raise ConfigError(f"{where}: |A| + |B| + |C| = {2 * n_ab + n_c} exceeds "
                              f"n_samples.{name} = {n}")


def _split(conf: dict, name: str) -> tuple[int, int]:
    split = conf["split"].get(name, conf["default_split"])
    return int(split[0]), int(split[1])


def keys(config: dict) -> list[str]:
    """``<dataset>/trial<t>`` for every listed data set and trial."""
    conf = _conf(config)
    return [f"{d}/trial{t}" for d in conf["datasets"] for t in range(conf["n_trials"])]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``<dataset>/trial<t>``."""
    dataset, _, trial = key.partition("/")
    if not trial.startswith("trial") or not trial[5:].isdigit():
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET/trial<T>")
    check_registered_dataset(dataset, f"job {NAME}/{key}")
    conf = _conf(config)
    limit = float(conf["time_limit_seconds"])
    n_ab, n_c = _split(conf, dataset)
    r = conf["n_components"].get(dataset, conf["default_n_components"])
    choice = dataset_choice(config, dataset, conf["n_samples"].get(dataset),
                            conf["dataset_params"].get(dataset))
    extensions = {name: {"n_neighbors": conf["extension_neighbors"],
                         **conf["extension_params"].get(name, {})}
                  for name in conf["extensions"]}
    return {
        "figure": NAME, "point": f"{NAME}/{key}", **choice, "trial": int(trial[5:]),
        "seed": config["seed"], "blas_threads": config["blas_threads"],
        "time_limit_seconds": limit, "solver": conf["solver"],
        "n_ab": n_ab, "n_c": n_c, "alignment": conf["alignment"],
        "thesis_dataset": thesis_column(dataset),
        "method_params": {"n_neighbors": int(conf["n_neighbors"]), "n_components": int(r),
                          "solver": conf["solver"], "variant": "equality",
                          "connect_components": conf["connect_components"],
                          # four solves share the point's limit
                          "time_limit": SOLVER_BUDGET * limit / len(MVU_FITS)},
        "extensions": extensions,
    }
