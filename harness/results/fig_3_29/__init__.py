"""Fig. 3.29 (thesis 3.1.12): detecting and cutting "bad" edges of a noisy Swiss roll.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.problems.bad_edge_rule import BadEdgeRule
from harness.results.common.declare.profile import (
    check_mvu_solver, dataset_choice, mvu_point_params,
)

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "DATASET", "KINDS",
           "rule", "check", "keys", "params"]

NAME = "fig_3_29"
TITLE = "Fig. 3.29: detecting and cutting bad edges of a noisy Swiss roll (thesis 3.1.12)"
THESIS_SECTION = "3.1.12"
KIND = "figure"
SIDECAR = True
DATASET = "swiss_roll"
KINDS = ("graph", "sweep", "before", "after")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def rule(conf: dict) -> dict:
    """The detection rule of a profile section as plain values (checked)."""
    return BadEdgeRule(walk_steps=conf["walk_steps"], walk_sigma=float(conf["walk_sigma"]),
                       fence=float(conf["cut_fence"]), transition=conf["walk_transition"],
                       passage=conf["walk_passage"]).as_dict()


def check(config: dict) -> None:
    """Profile checks beyond the schema: the solver, k and l below n, no n_samples in
    dataset_params, the rule."""
    conf = _conf(config)
    where = f"results.{NAME}"
    check_mvu_solver(conf["solver"], where)
    n = conf["n_samples"]
    for what in ("n_neighbors", "eval_neighbors"):
        if conf[what] >= n:
            raise ConfigError(f"{where}.{what} = {conf[what]} must be below n_samples = {n}")
    if "n_samples" in conf["dataset_params"]:
        raise ConfigError(f"{where}.dataset_params: set the size with {where}.n_samples, "
                          f"not dataset_params.n_samples")
    try:
        rule(conf)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from exc


def keys(config: dict) -> list[str]:
    """``graph``, ``sweep``, ``before``, ``after`` (the figure's roll), then
    ``before/s<seed>`` and ``after/s<seed>`` for the rolls of seeds 0 ..
    ``mvu_seeds`` - 1 at the figure's noise, on which the MVU claims are decided (issue
    51: not on one roll picked from the sweep)."""
    seeds = range(_conf(config)["mvu_seeds"])
    return list(KINDS) + [f"{stage}/s{seed}" for seed in seeds for stage in ("before", "after")]


def _stage_seed(key: str) -> tuple[str, int | None]:
    stage, _, seed = key.partition("/s")
    return stage, (int(seed) if seed.isdigit() else None)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (:func:`keys`)."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the jobs are "
                          f"{', '.join(f'{NAME}/{k}' for k in keys(config))}")
    conf = _conf(config)
    stage, seed = _stage_seed(key)
    data = conf["dataset_params"] if seed is None else {**conf["dataset_params"], "seed": seed}
    choice = dataset_choice(config, DATASET, conf["n_samples"], data)
    walk = rule(conf)
    if stage in ("before", "after"):
        p = mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                             variant=conf["variant"], n_neighbors=conf["n_neighbors"],
                             n_components=2, kind=stage)
        if stage == "after":
            p["method_params"].update(
                cut_bad_edges=True, walk_steps=walk["walk_steps"],
                walk_sigma=walk["walk_sigma"], cut_fence=walk["fence"],
                walk_transition=walk["transition"], walk_passage=walk["passage"])
        return p
    common = {"figure": NAME, "point": f"{NAME}/{key}", "kind": key, "seed": config["seed"],
              "blas_threads": config["blas_threads"],
              "time_limit_seconds": float(conf["time_limit_seconds"]),
              "n_neighbors": conf["n_neighbors"], "rule": walk,
              "truth_ratio": float(conf["truth_ratio"])}
    if key == "graph":
        return {**common, **choice}
    base = {k: v for k, v in choice["dataset_params"].items() if k not in ("noise", "seed")}
    return {**common, "dataset": DATASET, "dataset_params": base,
            "noises": [float(v) for v in conf["sweep_noise"]],
            "seeds": list(range(conf["sweep_seeds"]))}
