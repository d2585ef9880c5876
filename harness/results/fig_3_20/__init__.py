"""Fig. 3.20 (thesis 3.1.8): localising n = 20000 simulated sensors by variational MVU.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs the module named in ``WORK``; :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows, the choices where the thesis is
ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import check_sensor_dataset, sensor_inputs, sensor_params

__all__ = ["WORK", "NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "MEMORY_MB",
           "KEYS", "check", "keys", "params", "inputs"]

#: the job code: a shared work module (its import closure is each job's sources)
WORK = "harness.results.common.work.sensor_point"


NAME = "fig_3_20"
TITLE = "Fig. 3.20: localising n = 20000 sensors by variational MVU (thesis 3.1.8)"
THESIS_SECTION = "3.1.8"
KIND = "figure"
SIDECAR = True
MEMORY_MB = 2000
KEYS = ("variational", "random")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """The data set must be a sensor network plugin; m below n - 1."""
    conf = _conf(config)
    check_sensor_dataset(conf["dataset"], f"results.{NAME}.dataset")
    if conf["n_basis"] > conf["n_samples"] - 2:
        raise ConfigError(f"results.{NAME}.n_basis = {conf['n_basis']} must be at most "
                          f"n_samples - 2 = {conf['n_samples'] - 2}")


def keys(config: dict) -> list[str]:
    """``variational`` (SDP + CG) and ``random`` (the baseline)."""
    return list(KEYS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one of the two jobs."""
    if key not in KEYS:
        raise ConfigError(f"job {NAME}/{key}: the keys are {', '.join(KEYS)}")
    conf = _conf(config)
    method = {"n_basis": conf["n_basis"], "omega": conf["omega"],
              "cg_omega": conf["cg_omega"], "cg_maxiter": conf["cg_maxiter"],
              "cg_in_basis": conf["cg_in_basis"], "cg_method": conf["cg_method"],
              "precondition": conf["cg_method"] == "pcg", "sdp_solver": conf["sdp_solver"],
              "init": "sdp" if key == "variational" else "random", "seed": config["seed"]}
    return sensor_params(config, conf, figure=NAME, key=key, method_params=method,
                         keep_positions=True)


inputs = sensor_inputs  # the thesis' quoted numbers the figure prints
