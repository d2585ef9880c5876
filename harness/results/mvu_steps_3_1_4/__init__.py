"""Sections 3.1.4 and 3.1.12 (thesis lines 1518, 1966): what MVU's time is spent on --
the k-NN graph, the SDP and the eigendecomposition at each size of the solver table
(the SDP's CPU time read from the solver table's native records), and the SDP's CPU
time against the number of constraints as k grows at n = 1000-2000.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "EXCLUSIVE", "MEMORY_MB",
           "STEPS", "K_SWEEP",
           "SOLVER_TABLE", "keys", "params", "reads", "step_sizes"]

NAME = "mvu_steps_3_1_4"
TITLE = ("Sections 3.1.4 and 3.1.12: the cost of MVU's three steps (k-NN graph, SDP, "
         "eigendecomposition) against n, and of the SDP against k (thesis 3.1.4, 3.1.12)")
THESIS_SECTION = "3.1.4"
KIND = "table"
SIDECAR = True
#: its jobs time the steps and the SDP: the workflow runs each with every core reserved
EXCLUSIVE = True
#: the interior point's Schur matrix at n = 2000, k = 8 (~22,000 constraints): ~4 GB
MEMORY_MB = 8000
STEPS, K_SWEEP = "steps", "k_sweep"
#: the result whose native records give the SDP step's CPU time
SOLVER_TABLE = "solver_table"


def step_sizes(config: dict) -> list[int]:
    """The solver table's native sizes up to ``max_step_n`` (the register's "each n of
    the solver table"; beyond, the native solver is the low-rank one, not the thesis'
    pipeline), or the section's ``sizes`` without a solver table in the profile."""
    conf = config["results"][NAME]
    table = config["results"].get(SOLVER_TABLE)
    if table is None:
        return sorted(conf["sizes"])
    sizes = (table.get("n_per_backend") or {}).get("native", table.get("n", []))
    return sorted(int(n) for n in sizes if int(n) <= conf["max_step_n"])


def keys(config: dict) -> list[str]:
    """``steps`` and ``k_sweep``."""
    return [STEPS, K_SWEEP]


def reads(config: dict) -> list[str]:
    """The solver table (its native records hold the SDP step's CPU time)."""
    return [SOLVER_TABLE] if SOLVER_TABLE in config["results"] else []


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``mvu_steps_3_1_4/<key>``: the solver table's problem
    (Swiss roll with its noise dimensions, its k), the sizes or the k sweep, the
    repeats, seed and BLAS threads."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = dict(config["results"][NAME])
    table = config["results"].get(SOLVER_TABLE) or {}
    problem = {name: table.get(name, conf[name])
               for name in ("n_neighbors", "extra_noise_dims", "extra_noise_std")}
    out = {"result": NAME, "point": f"{NAME}/{key}", "kind": key, "dataset": "swiss_roll",
           "seed": config["seed"], "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"]), **problem,
           "repeats": int(conf["repeats"])}
    if key == STEPS:
        return {**out, "sizes": step_sizes(config)}
    return {**out, "n": int(conf["sweep_n"]), "ks": list(conf["sweep_k"]),
            "solver_time_limit": float(conf["sweep_solver_time_limit"])}
