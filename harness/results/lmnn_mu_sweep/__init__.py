"""LMNN's trade-off mu swept (thesis 2.1.3, eq. 2.8: "not very sensitive with respect
to mu and mu = 0.5 seems to work well on most data sets"; 2.1.6: "surprisingly
insensitive to the exact value of mu"), and mu = 0, the pull term (2.5) alone.

Jobs: ``DATASET/mu<MU>`` (e.g. ``iris/mu0.25``): PCA-LMNN (Table 2.1's row,
:class:`harness.methods.pca_lmnn.PCALMNN`) with that mu, kNN and energy (2.12) test errors over
``n_runs`` seeded random 70/30 splits, run ``r`` on seed ``seed + r`` for every mu (so
the runs are paired across the sweep); ``collapse/DATASET``: LMNN with mu = 0 and the
Frobenius norm of ``M`` before and after. The profile section's schema is
``schema.yaml``; a job runs :mod:`.work`; :mod:`.write` writes the table and the
verdicts (:mod:`.register_claims`); ``README.md`` says the choices.
"""

from __future__ import annotations

from harness import registry
from harness.errors import ConfigError
from harness.results.common.declare.profile import dataset_choice

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "METHOD", "MIDDLE",
           "WIDE", "HALF", "COLLAPSE", "check", "keys", "params", "mu_key"]

NAME = "lmnn_mu_sweep"
TITLE = ("LMNN's trade-off mu swept: PCA-LMNN kNN and energy test errors against mu, and "
         "the pull term alone (thesis 2.1.3, 2.1.6)")
THESIS_SECTION = "2.1.3, 2.1.6"
KIND = "table"
SIDECAR = True
#: the LMNN row of Table 2.1 that is swept
METHOD = "pca_lmnn"
#: the register's two grids (s2-1-3-mu-not-sensitive) and the thesis' value
MIDDLE = (0.25, 0.5, 0.75)
WIDE = (0.1, 0.3, 0.5, 0.7, 0.9)
HALF = 0.5
COLLAPSE = "collapse"


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def mu_key(mu: float) -> str:
    """The job key part of ``mu``: ``mu0.25``."""
    return f"mu{mu:g}"


def check(config: dict) -> None:
    """Classification data sets, and a grid that holds both of the register's grids."""
    conf, where = _conf(config), f"results.{NAME}"
    valid = registry.datasets("classification")
    for field in ("datasets", "collapse_datasets"):
        bad = [d for d in conf[field] if d not in valid]
        if bad:
            raise ConfigError(f"{where}.{field}: unknown classification data set(s) "
                              f"{', '.join(bad)}; valid: {', '.join(valid)}")
    missing = [m for m in (*WIDE, *MIDDLE) if m not in conf["mu_grid"]]
    if missing:
        raise ConfigError(f"{where}.mu_grid lacks {missing}: the register's readings need "
                          f"both grids {list(WIDE)} and {list(MIDDLE)}")


def keys(config: dict) -> list[str]:
    """``DATASET/mu<MU>`` for every data set and mu, then ``collapse/DATASET``."""
    conf = _conf(config)
    return ([f"{d}/{mu_key(m)}" for d in conf["datasets"] for m in sorted(conf["mu_grid"])]
            + [f"{COLLAPSE}/{d}" for d in conf["collapse_datasets"]])


def params(config: dict, key: str) -> dict:
    """The resolved parameters of one job (a key of :func:`keys`)."""
    conf = _conf(config)
    first, _, second = key.partition("/")
    lmnn = {"n_neighbors": conf["n_neighbors"], "solver": conf["solver"],
            "max_iter": conf["max_iter"], "tol": conf["tol"]}
    common = {"table": NAME, "method": METHOD, "seed": config["seed"],
              "blas_threads": config["blas_threads"],
              "time_limit_seconds": float(conf["time_limit_seconds"])}
    if first == COLLAPSE and second in conf["collapse_datasets"]:
        choice = dataset_choice(config, second, None, conf["dataset_params"].get(second))
        return {**common, "kind": COLLAPSE, "method": "lmnn", "dataset": second,
                "dataset_params": choice["dataset_params"], "method_params": lmnn}
    mus = {mu_key(m): m for m in conf["mu_grid"]}
    if first not in conf["datasets"] or second not in mus:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET/mu<MU> with DATASET in "
                          f"{conf['datasets']} and MU in {sorted(conf['mu_grid'])}, or "
                          f"{NAME}/{COLLAPSE}/DATASET with DATASET in "
                          f"{conf['collapse_datasets']}")
    choice = dataset_choice(config, first, None, conf["dataset_params"].get(first))
    return {**common, "kind": "sweep", "dataset": first, "mu": mus[second],
            "dataset_params": choice["dataset_params"],
            "n_runs": conf["n_runs_by_dataset"].get(first, conf["n_runs"]),
            "train_fraction": conf["train_fraction"],
            "pool_size": conf["pool_size"].get(first),
            "method_params": {**lmnn, "mu": mus[second]}}

