"""The profile side shared by the results' declarations: parsing job keys, checking a
result's section, choosing how a data set is loaded and resolving one MVU point's
parameters.

Light on purpose: every command imports every declaration (the discovery) and
validates the profile with their ``check``; nothing here imports NumPy, pandas or a
solver at import time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import registry
from harness.errors import ConfigError
from harness.known_deviations import DEVIATIONS_FILE

__all__ = ["DEVIATIONS_FILE", "SOLVER_BUDGET", "parse_int_key", "check_registered_dataset",
           "check_datasets_section", "check_mvu_solver",
           "dataset_choice", "mvu_point_params", "SENSOR_TASK", "check_sensor_dataset",
           "sensor_params", "sensor_inputs", "thesis_claims_input", "thesis_column"]



def parse_int_key(figure: str, key: str, prefix: str, example: int) -> int:
    """The positive integer of a job key ``<prefix><N>`` (``k7``, ``m10``); a
    :class:`ConfigError` naming the expected form otherwise."""
    digits = key[len(prefix):]
    if not (key.startswith(prefix) and digits.isdigit() and int(digits) >= 1):
        raise ConfigError(f"job {figure}/{key}: must be {figure}/{prefix}<{prefix.upper()}> "
                          f"with {prefix.upper()} a positive integer, e.g. "
                          f"{figure}/{prefix}{example}")
    return int(digits)


def check_registered_dataset(name: str, where: str) -> None:
    """Raise :class:`ConfigError` naming ``where`` if no plugin is called ``name``."""
    valid = registry.datasets("embedding")
    if name not in valid:
        raise ConfigError(f"{where}: unknown dataset {name!r}; valid datasets: "
                          f"{', '.join(valid)}")


def check_datasets_section(conf: dict, where: str, below_n) -> None:
    """The checks of a figure section that lists data sets (``datasets``) and solves
    MVU (``solver``): registered data set names (the keys of its per-data-set maps
    are checked for every section by :mod:`harness.config_keys`), a known solver, and
    ``below_n(name)`` -- ``(what, value)`` pairs -- below every given
    ``n_samples.<name>``.

    Raises
    ------
    ConfigError
        Naming the entry ``where.<key>`` and the fix.
    """
    for name in conf["datasets"]:
        check_registered_dataset(name, f"{where}.datasets")
    check_mvu_solver(conf["solver"], where)
    for name, n in conf["n_samples"].items():
        for what, value in below_n(name):
            if value >= n:
                raise ConfigError(f"{where}.{what} = {value} must be below "
                                  f"n_samples.{name} = {n}; lower it or use more points")



def check_mvu_solver(solver: str, where: str) -> None:
    """Raise :class:`ConfigError` naming ``where`` if ``solver`` is no MVU solver."""
    valid = list(registry.backends())
    if solver not in valid:
        raise ConfigError(f"{where}.solver: unknown solver {solver!r}; valid "
                          f"solvers: {', '.join(valid)}")


# the SDP solver gets this share of the point's CPU budget, so that a solver
# with its own limit (native) stops first and reports a timeout with its reason
SOLVER_BUDGET = 0.9


def dataset_choice(config: dict, name: str, n_samples: int | None,
                   extra_params: dict | None = None) -> dict[str, Any]:
    """How one data set is loaded: ``load()`` keyword arguments and subsampling.

    The keyword arguments are the plugin's defaults, overridden by the profile's
    top-level ``datasets:`` entry, overridden by ``extra_params`` (the figure's
    ``dataset_params``). ``n_samples``, when given, is the number of points: passed
    to ``load()`` when the plugin takes an ``n_samples`` argument (a generator draws
    exactly that many), otherwise a seeded subsample without replacement is taken
    after loading (the seed is the profile's ``seed``), so that data sets whose
    plugins have no size parameter (teapot, frey) can be shrunk without editing them.
    """
    info = registry.dataset_info(name)  # the plugin itself is imported by the job's child
    params = {**info.params, **config["datasets"].get(name, {}), **(extra_params or {})}
    subsample, source = None, "the data set's own size"
    if n_samples is not None:
        if "n_samples" in info.load_params:
            params["n_samples"] = int(n_samples)
            source = "generated (load(n_samples=...))"
        else:
            subsample = int(n_samples)
            source = f"seeded subsample (seed {config['seed']}) without replacement"
    return {"dataset": name, "dataset_params": params, "subsample": subsample,
            "n_samples_source": source}


def mvu_point_params(config: dict, figure_conf: dict, *, figure: str, key: str,
                     dataset: dict, variant: str, n_neighbors: int, n_components: int,
                     **extra: Any) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one MVU figure point.

    ``dataset`` comes from :func:`dataset_choice`; ``figure_conf`` is the figure's
    validated profile section (``solver``, ``eval_neighbors``,
    ``time_limit_seconds``, and ``time_limit_by_dataset``, per data set budgets that
    replace it where the figure's schema has them); ``extra`` is kept as is
    (figure-specific values).
    """
    limit = float(figure_conf.get("time_limit_by_dataset", {}).get(
        dataset["dataset"], figure_conf["time_limit_seconds"]))
    return {
        "figure": figure, "point": f"{figure}/{key}", **dataset,
        "seed": config["seed"], "blas_threads": config["blas_threads"],
        "time_limit_seconds": limit, "solver": figure_conf["solver"],
        "eval_neighbors": figure_conf["eval_neighbors"],
        "method_params": {"n_neighbors": int(n_neighbors), "n_components": int(n_components),
                          "solver": figure_conf["solver"], "variant": variant,
                          "time_limit": SOLVER_BUDGET * limit},
        **extra,
    }


#: the task of the sensor network data sets (Figs. 3.20, 3.21)
SENSOR_TASK = "sensor_localization"


def check_sensor_dataset(name: str, where: str) -> None:
    """Raise :class:`ConfigError` naming ``where`` unless ``name`` is a sensor network
    plugin."""
    valid = registry.datasets(SENSOR_TASK)
    if name not in valid:
        raise ConfigError(f"{where}: {name!r} is not a sensor network data set; valid: "
                          f"{', '.join(valid) or '(none)'}")


def sensor_params(config: dict, conf: dict, *, figure: str, key: str,
                  method_params: dict, repeats: int = 1,
                  keep_positions: bool = False) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one point: the data set
    (:func:`harness.results.common.declare.profile.dataset_choice` with the section's
    ``dataset``, ``n_samples``, ``dataset_params``) and the keyword arguments of
    :func:`variational_mvu_graph`."""
    choice = dataset_choice(config, conf["dataset"], conf["n_samples"], conf["dataset_params"])
    return {"figure": figure, "point": f"{figure}/{key}", **choice,
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            "method_params": method_params, "repeats": int(repeats),
            "keep_positions": bool(keep_positions)}


def sensor_inputs(config: dict) -> list[str]:
    """The thesis' quoted numbers the figures print (``thesis_claims.csv``)."""
    return thesis_claims_input(config)


def thesis_claims_input(config: dict) -> list[str]:
    """The file of the thesis' quoted numbers (``thesis_claims.csv``), the ``inputs``
    of a result that prints them: an edit rewrites it."""
    from harness.reference import CLAIMS_FILE  # imports pandas: only when asked

    return [str(Path(config["reference_dir"]) / CLAIMS_FILE)]


def thesis_column(name: str) -> str:
    """The thesis' data set a plugin fills: its ``stand_in_for``, else its
    ``thesis_name``, else its registry name."""
    info = registry.dataset_info(name)
    return info.stand_in_for or info.thesis_name or name
