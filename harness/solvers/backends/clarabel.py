"""Clarabel (an interior-point conic solver in Rust) through cvxpy."""

from harness.solvers.cvxpy_backend import CvxpyBackend


class Clarabel(CvxpyBackend):
    order = 30
    description = "Clarabel interior point, through cvxpy"
    modules = ("cvxpy", "clarabel")
    install = "pip install clarabel"
    cvxpy_name = "CLARABEL"
