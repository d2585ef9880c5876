"""One entry point for every MVU solver backend: ``solve_mvu(problem, solver)``, and
the backends' names (:data:`MVU_SOLVERS`).

``native`` is :func:`harness.solvers.mvu.native.solve_native` with
``method="auto"`` (the dense interior-point method of
:mod:`harness.solvers.mvu.ipm` for small problems, the low-rank augmented
Lagrangian of :mod:`harness.solvers.mvu.lowrank` for large ones); ``native_lowrank``
forces the low-rank method at every size (to compare the two). ``csdp`` runs the
thesis' own solver CSDP as a program (:func:`harness.solvers.mvu.csdp.solve_csdp`,
formulation ``csdp_formulation``). The others go through cvxpy
(:func:`harness.solvers.mvu.cvxpy.solve_cvxpy`). Either way the result is a
:class:`~harness.solvers.mvu.result.SolveResult` whose status comes from the
certificate recomputed from the problem data.

The native solver's modules (numba and its kernels) are imported only when a native
solve runs, so that importing this module (and a cvxpy solve's child process) does
without them.
"""
from __future__ import annotations

import time

from harness.problems.linear_cost import LinearCost
from harness.problems.mvu import NATIVE_VARIANTS, MVUProblem
from harness.solvers.mvu.csdp import solve_csdp
from harness.solvers.mvu.cvxpy import CVXPY_NAMES, solve_cvxpy
from harness.solvers.mvu.result import SolveResult, judge
from harness.solvers.mvu_names import MVU_SOLVERS, NATIVE_METHODS

__all__ = ["MVU_SOLVERS", "NATIVE_METHODS", "solve_mvu"]


def _solve_native(problem: MVUProblem, solver: str, *, time_limit: float, tol_gap: float,
                  tol_violation: float, seed: int, init, cost=None) -> SolveResult:
    from harness.solvers.mvu.native import ipm_fits, solve_native, starts_lowrank

    if problem.variant not in NATIVE_VARIANTS:
        return SolveResult("skipped", f"the native solver handles {', '.join(NATIVE_VARIANTS)}, "
                           f"not {problem.variant!r}; use a cvxpy backend", solver)
    start = time.perf_counter()
    method = NATIVE_METHODS[solver]
    if cost is not None:
        if method != "auto" or not ipm_fits(problem):
            return SolveResult("skipped", "a linear cost is solved by the native interior "
                               "point only (solver native), within its memory budget; "
                               f"n = {problem.n}, m = {problem.m}", solver)
        from harness.solvers.mvu.ipm import solve_ipm
        native = solve_ipm(problem, tol_gap=tol_gap, tol_violation=tol_violation,
                           time_limit=time_limit, cost=cost)
    elif init is None and not problem.maximize and starts_lowrank(problem, method):
        return SolveResult("skipped", "the native low-rank minimum-trace solve starts "
                           "from the inputs (init=); none were given", solver)
    else:
        native = solve_native(problem, tol_gap=tol_gap, tol_violation=tol_violation,
                              time_limit=time_limit, seed=seed, init=init, method=method)
    wall = time.perf_counter() - start
    F = problem.centred(native.F)
    result = SolveResult("inaccurate", "", solver, F=F, w=native.w, w_low=native.w_low,
                         certificate=native.certificate,
                         solver_status=native.status, compile_seconds=0.0,
                         solve_seconds=native.seconds, wall_seconds=wall,
                         details=dict(native.details), t=native.t, w_Y=native.w_Y,
                         U=native.U)
    result.status, result.reason = judge(result.certificate, tol_gap, tol_violation)
    if native.status == "timeout" and result.status != "optimal":
        result.status = "timeout"
        result.reason = f"CPU time limit of {time_limit:g} s reached; best iterate: {result.reason}"
    return result


