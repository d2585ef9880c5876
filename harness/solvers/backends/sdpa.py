"""SDPA (a primal-dual interior-point SDP solver, sdpa-python) through cvxpy."""

from harness.solvers.cvxpy_backend import CvxpyBackend


class SDPA(CvxpyBackend):
    order = 60
    description = "SDPA interior point, through cvxpy"
    modules = ("cvxpy", "sdpap")
    install = "pip install sdpa-python"
    cvxpy_name = "SDPA"
