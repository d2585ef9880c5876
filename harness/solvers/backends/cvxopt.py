"""CVXOPT's interior-point cone solver through cvxpy."""

from harness.solvers.cvxpy_backend import CvxpyBackend


class CVXOPT(CvxpyBackend):
    order = 50
    description = "CVXOPT interior point, through cvxpy"
    modules = ("cvxpy", "cvxopt")
    install = "pip install cvxopt"
    cvxpy_name = "CVXOPT"
