"""The native MVU solver's dispatcher: :func:`solve_native` chooses facial reduction,
the interior-point method or the low-rank method, and hands over between them.

:func:`solve_native` first tries *facial reduction* (``facial="auto"``, equality and
minimum-trace variants; :mod:`harness.problems.facial_reduction`,
:mod:`harness.solvers.mvu_sdp.facial`): where the cliques of the data expose a proper face
of the PSD cone (noise-free, locked graphs: no interior, where interior-point methods
stall), the reduced problem is solved on that face and certified on the full one.
Otherwise ``method="auto"`` (the default) hands every problem whose
interior-point iteration fits the memory budget (:func:`harness.solvers.mvu_sdp.ipm.schur_bytes`:
the m x m Schur matrix; the default budget of 8 GiB admits about n = 3900 at k = 5) to
the interior-point method of :mod:`harness.solvers.mvu_sdp.ipm` (falling back to the
low-rank method of :mod:`harness.solvers.mvu_sdp.lowrank` if that stalls short of the
tolerances); ``method="lowrank"`` always uses the low-rank method.

Every path returns a :class:`~harness.solvers.mvu_sdp.result.NativeResult` whose
certificate is recomputed from the problem data;
:func:`harness.solvers.mvu_sdp.dispatch.solve_mvu` judges it like any other backend's.
"""

from __future__ import annotations

import time

import numpy as np

from harness.problems.facial_reduction import QR_MAX_DIM, FacialReduction
from harness.problems.facial_reduction import reduce as reduce_to_face
from harness.problems.mvu_problem import NATIVE_VARIANTS, MVUProblem
from harness.solvers.mvu_sdp.facial import FACIAL_VARIANTS, solve_facial
from harness.solvers.mvu_sdp.ipm import (IPM_MEMORY_BUDGET, IPM_VARIANTS, MIXED_FROM_M,
                                     schur_bytes, solve_ipm)
from harness.solvers.mvu_sdp.lowrank import solve_lowrank
from harness.solvers.mvu_sdp.result import NativeResult, SolveResult, better_certificate, judge
from harness.timelimit import Deadline

__all__ = ["NativeResult", "solve_native", "solve_native_backend", "starts_lowrank", "SUPPORTED_VARIANTS",
           "METHODS", "ipm_fits", "face_details", "FACIAL_MODES", "FACIAL_MAX_KEPT",
           "FALLBACK_FACTOR", "FALLBACK_MIN_SECONDS"]

SUPPORTED_VARIANTS = NATIVE_VARIANTS
FACIAL_MODES = ("auto", "off")
#: The face is solved only if it keeps at most this fraction of the edges (its Schur
#: matrix then costs at most 1/8 of the full one). Measured, noise-free roll, n =
#: 1000, k = 4 (face 226, every edge kept): the reduced interior point stalls at gap
#: 3.8e-3 in 107 s and its lifted multipliers prove nothing, while the full one
#: certifies in 228 s (2 threads); at k >= 5 the face keeps 6 to 9 edges.
FACIAL_MAX_KEPT = 0.5
METHODS = ("auto", "lowrank", "ipm")
#: After an interior point that stops short of the tolerances (stalled or diverging on a
#: degenerate instance), the low-rank method gets at most this many times the interior
#: point's CPU seconds (at least ``FALLBACK_MIN_SECONDS``), not all the time left.
#: Measured (quick profile, 3fc4381): Fig. 3.28's noise-free k = 4 and Figs.
#: 3.32-3.35's roll each spent ~480 of their 541 CPU-s in a low-rank fallback whose
#: answer lost to the interior point's; no record of that run or of the full reference
#: run was answered by the fallback, while the inequality variant's low-rank solves
#: certify n = 1000-2000 in 19-31 CPU-s, inside the floor.
FALLBACK_FACTOR, FALLBACK_MIN_SECONDS = 2.0, 60.0


def _better_result(a: NativeResult, other: NativeResult, tol_gap: float,
                   tol_violation: float) -> bool:
    """``a`` is the better certified answer (:func:`~harness.solvers.mvu_sdp.result.
    better_certificate`; a status other than "optimal" never outranks "optimal")."""
    if (a.status == "optimal") != (other.status == "optimal"):
        return a.status == "optimal"
    return better_certificate(a.certificate, other.certificate, tol_gap, tol_violation)


def face_details(problem: MVUProblem, reduction: FacialReduction) -> dict:
    """Plain facts of a facial reduction for the record: the face's dimension (n - 1:
    nothing exposed), the edges kept, whether the exposure is exact
    (:attr:`FacialReduction.exact`) and whether the feasible set is a single point
    (the kept constraints determine Q of K = U Q U^T: as many independent ones as
    Q has entries, d (d + 1) / 2)."""
    d = int(reduction.face_dim)
    entries = d * (d + 1) // 2
    single = bool(d < problem.n - 1 and entries <= QR_MAX_DIM
                  and len(reduction.kept) == entries)
    return {"dimension": d, "ambient": problem.n - 1, "kept_edges": int(len(reduction.kept)),
            "single_point": single, "exact": reduction.exact,
            "seconds": float(reduction.seconds)}


