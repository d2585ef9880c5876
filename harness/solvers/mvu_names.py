"""The names of the MVU SDP's backends, without importing them: what a profile is
checked against (:mod:`harness.solvers.mvu` imports cvxpy, SciPy and scikit-learn,
which validating a profile in every job process should not pay for)."""

from __future__ import annotations

__all__ = ["CVXPY_NAMES", "NATIVE_METHODS", "MVU_SOLVERS"]

#: The cvxpy backends: the harness' name and cvxpy's.
CVXPY_NAMES = {"clarabel": "CLARABEL", "scs": "SCS", "cvxopt": "CVXOPT", "sdpa": "SDPA",
               "mosek": "MOSEK"}
#: The native backends and the ``method`` of
#: :func:`~harness.solvers.mvu.native.solve_native` each one runs.
NATIVE_METHODS = {"native": "auto", "native_lowrank": "lowrank"}
#: Every backend :func:`~harness.solvers.mvu.solve_mvu` accepts: the native ones, the
#: cvxpy ones, CSDP.
MVU_SOLVERS = (*NATIVE_METHODS, *CVXPY_NAMES, "csdp")
