"""One certified MVU solve per (backend, n, variant): the jobs of the solver table.

The problem (thesis 3.1.4-3.1.6, with the data of Fig. 3.5): ``n`` points of the Swiss
roll (:class:`harness.datasets.swiss_roll.SwissRoll`, seeded with the profile's ``seed``)
with ``extra_noise_dims`` appended coordinates of N(0, ``extra_noise_std``^2) noise,
the clique graph of its ``n_neighbors`` nearest neighbours (3.1.4), and the MVU SDP ``variant``
(:class:`harness.problems.mvu_problem.MVUProblem`). The profile section
``results.solver_table`` lists the points; a job's key is ``VARIANT/BACKEND/nN``.

One job runs as follows (:func:`harness.runner.run_job`):

1. The child process (:func:`work`) builds the problem; a dense cvxpy backend beyond
   its size cap (``MVU.skip``: the backend's ``max_n``) is ``skipped`` at
   once, and so is ``csdp`` where the program is not installed (the reason says
   ``apt-get install coinor-csdp``). Otherwise it solves it with :func:`harness.solvers.mvu_sdp.dispatch.solve_mvu`, with
   ``blas_threads`` BLAS threads and the budget ``time_limit_seconds`` of CPU seconds
   (the solver's own limit counts the process' CPU time, so the verdict does not
   depend on the machine's load); the engine kills it at ``time_limit_seconds +
   grace_seconds`` CPU seconds, so a solver that stops at its own limit can still
   hand back its best iterate, or at the profile's wall cap as a runaway. The engine
   measures the child's wall and CPU time and peak memory (the solve's own: a cvxpy
   solve requested inside the child runs in it) and records the CPU budget and the
   wall cap.
2. The parent (:func:`finish`) rebuilds the problem and *recomputes* the certificate
   from the returned factor F and edge multipliers w
   (:func:`harness.problems.mvu_certificate.certify`), and judges the solve from it
   alone (:func:`harness.solvers.mvu_sdp.result.judge`): ``optimal`` when the certified
   relative gap is at most ``tol_gap`` and the relative violation at most
   ``tol_violation``, else ``inaccurate``; a solver that stopped at its time limit
   short of that is a ``timeout`` with its best certified numbers. What the solver
   said about itself is kept under ``solver_reported``, never used. The certificate
   itself (F, the multipliers ``w + w_low``, a facial lift's t, w_Y, U) goes beside
   the record as ``KEY.certificate.npz`` (:func:`harness.runner.run_job`), so that
   ``harness verify RECORD.json`` re-checks it (:mod:`harness.problems.verify`);
   compressed float64, ~8 n p bytes (F is n x p, p up to n for the interior point).

Expected failures become records (``status`` of :data:`harness.records.STATUSES`,
``verdict`` of :data:`harness.solvers.mvu_sdp.result.STATUSES`, and a ``reason``): solver
errors and infeasibility reports (``failed``), unusable backends such as MOSEK
without a licence and the dense size cap (``skipped``), the hard kill (``timeout``)
and a solver process that died, e.g. killed for memory (``failed``). Any other
exception is a harness bug: the job fails and writes nothing.
"""

from __future__ import annotations

import time

from threadpoolctl import threadpool_limits

from harness import registry
from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import certify
from harness.problems.verify import certificate_arrays
from harness.provenance import blas_info
from harness.runner import died_reason
from harness.solvers.mvu_sdp import judge, solve_mvu

__all__ = ["point_sources", "build_problem", "work", "finish", "sources", "RECORD_STATUS"]

DATASET = "swiss_roll"
# the solver's verdict -> the record status shared with the cells
RECORD_STATUS = {"optimal": "ok", "inaccurate": "ok", "timeout": "timeout",
                 "skipped": "skipped", "failed": "failed", "infeasible": "failed"}


def point_sources(params: dict) -> list:
    """The code a point runs beyond this module: the data set plugin (the backend,
    a parameter, is added by :func:`harness.jobs.job_sources`, so that a faster
    native solver shows in the table at the next ``snakemake``)."""
    return [registry.get_dataset(DATASET)]


def build_problem(params: dict):
    """The data set and the MVU problem of one point.

    Returns
    -------
    dataset : harness.plugin.Dataset
    problem : harness.problems.mvu_problem.MVUProblem
    """
    dataset = registry.get_dataset(DATASET)().load(
        n_samples=params["n"], extra_noise_dims=params["extra_noise_dims"],
        extra_noise_std=params["extra_noise_std"], seed=params["seed"])
    return dataset, MVUProblem.from_points(dataset.X, params["n_neighbors"], variant=params["variant"])