def solve_mvu(problem: MVUProblem, solver: str = "native", *, time_limit: float = 600.0,
              tol_gap: float = 1e-3, tol_violation: float = 1e-4, seed: int = 0,
              init=None, cost: LinearCost | None = None,
              csdp_formulation: str = "centring_penalty",
              csdp_params: dict | None = None) -> SolveResult:
    """Solve an MVU problem with one backend; the status is the harness' verdict.

    Parameters
    ----------
    problem : MVUProblem
    solver : str
        One of :data:`MVU_SOLVERS`.
    time_limit : float
        CPU seconds (:mod:`harness.timelimit`): the native solver's own limit
        (:class:`harness.timelimit.Deadline`), a cvxpy solve's child process' budget
        or the CSDP process' (killed at it, or at the wall cap for a runaway).
    tol_gap, tol_violation : float
        The certified relative gap and relative violation at which a solve is
        ``optimal`` (:func:`harness.solvers.mvu.result.judge`).
    seed : int
        Seed of the native solver's random vectors.
    init : ndarray of shape (n, q), optional
        The native low-rank solver's starting factor (e.g. the inputs' principal
        coordinates); it is required there for ``min_trace`` and ignored by the
        interior-point method and by cvxpy.
    cost : LinearCost, optional
        Minimise ``<C, K>`` (:mod:`harness.problems.linear_cost`) over the feasible
        set of ``problem`` (variant ``equality``) instead of its trace objective:
        minimum volume embedding's SDP step. ``native`` runs the interior point
        (:func:`harness.solvers.mvu.ipm.solve_ipm` with ``cost=``), the cvxpy
        backends a dense model; either is certified by
        :func:`harness.problems.linear_cost.certify_cost`. Not with ``csdp``.
    csdp_formulation : {"centring_penalty", "centred_objective", "centring_constraint"}
        How ``csdp`` is given the SDP (:mod:`harness.solvers.mvu.csdp_formulation`:
        the centring as a penalty in the objective, the variance (3.10) as objective,
        or the thesis' centring constraint; the same optimal embedding). Ignored by
        the other backends.
    csdp_params : dict, optional
        CSDP parameters over :data:`harness.solvers.mvu.csdp.PARAMETERS` (e.g.
        ``{"maxiter": 50}``, the limit Weinberger's ``sde.m`` sets). Only with
        ``csdp``.

    Returns
    -------
    SolveResult
        ``skipped`` for a variant the native solver (or CSDP) does not handle, a
        native low-rank ``min_trace`` solve without ``init``, a linear cost with
        ``native_lowrank``, ``csdp`` or beyond the interior point's memory budget,
        an unusable cvxpy backend and a missing ``csdp`` program (the reason says
        ``apt-get install coinor-csdp``).

    Raises
    ------
    ValueError
        For a solver name not in :data:`MVU_SOLVERS`, with ``csdp`` an unknown
        ``csdp_formulation`` or CSDP parameter, and ``csdp_params`` for another solver.
    """
    if csdp_params and solver != "csdp":
        raise ValueError(f"csdp_params {csdp_params!r} are CSDP's; the solver is {solver!r}")
    if solver in NATIVE_METHODS:
        return _solve_native(problem, solver, time_limit=time_limit, tol_gap=tol_gap,
                             tol_violation=tol_violation, seed=seed, init=init, cost=cost)
    if solver in CVXPY_NAMES:
        return solve_cvxpy(problem, solver, time_limit=time_limit, tol_gap=tol_gap,
                           tol_violation=tol_violation, cost=cost)
    if solver == "csdp":
        if cost is not None:
            return SolveResult("skipped", "a linear cost is solved by the native interior "
                               "point or a cvxpy backend, not by csdp", solver)
        return solve_csdp(problem, time_limit=time_limit, tol_gap=tol_gap,
                          tol_violation=tol_violation, formulation=csdp_formulation,
                          params=csdp_params)
    raise ValueError(f"unknown MVU solver {solver!r}; valid: {', '.join(MVU_SOLVERS)}")
