"""asv benchmarks of minimum volume embedding's SDP step (harness.solvers.mve_solver): one
``min tr(K (I - 2 V_d V_d^T))`` over MVU's feasible set, by the native interior point
with a linear cost against Clarabel's dense model, and a whole MVE run.

Data: the Swiss roll with 5 noise dimensions (std 0.1, thesis Fig. 3.5), seed 0, the
k-nearest-neighbour connectivity (k = 5) of the MVE fidelity table, B from the
inputs' top two principal directions. Sizes: ``HARNESS_BENCH_MVE_SIZES`` (default
40,200); Clarabel (a dense n x n model) runs only up to n = 60. Tolerances 1e-6 (gap
and violation), as the table's. ``track_gap`` reads the certified gap of one solve.
Measured here (1 thread, shared machine): native 0.2 s at n = 40 (Clarabel 1.9 s),
~0.6 s at n = 200 and ~7 s at n = 500. BLAS: ``HARNESS_BENCH_THREADS`` (default 1).
"""

import os

from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, OneSample
from harness.timelimit import in_this_process

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_MVE_SIZES", "40,200").split(","))
DENSE_MAX_N = 60
TOL = 1e-6


def _setup(n):
    from harness.datasets.swiss_roll import SwissRoll
    from harness.problems.linear_cost import mve_cost
    from harness.solvers.mve_solver import affinity_factor, points_problem

    X = SwissRoll().load(n_samples=n, extra_noise_dims=5, extra_noise_std=0.1, seed=0).X
    F0 = affinity_factor(X)
    return points_problem(X, F0, 5, "knn"), F0, mve_cost(F0, 2)


class MVESDPStep(OneSample):
    """One certified SDP of MVE's iteration, native or Clarabel."""

    params = [list(SIZES), ["native", "clarabel"]]
    param_names = ["n", "solver"]
    timeout = 900

    def setup(self, n, solver):
        if solver != "native" and n > DENSE_MAX_N:
            raise NotImplementedError(f"skipped: {solver} runs up to n = {DENSE_MAX_N}")
        self._limits = threadpool_limits(BLAS_THREADS)
        self.problem, self.F0, self.cost = _setup(n)

    def teardown(self, n, solver):
        limits = self.__dict__.pop("_limits", None)  # None when setup skipped the case
        if limits is not None:
            limits.restore_original_limits()

    def _solve(self, solver):
        from harness.solvers.mvu_sdp import solve_mvu

        with in_this_process():
            return solve_mvu(self.problem, solver, tol_gap=TOL, tol_violation=TOL,
                             cost=self.cost)

    def time_sdp_step(self, n, solver):
        self._solve(solver)

    def track_gap(self, n, solver):
        return self._solve(solver).certificate.gap


class MVERun(OneSample):
    """A whole MVE run from K = A (eps 1e-2, at most 30 SDPs, the quick profile's)."""

    params = [list(SIZES)]
    param_names = ["n"]
    timeout = 1800

    def setup(self, n):
        self._limits = threadpool_limits(BLAS_THREADS)
        self.problem, self.F0, _ = _setup(n)

    def teardown(self, n):
        self._limits.restore_original_limits()

    def time_mve_run(self, n):
        from harness.solvers.mve_solver import iterate_mve

        iterate_mve(self.problem, self.F0, 2, eps=1e-2, max_iter=30, tol_gap=TOL,
                    tol_violation=TOL)
