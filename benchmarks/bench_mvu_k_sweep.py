"""asv benchmarks of Fig. 3.28's MVU solves (thesis 3.1.12): the noise-free Swiss roll
under varying k, solved by the native solver.

The data are the figure's: ``n`` points of the noise-free Swiss roll
(``HARNESS_BENCH_KSWEEP_N``, default 1000, the thesis' size), seed 0, the clique graph
of each k (3.1.4), maximum trace (``equality``), tolerances 1e-3 (certified gap) and
1e-4 (violation). For k >= 4 the cliques' null vectors expose a proper face of the
PSD cone and the native solver solves the reduced problem
(:mod:`harness.problems.facial_reduction`); at k = 3 nothing is exposed and the
interior-point method solves the whole problem.

* ``time_solve``: wall time of ``solve_mvu(problem, "native")`` for one k (the
  problem is built in ``setup``, untimed). The issue's target: the whole sweep
  k = 3..10 at n = 1000 within 5 minutes (the sum over k).
* ``track_face_dimension``: the dimension of the exposed face (n - 1: none);
  ``track_gap``: the certified relative gap, recomputed by the harness. Both read one
  solve per k made in ``setup_cache``.

BLAS threads: ``HARNESS_BENCH_THREADS`` (default 1); the targets are stated for 2.
"""

import os

from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, OneSample
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import in_this_process

N = int(os.environ.get("HARNESS_BENCH_KSWEEP_N", "1000"))
KS = [3, 4, 5, 6, 7, 8, 9, 10]
TIME_LIMIT = 600.0


def _problem(n, k):
    from harness.datasets.swiss_roll import SwissRoll

    X = SwissRoll().load(n_samples=n, noise=0.0, seed=0).X
    return MVUProblem.from_points(X, k)


def _solve(problem):
    with in_this_process():
        return solve_mvu(problem, "native", time_limit=TIME_LIMIT, tol_gap=1e-3,
                         tol_violation=1e-4)


class MVUKSweep(OneSample):
    """One native MVU solve per k on the noise-free roll: time, face, gap."""

    params = [KS]
    param_names = ["k"]
    timeout = TIME_LIMIT + 120

    def setup_cache(self):
        cache = {}
        with threadpool_limits(BLAS_THREADS):
            for k in KS:
                result = _solve(_problem(N, k))
                face = result.details.get("face") or {}
                cache[k] = {"status": result.status,
                            "gap": None if result.certificate is None else result.certificate.gap,
                            "face": face.get("dimension", N - 1)}
        return cache

    setup_cache.timeout = 8 * TIME_LIMIT

    def setup(self, cache, k):
        self._limits = threadpool_limits(BLAS_THREADS)
        self.problem = _problem(N, k)

    def teardown(self, cache, k):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()

    def time_solve(self, cache, k):
        _solve(self.problem)

    def track_face_dimension(self, cache, k):
        return cache[k]["face"]

    track_face_dimension.unit = "dimension"

    def track_gap(self, cache, k):
        gap = cache[k]["gap"]
        return float("nan") if gap is None else gap

    track_gap.unit = "relative gap"
