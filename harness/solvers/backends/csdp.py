"""Solve an MVU problem with CSDP, the thesis' own solver (3.1.4: "CSDP v4.9"), run
as the program ``csdp`` (Debian's ``coinor-csdp``, CSDP 6.2), and judge the answer
ourselves.

One solve: the problem in the chosen formulation
(:mod:`harness.solvers.mvu_sdp.csdp_formulation`) is written as an SDPA sparse file
(:mod:`harness.solvers.mvu_sdp.sdpa_format`) into a temporary directory together with
CSDP's parameter file ``param.csdp`` (:data:`PARAMETERS`); ``csdp problem
solution`` runs there and the directory is removed afterwards. CSDP's solution file
gives X and y; the harness takes ``K = J X J`` and the edge multipliers w
(:func:`~harness.solvers.mvu_sdp.csdp_formulation.kernel_and_multipliers`), recomputes
the certificate (:func:`harness.problems.mvu_certificate.certify`) and sets the
status from it alone (:func:`harness.solvers.mvu_sdp.result.judge`), as for every backend.

CSDP's return code (its user's guide, "Return Codes") decides only what cannot be
certified: 1 (primal infeasible) and 2 (dual infeasible: the MVU primal is unbounded,
e.g. on a disconnected graph) give ``infeasible``; the exit codes 200-206 (no
problem file, no memory, internal error) and a solution file that cannot be read or
holds values that are not finite give ``failed``. Every other code -- 0 (solved),
3 (near optimal), 4 (maximum iterations), 5-8 (stuck, lack of progress, singular),
9 (NaN/Inf), 10 (stopped by a signal) -- hands a solution to the certificate: a
code-0 answer above the tolerances is ``inaccurate``, a code-7 answer within them is
``optimal``. The code and its meaning are kept as ``solver_status``; CSDP's own
iteration count, objectives and infeasibilities as ``details["csdp"]``, never used to
judge.

Limits: ``time_limit`` CPU seconds of the CSDP process (all its threads) and a wall
cap for a runaway (:mod:`harness.solvers.mvu_sdp.csdp_run`: the kernel ends CSDP
without an iterate, so the solve is a ``timeout``); CSDP's BLAS gets this process'
BLAS thread count (e.g. a job's ``blas_threads``). CSDP's CPU seconds and peak
memory are in ``details["csdp"]``.

A missing program is a ``skipped`` solve whose reason says ``apt-get install
coinor-csdp`` (:class:`CSDP`'s declarations). Its options
(``options=`` of :func:`harness.solvers.mvu_sdp.dispatch.solve_mvu`) are ``formulation``
and ``params``.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import certify
from harness.solvers.backend import SolverBackend
from harness.solvers.mvu_sdp.csdp_formulation import (CSDP_VARIANTS, check_formulation,
                                                  kernel_and_multipliers, to_sdpa)
from harness.solvers.mvu_sdp.csdp_run import RETURN_CODES, CSDPRun, openblas_dir, run_csdp
from harness.solvers.mvu_sdp.result import SolveResult, judge, psd_factor
from harness.solvers.mvu_sdp.sdpa_format import SDPAProblem, read_solution, write_sdpa
from harness.timelimit import wall_cap_for

__all__ = ["CSDP", "solve_csdp", "PARAMETERS", "CSDP_MEMORY_BUDGET", "BLAS_CHOICES", "memory_estimate"]

#: Which BLAS the ``csdp`` program loads (:func:`solve_csdp`'s ``blas``).
BLAS_CHOICES = ("openblas", "system")

#: The parameters written to ``param.csdp``: CSDP 6.2's own defaults (its user's
#: guide, "Parameters"), written out so that what ran is on record and a stray
#: ``param.csdp`` elsewhere changes nothing (CSDP reads the one in its working
#: directory, a fresh temporary one). ``printlevel = 1`` makes the log show each
#: iteration. The stopping tolerances stay at CSDP's 1e-8: its stopping rule (relative
#: primal infeasibility ``|A(X) - a|_2 / (1 + |a|_2) <= axtol``, dual infeasibility
#: ``|A^T(y) - C - Z|_F / (1 + |C|_F) <= atytol``, gap ``tr(XZ) / (1 + |pobj| +
#: |dobj|) <= objtol``) then keeps the harness' certificate (gap about ``2 objtol +
#: atytol |C|_F``, violation at most ``axtol (1 + |b|_2) / max b``) far inside its
#: 1e-3 / 1e-4. Loosening them to what the certificate needs does not pay: measured
#: (noisy roll, k = 5, centred objective, 1 thread) objtol = 1e-4 left CSDP "stuck at
#: edge of primal feasibility" (return code 3) at n = 60 (certified gap 1.8e-3,
#: inaccurate) and n = 150 (5.6 s against 3.1 s with the defaults, CSDP's gap 1e-3
#: against 4e-9); the centring constraint at n = 150 stopped for lack of progress
#: (code 3, 62 iterations, 8 s) with either setting. ``perturbobj = 1`` (CSDP's
#: objective perturbation, C - eps I) is what bounds the centred objective's optimal
#: set (:mod:`harness.solvers.mvu_sdp.csdp_formulation`). ``params=`` of
#: :func:`solve_csdp` replaces any of them.
PARAMETERS = {"axtol": 1e-8, "atytol": 1e-8, "objtol": 1e-8, "pinftol": 1e8,
              "dinftol": 1e8, "maxiter": 100, "minstepfrac": 0.90, "maxstepfrac": 0.97,
              "minstepp": 1e-8, "minstepd": 1e-8, "usexzgap": 1, "tweakgap": 0,
              "affine": 0, "printlevel": 1, "perturbobj": 1, "fastmode": 0}
#: Bytes a solve may need (:func:`memory_estimate`); beyond it the solve is skipped.
CSDP_MEMORY_BUDGET = 8 * 2**30
_INFEASIBLE = (1, 2)


def memory_estimate(sdpa: SDPAProblem) -> int:
    """Bytes CSDP needs, roughly: its k x k Schur matrix O and ~16 dense copies of the
    n x n block (X, Z, their inverses' factors, steps, best iterates, work arrays)."""
    k, n = sdpa.n_constraints, max(abs(s) for s in sdpa.block_sizes)
    return 8 * (k * k + 16 * n * n)


def _tail(text: str, lines: int = 8) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])


