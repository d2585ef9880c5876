"""One certified MVU solve per (backend, n, variant): the points of the solver table.

The problem (thesis 3.1.4-3.1.6, with the data of Fig. 3.5): ``n`` points of the Swiss
roll (:class:`datasets.swiss_roll.SwissRoll`, seeded with the profile's ``seed``)
with ``extra_noise_dims`` appended coordinates of N(0, ``extra_noise_std``^2) noise,
the clique graph of its ``k`` nearest neighbours (3.1.4), and the MVU SDP ``variant``
(:class:`harness.problems.mvu.MVUProblem`). The profile's ``solver_table:`` section
(``config/schema.yaml``) lists the points.

One point runs as follows (:func:`run_point`; ``harness solve-point``, one Snakemake
job each):

1. The parent builds the problem. A dense cvxpy backend beyond its size cap
   (``MVU.skip``: ``methods.mvu.DENSE_SOLVER_MAX_N``) is a ``skipped`` record at once.
2. A child process (:func:`harness.timelimit.call_with_time_limit`) rebuilds the
   problem and solves it with :func:`harness.solvers.mvu.dispatch.solve_mvu`, with
   ``blas_threads`` BLAS threads (threadpoolctl) and the budget
   ``time_limit_seconds``; the child is killed at ``time_limit_seconds +
   grace_seconds``, so a solver that stops at its own limit can still hand back its
   best iterate. The child reports its wall and CPU time and its peak memory (the
   solve's own: a cvxpy solve requested inside the child runs in it).
3. The parent *recomputes* the certificate from the returned factor F and edge
   multipliers w (:func:`harness.problems.mvu_certificate.certify`) and judges the
   solve from it alone (:func:`harness.solvers.mvu.result.judge`): ``optimal`` when the
   certified relative gap is at most ``tol_gap`` and the relative violation at most
   ``tol_violation``, else ``inaccurate``; a solver that stopped at its time limit
   short of that is a ``timeout`` with its best certified numbers. What the solver
   said about itself is kept under ``solver_reported``, never used.

Expected failures become records (``status`` of :data:`harness.records.STATUSES`,
``verdict`` of :data:`harness.solvers.mvu.result.STATUSES`, and a ``reason``): solver
errors and infeasibility reports (``failed``), unusable backends such as MOSEK
without a licence and the dense size cap (``skipped``), the hard kill (``timeout``)
and a solver process that died, e.g. killed for memory (``failed``). Any other
exception is a harness bug: the job fails and writes nothing.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits

from harness import registry
from harness.config import ConfigError, _check_names, params_hash
from harness.problems.mvu import VARIANTS, MVUProblem
from harness.problems.mvu_certificate import certify
from harness.provenance import blas_info, provenance
from harness.records import write_json_atomic
from harness.runner import usage_since
from harness.solvers.mvu import MVU_SOLVERS, judge, solve_mvu
from harness.sources import source_closure
from harness.timelimit import ChildCrashed, TimeLimitExceeded, call_with_time_limit

__all__ = [
    "SolverPoint", "PointCrashed", "check_solver_table", "solver_points", "point_params",
    "point_path", "point_sources", "build_problem", "solve_point", "run_point",
    "RECORD_STATUS",
]

DATASET = "swiss_roll"
# the solver's verdict -> the record status shared with the cells
RECORD_STATUS = {"optimal": "ok", "inaccurate": "ok", "timeout": "timeout",
                 "skipped": "skipped", "failed": "failed", "infeasible": "failed"}
# the module holding each backend's solver; cvxpy backends share one
BACKEND_MODULES = {"native": "harness.solvers.mvu.native",
                   "native_lowrank": "harness.solvers.mvu.native"}
CVXPY_MODULE = "harness.solvers.mvu.cvxpy"


class PointCrashed(RuntimeError):
    """The solve failed with an unexpected exception (a harness or solver-code bug)."""


@dataclasses.dataclass(frozen=True)
class SolverPoint:
    """One solve of the solver table: ``backend`` on ``n`` points, SDP ``variant``."""

    backend: str
    n: int
    variant: str = "equality"

    @property
    def id(self) -> str:
        """``VARIANT/BACKEND/nN``, also the record's path below ``points/``."""
        return f"{self.variant}/{self.backend}/n{self.n}"

    def __str__(self) -> str:
        return self.id


