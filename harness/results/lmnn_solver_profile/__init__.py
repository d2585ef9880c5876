"""How the thesis' LMNN solver works and scales (thesis 2.1.7 "Solver", 2.1.9, 2.1.1,
2.1.2, 2.2.3): the incremental gradient (2.15), the active set and its final check,
the step-size rule, the cost of the full check and of the hinge-loss search, and the
training time against the number of classes.

Jobs: ``trace_<dataset>`` (the reference solver, Algorithm 3, watched at every
iterate on a small Table 2.1 data set), ``scaling`` (CPU times of the full check, the
impostor search and the outer products against n, k and d on MNIST subsamples) and
``classes`` (LMNN and multi-class SVM fit times on class subsets at fixed n).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "keys", "params"]

NAME = "lmnn_solver_profile"
TITLE = "LMNN solver profile: incremental gradient, active set, scaling (thesis 2.1.7, 2.1.9)"
THESIS_SECTION = "2.1.7"
KIND = "figure"
SIDECAR = True

_TRACE_KEYS = ("max_iter", "tol", "refresh", "n_neighbors", "mu", "timing_repeats",
               "first_steps", "step_max_iter", "n_random_metrics", "n_scaled_identities")
_SCALING_KEYS = ("dataset", "n_grid", "k_grid", "d_grid", "n_fixed", "k_fixed",
                 "outer_d_grid", "outer_count", "profile_n", "n_neighbors", "mu",
                 "timing_repeats")
_CLASSES_KEYS = ("dataset", "n_fixed", "class_grid", "n_neighbors", "mu",
                 "timing_repeats")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def keys(config: dict) -> list[str]:
    """``trace_<dataset>`` per small data set, then ``scaling`` and ``classes``."""
    return [f"trace_{d}" for d in _conf(config)["trace"]["datasets"]] + ["scaling", "classes"]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job."""
    conf = _conf(config)
    base = {"figure": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"])}
    if key.startswith("trace_") and key[6:] in conf["trace"]["datasets"]:
        return {**base, "job": "trace", "dataset": key[6:],
                **{k: conf["trace"][k] for k in _TRACE_KEYS}}
    if key == "scaling":
        return {**base, "job": "scaling", **{k: conf["scaling"][k] for k in _SCALING_KEYS}}
    if key == "classes":
        return {**base, "job": "classes", **{k: conf["classes"][k] for k in _CLASSES_KEYS}}
    raise ConfigError(f"job {NAME}/{key}: must be one of {', '.join(keys(config))}")
