"""asv benchmarks of the speed claim of thesis 2.2.1 (line 1112, register entry
``s2-2-1-rca-eig-speedup``): RCA's ``C_w_hat^{-1/2}`` from an eigen-decomposition (the
eigenvalues raised to -1/2) against a general matrix square root and inverse
(``scipy.linalg.inv(scipy.linalg.sqrtm(C))``), on the covariance of ``d + 100`` Gaussian
points, d = 50, 200, 784 (the sizes of ``results.linear_methods_2_2_1.timing_dimensions``).
BLAS pinned to :data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np
import scipy.linalg
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS


class InverseSquareRoot:
    params = [[50, 200, 784]]
    param_names = ["d"]

    def setup(self, d):
        self._limits = threadpool_limits(BLAS_THREADS)
        Y = np.random.default_rng(0).standard_normal((d + 100, d))
        self.C = np.cov(Y, rowvar=False)

    def teardown(self, d):
        self._limits.restore_original_limits()

    def time_eigh(self, d):
        w, V = np.linalg.eigh(self.C)
        (V / np.sqrt(w)) @ V.T

    def time_inv_sqrtm(self, d):
        scipy.linalg.inv(scipy.linalg.sqrtm(self.C))