def _check_n(values, k: int, where: str) -> None:
    small = [n for n in values if n <= k]
    if small:
        raise ConfigError(
            f"{where}: n = {small[0]} is too small for k = {k}: the clique graph joins "
            f"each point to its k nearest neighbours, so n must exceed k")


def check_solver_table(section: dict) -> None:
    """Check the ``solver_table:`` section beyond the schema (called by
    :func:`harness.profile_validation.validate_config`): backend and variant names, the keys of
    ``n_per_backend``, and every n against k.

    Raises
    ------
    ConfigError
        Naming the entry and the offending value (with the valid names).
    """
    _check_names("backend", section["backends"], MVU_SOLVERS, "solver_table.backends")
    _check_names("variant", section["variants"], VARIANTS, "solver_table.variants")
    stray = [b for b in section["n_per_backend"] if b not in section["backends"]]
    if stray:
        raise ConfigError(
            f"solver_table.n_per_backend: backend {stray[0]!r} is not in "
            f"solver_table.backends ({', '.join(section['backends'])})")
    _check_n(section["n"], section["k"], "solver_table.n")
    for backend, sizes in section["n_per_backend"].items():
        _check_n(sizes, section["k"], f"solver_table.n_per_backend.{backend}")


def _section(config: dict) -> dict:
    if "solver_table" not in config:
        raise ConfigError(f"profile {config.get('profile')!r} has no solver_table section "
                          f"(see config/schema.yaml)")
    return config["solver_table"]


def solver_points(config: dict) -> list[SolverPoint]:
    """Every point of a validated profile: variants x backends x their n (sorted)."""
    section = _section(config)
    return [SolverPoint(backend, n, variant)
            for variant in section["variants"]
            for backend in section["backends"]
            for n in sorted(section["n_per_backend"].get(backend, section["n"]))]


