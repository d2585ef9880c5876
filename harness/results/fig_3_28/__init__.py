"""Fig. 3.28 (thesis 3.1.12): MVU on a noise-free Swiss roll under varying k.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs the module named in ``WORK``; :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows, the choices where the thesis is
ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.profile import (
    check_mvu_solver, check_registered_dataset, parse_int_key, dataset_choice,
    mvu_point_params,
)

__all__ = ["WORK", "NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check",
           "keys", "params"]

#: the job code: a shared work module (its import closure is each job's sources)
WORK = "harness.results.common.mvu_point"


NAME = "fig_3_28"
TITLE = "Fig. 3.28: MVU of a noise-free Swiss roll under varying k (thesis 3.1.12)"
THESIS_SECTION = "3.1.12"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names; every k, l and
    the output dimension below n_samples."""
    conf = _conf(config)
    where = f"results.{NAME}"
    check_registered_dataset(conf["dataset"], f"{where}.dataset")
    check_mvu_solver(conf["solver"], where)
    n = conf["n_samples"]
    too_big = [k for k in conf["k"] if k >= n]
    if too_big:
        raise ConfigError(f"{where}.k: k = {too_big[0]} must be below n_samples = {n}; "
                          f"drop it or use more points")
    for what in ("eval_neighbors", "n_components"):
        if conf[what] >= n:
            raise ConfigError(f"{where}.{what} = {conf[what]} must be below n_samples = {n}")
    if conf["n_eigenvalues"] < 3:
        raise ConfigError(f"{where}.n_eigenvalues = {conf['n_eigenvalues']}: need at least 3 "
                          f"(the lock-up test reads the third)")


def keys(config: dict) -> list[str]:
    """``k<k>`` for every k of the sweep."""
    return [f"k{k}" for k in _conf(config)["k"]]


def _parse_k(key: str) -> int:
    return parse_int_key(NAME, key, "k", 7)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``k<k>`` (any k >= 1; the rest from the profile)."""
    k = _parse_k(key)
    conf = _conf(config)
    choice = dataset_choice(config, conf["dataset"], conf["n_samples"], conf["dataset_params"])
    return mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                            variant="equality", n_neighbors=k,
                            n_components=conf["n_components"])
