"""Figs. 3.1 and 3.7 (thesis 3.1 line 1285, 3.1.4 lines 1492 and 1516): on a Swiss roll,
Euclidean distances against geodesic ones in the input and in MVU's unfolding (Fig.
3.1), the share of variance in two dimensions as the variance grows (Fig. 3.7), the
loss of truncating MVU's kernel to r dimensions, and a labelling linearly separable in
the input but not on MVU's unfolding (Fig. 3.36, 3.2.2). One job per figure.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "KEYS", "keys", "params"]

NAME = "fig_3_1_3_7"
TITLE = ("Figs. 3.1 and 3.7: Euclidean against geodesic order on the Swiss roll and in "
         "MVU's unfolding; variance and dimensionality along the unfolding; the "
         "truncation loss (thesis 3.1, 3.1.4)")
THESIS_SECTION = "3.1.4"
KIND = "table"
SIDECAR = True
KEYS = ("fig_3_1", "fig_3_7", "fig_3_36")


def keys(config: dict) -> list[str]:
    """``fig_3_1``, ``fig_3_7`` and ``fig_3_36``."""
    return list(KEYS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``fig_3_1_3_7/<key>``: its roll, MVU's k and solver
    budget, the sampling (Fig. 3.1) or the ascent (Fig. 3.7), seed and BLAS threads."""
    if key not in KEYS:
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(KEYS)}")
    conf = dict(config["results"][NAME])
    section = conf[key]
    return {"result": NAME, "point": f"{NAME}/{key}", "kind": key, "dataset": "swiss_roll",
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            "solver_time_limit": float(conf["solver_time_limit"]), **section}
