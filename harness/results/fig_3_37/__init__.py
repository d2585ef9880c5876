"""Fig. 3.37 (thesis 3.1.9, "Discussion"): "The twenty eigenvalues of leading *magnitude*
from Isomap and MVU on the data sets of teapot images and handwritten digits. Note that
the similarity matrices constructed by Isomap have negative eigenvalues." The text:
"unlike MVU, the similarity matrix constructed by Isomap from finite data sets can have
negative eigenvalues. In some cases, moreover, these negative eigenvalues can be
appreciable in magnitude to the dominant positive ones".

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    SOLVER_BUDGET, check_mvu_solver, check_registered_dataset,
    dataset_choice, thesis_column,
)

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "METHODS", "check",
           "keys", "params"]

NAME = "fig_3_37"
TITLE = ("Fig. 3.37: the twenty eigenvalues of leading magnitude of Isomap's and MVU's "
         "matrices (thesis 3.1.9)")
THESIS_SECTION = "3.1.9"
KIND = "figure"
SIDECAR = True
METHODS = ("isomap", "mvu")  # the two matrices compared (work.py computes them)


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names, per-data-set keys
    that name a listed data set, k below every given n_samples."""
    conf = _conf(config)
    where = f"results.{NAME}"
    for name in conf["datasets"]:
        check_registered_dataset(name, f"{where}.datasets")
    check_mvu_solver(conf["solver"], where)
    for name, n in conf["n_samples"].items():
        if conf["n_neighbors"] >= n:
            raise ConfigError(f"{where}.n_neighbors = {conf['n_neighbors']} must be below "
                              f"n_samples.{name} = {n}")


def keys(config: dict) -> list[str]:
    """``<dataset>/isomap`` and ``<dataset>/mvu`` for every listed data set."""
    return [f"{d}/{m}" for d in _conf(config)["datasets"] for m in METHODS]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``<dataset>/<isomap|mvu>``."""
    dataset, _, method = key.partition("/")
    if method not in METHODS:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET/METHOD with METHOD "
                          f"one of {', '.join(METHODS)}")
    check_registered_dataset(dataset, f"job {NAME}/{key}")
    conf = _conf(config)
    limit = float(conf["time_limit_seconds"])
    choice = dataset_choice(config, dataset, conf["n_samples"].get(dataset),
                            conf["dataset_params"].get(dataset))
    out = {"figure": NAME, "point": f"{NAME}/{key}", **choice, "method": method,
           "thesis_dataset": thesis_column(dataset), "seed": config["seed"],
           "blas_threads": config["blas_threads"], "time_limit_seconds": limit,
           "n_neighbors": int(conf["n_neighbors"])}
    if method == "mvu":
        out.update(solver=conf["solver"], mvu_time_limit=SOLVER_BUDGET * limit)
    return out