def _no_interior(reduced: NativeResult, reduction: FacialReduction,
                 tol_violation: float) -> bool:
    """Whether a facial solve that is not certified optimal is still the answer.

    The exposing vector is exact (``b . w_Y = 0`` to rounding: every feasible K lies
    in the face, the full SDP has no interior and the full interior-point method only
    stalls) and the face's solution is feasible with a consistent certificate: its gap
    is then what the lifted multipliers prove (a dual that is not attained, e.g.
    weakly rigid directions needing ``t ~ 1e12``, measured on the noise-free roll,
    n = 1000, k = 5), and the result is marked with it."""
    c = reduced.certificate
    return reduction.exact and c.consistent and c.violation <= tol_violation


def ipm_fits(problem: MVUProblem, memory_budget: float = IPM_MEMORY_BUDGET) -> bool:
    """Whether the interior-point iteration of ``problem`` fits ``memory_budget``
    bytes (:func:`harness.solvers.mvu_sdp.ipm.schur_bytes`, at the Schur precision the
    method would use)."""
    precision = "mixed" if problem.m >= MIXED_FROM_M else "double"
    return schur_bytes(problem.n, problem.m, precision) <= memory_budget


def starts_lowrank(problem: MVUProblem, method: str = "auto",
                   memory_budget: float = IPM_MEMORY_BUDGET) -> bool:
    """Whether :func:`solve_native` runs the low-rank method first (``"auto"``: the
    interior-point iteration does not fit ``memory_budget``, see :func:`ipm_fits`)
    rather than the interior-point one."""
    if method == "auto":
        return problem.variant not in IPM_VARIANTS or not ipm_fits(problem, memory_budget)
    return method == "lowrank"


