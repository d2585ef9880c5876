"""The declarations' side shared by Figs. 2.13 and 2.16 (thesis 2.1.9): one job per
PCA dimension ``r`` (key ``r<R>``) on MNIST, the profile check and the parameters (their
shared schema entries: ``balltree_schema.yaml``). Light: imported at discovery."""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import dataset_choice, parse_int_key

__all__ = ["DATASET", "keys", "check", "params", "section_hooks"]

DATASET = "mnist"


def keys(conf: dict) -> list[str]:
    """``r<R>`` for every listed dimension, in the listed order."""
    return [f"r{r}" for r in conf["dimensions"]]


def check(conf: dict, where: str) -> None:
    """Dimensions listed once each, below the training size."""
    dims = conf["dimensions"]
    if len(set(dims)) != len(dims):
        raise ConfigError(f"{where}.dimensions = {dims} lists a dimension twice")
    n = conf["n_train"]
    if n is not None and max(dims) >= n:
        raise ConfigError(f"{where}.dimensions: r = {max(dims)} must be below n_train = {n}")


def params(config: dict, conf: dict, figure: str, key: str, **extra) -> dict:
    """A job's parameters: MNIST's 784 deskewed pixels, its split sizes, r."""
    r = parse_int_key(figure, key, "r", 15)
    if r not in conf["dimensions"]:
        raise ConfigError(f"job {figure}/{key}: r = {r} is not in results.{figure}."
                          f"dimensions = {conf['dimensions']}")
    choice = dataset_choice(config, DATASET, None, {"n_components": None,
                                                    "n_train": conf["n_train"],
                                                    "n_test": conf["n_test"]})
    return {"figure": figure, "point": f"{figure}/{key}", **choice, "r": r,
            "repeats": int(conf["repeats"]), "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]), **extra}


def section_hooks(name: str):
    """``(conf, check, keys)`` of the result ``name``: its section, the profile check
    and the job keys, as the result contract wants them."""
    def conf(config: dict) -> dict:
        return config["results"][name]

    def check_section(config: dict) -> None:
        check(conf(config), f"results.{name}")

    def result_keys(config: dict) -> list[str]:
        return keys(conf(config))

    return conf, check_section, result_keys
