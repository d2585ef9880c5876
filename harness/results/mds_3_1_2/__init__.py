"""Sections 3.1.2-3.1.3 (thesis lines 1326-1379): multidimensional scaling and geodesic
distances checked numerically -- classical MDS against PCA and against an optimiser of
(3.3)/(3.4), metric MDS' (3.2) local minima, non-metric MDS' (3.6) initialisations,
Agarwal et al.'s order-preserving embedding, linear spectra, Fig. 3.3's classical MDS
of US cities' great-circle distances and Fig. 3.4's Swiss-roll geodesics against
Euclidean distances. One job per group.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "KEYS", "keys", "params"]

NAME = "mds_3_1_2"
TITLE = ("Sections 3.1.2-3.1.3: classical, metric and non-metric MDS checked numerically, "
         "and the Swiss roll's geodesic against Euclidean distances (thesis 3.1.2, 3.1.3, "
         "Fig. 3.4)")
THESIS_SECTION = "3.1.2"
KIND = "table"
SIDECAR = True
#: the jobs, one per group of checks
KEYS = ("classical", "subspace", "metric", "nonmetric", "order", "geodesic", "us_cities")

#: the cached data sets a group's verdicts hinge on: named as the job's ``dataset`` so
#: that the workflow reruns the job once ``harness fetch`` brings it
CACHED_DATA = {"classical": "mnist", "metric": "mnist", "nonmetric": "mnist",
               "us_cities": "us_cities"}


def keys(config: dict) -> list[str]:
    """Every group (:data:`KEYS`)."""
    return list(KEYS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``mds_3_1_2/<group>``: the section, the seed and the BLAS
    threads."""
    if key not in KEYS:
        raise ConfigError(f"job {NAME}/{key}: the group must be one of {', '.join(KEYS)}")
    conf = dict(config["results"][NAME])
    return {"result": NAME, "point": f"{NAME}/{key}", "group": key, "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf.pop("time_limit_seconds")), **conf,
            **({"dataset": CACHED_DATA[key]} if key in CACHED_DATA else {})}
