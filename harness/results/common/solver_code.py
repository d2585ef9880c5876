"""Which module holds each MVU solver backend: the code whose edit reruns its solves."""

from __future__ import annotations

__all__ = ["BACKEND_MODULES", "CVXPY_MODULE", "solver_module"]

# the module holding each backend's solver; the cvxpy backends share one
BACKEND_MODULES = {"native": "harness.solvers.mvu.native",
                   "native_lowrank": "harness.solvers.mvu.native",
                   "csdp": "harness.solvers.mvu.csdp"}
CVXPY_MODULE = "harness.solvers.mvu.cvxpy"


def solver_module(backend: str) -> str:
    """The dotted name of the module that solves MVU with ``backend``."""
    return BACKEND_MODULES.get(backend, CVXPY_MODULE)
