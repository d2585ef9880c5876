"""Fig. 3.28 (thesis 3.1.12): MVU on a Swiss roll under varying k, per reading of the data.

The thesis does not say whether the roll of Fig. 3.28 had noise; the profile section
lists the defensible *readings* of its data (``readings``: a noise-free 3-D roll as
Table 3.2's, and the roll of 3.1.5 / Fig. 3.5 with five extra dimensions of low
variance Gaussian noise), each swept over its k (one job per reading and k:
``<reading>/k<k>``).

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs the module named in ``WORK``; :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows, the choices where the thesis is
ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    check_mvu_solver, check_registered_dataset, parse_int_key, dataset_choice,
    mvu_point_params,
)

__all__ = ["WORK", "NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check",
           "keys", "params", "reading_ks", "reading_solver", "parse_key"]

#: the job code: a shared work module (its import closure is each job's sources)
WORK = "harness.results.common.work.mvu_point"


NAME = "fig_3_28"
TITLE = "Fig. 3.28: MVU of a Swiss roll under varying k (thesis 3.1.12)"
THESIS_SECTION = "3.1.12"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def reading_ks(conf: dict, reading: str) -> list[int]:
    """The k swept for ``reading`` of the section ``conf``: its own ``n_neighbors``,
    else the section's."""
    return conf["readings"][reading].get("n_neighbors", conf["n_neighbors"])


def reading_solver(conf: dict, reading: str) -> str:
    """The MVU solver of ``reading``: its own ``solver``, else the section's."""
    return conf["readings"][reading].get("solver") or conf["solver"]


def _k_entry(conf: dict, reading: str) -> str:
    """Where the k of ``reading`` is set: ``readings.<reading>.n_neighbors`` or the
    section's ``n_neighbors``."""
    return (f"readings.{reading}.n_neighbors" if "n_neighbors" in conf["readings"][reading]
            else "n_neighbors")


def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names; every reading's k,
    l and the output dimension below n_samples."""
    conf = _conf(config)
    where = f"results.{NAME}"
    check_registered_dataset(conf["dataset"], f"{where}.dataset")
    check_mvu_solver(conf["solver"], where)
    n = conf["n_samples"]
    for reading in conf["readings"]:
        check_mvu_solver(reading_solver(conf, reading), f"{where}.readings.{reading}")
        too_big = [k for k in reading_ks(conf, reading) if k >= n]
        if too_big:
            raise ConfigError(f"{where}.{_k_entry(conf, reading)}: k = {too_big[0]} must be "
                              f"below n_samples = {n} (reading {reading}); drop it or use "
                              f"more points")
    for what in ("eval_neighbors", "n_components"):
        if conf[what] >= n:
            raise ConfigError(f"{where}.{what} = {conf[what]} must be below n_samples = {n}")
    if conf["n_eigenvalues"] < 3:
        raise ConfigError(f"{where}.n_eigenvalues = {conf['n_eigenvalues']}: need at least 3 "
                          f"(the lock-up test reads the third)")


def keys(config: dict) -> list[str]:
    """``<reading>/k<k>`` for every reading and every k of its sweep, readings in the
    profile's order."""
    conf = _conf(config)
    return [f"{reading}/k{k}" for reading in conf["readings"]
            for k in reading_ks(conf, reading)]


def parse_key(config: dict, key: str) -> tuple[str, int]:
    """The reading and k of a key ``<reading>/k<k>`` (any k >= 1).

    Raises
    ------
    ConfigError
        Not of that form, or a reading the profile section does not list (naming the
        valid readings).
    """
    readings = list(_conf(config)["readings"])
    reading, slash, k_key = key.partition("/")
    if not slash:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/READING/k<K> with READING one "
                          f"of {', '.join(readings)}, e.g. {NAME}/{readings[0]}/k7")
    if reading not in readings:
        raise ConfigError(f"job {NAME}/{key}: unknown reading {reading!r}; valid readings "
                          f"(results.{NAME}.readings): {', '.join(readings)}")
    return reading, parse_int_key(f"{NAME}/{reading}", k_key, "k", 7)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``<reading>/k<k>``: that reading's ``dataset_params``,
    solver and MVU ``method_params`` (where it has them), the rest from the profile
    section."""
    reading, k = parse_key(config, key)
    conf = _conf(config)
    entry = conf["readings"][reading]
    choice = dataset_choice(config, conf["dataset"], conf["n_samples"],
                            entry["dataset_params"])
    params = mvu_point_params(config, {**conf, "solver": reading_solver(conf, reading)},
                              figure=NAME, key=key, dataset=choice, variant="equality",
                              n_neighbors=k, n_components=conf["n_components"],
                              reading=reading)
    params["method_params"].update(entry.get("method_params") or {})
    return params
