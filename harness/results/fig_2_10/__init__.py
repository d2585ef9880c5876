"""Fig. 2.10 (thesis 2.1.8, "Multiple Metrics"): two concentric circles, one class each;
"We measured the leave-one-out training error after learning one, two and three metrics
... A single linear metric cannot capture the non-linear structure of the decision
boundary (left). The leave-one-out error is 100%. ... If the data set is divided into
two clusters (with k-means), the error rate drops drastically from 100% to 21% (middle).
Three clusters are sufficient ... to obtain a 0% leave-one-out classification error
under the 1-nn classification rule (right)."

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import thesis_claims_input

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check", "keys",
           "params", "inputs"]

NAME = "fig_2_10"
TITLE = ("Fig. 2.10: 1-NN leave-one-out error on two concentric circles with one, two "
         "and three k-means cluster metrics (thesis 2.1.8)")
THESIS_SECTION = "2.1.8"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: the outer circle outside the inner one, fewer
    clusters than points, fewer target neighbours than points per circle."""
    conf, where = _conf(config), f"results.{NAME}"
    if conf["outer_radius"] <= conf["inner_radius"]:
        raise ConfigError(f"{where}.outer_radius = {conf['outer_radius']} must exceed "
                          f"inner_radius = {conf['inner_radius']}")
    n = 2 * conf["n_per_circle"]
    if max(conf["n_metrics"]) > n:
        raise ConfigError(f"{where}.n_metrics: {max(conf['n_metrics'])} clusters of "
                          f"{n} points; use at most {n} or more n_per_circle")
    if conf["n_neighbors"] >= conf["n_per_circle"]:
        raise ConfigError(f"{where}.n_neighbors = {conf['n_neighbors']} must be below "
                          f"n_per_circle = {conf['n_per_circle']}")


def keys(config: dict) -> list[str]:
    """``seed<S>/m<C>`` for every seed and number of metrics."""
    conf = _conf(config)
    return [f"seed{s}/m{c}" for s in conf["seeds"] for c in conf["n_metrics"]]


def _parse(key: str) -> tuple[int, int]:
    seed, _, metrics = key.partition("/")
    digits = (seed.removeprefix("seed"), metrics.removeprefix("m"))
    if not (seed.startswith("seed") and metrics.startswith("m")
            and all(d.isdigit() for d in digits)):
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/seed<S>/m<C>, e.g. "
                          f"{NAME}/seed0/m3")
    return int(digits[0]), int(digits[1])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``seed<S>/m<C>``."""
    seed, n_metrics = _parse(key)
    conf = _conf(config)
    data = {name: conf[name] for name in ("n_per_circle", "inner_radius", "outer_radius",
                                          "angular_offset", "noise")}
    return {"figure": NAME, "point": f"{NAME}/{key}", "seed": seed, "n_metrics": n_metrics,
            **data, "n_neighbors": conf["n_neighbors"], "mu": conf["mu"],
            "max_iter": conf["max_iter"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"])}


def inputs(config: dict) -> list[str]:
    """The thesis' numbers (``thesis_claims.csv``): an edit rewrites the figure."""
    return thesis_claims_input(config)
