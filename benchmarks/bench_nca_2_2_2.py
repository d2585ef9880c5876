"""asv benchmarks of thesis 2.2.2's NCA speed claims (register entries
``s2-2-2-nca-gradient-o-n2d2`` and ``s2-2-2-nca-diagonal-faster``; the result
``nca_2_2_2`` decides them): NCA's gradient (2.34) as written (the pairs' outer products
summed per point) against its matrix form, on Gaussian data at n = 200, 400 (d = 40) and
d = 20, 80 (n = 400); and NCA fitted over a full against a diagonal matrix (the same
L-BFGS-B, objective and tolerances) on 178 z-scored Gaussian points in 13 dimensions
(wine's shape). Compare the ratios within one run (shared machine). BLAS pinned to
:data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.results.nca_2_2_2.work import fit_nca, gradient_as_written
from harness.results.nca_local_minima.objectives import nca_gradient


class NCAGradient:
    params = [["200x40", "400x40", "400x20", "400x80"], ["as_written", "matrix_form"]]
    param_names = ["n_d", "form"]

    def setup(self, n_d, form):
        self._limits = threadpool_limits(BLAS_THREADS)
        n, d = map(int, n_d.split("x"))
        rng = np.random.default_rng(0)
        self.X, self.y = rng.standard_normal((n, d)), rng.integers(0, 3, n)
        self.A = np.eye(d) + 0.1 * rng.standard_normal((d, d))

    def teardown(self, n_d, form):
        self._limits.restore_original_limits()

    def time_gradient(self, n_d, form):
        (gradient_as_written if form == "as_written" else nca_gradient)(self.A, self.X, self.y)


class NCADiagonal:
    params = [["full", "diagonal"]]
    param_names = ["matrix"]
    timeout = 120

    def setup(self, matrix):
        self._limits = threadpool_limits(BLAS_THREADS)
        rng = np.random.default_rng(0)
        y = rng.integers(0, 3, 178)
        X = rng.standard_normal((178, 13)) + y[:, None] * rng.standard_normal(13)
        self.X, self.y = (X - X.mean(0)) / X.std(0), y

    def teardown(self, matrix):
        self._limits.restore_original_limits()

    def time_fit(self, matrix):
        fit_nca(self.X, self.y, matrix == "diagonal", max_iter=50, tol=1e-5)
