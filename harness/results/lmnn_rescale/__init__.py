"""LMNN on re-scaled inputs (thesis 2.1.9, line 1030): "This re-scaling of the input
only affects the scale of the matrices M, L and has no effect on the classification
accuracy." One job per data set (key: its name): LMNN trained on ``c X`` for every
``c`` of ``scales`` over the same splits, its kNN test error, its test predictions
and ``c^2 M_c`` against ``M_1``.

Fig. 2.16's jobs (:mod:`harness.results.fig_2_16`) scale the input for the ball-tree
search but train no LMNN, so they cannot decide this sentence; this result does, with
no change to theirs. The declaration; the profile section is ``schema.yaml``, a job
runs :mod:`.work`, :mod:`.write` writes the outputs and the verdict
(:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check", "keys", "params"]

NAME = "lmnn_rescale"
TITLE = ("LMNN on re-scaled inputs c X: kNN test error and c^2 M_c against M (thesis "
         "2.1.9)")
THESIS_SECTION = "2.1.9"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """The scales include 1 (the reference) and another; the data sets are classifiers'."""
    from harness import registry

    conf = _conf(config)
    if 1 not in conf["scales"] or len(set(conf["scales"])) < 2:
        raise ConfigError(f"results.{NAME}.scales = {conf['scales']}: list 1 (the "
                          f"unscaled input, the reference) and at least one other scale")
    valid = registry.datasets("classification")
    unknown = [name for name in conf["datasets"] if name not in valid]
    if unknown:
        raise ConfigError(f"results.{NAME}.datasets: unknown classification data set(s) "
                          f"{unknown}; valid: {', '.join(valid)}")
    extra = set(conf["dataset_params"]) - set(conf["datasets"])
    if extra:
        raise ConfigError(f"results.{NAME}.dataset_params names {sorted(extra)}, not in "
                          f"results.{NAME}.datasets")


def keys(config: dict) -> list[str]:
    """One job per data set."""
    return list(_conf(config)["datasets"])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of the data set ``key``."""
    from harness.results.common.declare.profile import dataset_choice

    conf = _conf(config)
    if key not in conf["datasets"]:
        raise ConfigError(f"job {NAME}/{key}: {key!r} is not in results.{NAME}.datasets = "
                          f"{conf['datasets']}")
    choice = dataset_choice(config, key, None, conf["dataset_params"].get(key, {}))
    return {"figure": NAME, "point": f"{NAME}/{key}", **choice, "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            **{k: conf[k] for k in ("scales", "n_runs", "test_fraction", "n_neighbors",
                                    "mu", "init", "max_iter")}}
