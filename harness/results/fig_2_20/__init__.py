"""Fig. 2.20 (thesis 2.2.1): PCA, RCA and LDA on two Gaussians with identical
covariance; one job per seeded trial (``fig_2_20/trial<T>``).

The declaration: the result's profile section is ``schema.yaml``, a job runs
:mod:`.work`, the figure, its table and the verdicts are written by :mod:`.write`;
``README.md`` says what the figure shows and the choices where the thesis is ambiguous.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check", "keys", "params"]

NAME = "fig_2_20"
TITLE = "Fig. 2.20: PCA, RCA and LDA on two Gaussians with identical covariance (thesis 2.2.1)"
THESIS_SECTION = "2.2.1"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Chunklets that fit: the chunklet size below the points a class gives."""
    conf = _conf(config)
    per_class = conf["rca_chunklet_fraction"] * (conf["n_samples"] // 2)
    if per_class < 2:
        raise ConfigError(f"results.{NAME}: rca_chunklet_fraction x n_samples / 2 = "
                          f"{per_class:g} points per class; RCA needs at least 2 in a "
                          f"chunklet: raise rca_chunklet_fraction or n_samples")


def keys(config: dict) -> list[str]:
    """``trial<T>`` for each trial."""
    return [f"trial{t}" for t in range(_conf(config)["n_trials"])]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``trial<T>`` (trial 0 is ``trial0``)."""
    digits = key.removeprefix("trial")
    if not key.startswith("trial") or not digits.isdigit():
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/trial<T> with T = 0, 1, ...")
    trial = int(digits)
    conf = _conf(config)
    keep = ("n_samples", "axis_std", "rotation_degrees", "mean_shift", "rca_chunklet_fraction",
            "rca_chunklet_size", "rca_n_components", "rca_first_direction", "n_neighbors")
    return {"figure": NAME, "point": f"{NAME}/{key}", "trial": trial, "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            **{k: conf[k] for k in keep}}
