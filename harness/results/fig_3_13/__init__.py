"""Fig. 3.13 and section 3.1.6's inequality constraints (thesis lines 1564-1584): MVU
of Frey's faces (k = 4) with strict equalities and with the relaxed inequalities
("distances may shrink, not grow"), against PCA -- the share of the trace in the
leading three dimensions, the data's size and dimension -- and, on every inequality
run (Frey's faces, Fig. 3.5's Swiss roll, the teapot: a gap here; its stand-in shown),
whether any neighbour distance grew and how much slack the optimum leaves.

One job per (data set, variant): ``frey_pca``, ``frey_equality``, ``frey_inequality``
and ``<dataset>_inequality`` for each data set of ``inequality_datasets``.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "FREY", "VARIANTS",
           "check", "keys", "params"]

NAME = "fig_3_13"
TITLE = ("Fig. 3.13 and section 3.1.6: MVU with inequality constraints on Frey's faces "
         "(k = 4) -- the top-three share of the trace against strict MVU and PCA; no "
         "neighbour distance grows, and how much slack the optimum leaves (thesis 3.1.6)")
THESIS_SECTION = "3.1.6"
KIND = "table"
SIDECAR = True
FREY = "frey"
#: the Frey jobs' variants: PCA and MVU's two SDPs
VARIANTS = ("pca", "equality", "inequality")


def check(config: dict) -> None:
    """Frey's faces have their own jobs: ``inequality_datasets`` must not name them."""
    if FREY in config["results"][NAME]["inequality_datasets"]:
        raise ConfigError(f"results.{NAME}.inequality_datasets: {FREY} has its own jobs "
                          f"(results.{NAME}.frey); name only the other data sets")


def keys(config: dict) -> list[str]:
    """``frey_pca``, ``frey_equality``, ``frey_inequality``, then
    ``<dataset>_inequality`` for every data set of ``inequality_datasets``."""
    others = config["results"][NAME]["inequality_datasets"]
    return [f"{FREY}_{v}" for v in VARIANTS] + [f"{d}_inequality" for d in others]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``fig_3_13/<key>``: its data set and load parameters, the
    seeded subset size (Frey; None: every image), k, the variant, the solver budget,
    seed and BLAS threads."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = config["results"][NAME]
    dataset, _, variant = key.rpartition("_")
    if dataset == FREY:
        setting = {"n_samples": conf["frey"]["n_samples"], "k": conf["frey"]["k"],
                   "dataset_params": {}}
    else:
        other = conf["inequality_datasets"][dataset]
        setting = {"n_samples": None, "k": other["k"],
                   "dataset_params": dict(other.get("dataset_params") or {})}
    return {"result": NAME, "point": f"{NAME}/{key}", "dataset": dataset,
            "variant": variant, **setting, "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "n_spectrum": int(conf["n_spectrum"]),
            "solver_time_limit": float(conf["solver_time_limit"]),
            "time_limit_seconds": float(conf["time_limit_seconds"])}
