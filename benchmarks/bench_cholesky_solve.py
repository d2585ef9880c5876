"""asv benchmark of one solve with a Cholesky factor, as the native MVU solver's
mixed-precision Schur solves do (:class:`harness.solvers.mvu_sdp.ipm.CholeskyFactor`):
LAPACK's ``potrs`` with one right-hand side against blocked substitution (``trsv`` on
diagonal blocks, ``gemv`` on panels), side by side in one run, on the float32 factor
of a random positive definite matrix of the size of the solver table's Schur matrix
at n = 1000 (m = 5733; ``HARNESS_BENCH_CHOLESKY_M`` overrides it). Measured by hand
(2 threads, m = 11426): 203 ms against 26 ms; m = 5733: 54 against 20 ms.
BLAS threads: ``HARNESS_BENCH_THREADS`` (default 1)."""

import os

import numpy as np
from scipy.linalg import lapack
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.solvers.mvu_sdp.ipm import CholeskyFactor

M = int(os.environ.get("HARNESS_BENCH_CHOLESKY_M", "5733"))


class CholeskySolve:
    params = (["potrs", "blocked"],)
    param_names = ["method"]
    timeout = 300

    def setup(self, method):
        rng = np.random.default_rng(0)
        A = rng.standard_normal((M, 64)).astype(np.float32)
        matrix = np.asfortranarray(A @ A.T + M * np.eye(M, dtype=np.float32))
        self.L, info = lapack.spotrf(matrix, lower=1, overwrite_a=1, clean=0)
        assert info == 0
        self.factor = CholeskyFactor(self.L)
        self.b = rng.standard_normal(M).astype(np.float32)
        self.limits = threadpool_limits(BLAS_THREADS)

    def teardown(self, method):
        self.limits.restore_original_limits()

    def time_solve(self, method):
        if method == "potrs":
            lapack.spotrs(self.L, self.b, lower=1)
        else:
            self.factor.solve(self.b)
