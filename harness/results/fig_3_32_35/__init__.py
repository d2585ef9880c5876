"""Figs. 3.32-3.35 (thesis 3.1.9, "Dimensionality reduction with kernel PCA").

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from typing import Any

from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    SOLVER_BUDGET, check_mvu_solver, check_registered_dataset,
    dataset_choice, thesis_column,
)

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "KERNELS",
           "kernel_method_params", "check", "keys", "params"]

NAME = "fig_3_32_35"
TITLE = ("Figs. 3.32-3.35: kernel PCA under linear, polynomial, Gaussian and MVU kernels "
         "(thesis 3.1.9)")
THESIS_SECTION = "3.1.9"
KIND = "figure"
SIDECAR = True
# kernel name in job keys -> method plugin
KERNELS = {"linear": "kpca_linear", "polynomial": "kpca_polynomial",
           "gaussian": "kpca_gaussian", "mvu": "kpca_mvu"}


def kernel_method_params(kernel: str, conf: dict, dataset: str) -> dict[str, Any]:
    """Constructor arguments of the kernel's plugin from the figure's validated
    section ``conf`` (per-data-set degree and sigma, MVU's k, solver and budget)."""
    out: dict[str, Any] = {"n_components": conf["n_components"]}
    if kernel == "polynomial":
        out["degree"] = conf["degree"].get(dataset, conf["default_degree"])
    elif kernel == "gaussian":
        out["sigma"] = conf["sigma"].get(dataset, conf["default_sigma"])
        out["sigma_neighbors"] = conf["sigma_neighbors"]
    elif kernel == "mvu":
        out.update(n_neighbors=conf["n_neighbors"], solver=conf["solver"],
                   time_limit=SOLVER_BUDGET * float(conf["time_limit_seconds"]))
    return out

LEVELS = (0.9, 0.95)  # shares of the trace whose eigenvalue counts a record keeps


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names, per-data-set keys
    that name a listed data set, k and the dimensions below every given n."""
    conf = _conf(config)
    where = f"results.{NAME}"
    for name in conf["datasets"]:
        check_registered_dataset(name, f"{where}.datasets")
    check_mvu_solver(conf["solver"], where)
    for name, n in conf["n_samples"].items():
        for what in ("n_neighbors", "sigma_neighbors", "n_components"):
            if conf[what] >= n:
                raise ConfigError(f"{where}.{what} = {conf[what]} must be below "
                                  f"n_samples.{name} = {n}; lower it or use more points")


def keys(config: dict) -> list[str]:
    """``<dataset>/<kernel>`` for every listed data set and kernel."""
    conf = _conf(config)
    return [f"{d}/{k}" for d in conf["datasets"] for k in conf["kernels"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``<dataset>/<kernel>`` (any registered data set)."""
    dataset, _, kernel = key.partition("/")
    if kernel not in KERNELS:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET/KERNEL with KERNEL one "
                          f"of {', '.join(KERNELS)}")
    check_registered_dataset(dataset, f"job {NAME}/{key}")
    conf = _conf(config)
    choice = dataset_choice(config, dataset, conf["n_samples"].get(dataset),
                            conf["dataset_params"].get(dataset))
    out = {"figure": NAME, "point": f"{NAME}/{key}", **choice, "kernel": kernel,
           "method": KERNELS[kernel], "method_params": kernel_method_params(kernel, conf, dataset),
           "seed": config["seed"], "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"]),
           "n_spectrum": conf["n_spectrum"], "thesis_dataset": thesis_column(dataset)}
    if kernel == "mvu":
        out["solver"] = conf["solver"]
    return out
