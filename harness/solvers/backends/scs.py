"""SCS (a first-order splitting conic solver) through cvxpy."""

from harness.solvers.cvxpy_backend import CvxpyBackend


class SCS(CvxpyBackend):
    order = 40
    description = "SCS operator splitting, through cvxpy"
    modules = ("cvxpy", "scs")
    install = "pip install scs"
    cvxpy_name = "SCS"
