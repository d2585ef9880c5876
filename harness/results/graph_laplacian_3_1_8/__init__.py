"""Section 3.1.8 (thesis lines 1667-1718): the graph Laplacian's bottom eigenvectors as
a basis -- the nodal domains of Fig. 3.16's eigenvectors, how well they represent the
true coordinates of a sensor network (a convex square, an L-shaped region, the US
cities), and how the Laplacian eigenmap and variational MVU on the Laplacian basis
compress the Swiss roll's edges (Fig. 3.17's middle row). One job per network or
embedding.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "NODAL", "EIGENMAP",
           "VARIATIONAL", "LOCAL_MINIMA", "NETWORK", "REGIONS", "region_key", "keys", "params"]

NAME = "graph_laplacian_3_1_8"
TITLE = ("Section 3.1.8: the graph Laplacian's bottom eigenvectors -- nodal domains (Fig. "
         "3.16), the true coordinates of convex and non-convex sensor networks in their "
         "span, and the Swiss roll's edges under the Laplacian eigenmap and variational "
         "MVU (Fig. 3.17) (thesis 3.1.8)")
THESIS_SECTION = "3.1.8"
KIND = "table"
SIDECAR = True

#: the job of Fig. 3.16's eigenvectors
NODAL = "nodal_domains"
#: the jobs of the Swiss roll's edges: the 2-D Laplacian eigenmap, variational MVU
EIGENMAP, VARIATIONAL = "eigenmap_edges", "variational_edges"
#: the job of Fig. 3.17's two final embeddings (variational MVU (CG), both bases)
LOCAL_MINIMA = "fig_3_17_local_minima"
#: prefix of a data set network's job (``network_us_cities_network``)
NETWORK = "network_"
#: the regions of the generated networks: convex and not
REGIONS = ("square", "l_shape")


def region_key(region: str, seed: int) -> str:
    """The job key of one generated network, ``square_s0``."""
    return f"{region}_s{seed}"


def keys(config: dict) -> list[str]:
    """``nodal_domains``, one job per (region, seed), one per network data set, and the
    two Swiss-roll embeddings, and Fig. 3.17's two final embeddings."""
    conf = config["results"][NAME]
    return ([NODAL] + [region_key(r, s) for r in REGIONS for s in conf["region_seeds"]]
            + [NETWORK + d for d in conf["networks"]] + [EIGENMAP, VARIATIONAL, LOCAL_MINIMA])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``graph_laplacian_3_1_8/<key>``: the section's sizes for
    its kind, the seed, the BLAS threads."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = dict(config["results"][NAME])
    out = {"result": NAME, "point": f"{NAME}/{key}", "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"])}
    if key == NODAL:
        return {**out, "kind": NODAL, "seed": config["seed"], **conf["nodal"]}
    if key in (EIGENMAP, VARIATIONAL):
        return {**out, "kind": key, "seed": config["seed"], "dataset": "swiss_roll",
                "boundary_fraction": conf["boundary_fraction"],
                **conf["eigenmap" if key == EIGENMAP else "variational"]}
    if key == LOCAL_MINIMA:  # Fig. 3.17's roll: the variational job's
        return {**out, "kind": key, "seed": config["seed"], "dataset": "swiss_roll",
                **conf["variational"]}
    basis = {"max_basis": conf["max_basis"]}
    if key.startswith(NETWORK):
        dataset = key[len(NETWORK):]
        return {**out, **basis, "kind": "network", "seed": config["seed"], "dataset": dataset,
                "dataset_params": (conf.get("network_params") or {}).get(dataset, {})}
    region, seed = key.rsplit("_s", 1)
    return {**out, **basis, "kind": "region", "region": region, "seed": int(seed),
            "dataset": "sensor_network", **conf["region"]}
