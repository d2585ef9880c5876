"""Section 3.1.8 (thesis lines 1692-1694, 1749): the gradient-based improvement of
variational MVU on sensor networks -- whether CG from the variational SDP's solution
reaches the best local minimum random restarts find, the two-step process (CG in m
dimensions, projection, CG in 2-D) against the one-step one (projection, CG in 2-D) on
convex and non-convex networks, what the 2-D step does to the worst-placed sensors, and
CG from the m = 10 initialisation against the largest m and a random start. One job per
network.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "MEMORY_MB", "REGIONS",
           "NETWORK", "FIG_3_20", "THESIS_FIG_3_20_N", "FIG_3_20_RADIUS", "WITHIN",
           "region_key", "radius_for", "check", "keys", "params"]

NAME = "sensor_cg_3_1_8"
TITLE = ("Section 3.1.8: CG after variational MVU on sensor networks -- the variational "
         "start against random restarts, two-step against one-step CG on convex and "
         "non-convex networks, the 2-D step on the worst-placed sensors, m = 10 against "
         "the largest m and a random start (thesis 3.1.8)")
THESIS_SECTION = "3.1.8"
KIND = "table"
SIDECAR = True
MEMORY_MB = 2000

#: the generated regions: the unit square (convex) and an L of area 1 (non-convex)
REGIONS = ("square", "l_shape")
#: prefix of a data set network's job (``network_us_cities_network``)
NETWORK = "network_"
#: the job of Fig. 3.20's network (the sensor_network plugin, seed 0)
FIG_3_20 = "fig_3_20_network"
#: Fig. 3.20's size and radius ("n = 20000 ... within a radius of size r = 0.06")
THESIS_FIG_3_20_N, FIG_3_20_RADIUS = 20000, 0.06
#: "within 1 % of its final loss" (s3-1-8-m10-rapid-cg-convergence's reading): the
#: line searches a CG run needs to get there are counted in the job
WITHIN = 0.01


def region_key(region: str, seed: int) -> str:
    """The job key of one generated network, ``square_s1``."""
    return f"{region}_s{seed}"


def radius_for(n: int) -> float:
    """The radius of a generated network of n sensors: Fig. 3.20's r = 0.06 at n =
    20000, scaled by sqrt(20000 / n) so that the radius covers the same number of
    sensors (about 226) at every n; each sensor measures its 20 nearest within it, so
    at every n the graph is Fig. 3.20's (the radius does not bind)."""
    return FIG_3_20_RADIUS * (THESIS_FIG_3_20_N / int(n)) ** 0.5


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """One size per seed of the generated networks; the largest m above m."""
    conf = _conf(config)
    if len(conf["region_sizes"]) != len(conf["region_seeds"]):
        raise ConfigError(f"results.{NAME}.region_sizes ({len(conf['region_sizes'])}) and "
                          f"region_seeds ({len(conf['region_seeds'])}) must have one entry "
                          f"per network")
    if conf["large_basis"] <= conf["n_basis"]:
        raise ConfigError(f"results.{NAME}.large_basis = {conf['large_basis']} must exceed "
                          f"n_basis = {conf['n_basis']}")


def keys(config: dict) -> list[str]:
    """One job per generated network (square and L, by seed), Fig. 3.20's network and
    one per data set network."""
    conf = _conf(config)
    return ([region_key(r, s) for r in REGIONS for s in conf["region_seeds"]] + [FIG_3_20]
            + [NETWORK + d for d in conf["networks"]])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``sensor_cg_3_1_8/<key>``: the network, what the job
    measures on it (random restarts on the squares and the data set networks; the
    largest m and the line searches to within 1 % on Fig. 3.20's network and the data
    set networks), the solver settings, the seeds, the BLAS threads."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = dict(_conf(config))
    out = {"result": NAME, "point": f"{NAME}/{key}", "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"]),
           "n_basis": conf["n_basis"], "omega": conf["omega"], "cg_omega": conf["cg_omega"],
           "first_stage_maxiter": conf["first_stage_maxiter"],
           "cg_maxiter": conf["cg_maxiter"], "restart_seed": conf["restart_seed"],
           "worst_fraction": conf["worst_fraction"], "within": WITHIN,
           "noise": conf["noise"], "max_neighbors": conf["max_neighbors"]}
    full = {"restarts": conf["random_restarts"], "large_basis": conf["large_basis"],
            "speed": True}
    if key == FIG_3_20:
        n = int(conf["fig_3_20_n_samples"])
        return {**out, "kind": "generated", "region": "square", "dataset": "sensor_network",
                "n_samples": n, "seed": 0, "radius": radius_for(n), "restarts": 1,
                "large_basis": conf["large_basis"], "speed": True}
    if key.startswith(NETWORK):
        dataset = key[len(NETWORK):]
        return {**out, **full, "kind": "dataset", "dataset": dataset,
                "dataset_params": (conf.get("network_params") or {}).get(dataset, {})}
    region, seed = key.rsplit("_s", 1)
    n = int(dict(zip(conf["region_seeds"], conf["region_sizes"]))[int(seed)])
    return {**out, "kind": "generated", "region": region, "dataset": "sensor_network",
            "n_samples": n, "seed": int(seed), "radius": radius_for(n),
            "restarts": conf["random_restarts"] if region == "square" else 0,
            "large_basis": None, "speed": False}
