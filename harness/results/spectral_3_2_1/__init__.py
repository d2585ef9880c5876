"""Section 3.2.1 (thesis lines 1994-2094) and 3.2.2's LLE remark (line 2196): the
spectral methods side by side on one data set each -- LLE's matrix M, the graph
Laplacian, Isomap's and MVU's spectra, the dimension each spectrum reveals, and
Isomap's against MVU's 2-D embedding. One job per data set, and one timing the methods against n.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "SCALING", "keys", "params"]

NAME = "spectral_3_2_1"
TITLE = ("Section 3.2.1: LLE, Laplacian eigenmaps, Isomap and MVU side by side -- their "
         "matrices, the dimension their spectra reveal, Isomap against MVU (thesis 3.2.1, "
         "3.2.2)")
THESIS_SECTION = "3.2.1"
KIND = "table"
SIDECAR = True


#: the job timing the methods against n
SCALING = "scaling"


def keys(config: dict) -> list[str]:
    """One job per data set (a setting of ``settings``: a plugin and its load
    parameters) of the profile, and :data:`SCALING`."""
    return list(config["results"][NAME]["datasets"]) + [SCALING]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``spectral_3_2_1/<dataset>``."""
    conf = dict(config["results"][NAME])
    if key == SCALING:
        scaling = conf["scaling"]
        setting = conf["settings"][scaling["setting"]]
        return {"result": NAME, "point": f"{NAME}/{key}", "kind": SCALING,
                "dataset": setting.get("dataset", scaling["setting"]), "seed": config["seed"],
                "blas_threads": config["blas_threads"],
                "time_limit_seconds": float(conf["time_limit_seconds"]),
                "dataset_params": setting.get("dataset_params", {}),
                "dimension": int(setting["dimension"]),
                "n_neighbors": int(setting.get("n_neighbors", conf["n_neighbors"])),
                **{k: v for k, v in scaling.items() if k != "setting"}}
    if key not in conf["datasets"]:
        raise ConfigError(f"job {NAME}/{key}: the data set must be one of "
                          f"{', '.join(conf['datasets'])}")
    setting = conf["settings"].get(key, {})
    return {"result": NAME, "point": f"{NAME}/{key}", "kind": "spectra",
            "dataset": setting.get("dataset", key),
            "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            "dataset_params": setting.get("dataset_params", {}),
            "dimension": int(setting["dimension"]),
            "n_neighbors": int(setting.get("n_neighbors", conf["n_neighbors"])),
            "n_eigenvalues": conf["n_eigenvalues"], "solver_time_limit": conf["solver_time_limit"]}
