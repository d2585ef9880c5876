"""Section 3.1.10 (thesis lines 1867-1887): the out-of-sample SDP (3.31)-(3.33) for one
new point -- how tight ``s >= |y_t|^2`` is at its optimum, whether its solution is
unique for k >= 2r + 1, and how its cost grows with k. One job: MVU on a training roll,
then the test points' SDPs.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "EXCLUSIVE", "keys", "params"]

NAME = "oos_sdp_3_1_10"
TITLE = ("Section 3.1.10: the out-of-sample SDP -- the gap s - |y_t|^2, uniqueness for "
         "k >= 2r + 1, the cost against k (thesis 3.1.10)")
THESIS_SECTION = "3.1.10"
KIND = "table"
SIDECAR = True
#: its per-point times decide a scaling claim: run alone on the machine
EXCLUSIVE = True
KEY = "points"


def keys(config: dict) -> list[str]:
    """The one job."""
    return [KEY]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``oos_sdp_3_1_10/points``."""
    if key != KEY:
        raise ConfigError(f"job {NAME}/{key}: the only job is {NAME}/{KEY}")
    conf = dict(config["results"][NAME])
    return {"result": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
            "blas_threads": config["blas_threads"], "dataset": "swiss_roll",
            "time_limit_seconds": float(conf.pop("time_limit_seconds")), **conf}
