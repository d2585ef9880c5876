"""The MVU SDP solvers: one entry point (:func:`solve_mvu`) over every backend.

One job per module:

- :mod:`~harness.solvers.mvu.dispatch`: :func:`solve_mvu` across backends (the
  native solver, every cvxpy one, CSDP) and :data:`MVU_SOLVERS`, their names;
- :mod:`~harness.solvers.mvu.native`: :func:`~harness.solvers.mvu.native.solve_native`,
  the native solver's own dispatcher (facial reduction first, then the interior-point
  or the low-rank method);
- :mod:`~harness.solvers.mvu.ipm`: the dense primal-dual interior-point method, with
  its numba Schur kernel in :mod:`~harness.solvers.mvu._schur_kernel`;
- :mod:`~harness.solvers.mvu.lowrank`: the low-rank augmented-Lagrangian method;
- :mod:`~harness.solvers.mvu.facial`: the interior-point method on the face that
  facial reduction exposes;
- :mod:`~harness.solvers.mvu.cvxpy`: general-purpose SDP solvers through cvxpy;
- :mod:`~harness.solvers.mvu.csdp`: the thesis' solver CSDP, run as a program
  (:mod:`~harness.solvers.mvu.csdp_run`: its limits and outcome) on the
  SDP in one of three formulations (:mod:`~harness.solvers.mvu.csdp_formulation`)
  written as an SDPA sparse file (:mod:`~harness.solvers.mvu.sdpa_format`);
- :mod:`~harness.solvers.mvu.result`: what a solve returns and how the harness judges
  it (:class:`SolveResult`, :func:`judge`, :data:`STATUSES`).

Importing this package loads neither cvxpy nor the native solver's modules (numba and
its compiled kernels): :func:`solve_mvu` imports them when a solve asks for them, so
that a cvxpy solve's child process does not carry them (its peak memory is recorded).
"""

from harness.solvers.mvu.cvxpy import CVXPY_NAMES, solve_cvxpy
from harness.solvers.mvu.dispatch import MVU_SOLVERS, NATIVE_METHODS, solve_mvu
from harness.solvers.mvu.result import STATUSES, NativeResult, SolveResult, final_status, judge

__all__ = ["MVU_SOLVERS", "NATIVE_METHODS", "CVXPY_NAMES", "STATUSES", "SolveResult",
           "NativeResult", "solve_mvu", "solve_cvxpy", "judge", "final_status"]
