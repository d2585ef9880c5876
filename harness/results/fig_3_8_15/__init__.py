"""Figs. 3.8 and 3.15 (thesis 3.1.5, 3.1.7): MVU of a trefoil knot, and a comb on
which MVU and Isomap *increase* the dimensionality.

Fig. 3.8 (3.1.5): n = 1617 points on a trefoil knot in p = 3, MVU with k = 4: an
annulus, two dominant eigenvalues, neighbourhoods preserved (job ``trefoil/mvu``).
Fig. 3.15 (3.1.7): a comb of n = 300 points, MVU with k = 3 (six dimensions of
non-zero variance in the thesis) and Isomap with k = 5 (eight); with k large enough to
span neighbourhoods across strings the output equals the input. One comb per tooth
count T of the profile (the thesis prints none): jobs ``comb/mvu/t<T>``,
``comb/isomap/t<T>`` and ``comb/large<O>/t<T>`` (MVU with k = k_cross + O).

The declaration (keys, params, checks). The profile section's schema is
``schema.yaml``; a job runs :mod:`.work`; :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows and the choices where the thesis is
ambiguous.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import check_mvu_solver, dataset_choice, mvu_point_params

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "COMB", "TREFOIL",
           "check", "keys", "params", "comb_keys"]

NAME = "fig_3_8_15"
TITLE = ("Figs. 3.8 and 3.15: MVU of a trefoil knot; MVU and Isomap increase the "
         "dimensionality of a comb (thesis 3.1.5, 3.1.7)")
THESIS_SECTION = "3.1.5, 3.1.7"
KIND = "figure"
SIDECAR = True
COMB, TREFOIL = "comb", "trefoil"


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """The solver's name; the tooth counts fit n (one point per tooth at least)."""
    conf = _conf(config)
    check_mvu_solver(conf["solver"], f"results.{NAME}")
    params = conf["comb_dataset_params"]
    n, gap = params.get("n_samples", 300), params.get("tooth_gap", 6)
    for t in conf["teeth"]:
        if n - ((t - 1) * gap + 1) < t:
            raise ConfigError(f"results.{NAME}.teeth: T = {t} with tooth_gap {gap} leaves "
                              f"fewer than one point per tooth of n = {n}")


def comb_keys(config: dict) -> list[str]:
    """The comb's jobs: ``comb/mvu/t<T>``, ``comb/isomap/t<T>``, ``comb/large<O>/t<T>``."""
    conf = _conf(config)
    kinds = ["mvu", "isomap"] + [f"large{o}" for o in conf["large_k_offsets"]]
    return [f"{COMB}/{kind}/t{t}" for t in conf["teeth"] for kind in kinds]


def keys(config: dict) -> list[str]:
    """``trefoil/mvu`` and the comb's jobs (:func:`comb_keys`)."""
    return [f"{TREFOIL}/mvu", *comb_keys(config)]


def _comb_params(config: dict, conf: dict, key: str, kind: str, teeth: int) -> dict:
    choice = dataset_choice(config, COMB, None, {**conf["comb_dataset_params"],
                                                 "n_teeth": teeth})
    common = {"n_teeth": teeth, "count_threshold": conf["count_threshold"]}
    if kind == "isomap":
        return {"figure": NAME, "point": f"{NAME}/{key}", **choice, "job": "isomap",
                "seed": config["seed"], "blas_threads": config["blas_threads"],
                "time_limit_seconds": float(conf["time_limit_seconds"]),
                "n_neighbors": conf["isomap_neighbors"], **common}
    offset = int(kind.removeprefix("large")) if kind != "mvu" else None
    point = mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                             variant="equality", n_neighbors=conf["mvu_neighbors"],
                             n_components=conf["comb_components"], job="mvu",
                             k_offset=offset, **common)
    if offset is not None:  # k = k_cross + offset, k_cross found in the child
        point["method_params"]["n_neighbors"] = None
    return point


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (see :func:`keys`)."""
    conf = _conf(config)
    if key == f"{TREFOIL}/mvu":
        choice = dataset_choice(config, TREFOIL, conf["trefoil_n_samples"],
                                conf["trefoil_dataset_params"])
        return mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                                variant="equality", n_neighbors=conf["trefoil_neighbors"],
                                n_components=2, job="mvu", k_offset=None,
                                count_threshold=conf["count_threshold"])
    parts = key.split("/")
    kinds = {"mvu", "isomap", *(f"large{o}" for o in conf["large_k_offsets"])}
    if (len(parts) != 3 or parts[0] != COMB or parts[1] not in kinds
            or not parts[2].startswith("t") or not parts[2][1:].isdigit()):
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/{TREFOIL}/mvu or "
                          f"{NAME}/{COMB}/KIND/t<T> with KIND one of {', '.join(sorted(kinds))}")
    return _comb_params(config, conf, key, parts[1], int(parts[2][1:]))
