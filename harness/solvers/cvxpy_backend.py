"""The family of backends that are general-purpose conic solvers reached through
cvxpy: a plugin only declares ``cvxpy_name`` and what it needs
(``harness/solvers/backends/clarabel.py``)."""

from __future__ import annotations

from harness.solvers.backend import DENSE_MAX_N, SolverBackend

__all__ = ["CvxpyBackend"]


class CvxpyBackend(SolverBackend):
    """A general-purpose conic solver through cvxpy (:mod:`harness.solvers.mvu_sdp.cvxpy`):
    a dense n x n model solved in a child process under a CPU budget."""

    linear_cost = True
    max_n = DENSE_MAX_N

    @classmethod
    def solve(cls, problem, *, time_limit, tol_gap, tol_violation, seed=0, init=None,
              cost=None, options=None):
        from harness.solvers.mvu_sdp.cvxpy import solve_cvxpy

        return solve_cvxpy(problem, cls, time_limit=time_limit, tol_gap=tol_gap,
                           tol_violation=tol_violation, cost=cost)
