"""Section 3.1.9 (thesis line 1843): "the relatively bad performance of hLLE is
surprising and is most likely due to the known weakness of hLLE to not handle noisy
data sets too well" -- hLLE's and Isomap's Table 3.2 metrics on the noise-free Swiss
roll and on the noisy one, over a few seeded samples. One job per sample, each fitting
both methods on both rolls.

Every parameter of a fit is Table 3.2's (the profile's ``table_3_2`` section, resolved by
:func:`harness.results.table_3_2.params` for its cells ``swiss_roll/<method>`` and
``swiss_roll_3_1_5/<method>``: n, the noise, k, the output dimension, l); only the
roll's seed is the sample's (and n, where the section sets ``n_samples``).

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "PREFIX", "check", "keys",
           "params"]

NAME = "hlle_noise_3_1_9"
TITLE = ("Section 3.1.9: hLLE's weakness on noisy data -- hLLE's and Isomap's mean of "
         "the three Table 3.2 metrics on the noise-free and the noisy Swiss roll, paired "
         "over seeded samples (thesis 3.1.9)")
THESIS_SECTION = "3.1.9"
KIND = "table"
SIDECAR = True
PREFIX = "sample"
TABLE = "table_3_2"


def check(config: dict) -> None:
    """Table 3.2's section must be in the profile: the fits take its parameters."""
    conf = config["results"][NAME]
    if TABLE not in config["results"]:
        raise ConfigError(f"results.{NAME} takes Table 3.2's parameters: the profile needs "
                          f"a results.{TABLE} section")
    if len(set(conf["seeds"])) != len(conf["seeds"]):
        raise ConfigError(f"results.{NAME}.seeds: the samples' seeds must be distinct")


def keys(config: dict) -> list[str]:
    """``sample<seed>`` for every seed of the section."""
    return [f"{PREFIX}{s}" for s in config["results"][NAME]["seeds"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``hlle_noise_3_1_9/sample<seed>``: for each method and
    roll, Table 3.2's cell parameters (data set parameters with the sample's seed,
    the method's parameters, l)."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    from harness.results import table_3_2

    conf = config["results"][NAME]
    seed = int(key[len(PREFIX):])
    fits = {}
    for method in conf["methods"]:
        for level, cell in (("clean", conf["clean_cell"]), ("noisy", conf["noisy_cell"])):
            p = table_3_2.params(config, f"{cell}/{method}")
            data = {**p["dataset_params"], "seed": seed}
            if conf.get("n_samples"):
                data["n_samples"] = int(conf["n_samples"])
            fits.setdefault(method, {})[level] = {
                "dataset": p["dataset"], "dataset_params": data, "table_cell": f"{cell}/{method}",
                "method_params": p["method_params"], "eval_neighbors": p["eval_neighbors"]}
    return {"result": NAME, "point": f"{NAME}/{key}", "seed": seed,
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]), "fits": fits}
