"""Fig. 2.17 (thesis 2.1.8 "LMNN for Dimensionality Reduction", 2.1.9 "Ball Trees with LMNN
preprocessing"): "The impact of dimensionality reduction on the 3-nn classification
error (MNIST data set). We compare PCA and LMNN with a rectangular matrix (rec) and with
a square matrix (sq)."

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness import registry
from harness.errors import ConfigError
from harness.results.common.declare.profile import parse_int_key, thesis_claims_input

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "DATASET", "check",
           "keys", "params", "inputs", "SPEEDUPS_FROM", "reads"]

NAME = "fig_2_17"
TITLE = ("Fig. 2.17: 3-NN test error on MNIST after dimensionality reduction by PCA, "
         "LMNN (rec) and LMNN (sq) (thesis 2.1.8, 2.1.9)")
THESIS_SECTION = "2.1.8, 2.1.9"
KIND = "figure"
SIDECAR = True
DATASET = "mnist"


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Checks beyond the schema: r at most ``input_components``; ``lmnn_params``
    names LMNN arguments other than the two the figure sets; k below ``n_train``."""
    conf = _conf(config)
    where = f"results.{NAME}"
    d = conf["input_components"]
    if max(conf["dimensions"]) > d:
        raise ConfigError(f"{where}.dimensions: r = {max(conf['dimensions'])} exceeds "
                          f"input_components = {d}; lower r or raise input_components")
    conf["dimensions"] = sorted(conf["dimensions"])
    allowed = set(registry.method_info("lmnn").init_params) - {"n_neighbors", "n_components"}
    bad = sorted(set(conf["lmnn_params"]) - allowed)
    if bad:
        raise ConfigError(f"{where}.lmnn_params: {bad[0]!r} is not an LMNN argument the "
                          f"figure lets you set; valid: {', '.join(sorted(allowed))}")
    if conf["n_train"] is not None and conf["n_neighbors"] >= conf["n_train"]:
        raise ConfigError(f"{where}.n_neighbors = {conf['n_neighbors']} must be below "
                          f"n_train = {conf['n_train']}")


def keys(config: dict) -> list[str]:
    """``baseline``, then ``pca/rR`` and ``lmnn_rec/rR`` per r, and ``lmnn_sq``."""
    conf = _conf(config)
    out = ["baseline"]
    for method in conf["methods"]:
        if method == "lmnn_sq":
            out.append(method)
        else:
            out += [f"{method}/r{r}" for r in conf["dimensions"]]
    return out


def _parse(key: str) -> tuple[str, int | None]:
    method, _, rest = key.partition("/")
    if method in ("baseline", "lmnn_sq") and not rest:
        return method, None
    if method in ("pca", "lmnn_rec") and rest:
        return method, parse_int_key(NAME, rest, "r", 15)
    raise ConfigError(f"job {NAME}/{key}: must be {NAME}/baseline, {NAME}/lmnn_sq or "
                      f"{NAME}/METHOD/rR with METHOD one of pca, lmnn_rec "
                      f"(e.g. {NAME}/lmnn_rec/r15)")


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (its data: deskewed MNIST, PCA to
    ``input_components`` dimensions, the first ``n_train`` / ``n_test`` images)."""
    method, r = _parse(key)
    conf = _conf(config)
    if r is not None and r > conf["input_components"]:
        raise ConfigError(f"job {NAME}/{key}: r = {r} exceeds input_components = "
                          f"{conf['input_components']}")
    dataset_params = {**registry.get_dataset(DATASET).params,
                      **config["datasets"].get(DATASET, {}),
                      "deskew": True, "n_components": conf["input_components"],
                      "n_train": conf["n_train"], "n_test": conf["n_test"]}
    out = {"figure": NAME, "point": f"{NAME}/{key}", "dataset": DATASET,
           "dataset_params": dataset_params, "method": method,
           "n_neighbors": conf["n_neighbors"], "seed": config["seed"],
           "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"])}
    if method in ("lmnn_rec", "lmnn_sq"):
        out["lmnn_params"] = dict(conf["lmnn_params"])
    if method == "lmnn_sq":
        out["dimensions"] = list(conf["dimensions"])
    elif r is not None:
        out["n_components"] = r
    return out


def inputs(config: dict) -> list[str]:
    """The thesis' quoted numbers (``thesis_claims.csv``): an edit rewrites the figure."""
    return thesis_claims_input(config)


#: The result whose records give the ball-tree speed-ups printed on top of the figure
SPEEDUPS_FROM = "fig_2_13"


def reads(config: dict) -> list[str]:
    """Fig. 2.13, when the profile runs it: its new records rewrite this figure's labels."""
    return [SPEEDUPS_FROM] if SPEEDUPS_FROM in config["results"] else []
