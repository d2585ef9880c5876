"""Solve the action respecting embedding SDP (:mod:`harness.problems.are_problem`), natively or
with a general-purpose SDP solver through cvxpy, and judge the answer ourselves.

``native`` (the default) is the MVU interior-point method of
:mod:`harness.solvers.mvu_sdp.ipm` generalised to constraints that are signed
combinations of edge rank-ones (:mod:`harness.solvers.mvu_sdp.edge_constraints`): an
action constraint ``<A_(i+1)(j+1) - A_ij, K> = 0`` is the difference of two edge
rank-ones, its Schur matrix ``C E C^T`` comes from the edge kernel on the atoms, and
the distance rows keep their slacks while the action rows are equalities
(:mod:`harness.solvers.are_native`). It runs in this process, stops as soon as
:func:`harness.problems.are_problem.certify_are` certifies its iterate, and is refused
(``skipped``) beyond the interior point's memory budget (the m x m Schur matrix, m
= edges + action pairs). The facial-reduction and low-rank native methods remain
MVU's alone: their edge structure has no action rows.

The cvxpy backends take the dense model (``AREProblem.to_cvxpy``) as it is; its
cost limits them to about n = 150 points (as for MVU's cvxpy backends). As for MVU
(:mod:`harness.solvers.mvu_sdp.cvxpy`), every such solve runs in a child process with
one BLAS thread and a hard CPU budget; the child returns the factor F of the
solver's K and the multipliers of both constraint families.

Either way the parent recomputes value, violation and dual bound
(:func:`harness.problems.are_problem.certify_are`) and sets the status from those numbers
(:func:`harness.solvers.mvu_sdp.result.judge`), never from the solver's status; a native
solve whose certified bound is negative is ``infeasible`` (no PSD K has a negative
trace: :func:`harness.solvers.are_native.proves_infeasible`).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from harness.problems.are_problem import AREProblem, certify_are
from harness.problems.mvu_problem import MVUProblem
from harness import registry
from harness.solvers.mvu_sdp.cvxpy import failure_text, solve_in_child
from harness.solvers.mvu_sdp.dispatch import cvxpy_name, cvxpy_solvers
from harness.solvers.mvu_sdp.result import SolveResult, judge, psd_factor

__all__ = ["ARESolveResult", "solve_are", "ARE_SOLVERS", "DEFAULT_ARE_SOLVER"]

#: The backends ARE accepts: the native interior point and every backend plugin
#: reached through cvxpy (:func:`~harness.solvers.mvu_sdp.dispatch.cvxpy_solvers`).
ARE_SOLVERS = ("native",) + cvxpy_solvers()
#: Certified where Clarabel is (tests/solvers/test_are_native.py) and several times
#: faster (harness/results/lecture_are/README.md).
DEFAULT_ARE_SOLVER = "native"


@dataclasses.dataclass
class ARESolveResult(SolveResult):
    """A :class:`~harness.solvers.mvu_sdp.result.SolveResult` with the action multipliers.

    Attributes
    ----------
    v : ndarray of shape (c,) or None
        Multipliers of the action constraints (``w`` holds the edge multipliers).
    """

    v: np.ndarray | None = None


def _solve_in_child(problem: AREProblem, cvxpy_name: str) -> dict:
    import cvxpy as cp
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        start = time.perf_counter()
        cvx_problem, K, edge, action = problem.to_cvxpy()
        try:
            cvx_problem.solve(solver=cvxpy_name)
        except Exception as exc:  # SolverError, mosek.Error and friends
            return {"error": failure_text(exc), "status": "failed"}
        out = {"solver_status": cvx_problem.status,
               "wall": time.perf_counter() - start}
        stats = cvx_problem.solver_stats
        out["solve"] = stats.solve_time if stats and stats.solve_time else float("nan")
        if cvx_problem.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED,
                                  cp.UNBOUNDED_INACCURATE):
            out["status"] = "infeasible"
            return out
        v = np.zeros(0) if action is None else action.dual_value
        values = {"primal matrix": K.value, "edge multipliers": edge.dual_value,
                  "action multipliers": v}
        missing = [k for k, x in values.items() if x is None]
        bad = [k for k, x in values.items()
               if x is not None and not np.isfinite(np.asarray(x, dtype=float)).all()]
        if missing or bad:
            out.update(status="failed", error=(
                f"{'no ' + ', '.join(missing) if missing else 'non-finite ' + ', '.join(bad)}"
                f" returned (solver status {cvx_problem.status}): nothing to certify"))
            return out
        out.update(F=psd_factor(np.asarray(K.value, dtype=np.float64)),
                   w=np.asarray(edge.dual_value, dtype=np.float64).ravel(),
                   v=np.asarray(v, dtype=np.float64).ravel())
        return out


def _solve_native(problem: AREProblem, *, time_limit: float, tol_gap: float,
                  tol_violation: float) -> ARESolveResult:
    """The native interior point (:func:`harness.solvers.are_native.solve_are_native`),
    judged by its recomputed certificate."""
    from harness.solvers.are_native import (are_ipm_bytes, proves_infeasible,
                                            solve_are_native)
    from harness.solvers.mvu_sdp.ipm import IPM_MEMORY_BUDGET

    need = are_ipm_bytes(problem)
    if need > IPM_MEMORY_BUDGET:
        return ARESolveResult("skipped", f"the native interior point needs "
                              f"{need / 2**30:.1f} GiB (m = {problem.m} edges + c = "
                              f"{problem.c} action pairs), above its budget of "
                              f"{IPM_MEMORY_BUDGET / 2**30:.0f} GiB", "native")
    start = time.perf_counter()
    native = solve_are_native(problem, tol_gap=tol_gap, tol_violation=tol_violation,
                              time_limit=time_limit)
    result = ARESolveResult("inaccurate", "", "native", F=MVUProblem.centred(native.F),
                            w=native.w, v=native.v, certificate=native.certificate,
                            solver_status=native.status, compile_seconds=0.0,
                            solve_seconds=native.seconds,
                            wall_seconds=time.perf_counter() - start,
                            details=dict(native.details))
    result.status, result.reason = judge(result.certificate, tol_gap, tol_violation)
    if result.status == "optimal":
        return result
    if proves_infeasible(problem, native.w, result.certificate):
        result.status = "infeasible"
        result.reason = (f"the certified dual bound {result.certificate.bound:.3g} on tr K "
                         f"is negative: no feasible K")
    elif native.status == "timeout":
        result.status = "timeout"
        result.reason = f"CPU time limit of {time_limit:g} s reached; last iterate: {result.reason}"
    return result


def solve_are(problem: AREProblem, backend: str = DEFAULT_ARE_SOLVER, *,
              time_limit: float = 600.0, tol_gap: float = 1e-3,
              tol_violation: float = 1e-4) -> ARESolveResult:
    """Solve ``problem`` with one backend and certify the answer.

    Parameters
    ----------
    problem : AREProblem
    backend : str
        One of :data:`ARE_SOLVERS`: ``native`` (in this process) or a cvxpy backend
        (in a child process).
    time_limit : float
        CPU seconds: the native solver's own limit (:class:`harness.timelimit.
        Deadline`) or the cvxpy child process' (killed beyond).
    tol_gap, tol_violation : float
        The certified relative gap and relative violation of an ``optimal`` solve.

    Returns
    -------
    ARESolveResult
        ``skipped`` for an unusable backend (or a native solve beyond its memory
        budget), ``failed``/``infeasible`` with nothing to certify (native:
        ``infeasible`` from a negative certified bound), ``timeout``, else
        ``optimal`` or ``inaccurate`` by the certificate.

    Raises
    ------
    ValueError
        For a backend not in :data:`ARE_SOLVERS`.
    """
    if backend not in ARE_SOLVERS:
        raise ValueError(f"unknown ARE solver {backend!r}; valid: {', '.join(ARE_SOLVERS)}")
    if backend == "native":
        return _solve_native(problem, time_limit=time_limit, tol_gap=tol_gap,
                             tol_violation=tol_violation)
    usable, why = registry.backend_status(backend)
    if not usable:
        return ARESolveResult("skipped", why, backend)
    result, out = solve_in_child(ARESolveResult, backend, time_limit, _solve_in_child,
                                 problem, cvxpy_name(backend))
    if out is None:  # a time-out or a crash
        return result
    if "F" in out:
        result.F, result.w, result.v = MVUProblem.centred(out["F"]), out["w"], out["v"]
        result.certificate = certify_are(problem, result.F, result.w, result.v)
        result.status, result.reason = judge(result.certificate, tol_gap, tol_violation)
    elif result.status == "infeasible":
        result.reason = f"solver reports {result.solver_status}"
    return result
