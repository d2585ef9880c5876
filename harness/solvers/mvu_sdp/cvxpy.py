"""Solve an MVU problem with a general-purpose SDP solver through cvxpy, and judge
the answer ourselves.

Every solve runs in a child process with one BLAS thread and a hard CPU budget
(:mod:`harness.timelimit`: killed at ``time_limit`` CPU seconds, or at the wall cap
for a runaway), whether or not the solver has a limit of its own. The
child returns the factor F of the solver's K (eigendecomposition, negative
eigenvalues clipped) and the edge multipliers w (the constraint duals; cvxpy's sign
convention makes w = +dual for the maximisation variants and -dual for minimum
trace). A linear cost (``cost=``, :mod:`harness.problems.linear_cost`) replaces the
trace by ``min <C, K>`` over the equality variant's feasible set (the dense ``C``;
``w = -dual``) and is certified by :func:`~harness.problems.linear_cost.certify_cost`.
The parent then recomputes the objective, the violation and the dual bound
(:func:`harness.problems.mvu_certificate.certify`) and sets the status from *those*
numbers, never from the solver's status: ``optimal`` only when the certified
relative gap and the violation are within the tolerances, ``inaccurate`` otherwise.
Without something to certify -- no K or no duals, values that are not finite, a
solver error -- the status is ``failed`` (``infeasible`` when the solver says so).
"""

from __future__ import annotations

import time

import numpy as np

from harness.problems.linear_cost import LinearCost, certify_cost
from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import certify
from harness.solvers.mvu_sdp.result import SolveResult, judge, psd_factor
from harness.timelimit import ChildCrashed, TimeLimitExceeded, call_with_time_limit

__all__ = ["solve_cvxpy", "solve_in_child", "raised_in", "failure_text"]

#: Libraries whose frames do not say where an error comes from (they are called by it).
_NUMERICS = ("scipy", "numpy")


def raised_in(exc: BaseException) -> str:
    """`` in module.function``: the innermost frame of ``exc``'s traceback outside
    scipy and numpy (e.g. cvxpy's CVXOPT interface, whose redundant-row check calls
    ARPACK: ``ArpackNoConvergence in cvxpy...cvxopt_conif.remove_redundant_rows``);
    empty without a traceback."""
    where, tb = "", exc.__traceback__
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", "?")
        if module.split(".")[0] not in _NUMERICS:
            where = f" in {module}.{tb.tb_frame.f_code.co_name}"
        tb = tb.tb_next
    return where


def failure_text(exc: BaseException) -> str:
    """The failure of a cvxpy solve as a record gives it: cvxpy's ``SolverError`` as
    ``SolverError: ...``; any other exception (``mosek.Error`` and friends) by its
    type and where it was raised (:func:`raised_in`)."""
    import cvxpy as cp

    if isinstance(exc, cp.error.SolverError):
        return f"SolverError: {exc}"
    return f"{type(exc).__name__}{raised_in(exc)}: {exc}"


def _solve_in_child(problem: MVUProblem, cvxpy_name: str,
                    cost: LinearCost | None = None) -> dict:
    import cvxpy as cp
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        start = time.perf_counter()
        cvx_problem, K, edge = problem.to_cvxpy()
        if cost is not None:
            cvx_problem = cp.Problem(cp.Minimize(cp.trace(cost.dense() @ K)),
                                     cvx_problem.constraints)
        try:
            cvx_problem.solve(solver=cvxpy_name)
        except Exception as exc:  # SolverError, mosek.Error and friends
            return {"error": failure_text(exc), "status": "failed"}
        stats = cvx_problem.solver_stats
        out = _child_outcome(cvx_problem.status, K.value, edge.dual_value,
                             problem.maximize and cost is None)
        out.update(wall=time.perf_counter() - start,
                   solve=stats.solve_time if stats and stats.solve_time else float("nan"))
        return out


