"""The MVU solver comparison (thesis 3.1.4-3.1.6): certified solves per backend and n.

One job per (variant, backend, n) solves the Swiss roll problem of Fig. 3.5 and
recomputes its certificate (:mod:`harness.results.common.mvu_solve_point`); the table
(:mod:`harness.results.common.solver_frame`) shows, per variant, wall time, certified gap,
violation and verdict per backend x n, objective and bound, and the time relative to
the native solver.
"""

from __future__ import annotations

import yaml

from harness.results.common.mvu_solve_point import (
    check_solver_table, finish, parse_key, point_params, point_sources, solver_points, work,
)
from harness.results.common.solver_frame import TABLE, TITLE, write_solver_table
from harness.results._solver_section import solver_section

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "MEMORY_MB", "check", "keys",
           "params", "work", "finish", "sources", "write", "section"]

NAME = TABLE
THESIS_SECTION = "3.1.4-3.1.6"
KIND = "table"
SIDECAR = True
MEMORY_MB = 8000
SCHEMA = yaml.safe_load("""
    type: object
    additionalProperties: false
    required: [backends, n]
    description: >-
      The MVU solver comparison (thesis 3.1.4-3.1.6): one certified solve per
      (backend, n, variant) on a Swiss roll with extra noise dimensions (Fig. 3.5),
      aggregated into results/<profile>/tables/solver_table.{csv,md,tex}. Backend
      and variant names are checked against harness.solvers.mvu.MVU_SOLVERS and
      harness.problems.mvu.VARIANTS; every n must exceed k.
    properties:
      backends:
        type: array
        items: {type: string}
        minItems: 1
        uniqueItems: true
        description: >-
          MVU solver backends, one table row each (native, clarabel, scs, ..., csdp:
          the thesis' CSDP, skipped cells where apt-get install coinor-csdp was not run)
      n:
        type: array
        items: {type: integer, minimum: 2}
        minItems: 1
        uniqueItems: true
        description: numbers of points solved by every backend not in n_per_backend
      n_per_backend:
        type: object
        additionalProperties:
          type: array
          items: {type: integer, minimum: 2}
          minItems: 1
          uniqueItems: true
        default: {}
        description: >-
          backend -> its own list of n, replacing n (e.g. larger n for the native
          solver); dense cvxpy backends beyond methods.mvu.DENSE_SOLVER_MAX_N give
          skipped cells
      variants:
        type: array
        items: {type: string}
        minItems: 1
        uniqueItems: true
        default: [equality]
        description: MVU SDP variants (equality 3.1.4; inequality, slack 3.1.6; min_trace 3.1.11)
      k:
        type: integer
        minimum: 1
        default: 5
        description: nearest neighbours of the clique graph (3.1.4); the thesis uses 5
      extra_noise_dims:
        type: integer
        minimum: 0
        default: 5
        description: Gaussian noise coordinates appended to the Swiss roll (Fig. 3.5 uses 5)
      extra_noise_std:
        type: number
        minimum: 0
        default: 0.1
        description: standard deviation of the extra noise coordinates
      time_limit_seconds:
        type: number
        exclusiveMinimum: 0
        default: 600
        description: >-
          CPU seconds of one solve, the solver's own limit (on the process' CPU
          clock, harness.timelimit.Deadline: a verdict that does not depend on the
          machine's load)
      grace_seconds:
        type: number
        minimum: 0
        default: 60
        description: >-
          extra CPU seconds before the kill of the solve's process (its CPU budget
          is time_limit_seconds + grace_seconds), so that a solver that stops at its
          own limit can return its best certified iterate
      tol_gap:
        type: number
        exclusiveMinimum: 0
        default: 1.0e-3
        description: certified relative gap at or below which a solve is optimal
      tol_violation:
        type: number
        exclusiveMinimum: 0
        default: 1.0e-4
        description: relative constraint violation at or below which a solve is optimal
""")


def check(config: dict) -> None:
    """Backend and variant names, ``n_per_backend``'s keys and every n against k."""
    check_solver_table(config["results"][NAME])


def keys(config: dict) -> list[str]:
    """``VARIANT/BACKEND/nN`` for variants x backends x their n (sorted)."""
    return [point.key for point in solver_points(config)]


def params(config: dict, key: str) -> dict:
    """The resolved parameters of one solve (any valid point, listed or not)."""
    return point_params(config, parse_key(key))


def sources(params: dict) -> list:
    """The backend's solver module and the data set plugin."""
    return point_sources(params)


def write(config: dict) -> list:
    """``tables/solver_table.{csv,md,tex}`` from the solve records."""
    return write_solver_table(config)


def section(config: dict):
    """The report's section: the grids, coloured by verdict."""
    return solver_section(config)
