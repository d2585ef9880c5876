"""NCA's local minima against rectangular LMNN's (thesis 2.2.2, lines 1237-1263; 2.1.3,
line 667): both fitted from the same random starts at fixed output dimensions r, the
spread of each method's own final objective (recomputed from the final matrix) and of
the kNN test error over the starts; one job per data set (``nca_local_minima/<name>``).

The declaration: the profile section's schema is ``schema.yaml``; a job runs
:mod:`.work` (objectives recomputed in :mod:`.objectives`); :mod:`.write` writes the
table and the verdicts (:mod:`.register_claims`); ``README.md`` says what it shows and
the choices fixed before the numbers were seen.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "check", "keys", "params", "entry"]

NAME = "nca_local_minima"
TITLE = ("NCA's local minima against rectangular LMNN: spread of the final objective and "
         "of the kNN test error over random starts (thesis 2.2.2, 2.1.3)")
THESIS_SECTION = "2.2.2, 2.1.3"
KIND = "table"

#: profile keys every job passes on unchanged
SHARED = ("n_starts", "train_fraction", "n_neighbors", "mu", "standardize",
          "init_mean_target_distance", "nca_max_iter", "nca_tol", "lmnn_max_iter",
          "lmnn_tol", "midpoint_pairs", "l1_datasets", "l1_random_matrices",
          "l1_scale_range", "l1_scale_points", "perplexity_scales", "random_psd_matrices")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def entry(config: dict, name: str) -> dict:
    """The profile's entry of data set ``name``."""
    for item in _conf(config)["datasets"]:
        if item["name"] == name:
            return item
    raise ConfigError(f"job {NAME}/{name}: no such data set; valid: "
                      f"{', '.join(keys(config))}")


def check(config: dict) -> None:
    """Known data set names, each listed once, distinct output dimensions."""
    from harness import registry

    seen = set()
    for i, item in enumerate(_conf(config)["datasets"]):
        where = f"results.{NAME}.datasets[{i}]"
        if item["name"] in seen:
            raise ConfigError(f"{where}: {item['name']} is listed twice")
        seen.add(item["name"])
        if item["name"] not in registry.datasets():
            raise ConfigError(f"{where}: unknown data set {item['name']!r}")
        if len(set(item["n_components"])) != len(item["n_components"]):
            raise ConfigError(f"{where}: n_components {item['n_components']} repeats a value")


def keys(config: dict) -> list[str]:
    """One job per data set: its name."""
    return [item["name"] for item in _conf(config)["datasets"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of the job of data set ``key``."""
    conf, item = _conf(config), entry(config, key)
    return {"result": NAME, "point": f"{NAME}/{key}", "dataset": key,
            "n_components": list(item["n_components"]),
            "max_samples": item.get("max_samples"),
            "n_splits": int(item.get("n_splits") or conf["n_splits"]),
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            **{k: conf[k] for k in SHARED}}
