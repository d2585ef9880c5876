"""Fig. 2.15 (thesis 2.1.9, "Ball Trees Reviewed"): the thesis' ball tree on n = 1000
points from two Gaussians ("the entire data set is split into 155 balls with each
containing no more than 10 inputs"), its mean split against the median split, its
pruning against scikit-learn's BallTree and brute force, and k-NN query time against
n and d.

Three jobs: ``gaussians`` (the figure's data, every draw and split seed), ``mnist``
(MNIST after PCA to r dimensions: mean against median split, pruning against r) and
``scaling`` (query CPU time of a ball tree and of brute force against n and d). The
declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work` (the tree
itself is :mod:`.balltree`), :mod:`.write` writes the outputs and the verdicts
(:mod:`.register_claims`); ``README.md`` says the choices where the thesis is
ambiguous.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import dataset_choice

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "EXCLUSIVE", "KEYS",
           "check", "keys", "params"]

NAME = "fig_2_15"
TITLE = ("Fig. 2.15: the thesis' ball tree on two Gaussians (n = 1000, at most 10 inputs "
         "per ball), mean against median split, pruning and query time (thesis 2.1.9)")
THESIS_SECTION = "2.1.9"
KIND = "figure"
SIDECAR = True
#: its jobs time builds and queries: the workflow runs each with every core reserved
EXCLUSIVE = True
KEYS = ("gaussians", "mnist", "scaling")
_MNIST = "mnist"


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Sizes that fit MNIST, two or more of each grid, the build dimensions among the
    dimensions."""
    conf = _conf(config)
    if max(conf["mnist_depth_sizes"]) > conf["mnist_n_train"]:
        raise ConfigError(f"results.{NAME}.mnist_depth_sizes = {conf['mnist_depth_sizes']}: "
                          f"every size must be at most mnist_n_train = {conf['mnist_n_train']}")
    if max(conf["scaling_sizes"]) > 60000:
        raise ConfigError(f"results.{NAME}.scaling_sizes: MNIST has 60000 training digits")
    if not set(conf["build_dimensions"]) <= set(conf["dimensions"]):
        raise ConfigError(f"results.{NAME}.build_dimensions must be among dimensions")
    for field in ("scaling_sizes", "brute_dimensions", "dimensions"):
        if len(set(conf[field])) < 2:
            raise ConfigError(f"results.{NAME}.{field} = {conf[field]}: give two or more "
                              f"distinct values (a trend needs them)")
    if conf["n_samples"] <= conf["leaf_size"]:
        raise ConfigError(f"results.{NAME}.n_samples must exceed leaf_size")


def keys(config: dict) -> list[str]:
    """The three jobs, ``gaussians``, ``mnist`` and ``scaling``."""
    return list(KEYS)


def params(config: dict, key: str) -> dict:
    """The resolved parameters of one job (each job gets only the fields it uses)."""
    if key not in KEYS:
        raise ConfigError(f"job {NAME}/{key}: must be one of {', '.join(NAME + '/' + k for k in KEYS)}")
    conf = _conf(config)
    common = {"figure": NAME, "point": f"{NAME}/{key}", "part": key, "seed": config["seed"],
              "blas_threads": config["blas_threads"], "leaf_size": conf["leaf_size"],
              "n_neighbors": conf["n_neighbors"], "n_split_seeds": conf["n_split_seeds"],
              "repeats": conf["repeats"], "query_repeats": conf["query_repeats"],
              "min_seconds": conf["min_seconds"],
              "time_limit_seconds": float(conf["time_limit_seconds"])}
    if key == "gaussians":
        fields = ("n_samples", "n_draws", "gaussian_means", "gaussian_stds", "n_queries",
                  "sklearn_leaf_size", "gaussian_depth_sizes")
        return {**common, **{f: conf[f] for f in fields}}
    n_train = conf["mnist_n_train"] if key == "mnist" else max(conf["scaling_sizes"])
    mnist = dataset_choice(config, _MNIST, None, {"n_components": None, "n_train": n_train,
                                                  "n_test": conf["n_queries_mnist"]})
    if key == "mnist":
        fields = ("dimensions", "build_dimensions", "mnist_depth_sizes", "depth_dimension")
    else:
        fields = ("scaling_sizes", "scaling_dimension", "brute_dimensions",
                  "sklearn_leaf_size")
    return {**common, **mnist, "n_queries": conf["n_queries_mnist"],
            **{f: conf[f] for f in fields}}
