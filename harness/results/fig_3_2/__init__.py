"""Fig. 3.2 and the Johnson-Lindenstrauss lemma (thesis 3.1.2): random projections.

Jobs: ``histogram/n<N>`` (Fig. 3.2 right: the squared norm of N unit vectors of R^d
mapped by ``f_k``), ``all_pairs/<points>/n<N>`` (every pairwise distance of N points
after a random projection to the lemma's k), ``dimension/n<N>`` (the smallest k that
keeps every distance), ``tail`` (the lemma's tail bound) and ``real_data`` (MNIST
distances after a random projection). ``work.py`` runs them, ``write.py`` writes the
figure, its table and the verdicts; ``README.md`` states the choices.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "keys", "params"]

NAME = "fig_3_2"
TITLE = "Fig. 3.2: random projections and the Johnson-Lindenstrauss lemma (thesis 3.1.2)"
THESIS_SECTION = "3.1.2"
KIND = "figure"
SIDECAR = True

_KINDS = ("histogram", "all_pairs", "dimension", "tail", "real_data")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def keys(config: dict) -> list[str]:
    """One key per job: ``histogram/n<N>``, ``all_pairs/<points>/n<N>``,
    ``dimension/n<N>``, ``tail``, ``real_data``."""
    conf = _conf(config)
    return ([f"histogram/n{n}" for n in conf["histogram"]["sizes"]]
            + [f"all_pairs/{p}/n{n}" for p in conf["all_pairs"]["points"]
               for n in conf["all_pairs"]["sizes"]]
            + [f"dimension/n{n}" for n in conf["dimension"]["sizes"]]
            + ["tail", "real_data"])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (its part of the section, its size, the seed)."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: not a job of this profile; the jobs are "
                          f"{', '.join(keys(config))}")
    parts = key.split("/")
    kind = parts[0]
    conf = _conf(config)
    out = {"figure": NAME, "point": f"{NAME}/{key}", "kind": kind, "seed": config["seed"],
           "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"]), **conf[kind]}
    if kind in ("histogram", "all_pairs", "dimension"):
        out.pop("sizes")
        out["n"] = int(parts[-1][1:])
    if kind == "all_pairs":
        out.pop("points")
        out["points"] = parts[1]
    if kind in ("all_pairs", "real_data"):
        out["dataset_params"] = conf["mnist_params"]
    return out
