"""The MVU SDP solvers: one entry point (:func:`solve_mvu`) over every backend.

Importing this package loads neither cvxpy nor the native solver's modules (numba and
its compiled kernels): :func:`solve_mvu` imports them when a solve asks for them.
"""

from harness.solvers.mvu.cvxpy import CVXPY_NAMES, solve_cvxpy
from harness.solvers.mvu.dispatch import MVU_SOLVERS, NATIVE_METHODS, solve_mvu
from harness.solvers.mvu.result import STATUSES, NativeResult, SolveResult, final_status, judge

__all__ = ["MVU_SOLVERS", "NATIVE_METHODS", "CVXPY_NAMES", "STATUSES", "SolveResult",
           "NativeResult", "solve_mvu", "solve_cvxpy", "judge", "final_status"]
