"""Section 2.2.2 (thesis lines 1156-1225): MMC (Xing et al. [92]) and POLA
(Shalev-Shwartz et al. [74]) measured -- k-means and kNN under the learned metrics
on iris, wine, balance scale and Fig. 2.20's Gaussians, multi-modal classes, MMC's
optimisation problem solved to a certified optimum (square root, bound, scale,
diagonal variant), fit times, POLA's margin feasibility, passes and scaling.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
outputs and verdicts are written by :mod:`.write` (:mod:`.register_claims`). One job
per group: ``split_<dataset>`` (20 random splits), ``multimodal``, ``exact``,
``timing``, ``feasibility``, ``scaling``.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "GROUPS", "keys", "params"]

NAME = "mmc_pola"
TITLE = ("Section 2.2.2: MMC and POLA -- k-means and kNN under the learned metrics, "
         "multi-modal classes, MMC's problem solved exactly, POLA's margin and passes "
         "(thesis 2.2.2)")
THESIS_SECTION = "2.2.2"
KIND = "table"
SIDECAR = True
#: the jobs beside the per-data-set splits
GROUPS = ("multimodal", "exact", "timing", "feasibility", "scaling")
#: the cached data set a group hinges on (named as the job's data set, so that the
#: workflow reruns it once fetched)
CACHED_DATA = {"scaling": "mnist"}


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def keys(config: dict) -> list[str]:
    """``split_<dataset>`` for each of the section's data sets, then :data:`GROUPS`."""
    return [f"split_{d}" for d in _conf(config)["datasets"]] + list(GROUPS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``mmc_pola/<key>``: the section, the seed, the BLAS
    threads (and the data set of a split job)."""
    conf = dict(_conf(config))
    if key.startswith("split_"):
        dataset = key.removeprefix("split_")
        if dataset not in conf["datasets"]:
            raise ConfigError(f"job {NAME}/{key}: {dataset!r} is not in results.{NAME}."
                              f"datasets ({', '.join(conf['datasets'])})")
        extra = {"group": "split", "split_dataset": dataset}
    elif key in GROUPS:
        extra = {"group": key, **({"dataset": CACHED_DATA[key]} if key in CACHED_DATA else {})}
    else:
        raise ConfigError(f"job {NAME}/{key}: must be split_<dataset> or one of "
                          f"{', '.join(GROUPS)}")
    from harness.results.linear_methods_2_2_1 import GAUSSIANS, _figure_defaults

    fig = {**_figure_defaults(), **(config["results"].get("fig_2_20") or {})}
    return {"result": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
            "blas_threads": config["blas_threads"], "gaussians": {k: fig[k] for k in GAUSSIANS},
            "time_limit_seconds": float(conf.pop("time_limit_seconds")), **conf, **extra}
