"""The MVU SDP solvers: one entry point (:func:`solve_mvu`) over every backend.

One job per module:

- :mod:`~harness.solvers.mvu_sdp.dispatch`: :func:`solve_mvu` across the backend plugins
  of :mod:`harness.solvers.backends` (the native solver, the cvxpy ones, CSDP) and
  :func:`mvu_solvers`, their names;
- :mod:`~harness.solvers.mvu_sdp.native_solver`: :func:`~harness.solvers.mvu_sdp.native_solver.solve_native`,
  the native solver's own dispatcher (facial reduction first, then the interior-point
  or the low-rank method);
- :mod:`~harness.solvers.mvu_sdp.ipm`: the dense primal-dual interior-point method, with
  its numba Schur kernel in :mod:`~harness.solvers.mvu_sdp.schur_kernel`;
- :mod:`~harness.solvers.mvu_sdp.lowrank`: the low-rank augmented-Lagrangian method;
- :mod:`~harness.solvers.mvu_sdp.facial`: the interior-point method on the face that
  facial reduction exposes;
- :mod:`~harness.solvers.mvu_sdp.cvxpy`: general-purpose SDP solvers through cvxpy;
- :mod:`~harness.solvers.mvu_sdp.csdp_run`: the thesis' solver CSDP's run as a program
  (its limits and outcome; the backend is :mod:`harness.solvers.backends.csdp`) on the
  SDP in one of three formulations (:mod:`~harness.solvers.mvu_sdp.csdp_formulation`)
  written as an SDPA sparse file (:mod:`~harness.solvers.mvu_sdp.sdpa_format`);
- :mod:`~harness.solvers.mvu_sdp.result`: what a solve returns and how the harness judges
  it (:class:`SolveResult`, :func:`judge`, :data:`STATUSES`).

Importing this package loads neither cvxpy nor the native solver's modules (numba and
its compiled kernels): :func:`solve_mvu` imports them when a solve asks for them, so
that a cvxpy solve's child process does not carry them (its peak memory is recorded).
"""

from harness.solvers.mvu_sdp.cvxpy import solve_cvxpy
from harness.solvers.mvu_sdp.dispatch import cvxpy_solvers, mvu_solvers, solve_mvu
from harness.solvers.mvu_sdp.result import STATUSES, NativeResult, SolveResult, final_status, judge

__all__ = ["mvu_solvers", "cvxpy_solvers", "STATUSES", "SolveResult",
           "NativeResult", "solve_mvu", "solve_cvxpy", "judge", "final_status"]
