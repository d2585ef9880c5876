"""Sections 3.1.4 and 3.1.12 (thesis lines 1478, 1970): MVU's neighbourhood graph --
how many distance constraints the clique graph of 3.1.4 has against n and k, and what
k below 3 does (the graphs' connected components; MVU's spectrum where a graph is
connected). One job counts, one job per data set for k < 3.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "keys", "params"]

NAME = "mvu_graph_3_1_12"
TITLE = ("Sections 3.1.4 and 3.1.12: MVU's neighbourhood graph -- the number of distance "
         "constraints against n and k, and k below 3 (connectivity, one-dimensional "
         "embeddings) (thesis 3.1.4, 3.1.12)")
THESIS_SECTION = "3.1.12"
KIND = "table"
SIDECAR = True
COUNTS = "counts"
PREFIX = "k_below_3_"


def keys(config: dict) -> list[str]:
    """``counts`` and ``k_below_3_<dataset>`` for every data set of the profile."""
    return [COUNTS] + [PREFIX + d for d in config["results"][NAME]["datasets"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``mvu_graph_3_1_12/<key>``: the section's sizes, the seed,
    the BLAS threads and, for a k < 3 job, its data set and that data set's load
    parameters."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = dict(config["results"][NAME])
    out = {"result": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
           "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf.pop("time_limit_seconds"))}
    if key == COUNTS:
        return {**out, "kind": COUNTS, "dataset": "swiss_roll",
                "count_n_samples": conf["count_n_samples"], "count_k": conf["count_k"]}
    dataset = key[len(PREFIX):]
    return {**out, "kind": "k_below_3", "dataset": dataset,
            "dataset_params": (conf.get("dataset_params") or {}).get(dataset, {}),
            "neighbours": conf["neighbours"], "solver_time_limit": conf["solver_time_limit"]}
