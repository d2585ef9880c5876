"""MVU's feasibility and boundedness (thesis 3.1.4, 3.1.6, 3.1.12): the SDP on a
disconnected graph (unbounded, not infeasible), strict MVU with perturbed distances
(infeasible) and the relaxed variants with arbitrary distances (always feasible).

Jobs: ``disconnected/<data>/<backend>``, ``strict_noisy/draw<D>``,
``relaxed/batch<B>``; ``work.py`` runs them, ``write.py`` writes the table and the
verdicts; ``README.md`` states the choices.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "keys", "params"]

NAME = "mvu_feasibility"
TITLE = ("MVU's SDP: unbounded on a disconnected graph, infeasible with perturbed "
         "distances, relaxed variants always feasible (thesis 3.1.4, 3.1.6, 3.1.12)")
THESIS_SECTION = "3.1.4"
KIND = "table"
SIDECAR = False


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def keys(config: dict) -> list[str]:
    """``disconnected/<data>/<backend>``, ``strict_noisy/draw<D>``, ``relaxed/batch<B>``."""
    c = _conf(config)
    batches = -(-c["relaxed"]["draws"] // c["relaxed"]["draws_per_job"])
    return ([f"disconnected/{d}/{b}" for d in c["disconnected"]["data"] for b in c["backends"]]
            + [f"strict_noisy/draw{i}" for i in range(c["strict_noisy"]["draws"])]
            + [f"relaxed/batch{i}" for i in range(batches)])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: not a job of this profile; the jobs are "
                          f"{', '.join(keys(config))}")
    c = _conf(config)
    parts = key.split("/")
    kind = parts[0]
    out = {"result": NAME, "point": f"{NAME}/{key}", "kind": kind, "seed": config["seed"],
           "blas_threads": config["blas_threads"], "backends": c["backends"],
           "time_limit_seconds": float(c["time_limit_seconds"]), **c[kind]}
    if kind == "disconnected":
        out.update(data=parts[1], backend=parts[2])
        out.pop("backends")
    elif kind == "strict_noisy":
        out["draw"] = int(parts[1][4:])
    else:
        batch, size = int(parts[1][5:]), c["relaxed"]["draws_per_job"]
        out["draw_indices"] = list(range(batch * size, min(c["relaxed"]["draws"],
                                                           (batch + 1) * size)))
    return out
