"""Fig. 3.21 (thesis 3.1.8): loss (3.26) after variational MVU and SDP time against m.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs the module named in ``WORK``; :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows, the choices where the thesis is
ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    check_sensor_dataset, parse_int_key, sensor_inputs, sensor_params,
)

__all__ = ["WORK", "NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "check",
           "keys", "params", "inputs"]

#: the job code: a shared work module (its import closure is each job's sources)
WORK = "harness.results.common.work.sensor_point"


NAME = "fig_3_21"
TITLE = ("Fig. 3.21: loss (3.26) after variational MVU and SDP time against m "
         "(thesis 3.1.8)")
THESIS_SECTION = "3.1.8"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """A sensor network data set; every m at most n - 2."""
    conf = _conf(config)
    check_sensor_dataset(conf["dataset"], f"results.{NAME}.dataset")
    too_big = [m for m in conf["m"] if m > conf["n_samples"] - 2]
    if too_big:
        raise ConfigError(f"results.{NAME}.m: m = {too_big[0]} exceeds n_samples - 2 = "
                          f"{conf['n_samples'] - 2}")


def keys(config: dict) -> list[str]:
    """``m<m>`` for every m, in increasing order."""
    return [f"m{m}" for m in sorted(_conf(config)["m"])]


def _parse_m(key: str) -> int:
    return parse_int_key(NAME, key, "m", 10)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``m<m>``: the SDP alone, timed ``repeats`` times."""
    m = _parse_m(key)
    conf = _conf(config)
    method = {"n_basis": m, "omega": conf["omega"], "refine": False,
              "precondition": False, "sdp_solver": conf["sdp_solver"], "seed": config["seed"]}
    return sensor_params(config, conf, figure=NAME, key=key, method_params=method,
                         repeats=conf["repeats"])


inputs = sensor_inputs  # the thesis' quoted numbers the figure prints
