"""Figs. 3.5 and 3.14 (thesis 3.1.5, 3.1.6): MVU of an n = 800 Swiss roll with k = 6,
strict and with slack, with and without five extra noise dimensions.

Fig. 3.5 (3.1.5, line 1404 and 1530): "maximum variance unfolding of n = 800 inputs
sampled from a Swiss roll. The inputs had p = 8 dimensions [...] plus five extra
dimensions filled with low variance Gaussian noise [...] distances between k = 6
nearest neighbors". Fig. 3.14 (3.1.6, lines 1602-1609): the same on n = 800 inputs
sampled *without noise*: strict MVU (eq. 3.10) "locks up", MVU with slack (the
penalised SDP of 3.1.6, weight omega) "leads to the desired solution".

One job per (data, variant, n): ``<data>/<variant>/n<N>`` with data ``noisy`` (the
roll of 3.1.5) or ``noise_free`` (Fig. 3.14's), variant ``strict`` (equality
constraints) or ``slack_w<omega>`` (omega from the schema's grid), and ``knn`` (strict,
distances to the k nearest neighbours only, no cliques: the last relaxation of 3.1.6);
and one job ``graph_counts`` (edge counts of the clique and k-NN graphs). The jobs run
:mod:`.work` (MVU points of :mod:`harness.results.common.work.mvu_point`, certified).
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import check_mvu_solver, dataset_choice, mvu_point_params

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "DATA", "DATASET",
           "check", "keys", "params", "parse_key", "slack_key", "strict_sizes"]

NAME = "fig_3_5_14"
TITLE = ("Figs. 3.5 and 3.14: MVU of an n = 800 Swiss roll, k = 6, with and without "
         "noise dimensions, strict and with slack (thesis 3.1.5, 3.1.6)")
THESIS_SECTION = "3.1.5, 3.1.6"
KIND = "figure"
SIDECAR = True
DATASET = "swiss_roll"
#: the two rolls: the profile entry holding each one's load() arguments
DATA = {"noisy": "noisy_params", "noise_free": "noise_free_params"}
GRAPH_KEY = "graph_counts"
#: leading dimensions of each point's embedding (the figure draws 2; the relative RMS
#: violation of the distances is measured on these, :func:`.work.roll_extra`)
VIOLATION_DIMENSIONS = 20


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def slack_key(omega: float) -> str:
    """The variant part of a slack job's key: ``slack_w0.99`` for omega 0.99."""
    return f"slack_w{float(omega):g}"


def strict_sizes(conf: dict) -> list[int]:
    """The n of the strict points: the thesis' (``n_samples``) and the slack points'
    (``slack_n_samples``), so that slack is compared with strict at one n."""
    return sorted({int(conf["n_samples"]), int(conf["slack_n_samples"])})


def check(config: dict) -> None:
    """Solver names; Fig. 3.14's omega in the grid; k below every n."""
    conf = _conf(config)
    where = f"results.{NAME}"
    check_mvu_solver(conf["solver"], where)
    check_mvu_solver(conf["slack_solver"], where)
    if float(conf["fig_3_14_omega"]) not in [float(w) for w in conf["omegas"]]:
        raise ConfigError(f"{where}.fig_3_14_omega = {conf['fig_3_14_omega']} must be one "
                          f"of omegas {conf['omegas']}")
    for n in (*strict_sizes(conf), *conf["knn_n_samples"]):
        if conf["n_neighbors"] >= n or conf["eval_neighbors"] >= n:
            raise ConfigError(f"{where}: n_neighbors and eval_neighbors must be below "
                              f"every n (got n = {n})")


def keys(config: dict) -> list[str]:
    """Strict points at every strict size, slack points per omega, k-NN-only points,
    per roll; then ``graph_counts``."""
    conf = _conf(config)
    out = []
    for data in DATA:
        out += [f"{data}/strict/n{n}" for n in strict_sizes(conf)]
        out += [f"{data}/{slack_key(w)}/n{conf['slack_n_samples']}" for w in conf["omegas"]]
        out += [f"{data}/knn/n{n}" for n in conf["knn_n_samples"]]
    return out + [GRAPH_KEY]


def parse_key(key: str) -> tuple[str, str, int]:
    """``(data, variant, n)`` of ``<data>/<variant>/n<N>``.

    Raises
    ------
    ConfigError
        Not of that form (naming the valid data and variants).
    """
    parts = key.split("/")
    ok = (len(parts) == 3 and parts[0] in DATA and parts[2][1:].isdigit()
          and parts[2].startswith("n")
          and (parts[1] in ("strict", "knn") or parts[1].startswith("slack_w")))
    if not ok:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATA/VARIANT/nN with DATA one "
                          f"of {', '.join(DATA)} and VARIANT strict, knn or slack_w<omega>, "
                          f"e.g. {NAME}/noisy/strict/n800; or {NAME}/{GRAPH_KEY}")
    return parts[0], parts[1], int(parts[2][1:])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one point (an MVU point of
    :func:`~harness.results.common.declare.profile.mvu_point_params`, with ``omega`` for a slack
    point and ``connectivity``), or of ``graph_counts``."""
    conf = _conf(config)
    if key == GRAPH_KEY:
        return {"figure": NAME, "point": f"{NAME}/{key}", "kind": "graph_counts",
                "seed": config["seed"], "blas_threads": config["blas_threads"],
                "time_limit_seconds": float(conf["time_limit_seconds"]),
                "dataset": DATASET, "n_samples": int(conf["constraint_count"]["n_samples"]),
                "n_neighbors": list(conf["constraint_count"]["n_neighbors"]),
                "data_params": {d: dict(conf[p]) for d, p in DATA.items()}}
    data, variant, n = parse_key(key)
    choice = dataset_choice(config, DATASET, n, conf[DATA[data]])
    slack = variant.startswith("slack_w")
    solver = conf["slack_solver"] if slack else conf["solver"]
    point = mvu_point_params(config, {**conf, "solver": solver}, figure=NAME, key=key,
                             dataset=choice, variant="slack" if slack else "equality",
                             n_neighbors=conf["n_neighbors"],
                             n_components=min(VIOLATION_DIMENSIONS, n - 1),
                             kind="mvu", data=data, connectivity="knn" if variant == "knn"
                             else "clique")
    if slack:
        omega = float(variant.removeprefix("slack_w"))
        if omega not in [float(w) for w in conf["omegas"]]:
            raise ConfigError(f"job {NAME}/{key}: omega {omega:g} is not in "
                              f"results.{NAME}.omegas {conf['omegas']}")
        point["method_params"]["omega"] = omega
    return point
