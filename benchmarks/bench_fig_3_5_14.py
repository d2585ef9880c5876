"""asv benchmarks of the k-NN-only relaxation of MVU (thesis 3.1.6, line 1606-1611,
result ``fig_3_5_14``): strict MVU on the k-nearest-neighbour graph against the clique
graph of 3.1.4, on the roll of Fig. 3.5 (p = 8: three roll coordinates, five of
N(0, 0.1^2) noise) with k = 6, seed 0, native solver.

* ``time_solve``: wall time of ``solve_mvu(problem, "native")`` per graph and n
  (``HARNESS_BENCH_KNN_SIZES``, default ``200,500``); the problem is built in
  ``setup``, untimed. The register's claim: the k-NN-only solve is faster.
* ``track_edges``: the number of distance constraints of each graph.

BLAS threads: :data:`benchmarks.common.BLAS_THREADS`.
"""

import os

from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, OneSample
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import in_this_process

SIZES = [int(n) for n in os.environ.get("HARNESS_BENCH_KNN_SIZES", "200,500").split(",")]
TIME_LIMIT = 600.0


def _problem(n, connectivity):
    from harness.datasets.swiss_roll import SwissRoll

    X = SwissRoll().load(n_samples=n, extra_noise_dims=5, extra_noise_std=0.1, seed=0).X
    return MVUProblem.from_points(X, 6, connectivity=connectivity)


class KnnOnlyMVU(OneSample):
    """Strict MVU on the k-NN graph and on the clique graph: time and constraints."""

    params = [["knn", "clique"], SIZES]
    param_names = ["graph", "n"]
    timeout = TIME_LIMIT + 120

    def setup(self, graph, n):
        self._limits = threadpool_limits(BLAS_THREADS)
        self.problem = _problem(n, graph)

    def teardown(self, graph, n):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()

    def time_solve(self, graph, n):
        with in_this_process():
            solve_mvu(self.problem, "native", time_limit=TIME_LIMIT, tol_gap=1e-3,
                      tol_violation=1e-4)

    def track_edges(self, graph, n):
        return self.problem.m

    track_edges.unit = "edges"
