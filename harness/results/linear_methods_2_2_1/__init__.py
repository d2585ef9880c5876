"""Section 2.2.1 (thesis 2.2, 2.2.1; and 2.1.5's LDA remark): PCA, RCA and LDA checked
numerically -- the eigen / SVD solutions against independent optimisers, Figs. 2.18 and
2.19 on the unit circle, whitening, scale (in)variance, singular C_w, RCA's timing and
noise, multi-modal classes, LDA on the half-square. One job per group.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from pathlib import Path

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "KEYS", "keys", "params"]

NAME = "linear_methods_2_2_1"
TITLE = ("Section 2.2.1: PCA, RCA and LDA checked numerically -- global optima, "
         "invariances, whitening, singular C_w, RCA's speed and noise, multi-modal "
         "classes (thesis 2.2.1, 2.1.5)")
THESIS_SECTION = "2.2.1"
KIND = "table"
SIDECAR = True
#: the jobs, one per group of checks
KEYS = ("optima", "circle", "invariance", "singular", "rca_timing", "rca_noise",
        "multimodal", "half_square")


#: Fig. 2.20's parameters of its two Gaussians and chunklets (its profile section, else
#: its schema's defaults)
GAUSSIANS = ("n_samples", "axis_std", "rotation_degrees", "mean_shift",
             "rca_chunklet_fraction", "rca_chunklet_size")


#: the cached data set a group's verdicts hinge on: named as the job's ``dataset`` so
#: that the workflow reruns the job once ``harness fetch`` brings it (its record is
#: otherwise a partial measurement naming the fetch)
CACHED_DATA = {"singular": "olivetti", "optima": "mnist"}


def _figure_defaults() -> dict:
    import yaml

    path = Path(__file__).resolve().parent.parent / "fig_2_20" / "schema.yaml"
    props = yaml.safe_load(path.read_text())["properties"]
    return {k: props[k]["default"] for k in GAUSSIANS}


def keys(config: dict) -> list[str]:
    """Every group (:data:`KEYS`)."""
    return list(KEYS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``linear_methods_2_2_1/<group>``: the section, the seed,
    the BLAS threads and Fig. 2.20's data parameters (its schema's values in this
    profile)."""
    if key not in KEYS:
        raise ConfigError(f"job {NAME}/{key}: the group must be one of {', '.join(KEYS)}")
    conf = dict(config["results"][NAME])
    fig = {**_figure_defaults(), **(config["results"].get("fig_2_20") or {})}
    gaussians = {k: fig[k] for k in GAUSSIANS}
    return {"result": NAME, "point": f"{NAME}/{key}", "group": key, "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf.pop("time_limit_seconds")),
            "gaussians": gaussians, **conf,
            **({"dataset": CACHED_DATA[key]} if key in CACHED_DATA else {})}