def _child_outcome(solver_status: str, K, dual, maximize: bool) -> dict:
    """What the child hands back from the values cvxpy left after a solve.

    Parameters
    ----------
    solver_status : str
        cvxpy's status (recorded; it decides only ``infeasible``).
    K : ndarray of shape (n, n) or None
        The solver's primal matrix.
    dual : ndarray of shape (m,) or None
        The edge constraints' dual values.
    maximize : bool
        The trace is maximised (``w = +dual``), else minimised (``w = -dual``).

    Returns
    -------
    dict
        ``solver_status`` and either the factor and multipliers (``F``, ``w``) for the
        parent to certify, or ``status`` (``infeasible``, ``failed``) and ``error``
        when there is nothing to certify: no primal matrix or no multipliers, or values
        that are not finite (a certificate cannot be computed from them).
    """
    import cvxpy as cp

    out = {"solver_status": solver_status}
    if solver_status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED,
                         cp.UNBOUNDED_INACCURATE):
        out["status"] = "infeasible"
        return out
    missing = [name for name, value in (("primal matrix", K), ("multipliers", dual))
               if value is None]
    if missing:
        out.update(status="failed", error=f"no {' and no '.join(missing)} returned "
                                          f"(solver status {solver_status})")
        return out
    K = np.asarray(K, dtype=np.float64)
    w = np.asarray(dual, dtype=np.float64).ravel()
    bad = [name for name, value in (("primal matrix", K), ("multipliers", w))
           if not np.isfinite(value).all()]
    if bad:
        out.update(status="failed", error=f"non-finite {' and '.join(bad)} returned "
                                          f"(solver status {solver_status}): nothing to "
                                          f"certify")
        return out
    out.update(F=psd_factor(K), w=w if maximize else -w)
    return out


def solve_in_child(result_cls: type, backend: str, time_limit: float, child, *args):
    """Run ``child(*args)`` (a cvxpy solve returning a dict) in a child process under
    ``time_limit`` CPU seconds.

    Returns
    -------
    result : result_cls
        ``timeout`` or ``failed`` (a crash) with the reason; else the child's status
        (``inaccurate`` until a returned ``F`` is certified by the caller), the
        solver's status and the compile and solve seconds.
    out : dict or None
        What the child returned (None after a time-out or a crash).
    """
    start = time.perf_counter()
    try:
        out = call_with_time_limit(child, *args, limit=time_limit)
    except TimeLimitExceeded as exc:
        return result_cls("timeout", str(exc), backend, wall_seconds=exc.elapsed), None
    except ChildCrashed as exc:
        return result_cls("failed", f"solver process crashed: {exc}"[-2000:], backend,
                          wall_seconds=time.perf_counter() - start), None
    wall = time.perf_counter() - start
    result = result_cls(out["status"] if "F" not in out else "inaccurate",
                        out.get("error", ""), backend,
                        solver_status=out.get("solver_status", ""),
                        solve_seconds=out.get("solve", float("nan")), wall_seconds=wall)
    result.compile_seconds = out.get("wall", wall) - result.solve_seconds
    return result, out


def solve_cvxpy(problem: MVUProblem, backend, *, time_limit: float = 600.0,
                tol_gap: float = 1e-3, tol_violation: float = 1e-4,
                cost: LinearCost | None = None) -> SolveResult:
    """Solve ``problem`` with one cvxpy backend and certify the answer.

    ``backend`` is the backend plugin class (a
    :class:`~harness.solvers.backend.CvxpyBackend`: its ``name``, ``cvxpy_name`` and
    ``status()``); by name, :func:`harness.solvers.mvu_sdp.dispatch.solve_mvu`. With ``cost``, minimise ``<C, K>`` over the feasible set of ``problem`` (variant
    ``equality``) instead. Unusable backends (not installed, MOSEK without a licence) give ``skipped``;
    solver errors and answers that cannot be certified (no multipliers, non-finite
    values) ``failed``; the CPU budget or the wall cap ``timeout``; all with the
    reason.
    """
    if cost is not None and problem.variant != "equality":
        raise ValueError(f"a linear cost goes with the equality variant, got "
                         f"{problem.variant!r}")
    usable, why = backend.status()
    if not usable:
        return SolveResult("skipped", why, backend.name)
    result, out = solve_in_child(SolveResult, backend.name, time_limit, _solve_in_child,
                                 problem, backend.cvxpy_name, cost)
    if out is None:  # a time-out or a crash
        return result
    if "F" in out:
        result.F, result.w = problem.centred(out["F"]), out["w"]
        result.certificate = (certify(problem, result.F, result.w) if cost is None
                              else certify_cost(problem, cost, result.F, result.w))
        result.status, result.reason = judge(result.certificate, tol_gap, tol_violation)
    elif result.status == "infeasible":
        result.reason = f"solver reports {result.solver_status}"
    return result
