"""The MVU solver comparison (thesis 3.1.4-3.1.6): certified solves per backend and n.

The declaration: one job per (variant, backend, n) (:mod:`.points`); the profile
section's schema is ``schema.yaml``; a job runs :mod:`.work` (the solve and, in the
parent, the recomputed certificate); :mod:`.frame` gathers the records,
:mod:`.write` writes the table and :mod:`.section` its report section;
``README.md`` says what it shows.
"""

from __future__ import annotations

from harness.results.solver_table.points import (
    TABLE, TITLE, check_solver_table, parse_key, point_params, solver_points,
)

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "MEMORY_MB", "check",
           "keys", "params", "finish"]

NAME = TABLE
THESIS_SECTION = "3.1.4-3.1.6"
KIND = "table"
SIDECAR = True
MEMORY_MB = 8000


def check(config: dict) -> None:
    """Backend and variant names, ``n_per_backend``'s keys and every n against k."""
    check_solver_table(config["results"][NAME])


def keys(config: dict) -> list[str]:
    """``VARIANT/BACKEND/nN`` for variants x backends x their n (sorted)."""
    return [point.key for point in solver_points(config)]


def params(config: dict, key: str) -> dict:
    """The resolved parameters of one solve (any valid point, listed or not)."""
    return point_params(config, parse_key(key))


def finish(params: dict, body: dict) -> dict:
    """The record body, in the parent: the certificate recomputed from what the solver
    returned (:func:`harness.results.solver_table.work.finish`; imported here, so
    that no other result's parent imports the solver code)."""
    from harness.results.solver_table.work import finish as certify

    return certify(params, body)
