"""Section 2.2.2 (thesis lines 1253-1261): NCA's speed -- the gradient's cost against n
and d, a diagonal against a full matrix, kNN after a rectangular projection. One job
per group.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "KEYS", "keys", "params"]

NAME = "nca_2_2_2"
TITLE = ("Section 2.2.2: NCA's speed -- the gradient against n and d, a diagonal against a "
         "full matrix, kNN after a rectangular projection (thesis 2.2.2)")
THESIS_SECTION = "2.2.2"
KIND = "table"
SIDECAR = True
#: the jobs, one per group of checks
KEYS = ("gradient", "diagonal", "rectangular")
#: the cached data set a group's verdicts hinge on (rerun once fetched)
CACHED_DATA = {"rectangular": "mnist"}
#: timing jobs: run alone on the machine
EXCLUSIVE = True


def keys(config: dict) -> list[str]:
    """Every group (:data:`KEYS`)."""
    return list(KEYS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``nca_2_2_2/<group>``."""
    if key not in KEYS:
        raise ConfigError(f"job {NAME}/{key}: the group must be one of {', '.join(KEYS)}")
    conf = dict(config["results"][NAME])
    return {"result": NAME, "point": f"{NAME}/{key}", "group": key, "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf.pop("time_limit_seconds")), **conf,
            **({"dataset": CACHED_DATA[key]} if key in CACHED_DATA else {})}