def work(params: dict) -> dict:
    """The child's work: build the problem, skip a backend that cannot run it, or
    solve it; the solver's result goes back to the parent (:func:`finish`)."""
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, problem = build_problem(params)
        skip, why = registry.get_method("mvu").skip(dataset, params["backend"])
        if skip:
            return {"status": "skipped", "verdict": "skipped", "reason": why}
        result = solve_mvu(problem, params["backend"],
                           time_limit=float(params["time_limit_seconds"]),
                           tol_gap=params["tol_gap"], tol_violation=params["tol_violation"],
                           seed=params["seed"])
        blas = blas_info()
    return {"status": "ok", "result": result, "blas_during_run": blas}


def _judged(problem: MVUProblem, body: dict, params: dict) -> dict:
    """The record body of a solve that came back: the certificate recomputed here."""
    result, usage = body["result"], body["timing"]
    judged = {
        "verdict": result.status, "reason": result.reason,
        "solver_status": result.solver_status, "solver_reported": result.info(),
        "certificate": None, "rank": None, "blas_during_run": body["blas_during_run"],
        "timing": {"wall_seconds": result.wall_seconds,
                   "compile_seconds": result.compile_seconds,
                   "solve_seconds": result.solve_seconds,
                   "process_wall_seconds": usage["wall_seconds"],
                   "cpu_seconds": usage["cpu_seconds"],
                   "peak_memory_mb": usage["peak_memory_mb"],
                   "cpu_budget_seconds": usage.get("cpu_budget_seconds"),
                   "wall_cap_seconds": usage.get("wall_cap_seconds")},
    }
    if result.F is None:
        return judged
    start = time.perf_counter()
    with threadpool_limits(limits=params["blas_threads"]):
        cert = certify(problem, result.F, result.w, w_low=result.w_low)
    judged["timing"]["certify_seconds"] = time.perf_counter() - start
    verdict, reason = judge(cert, params["tol_gap"], params["tol_violation"])
    if result.status == "timeout" and verdict != "optimal":
        verdict, reason = "timeout", (f"stopped at its CPU time limit of "
                                      f"{params['time_limit_seconds']:g} s; best iterate: {reason}")
    judged.update(verdict=verdict, reason=reason, certificate=cert.as_dict(),
                  rank=int(result.F.shape[1]),
                  certificate_arrays=certificate_arrays(
                      problem.edges, problem.sq_lengths, result.F, result.w, result.w_low,
                      variant=problem.variant, omega=problem.omega, dual_lift=result.t,
                      exposing_dual=result.w_Y, face_basis=result.U))
    return judged


def _verdict_of(body: dict, params: dict) -> dict:
    """The body of a solve that did not come back: skipped, killed, or died."""
    if body["status"] == "timeout":
        hard = float(params["time_limit_seconds"]) + float(params["grace_seconds"])
        if body.get("limit") == "wall":
            why = f"{body['reason']}; no iterate was certified"
        else:
            why = (f"killed at its CPU budget of {hard:g} s (time_limit_seconds "
                   f"{params['time_limit_seconds']:g} + grace_seconds "
                   f"{params['grace_seconds']:g}); the solver did not stop at its own "
                   f"limit, so no iterate was certified")
        return {"verdict": "timeout", "limit": body.get("limit", "cpu"),
                "timing": body.get("timing", {}), "reason": why}
    if body["status"] == "failed":
        return {"verdict": "failed", "reason": died_reason(body["exit_code"], "solver")}
    return {"verdict": body["verdict"], "reason": body["reason"]}


def finish(params: dict, body: dict) -> dict:
    """The record body, in the parent: the problem's size, the certificate
    recomputed from what the solver returned, and the verdict from it alone (the
    solver table's declaration's ``finish`` calls this)."""
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, problem = build_problem(params)
    skip, why = registry.get_method("mvu").skip(dataset, params["backend"])
    if skip:  # decided here too: a hard limit shorter than the child's start is no timeout
        judged = {"verdict": "skipped", "reason": why}
    elif "result" in body:
        judged = _judged(problem, body, params)
    else:
        judged = _verdict_of(body, params)
    return {
        "backend": params["backend"], "n": params["n"], "variant": params["variant"],
        "problem": {"n": problem.n, "m": problem.m, "n_neighbors": params["n_neighbors"],
                    "n_features": int(dataset.X.shape[1]), "dataset": DATASET,
                    "dataset_meta": dataset.meta},
        "certificate": None, **judged,
        "status": RECORD_STATUS[judged["verdict"]],
    }


#: the solver table names this module as its job code
#: (``WORK = "harness.results.solver_table.work"``) and reads these.
sources = point_sources
