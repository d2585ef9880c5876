"""Solve the action respecting embedding SDP (:mod:`harness.problems.are`) with a
general-purpose SDP solver through cvxpy, and judge the answer ourselves.

Why not the native MVU solver: its interior-point method
(:mod:`harness.solvers.mvu.ipm`) is written for constraints ``u_e^T X u_e = b_e``
whose matrices are *rank one* (one incidence vector per edge): its Schur complement
``M_ef = (u_e^T X u_f)(u_f^T Z^-1 u_e)`` is formed by a kernel that assumes it, and
the low-rank and facial-reduction methods rely on the same edge structure. An action
constraint ``<A_(i+1)(j+1) - A_ij, K> = 0`` is the difference of two such matrices
(rank two, indefinite), so the native solver cannot take it without a new Schur
kernel. The dense cvxpy model (``AREProblem.to_cvxpy``) takes it as it is; its cost
limits ARE to about n = 150 points (as for MVU's cvxpy backends).

As for MVU (:mod:`harness.solvers.mvu.cvxpy`), every solve runs in a child process with
one BLAS thread and a hard CPU budget; the child returns the factor F of the
solver's K and the multipliers of both constraint families; the parent recomputes
value, violation and dual bound (:func:`harness.problems.are.certify_are`) and sets
the status from those numbers (:func:`harness.solvers.mvu.result.judge`), never from
the solver's status.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from harness.problems.are import AREProblem, certify_are
from harness.problems.mvu import MVUProblem
from harness.solvers.backends import backend_status
from harness.solvers.mvu.cvxpy import CVXPY_NAMES, solve_in_child
from harness.solvers.mvu.result import SolveResult, judge, psd_factor

__all__ = ["ARESolveResult", "solve_are", "ARE_SOLVERS"]

#: The backends ARE accepts: every cvxpy backend of the MVU solver table.
ARE_SOLVERS = tuple(CVXPY_NAMES)


@dataclasses.dataclass
class ARESolveResult(SolveResult):
    """A :class:`~harness.solvers.mvu.result.SolveResult` with the action multipliers.

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
        except cp.error.SolverError as exc:
            return {"error": f"SolverError: {exc}", "status": "failed"}
        except Exception as exc:  # mosek.Error and friends are not SolverErrors
            return {"error": f"{type(exc).__name__}: {exc}", "status": "failed"}
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


def solve_are(problem: AREProblem, backend: str = "clarabel", *, time_limit: float = 600.0,
              tol_gap: float = 1e-3, tol_violation: float = 1e-4) -> ARESolveResult:
    """Solve ``problem`` with one cvxpy backend and certify the answer.

    Parameters
    ----------
    problem : AREProblem
    backend : str
        One of :data:`ARE_SOLVERS`.
    time_limit : float
        CPU seconds of the child process (killed beyond).
    tol_gap, tol_violation : float
        The certified relative gap and relative violation of an ``optimal`` solve.

    Returns
    -------
    ARESolveResult
        ``skipped`` for an unusable backend, ``failed``/``infeasible`` with nothing to
        certify, ``timeout``, else ``optimal`` or ``inaccurate`` by the certificate.

    Raises
    ------
    ValueError
        For a backend not in :data:`ARE_SOLVERS`.
    """
    if backend not in CVXPY_NAMES:
        raise ValueError(f"unknown ARE solver {backend!r}; valid: {', '.join(ARE_SOLVERS)}")
    usable, why = backend_status(backend)
    if not usable:
        return ARESolveResult("skipped", why, backend)
    result, out = solve_in_child(ARESolveResult, backend, time_limit, _solve_in_child,
                                 problem, CVXPY_NAMES[backend])
    if out is None:  # a time-out or a crash
        return result
    if "F" in out:
        result.F, result.w, result.v = MVUProblem.centred(out["F"]), out["w"], out["v"]
        result.certificate = certify_are(problem, result.F, result.w, result.v)
        result.status, result.reason = judge(result.certificate, tol_gap, tol_violation)
    elif result.status == "infeasible":
        result.reason = f"solver reports {result.solver_status}"
    return result
