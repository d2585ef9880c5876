"""Figs. 2.3 and 2.4 (thesis 2.1.5, "Convergence"): LMNN on the half-square.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness import registry
from harness.errors import ConfigError
from harness.results.common.declare.profile import parse_int_key

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check", "keys",
           "params"]

NAME = "fig_2_3_4"
TITLE = ("Figs. 2.3 and 2.4: LMNN on the half-square, axis scaling and the 1-NN "
         "misclassification probability against n (thesis 2.1.5)")
THESIS_SECTION = "2.1.5"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: a classification data set, an even grid, and
    every size large enough for k + 1 points in each class."""
    conf = _conf(config)
    where = f"results.{NAME}"
    valid = registry.datasets("classification")
    if conf["dataset"] not in valid:
        raise ConfigError(f"{where}.dataset: unknown classification dataset "
                          f"{conf['dataset']!r}; valid: {', '.join(valid)}")
    if conf["grid_size"] % 2:
        raise ConfigError(f"{where}.grid_size = {conf['grid_size']} must be even (an odd "
                          f"grid puts a row of centres on the class boundary)")
    smallest = 2 * (conf["n_neighbors"] + 1)
    for what, n in [("scaling_n_samples", conf["scaling_n_samples"])] + [
            ("sizes", n) for n in conf["sizes"]]:
        if n < smallest:
            raise ConfigError(f"{where}.{what}: n = {n} is below 2 (k + 1) = {smallest}: "
                              f"no training set has k + 1 points in each class; use more "
                              f"points or a smaller n_neighbors")


def keys(config: dict) -> list[str]:
    """``scaling`` and ``n<N>`` for every size."""
    return ["scaling"] + [f"n{n}" for n in _conf(config)["sizes"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``scaling`` or ``n<N>`` (any N >= 2)."""
    conf = _conf(config)
    if key == "scaling":
        kind, n, runs = "scaling", conf["scaling_n_samples"], 1
    else:
        kind, n, runs = "sizes", parse_int_key(NAME, key, "n", 100), conf["runs"]
    return {"figure": NAME, "point": f"{NAME}/{key}", "kind": kind, "n_samples": n,
            "runs": runs, "dataset": conf["dataset"], "side": float(conf["side"]),
            "n_neighbors": conf["n_neighbors"], "solver": conf["solver"],
            "max_iter": conf["max_iter"], "grid_size": conf["grid_size"],
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"])}
