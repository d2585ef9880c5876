"""The family of the harness' own MVU solver's backends: a plugin only declares
the ``method`` of :func:`harness.solvers.mvu_sdp.native_solver.solve_native`
(``harness/solvers/backends/native.py``, ``native_lowrank.py``)."""

from __future__ import annotations

from typing import ClassVar

from harness.problems.mvu_variants import NATIVE_VARIANTS
from harness.solvers.backend import SolverBackend

__all__ = ["NativeBackend"]


class NativeBackend(SolverBackend):
    """The harness' own MVU solver (:func:`harness.solvers.mvu_sdp.native_solver.solve_native`)
    with one ``method``: ``"auto"`` (facial reduction, the interior point within its
    memory budget, the low-rank method beyond) or ``"lowrank"``."""

    method: ClassVar[str] = "auto"
    variants = NATIVE_VARIANTS
    linear_cost = True

    @classmethod
    def solve(cls, problem, *, time_limit, tol_gap, tol_violation, seed=0, init=None,
              cost=None, options=None):
        from harness.solvers.mvu_sdp.native_solver import solve_native_backend

        return solve_native_backend(problem, cls.name, cls.method, time_limit=time_limit,
                                    tol_gap=tol_gap, tol_violation=tol_violation,
                                    seed=seed, init=init, cost=cost)