def _check_parameters(params: dict) -> None:
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"unknown CSDP parameter(s) {unknown}; CSDP reads "
                         f"{', '.join(PARAMETERS)}")


def solve_csdp(problem: MVUProblem, *, time_limit: float = 600.0, tol_gap: float = 1e-3,
               tol_violation: float = 1e-4, formulation: str = "centring_penalty",
               params: dict | None = None, wall_cap: float | None = None,
               memory_budget: float = CSDP_MEMORY_BUDGET, blas: str = "openblas"
               ) -> SolveResult:
    """Solve ``problem`` with CSDP and certify the answer (module docstring).

    Parameters
    ----------
    problem : MVUProblem
        Variant ``equality``, ``inequality`` or ``min_trace``.
    time_limit : float
        CPU seconds of the CSDP process (whole seconds, at least 1).
    tol_gap, tol_violation : float
        The harness' tolerances (:func:`~harness.solvers.mvu_sdp.result.judge`); CSDP
        stops at its own (:data:`PARAMETERS`).
    formulation : {"centring_penalty", "centred_objective", "centring_constraint"}
        See :mod:`harness.solvers.mvu_sdp.csdp_formulation` (same optimal embedding; the
        default is the one CSDP solved to its tolerances on every instance measured).
    params : dict, optional
        CSDP parameters that replace those of :data:`PARAMETERS` (same names, e.g.
        ``{"maxiter": 200}``).
    wall_cap : float, optional
        Wall seconds before a runaway CSDP is killed (default
        :func:`harness.timelimit.wall_cap_for` the budget).
    memory_budget : float
        Bytes CSDP may need (:func:`memory_estimate`); a larger problem is skipped.
    blas : {"openblas", "system"}
        The BLAS the program loads. Debian's ``csdp`` links the system's
        ``libblas.so.3``, the reference BLAS unless another is selected; "openblas"
        loads Debian's OpenBLAS (``libopenblas0-pthread``,
        :data:`~harness.solvers.mvu_sdp.csdp_run.OPENBLAS_DIR`) where it is installed, as
        the native solver uses OpenBLAS through NumPy: a comparison of the two solvers
        then compares the algorithms, not the BLAS. Measured on one n = 1000 noisy
        roll (m = 5,733, 1 thread): ~29 s per CSDP iteration with the reference BLAS,
        ~7 s with OpenBLAS. The record says which library the process mapped
        (``details["csdp"]["blas_library"]``).

    Returns
    -------
    SolveResult
        ``skipped`` without the program, for the slack variant, or beyond the
        memory budget; ``timeout`` at a limit (no iterate: CSDP is killed);
        ``infeasible`` for CSDP's codes 1 and 2; ``failed`` when nothing can be
        certified; otherwise the certificate's verdict.

    Raises
    ------
    ValueError
        For an unknown ``formulation``, CSDP parameter name or ``blas``.
    """
    if blas not in BLAS_CHOICES:
        raise ValueError(f"unknown blas {blas!r} for csdp; choose one of "
                         f"{', '.join(BLAS_CHOICES)}")
    if problem.variant not in CSDP_VARIANTS:
        return SolveResult("skipped", f"the csdp backend solves {', '.join(CSDP_VARIANTS)}, "
                           f"not {problem.variant!r}; use a cvxpy backend", "csdp")
    check_formulation(formulation, problem.variant)
    _check_parameters(params or {})
    usable, why = CSDP.status()
    if not usable:
        return SolveResult("skipped", why, "csdp")
    start = time.perf_counter()
    sdpa = to_sdpa(problem, formulation)
    if memory_estimate(sdpa) > memory_budget:
        return SolveResult("skipped", f"CSDP would need ~{memory_estimate(sdpa) / 2**30:.1f} "
                           f"GiB (its {sdpa.n_constraints} x {sdpa.n_constraints} Schur "
                           f"matrix and n x n blocks, n = {problem.n}), beyond the memory "
                           f"budget of {memory_budget / 2**30:.1f} GiB", "csdp")
    settings = {name: float(value) for name, value in {**PARAMETERS, **(params or {})}.items()}
    cap = wall_cap_for(time_limit) if wall_cap is None else float(wall_cap)
    with tempfile.TemporaryDirectory(prefix="harness-csdp-") as tmp:
        workdir = Path(tmp)
        (workdir / "param.csdp").write_text(
            "".join(f"{name}={value!r}\n" for name, value in settings.items()))
        write_sdpa(sdpa, workdir / "problem.dat-s")
        compiled = time.perf_counter()
        run = run_csdp(shutil.which("csdp"), workdir, time_limit, cap,
                       blas_dir=openblas_dir() if blas == "openblas" else None)
        solution, unreadable = None, ""
        if run.limit is None and (workdir / "solution.txt").is_file():
            try:
                solution = read_solution(workdir / "solution.txt", sdpa)
            except ValueError as exc:
                unreadable = str(exc).replace(str(workdir), "<tmp>")
    result = SolveResult(
        "inaccurate", "", "csdp",
        solver_status=run.meaning,
        compile_seconds=compiled - start, solve_seconds=run.wall_seconds,
        details={"csdp": {**run.facts(), "formulation": formulation, "blas": blas,
                          "parameters": settings}})
    _judge_run(result, problem, run, solution, unreadable, time_limit, tol_gap, tol_violation)
    result.wall_seconds = time.perf_counter() - start
    return result


