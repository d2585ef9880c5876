"""asv benchmark of the native MVU solver's elementwise passes
(:mod:`harness.solvers.mvu_sdp.dense_kernels`) against the NumPy expressions they
replace, side by side in one run: the Schur matrix's float32 preconditioner copy
(m x m; m = 5733, the solver table's at n = 1000, ``HARNESS_BENCH_KERNEL_M``), the
symmetrisation ``(G + G^T) / 2`` and the Householder reflection ``H P H`` (n x n;
n = 2000, ``HARNESS_BENCH_KERNEL_N``). Both give the same bits
(``tests/solvers/mvu_sdp/test_dense_kernels.py``). Measured by calling the benchmark
by hand (1 thread, the machine busy with two other jobs; NumPy -> numba): float32
copy 110 -> 73 ms, symmetrisation 37 -> 26 ms, reflection 51 -> 13 ms; the whole
n = 2000 solve, 2 threads, idle: 124.3 -> 117.3 s (``scripts/ipm_solve.py``). Not yet
understood: ``asv run --quick`` (one sample) gave the numba passes 468 and 110 ms
against NumPy's 55 and 43 ms (float32 copy, reflection; idle, 1 thread), while three
calls by hand in one process right after gave 42-64 and 5-6 ms against 54 and
43-48 ms; read this benchmark from a full ``asv run``. BLAS and numba threads:
``HARNESS_BENCH_THREADS`` (default 1)."""

import os

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.solvers.mvu_sdp.dense_kernels import float32_plus, reflected, symmetrized
from harness.solvers.mvu_sdp.schur_kernel import numba_threads_like_blas

M = int(os.environ.get("HARNESS_BENCH_KERNEL_M", "5733"))
N = int(os.environ.get("HARNESS_BENCH_KERNEL_N", "2000"))


class DensePasses:
    params = (["float32_copy", "symmetrize", "reflect"], ["numpy", "numba"])
    param_names = ["pass_", "implementation"]
    timeout = 300

    def setup(self, pass_, implementation):
        rng = np.random.default_rng(0)
        self.limits = threadpool_limits(BLAS_THREADS)
        self.threads = numba_threads_like_blas().__enter__()
        size = M if pass_ == "float32_copy" else N
        self.A = rng.standard_normal((size, size))
        self.v = rng.standard_normal(size)
        self.c = 2.0 / float(self.v @ self.v)
        self.r = self.A @ self.v
        self.run = getattr(self, f"_{pass_}_{implementation}")
        self.run()  # numba compiles (or loads its cache) outside the timing

    def teardown(self, pass_, implementation):
        self.threads.__exit__(None, None, None)
        self.limits.restore_original_limits()

    def _float32_copy_numpy(self):
        out = self.A.astype(np.float32)
        out += np.float32(1e-6)

    def _float32_copy_numba(self):
        float32_plus(self.A, 1e-6)

    def _symmetrize_numpy(self):
        0.5 * (self.A + self.A.T)

    def _symmetrize_numba(self):
        symmetrized(self.A)

    def _reflect_numpy(self):
        A, v, c, r = self.A, self.v, self.c, self.r
        out = A - c * np.outer(v, r)
        out -= c * np.outer(r, v)
        out += (c * c * float(v @ r)) * np.outer(v, v)

    def _reflect_numba(self):
        reflected(self.v, self.c, self.A, self.r, self.r)

    def time_pass(self, pass_, implementation):
        self.run()