def point_params(config: dict, point: SolverPoint) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one point (the Snakemake rerun
    trigger). Any valid point may be run, listed in the profile or not.

    Raises
    ------
    ConfigError
        Unknown backend or variant, or ``n`` not above ``k``.
    """
    section = _section(config)
    _check_names("backend", [point.backend], MVU_SOLVERS, f"solver point {point.id}")
    _check_names("variant", [point.variant], VARIANTS, f"solver point {point.id}")
    _check_n([point.n], section["k"], f"solver point {point.id}")
    return {
        "backend": point.backend, "n": int(point.n), "variant": point.variant,
        "k": section["k"], "extra_noise_dims": section["extra_noise_dims"],
        "extra_noise_std": section["extra_noise_std"], "seed": config["seed"],
        "time_limit_seconds": section["time_limit_seconds"],
        "grace_seconds": section["grace_seconds"], "tol_gap": section["tol_gap"],
        "tol_violation": section["tol_violation"], "blas_threads": config["blas_threads"],
    }


def point_path(config: dict, point: SolverPoint) -> Path:
    """``<results_dir>/<profile>/solver_table/points/<variant>/<backend>/n<n>.json``."""
    return (Path(config["results_dir"]) / config["profile"] / "solver_table" / "points"
            / f"{point.id}.json")


def point_sources(backend: str) -> list[str]:
    """The source files whose edit reruns a backend's points (:mod:`harness.sources`):
    this module (the point's work), the backend's solver module, the data set plugin
    and every project module they import (so that a faster native solver shows in
    the table at the next ``snakemake``)."""
    solver = importlib.import_module(BACKEND_MODULES.get(backend, CVXPY_MODULE))
    return source_closure(__name__, solver, registry.get_dataset(DATASET))


def build_problem(params: dict):
    """The data set and the MVU problem of one point.

    Returns
    -------
    dataset : harness.plugin.Dataset
    problem : harness.problems.mvu.MVUProblem
    """
    dataset = registry.get_dataset(DATASET)().load(
        n_samples=params["n"], extra_noise_dims=params["extra_noise_dims"],
        extra_noise_std=params["extra_noise_std"], seed=params["seed"])
    return dataset, MVUProblem.from_points(dataset.X, params["k"], variant=params["variant"])


def _solve_in_child(params: dict) -> dict:
    """The child's work: rebuild the problem, solve it, measure the process."""
    wall, cpu = time.perf_counter(), time.process_time()
    with threadpool_limits(limits=params["blas_threads"]):
        _, problem = build_problem(params)
        result = solve_mvu(problem, params["backend"],
                           time_limit=float(params["time_limit_seconds"]),
                           tol_gap=params["tol_gap"], tol_violation=params["tol_violation"],
                           seed=params["seed"])
        blas = blas_info()
    return {"result": result, "blas_during_run": blas, "usage": usage_since(wall, cpu)}


def _judged(problem: MVUProblem, out: dict, params: dict) -> dict:
    """The record body of a solve that came back: the certificate recomputed here."""
    result, usage = out["result"], out["usage"]
    body = {
        "verdict": result.status, "reason": result.reason,
        "solver_status": result.solver_status, "solver_reported": result.info(),
        "certificate": None, "rank": None, "blas_during_run": out["blas_during_run"],
        "timing": {"wall_seconds": result.wall_seconds,
                   "compile_seconds": result.compile_seconds,
                   "solve_seconds": result.solve_seconds,
                   "process_wall_seconds": usage["wall_seconds"],
                   "cpu_seconds": usage["cpu_seconds"],
                   "peak_memory_mb": usage["peak_memory_mb"]},
    }
    if result.F is None:
        return body
    start = time.perf_counter()
    with threadpool_limits(limits=params["blas_threads"]):
        cert = certify(problem, result.F, result.w, w_low=result.w_low)
    body["timing"]["certify_seconds"] = time.perf_counter() - start
    verdict, reason = judge(cert, params["tol_gap"], params["tol_violation"])
    if result.status == "timeout" and verdict != "optimal":
        verdict, reason = "timeout", (f"stopped at its time limit of "
                                      f"{params['time_limit_seconds']:g} s; best iterate: {reason}")
    body.update(verdict=verdict, reason=reason, certificate=cert.as_dict(),
                rank=int(result.F.shape[1]))
    return body


def _solve(point: SolverPoint, params: dict, dataset, problem: MVUProblem) -> dict:
    skip, why = registry.get_method("mvu").skip(dataset, point.backend)
    if skip:
        return {"verdict": "skipped", "reason": why}
    hard = float(params["time_limit_seconds"]) + float(params["grace_seconds"])
    try:
        out = call_with_time_limit(_solve_in_child, params, limit=hard)
    except TimeLimitExceeded as exc:
        return {"verdict": "timeout", "timing": {"wall_seconds": exc.elapsed},
                "reason": (f"killed at the hard limit of {hard:g} s (time_limit_seconds "
                           f"{params['time_limit_seconds']:g} + grace_seconds "
                           f"{params['grace_seconds']:g}); the solver did not stop at "
                           f"its own limit, so no iterate was certified")}
    except ChildCrashed as exc:
        if exc.exitcode is None:
            raise PointCrashed(f"solver point {point.id} crashed:\n{exc}") from None
        return {"verdict": "failed",
                "reason": (f"the solver process died (exit code {exc.exitcode}; -9 is "
                           f"usually the out-of-memory killer)")}
    return _judged(problem, out, params)


def run_point(config: dict, point: SolverPoint) -> Path:
    """Solve one point of a validated profile and write its record; return its path.

    Raises
    ------
    ConfigError
        Unknown backend or variant, ``n`` too small for ``k``, no ``solver_table``.
    PointCrashed
        An unexpected exception in the solve; no record is written.
    """
    return write_json_atomic(point_path(config, point), solve_point(config, point))


def solve_point(config: dict, point: SolverPoint) -> dict:
    """Solve one point and return its record, without writing it (see
    :func:`run_point`; the asv suite caches these)."""
    params = point_params(config, point)
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, problem = build_problem(params)
    body = _solve(point, params, dataset, problem)
    record = {
        "point": point.id, "backend": point.backend, "n": point.n, "variant": point.variant,
        "profile": config["profile"], "params": params, "params_hash": params_hash(params),
        "problem": {"n": problem.n, "m": problem.m, "k": params["k"],
                    "n_features": int(dataset.X.shape[1]), "dataset": DATASET,
                    "dataset_meta": dataset.meta},
        "status": RECORD_STATUS[body["verdict"]], "reason": "", "certificate": None,
        "provenance": provenance(), **body,
    }
    return record