def _judge_run(result: SolveResult, problem: MVUProblem, run: CSDPRun, solution,
               unreadable: str, time_limit: float, tol_gap: float,
               tol_violation: float) -> None:
    """Set ``result``'s status, reason and certificate from the run (module
    docstring)."""
    if run.limit is not None:
        result.status = "timeout"
        result.reason = (f"CPU time limit of {time_limit:g} s reached: CSDP killed after "
                         f"{run.cpu_seconds:.1f} CPU-s, no iterate to certify"
                         if run.limit == "cpu" else
                         f"wall cap reached: CSDP killed as a runaway after "
                         f"{run.wall_seconds:.0f} s ({run.cpu_seconds:.1f} CPU-s)")
        return
    if run.returncode in _INFEASIBLE:
        result.status, result.reason = "infeasible", f"CSDP reports {result.solver_status}"
        return
    if solution is None or run.returncode not in RETURN_CODES or run.returncode >= 200:
        result.status = "failed"
        result.reason = (f"CSDP ended with {result.solver_status}; "
                         f"{unreadable or 'no solution file'}; its log: {_tail(run.log)}")
        return
    K, w = kernel_and_multipliers(problem, solution)
    if not (np.isfinite(K).all() and np.isfinite(w).all()):
        result.status = "failed"
        result.reason = (f"CSDP returned values that are not finite ({result.solver_status}): "
                         f"nothing to certify")
        return
    result.F, result.w = problem.centred(psd_factor(K)), w
    result.certificate = certify(problem, result.F, result.w)
    result.status, result.reason = judge(result.certificate, tol_gap, tol_violation)


class CSDP(SolverBackend):
    """The thesis' solver (3.1.4), run as the program ``csdp`` on an SDPA file
    (:func:`solve_csdp`); options ``formulation`` and ``params``."""

    order = 80
    description = "CSDP, the thesis' solver, run as a program on an SDPA file"
    programs = ("csdp",)
    install = "apt-get install coinor-csdp (Debian/Ubuntu; the binary is csdp)"
    variants = CSDP_VARIANTS
    options = ("formulation", "params")

    @classmethod
    def solve(cls, problem, *, time_limit, tol_gap, tol_violation, seed=0, init=None,
              cost=None, options=None):
        return solve_csdp(problem, time_limit=time_limit, tol_gap=tol_gap,
                          tol_violation=tol_violation, **(options or {}))
