"""One entry point for every MVU solver backend: ``solve_mvu(problem, solver)``.

The backends are the plugins of :mod:`harness.solvers.backends`, one file each
(:class:`harness.solvers.backend.SolverBackend`), found through
:mod:`harness.registry`; :func:`mvu_solvers` lists their names. ``solve_mvu`` checks
what the backend declares (its SDP variants, whether it takes a linear cost) and
hands the problem to its ``solve``; the result is a
:class:`~harness.solvers.mvu_sdp.result.SolveResult` whose status comes from the
certificate recomputed from the problem data, whichever backend ran.

Nothing of a backend is imported until it solves (numba and the native kernels, cvxpy),
so that importing this module (and a cvxpy solve's child process) does without them.
"""
from __future__ import annotations

from harness import registry
from harness.problems.linear_cost import LinearCost
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.backend import DEFAULT_BACKEND
from harness.solvers.mvu_sdp.result import SolveResult

__all__ = ["mvu_solvers", "cvxpy_solvers", "cvxpy_name", "solve_mvu"]


def mvu_solvers() -> tuple[str, ...]:
    """The names of every solver backend, in their declared order."""
    return tuple(registry.backends())


def cvxpy_solvers() -> tuple[str, ...]:
    """The backends that are general-purpose conic solvers reached through cvxpy
    (their ``cvxpy_name`` is set): the ARE and MVE models run on these too."""
    return tuple(name for name in registry.backends()
                 if registry.backend_info(name).cvxpy_name)


def cvxpy_name(backend: str) -> str:
    """cvxpy's name of the solver behind the backend ``backend`` (its ``cvxpy_name``).

    Raises
    ------
    ValueError
        ``backend`` is not a backend reached through cvxpy (the valid ones listed).
    """
    if backend not in cvxpy_solvers():
        raise ValueError(f"unknown cvxpy backend {backend!r}; valid: "
                         f"{', '.join(cvxpy_solvers())}")
    return registry.backend_info(backend).cvxpy_name


def solve_mvu(problem: MVUProblem, solver: str = DEFAULT_BACKEND, *,
              time_limit: float = 600.0, tol_gap: float = 1e-3,
              tol_violation: float = 1e-4, seed: int = 0, init=None,
              cost: LinearCost | None = None,
              options: dict | None = None) -> SolveResult:
    """Solve an MVU problem with one backend; the status is the harness' verdict.

    Parameters
    ----------
    problem : MVUProblem
    solver : str
        A backend's name (:func:`mvu_solvers`).
    time_limit : float
        CPU seconds (:mod:`harness.timelimit`): the native solver's own limit
        (:class:`harness.timelimit.Deadline`), a cvxpy solve's child process' budget
        or the CSDP process' (killed at it, or at the wall cap for a runaway).
    tol_gap, tol_violation : float
        The certified relative gap and relative violation at which a solve is
        ``optimal`` (:func:`harness.solvers.mvu_sdp.result.judge`).
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
        (:func:`harness.solvers.mvu_sdp.ipm.solve_ipm` with ``cost=``), the cvxpy
        backends a dense model; either is certified by
        :func:`harness.problems.linear_cost.certify_cost`. Not with ``csdp``.
    options : dict, optional
        The backend's own options, among the names its ``options`` declares (e.g.
        ``csdp``: ``formulation``, one of "centring_penalty", "centred_objective",
        "centring_constraint" (:mod:`harness.solvers.mvu_sdp.csdp_formulation`), and
        ``params``, CSDP parameters over
        :data:`harness.solvers.backends.csdp.PARAMETERS` such as ``{"maxiter": 50}``,
        the limit Weinberger's ``sde.m`` sets).

    Returns
    -------
    SolveResult
        ``skipped`` for a variant the backend does not declare, a linear cost it does
        not take, and whatever its ``solve`` skips (a native low-rank ``min_trace``
        solve without ``init``, a linear cost beyond the interior point's memory
        budget, an unusable cvxpy backend, a missing ``csdp`` program: the reason
        says ``apt-get install coinor-csdp``).

    Raises
    ------
    ValueError
        For an unknown solver name (the valid ones listed), an option the backend
        does not declare, and what its ``solve`` refuses (an unknown CSDP formulation
        or parameter).
    """
    try:
        backend = registry.get_backend(solver)
    except registry.UnknownNameError as exc:
        raise ValueError(f"unknown MVU solver {solver!r}; valid: "
                         f"{', '.join(mvu_solvers())}") from exc
    if problem.variant not in backend.variants:
        return SolveResult("skipped", f"the {solver} backend solves "
                           f"{', '.join(backend.variants)}, not {problem.variant!r}; use "
                           f"a cvxpy backend", solver)
    if cost is not None and not backend.linear_cost:
        takers = [n for n in registry.backends() if registry.backend_info(n).linear_cost]
        return SolveResult("skipped", f"a linear cost is solved by {', '.join(takers)} "
                           f"(the native interior point and the cvxpy backends), not by "
                           f"{solver}", solver)
    unknown = sorted(set(options or {}) - set(backend.options))
    if unknown:
        raise ValueError(f"the {solver} backend takes no option(s) {', '.join(unknown)} "
                         f"(its options: {', '.join(backend.options) or 'none'}); got "
                         f"{options!r}")
    return backend.solve(problem, time_limit=time_limit, tol_gap=tol_gap,
                         tol_violation=tol_violation, seed=seed, init=init, cost=cost,
                         options=options)
