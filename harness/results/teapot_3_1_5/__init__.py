"""Section 3.1.5 (thesis lines 1537-1544) and Fig. 3.31 (3.2.1, line 2026): the teapot
-- its dimension, the connectivity of its k = 4 graph, MVU on the 200 images of the
first 180 degrees (one dimension, ordered by angle), and Isomap's against MVU's 3-D
embedding of all 400. One job per data set: the teapot (a gap until fetched) and its
stand-in (shown, never counted).

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "keys", "params"]

NAME = "teapot_3_1_5"
TITLE = ("Section 3.1.5 and Fig. 3.31: the teapot's dimension and k = 4 graph, MVU on half a "
         "turn of rotation, Isomap against MVU (thesis 3.1.5, 3.2.1)")
THESIS_SECTION = "3.1.5"
KIND = "table"
SIDECAR = True


def keys(config: dict) -> list[str]:
    """One job per data set of the profile."""
    return list(config["results"][NAME]["datasets"])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``teapot_3_1_5/<dataset>``."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = dict(config["results"][NAME])
    return {"result": NAME, "point": f"{NAME}/{key}", "dataset": key,
            "dataset_params": (conf.get("dataset_params") or {}).get(key, {}),
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            "solver_time_limit": float(conf["solver_time_limit"]),
            "k": int(conf["k"]), "half_turn": float(conf["half_turn"]),
            "embedding_dims": int(conf["embedding_dims"])}