def solve_native(problem: MVUProblem, *, rank: int | None = None, tol_gap: float = 1e-3,
                 tol_violation: float = 1e-4, time_limit: float = 600.0, seed: int = 0,
                 verbose: bool = False, n_basis: int = 10, sigma0: float = 30.0,
                 max_outer: int = 60, init: np.ndarray | None = None,
                 extra_columns: int = 4, max_inner: int = 200,
                 segment: int = 40, method: str = "auto",
                 memory_budget: float = IPM_MEMORY_BUDGET,
                 facial: str = "auto") -> NativeResult:
    """Solve the MVU SDP natively with a certified optimality gap.

    Parameters
    ----------
    problem : MVUProblem
        Variant ``equality``, ``inequality`` or ``min_trace``.
    method : {"auto", "lowrank", "ipm"}
        ``"lowrank"``: the factorised augmented Lagrangian of
        :mod:`harness.solvers.mvu_sdp.lowrank` (no n x n matrix; for large n). ``"ipm"``:
        the dense primal-dual interior-point method of :mod:`harness.solvers.mvu_sdp.ipm`
        (O(n^2 + m^2) memory; it stops as soon as the recomputed certificate meets
        the tolerances; measured, Swiss roll + 5 noise dimensions, k = 5, 2 BLAS
        threads: n = 1000 (m = 5733) in 36 s, where the low-rank method does not
        reach 1e-3 within 10 minutes). ``"auto"``: ``"ipm"`` when its iteration fits
        ``memory_budget`` (:func:`ipm_fits`), else ``"lowrank"``.
    tol_gap, tol_violation : float
        Targets for the relative gap and the relative constraint violation of the
        certificate; the solver stops when both are met.
    time_limit : float
        CPU seconds of this process for the whole solve (:class:`harness.timelimit.
        Deadline`: the same clock as the job's budget, so the verdict does not
        depend on the machine's load; a hand-over gets the CPU time left); on expiry
        the best certified iterate is returned with status "timeout".
    verbose : bool
        Print one line per iteration.
    seed, rank, n_basis, sigma0, max_outer, init, extra_columns, max_inner, segment
        The low-rank method's settings, passed on to
        :func:`harness.solvers.mvu_sdp.lowrank.solve_lowrank` (see there). ``init``
        (n x q, e.g. the inputs, centred) is its starting factor, required for
        ``min_trace``; without it a stalled interior-point ``min_trace`` solve is
        returned as it is.
    memory_budget : float
        Bytes the interior-point iteration may use (``"auto"`` and ``"ipm"``).
    facial : {"auto", "off"}
        ``"auto"``: facial reduction first (equality and min_trace, methods ``"auto"``
        and ``"ipm"``), if the face keeps at most ``FACIAL_MAX_KEPT`` of the edges;
        the result's ``details["face"]`` says what was exposed. A face solve that is
        not certified optimal hands over to the full problem, unless the face is exact
        and its solution feasible (then the full SDP has no interior: the face's
        certified gap is the answer, marked).

    Returns
    -------
    NativeResult
        Of the method that answered (``details["method"]``: ``"facial"``, ``"ipm"``
        or ``"lowrank"``), with ``details["face"]`` whenever facial reduction ran.

    Raises
    ------
    ValueError
        For a variant other than :data:`SUPPORTED_VARIANTS`, an unknown ``method`` or
        ``facial``, and a low-rank ``min_trace`` solve without ``init``.
    """
    if problem.variant not in SUPPORTED_VARIANTS:
        raise ValueError(f"solve_native supports the variants {SUPPORTED_VARIANTS}, "
                         f"got {problem.variant!r}")
    if method not in METHODS:
        raise ValueError(f"method={method!r} is not one of {METHODS}")
    if facial not in FACIAL_MODES:
        raise ValueError(f"facial={facial!r} is not one of {FACIAL_MODES}")
    if facial == "auto" and method != "lowrank" and problem.variant in FACIAL_VARIANTS:
        deadline = Deadline(time_limit)
        reduction = reduce_to_face(problem)
        face = face_details(problem, reduction)
        reduced = None
        if (reduction.face_dim < problem.n - 1
                and len(reduction.kept) <= FACIAL_MAX_KEPT * problem.m):
            reduced = solve_facial(problem, tol_gap=tol_gap, tol_violation=tol_violation,
                                   time_limit=time_limit, reduction=reduction,
                                   verbose=verbose)
            reduced.details.update(method="facial", face=face)
            if (reduced.status == "optimal" or _no_interior(reduced, reduction, tol_violation)
                    or deadline.left() <= 0):
                return reduced
        # no face, one too large to pay off, or one the certificate rejects (e.g. too
        # loose a tolerance on noisy data): the full problem gets the time left
        full = solve_native(problem, rank=rank, tol_gap=tol_gap, tol_violation=tol_violation,
                            time_limit=deadline.left(),
                            seed=seed, verbose=verbose, n_basis=n_basis, sigma0=sigma0,
                            max_outer=max_outer, init=init, extra_columns=extra_columns,
                            max_inner=max_inner, segment=segment, method=method,
                            memory_budget=memory_budget, facial="off")
        full.details["face"] = face
        if reduced is None or _better_result(full, reduced, tol_gap, tol_violation):
            return full
        return reduced
    if not starts_lowrank(problem, method, memory_budget):
        deadline = Deadline(time_limit)
        ipm = solve_ipm(problem, tol_gap=tol_gap, tol_violation=tol_violation,
                        time_limit=time_limit, memory_budget=memory_budget,
                        verbose=verbose)
        left = min(deadline.left(), max(FALLBACK_MIN_SECONDS,
                                        FALLBACK_FACTOR * deadline.used()))
        if (method == "ipm" or ipm.status == "optimal" or left <= 0
                or (init is None and not problem.maximize)):
            return ipm
        # a degenerate (e.g. noise-free, locked) instance can stall the interior-point
        # method short of the tolerances: the low-rank method gets a bounded share of
        # the time left (FALLBACK_FACTOR)
        lowrank = solve_lowrank(problem, rank=rank, tol_gap=tol_gap,
                                tol_violation=tol_violation, time_limit=left, seed=seed,
                                verbose=verbose, n_basis=n_basis, sigma0=sigma0,
                                max_outer=max_outer, init=init, extra_columns=extra_columns,
                                max_inner=max_inner, segment=segment)
        return lowrank if _better_result(lowrank, ipm, tol_gap, tol_violation) else ipm
    return solve_lowrank(problem, rank=rank, tol_gap=tol_gap, tol_violation=tol_violation,
                         time_limit=time_limit, seed=seed, verbose=verbose, n_basis=n_basis,
                         sigma0=sigma0, max_outer=max_outer, init=init,
                         extra_columns=extra_columns, max_inner=max_inner, segment=segment)


def solve_native_backend(problem: MVUProblem, solver: str, method: str, *, time_limit: float,
                         tol_gap: float, tol_violation: float, seed: int, init,
                         cost=None) -> SolveResult:
    """:func:`solve_native` (or, with a linear ``cost``, the interior point's
    :func:`~harness.solvers.mvu_sdp.ipm.solve_ipm`) as the backend ``solver`` (the
    plugins ``harness/solvers/backends/native.py`` and ``native_lowrank.py``), its
    answer judged like any other backend's (:func:`~harness.solvers.mvu_sdp.result.judge`).

    Returns ``skipped`` for a linear cost with ``method="lowrank"`` or beyond the
    interior point's memory budget, and for a low-rank minimum-trace solve without
    ``init`` (the inputs' principal coordinates)."""
    start = time.perf_counter()
    if cost is not None:
        if method != "auto" or not ipm_fits(problem):
            return SolveResult("skipped", "a linear cost is solved by the native interior "
                               "point only (solver native), within its memory budget; "
                               f"n = {problem.n}, m = {problem.m}", solver)
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
