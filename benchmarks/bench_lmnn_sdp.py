"""asv benchmarks of LMNN's SDP (thesis 2.1.3, eq. 2.11) by a generic solver against the
special-purpose solvers (:mod:`harness.results.lmnn_sdp`).

``LMNNSDP``: on iris subsets of ``per_class`` points per class (k = 3, z-scored, as the
result's scaling job: 288 to 3528 triplets), ``time_generic`` builds and solves the
slack-variable SDP with cvxpy + Clarabel, ``time_reference`` runs the thesis' Algorithm
3 (``solver="reference"``) and ``time_lbfgs`` the default L-BFGS solver, both from
M = I with tol 1e-9. BLAS pinned to :data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS


class LMNNSDP:
    params = [[4, 8, 14]]
    param_names = ["per_class"]

    def setup(self, per_class):
        from harness import registry
        from harness.results.lmnn_sdp.work import draw_problem

        self._limits = threadpool_limits(BLAS_THREADS)
        data = registry.get_dataset("iris")().load()
        self.p = draw_problem(np.asarray(data.X, float), np.asarray(data.y), per_class, 3,
                              [0, per_class], True)
        self.params = {"mu": 0.5, "special_tol": 1e-9, "lbfgs_max_iter": 20000,
                       "reference_max_iter": 5000}

    def teardown(self, per_class):
        self._limits.restore_original_limits()

    def time_generic(self, per_class):
        from harness.results.lmnn_sdp.sdp import solve_sdp

        solve_sdp(self.p.X, self.p.targets, self.p.triples, 0.5, 1.0)

    def time_reference(self, per_class):
        from harness.results.lmnn_sdp.work import run_special

        run_special(self.p, self.params, "reference", np.eye(self.p.X.shape[1]))

    def time_lbfgs(self, per_class):
        from harness.results.lmnn_sdp.work import run_special

        run_special(self.p, self.params, "lbfgs", np.eye(self.p.X.shape[1]))
