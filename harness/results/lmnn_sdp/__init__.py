"""LMNN's SDP (thesis 2.1.3, eq. 2.11 with slack variables) solved by a generic SDP
solver (cvxpy) beside the special-purpose solvers of :mod:`harness.methods.lmnn` on small
problems: the margin's scale (2.1.3, "the resulting matrix would be 1/c^2 L"), the
global minimum from any start (2.1.1), the solvers' speed and convergence (2.1.3,
2.1.7) and the margin's effect on generalisation (2.1.2).

Three kinds of job per data set ``<ds>``: ``solve_<ds>`` (one subset: the SDP at every
margin, the special solvers from the identity and random PSD starts, fixed-step
sub-gradient runs), ``scaling_<ds>`` (CPU time of both kinds of solver against the
number of triplet constraints) and ``margin0_<ds>`` (margin 1 against margin 0 with
trace(M) fixed, over seeded splits). The declaration only: the profile section is
``schema.yaml``, a job runs :mod:`.work`, :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what is measured and the choices fixed before the numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "KINDS", "check", "keys",
           "params", "parse_key"]

NAME = "lmnn_sdp"
TITLE = ("LMNN's SDP (2.11) by a generic solver against the special-purpose solvers "
         "(thesis 2.1.1-2.1.3, 2.1.7)")
THESIS_SECTION = "2.1.3"
KIND = "figure"
SIDECAR = True
#: the job kinds, each ``<kind>_<dataset>``
KINDS = ("solve", "scaling", "margin0")
_DATASETS_OF = {"solve": "datasets", "scaling": "scaling_datasets",
                "margin0": "margin0_datasets"}


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Every class of a subset needs more than k points (k target neighbours each) and
    the margins must contain 1 (the reference of the scaling test)."""
    conf = _conf(config)
    smallest = min([conf["n_per_class"], *conf["scaling_per_class"]])
    if smallest <= conf["n_neighbors"]:
        raise ConfigError(f"results.{NAME}: {smallest} points per class cannot give "
                          f"k = {conf['n_neighbors']} target neighbours each; raise "
                          f"n_per_class / scaling_per_class")
    if 1.0 not in [float(c) for c in conf["margins"]]:
        raise ConfigError(f"results.{NAME}.margins must contain 1 (the thesis' margin)")


def keys(config: dict) -> list[str]:
    """``<kind>_<dataset>`` for each kind's data sets."""
    conf = _conf(config)
    return [f"{kind}_{ds}" for kind in KINDS for ds in conf[_DATASETS_OF[kind]]]


def parse_key(key: str) -> tuple[str, str]:
    """``(kind, dataset)`` of a key."""
    kind, _, ds = key.partition("_")
    if kind not in KINDS or not ds:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/<kind>_<dataset> with kind "
                          f"one of {', '.join(KINDS)}")
    return kind, ds


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (the whole section minus the lists of data sets,
    which name the jobs, plus the job's kind and data set)."""
    kind, ds = parse_key(key)
    conf = _conf(config)
    if ds not in conf[_DATASETS_OF[kind]]:
        raise ConfigError(f"job {NAME}/{key}: {ds} is not in results.{NAME}."
                          f"{_DATASETS_OF[kind]}")
    keep = {k: v for k, v in conf.items() if k not in _DATASETS_OF.values()}
    return {"result": NAME, "point": f"{NAME}/{key}", "kind": kind, "dataset": ds,
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            **keep, "time_limit_seconds": float(conf["time_limit_seconds"])}
