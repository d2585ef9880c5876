"""MM-LMNN's properties (thesis 2.1.8 "Multiple Metrics", lines 930-965; 2.1.1, line
571): label partition against k-means and spectral clusters, joint against
independently trained per-class metrics, Fig. 2.11 (per-class metrics of four MNIST
digits on two principal components), the start from the single LMNN metric against the
identity, and the same final objective from several starts for a fixed partition.

Jobs (``mm_lmnn_properties/<key>``): ``partitions-<data set>`` (seeded 70/30 splits,
four fits each), ``speed-<data set>`` (CPU time from both starts, side by side),
``convex-<data set>`` (one split, the identity and random PSD starts) and ``fig_2_11``.
:mod:`.work` runs a job, :mod:`.write` writes the table, figure and verdicts
(:mod:`.register_claims`); ``README.md`` holds the choices fixed before the numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "PARTS", "check", "keys", "params"]

NAME = "mm_lmnn_properties"
TITLE = ("MM-LMNN's properties: label partition vs clusterings, joint vs independent "
         "metrics, Fig. 2.11, start from the single metric, same minimum from any start "
         "(thesis 2.1.8, 2.1.1)")
THESIS_SECTION = "2.1.8, 2.1.1"
KIND = "figure"
SIDECAR = True

#: the job kinds and the profile list of data sets each runs on
PARTS = {"partitions": "datasets", "speed": "speed_datasets", "convex": "convex_datasets"}
#: profile keys every job passes on unchanged
SHARED = ("train_fraction", "n_neighbors", "mu", "max_iter", "tol")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def _entries(config: dict, part: str) -> list[dict]:
    return [item if isinstance(item, dict) else {"name": item}
            for item in _conf(config)[PARTS[part]]]


def check(config: dict) -> None:
    """Known data set names, each listed once per part."""
    from harness import registry

    for part, field in PARTS.items():
        names = [e["name"] for e in _entries(config, part)]
        for name in names:
            if name not in registry.datasets():
                raise ConfigError(f"results.{NAME}.{field}: unknown data set {name!r}")
        if len(set(names)) != len(names):
            raise ConfigError(f"results.{NAME}.{field}: a data set is listed twice")


def keys(config: dict) -> list[str]:
    """``<part>-<data set>`` for every part and data set, then ``fig_2_11``."""
    out = [f"{part}-{e['name']}" for part in PARTS for e in _entries(config, part)]
    return out + (["fig_2_11"] if _conf(config)["fig_2_11"]["run"] else [])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of job ``key``."""
    conf = _conf(config)
    base = {"result": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            **{k: conf[k] for k in SHARED}}
    if key == "fig_2_11":
        return {**base, "part": "fig_2_11", **conf["fig_2_11"]}
    part, _, name = key.partition("-")
    if part not in PARTS or name not in [e["name"] for e in _entries(config, part)]:
        raise ConfigError(f"job {NAME}/{key}: no such job; valid: {', '.join(keys(config))}")
    entry = next(e for e in _entries(config, part) if e["name"] == name)
    extra = {"partitions": ("n_runs", "spectral_n_neighbors", "independent"),
             "speed": ("speed_repeats",),
             "convex": ("convex_random_starts", "convex_tol", "convex_max_iter",
                        "convex_segment_steps")}[part]
    return {**base, "part": part, "dataset": name,
            "max_samples": entry.get("max_samples"),
            **{k: conf[k] for k in extra},
            **({"n_runs": int(entry.get("n_runs") or conf["n_runs"])}
               if part == "partitions" else {})}
