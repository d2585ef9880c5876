"""asv benchmarks of dual PCA (lecture 3) against PCA at the teapot's shape.

Dual PCA (:class:`harness.methods.dual_pca.DualPCA`) diagonalises the n x n Gram matrix
instead of PCA's d x d covariance; it pays off when d >> n. Both plugins are fitted
(``fit_transform``, ``n_components=2`` as the teapot's row of Table 3.2) on the same
seeded uniform random data of the teapot's shape, ``n = 400`` images of ``d = 23028``
pixels (``HARNESS_BENCH_DUAL_PCA_SHAPE``, e.g. ``100x2000``, overrides it for a quick
dry run). :class:`harness.methods.pca.PCA` is scikit-learn's PCA with the full SVD (LAPACK
gesdd of the 400 x 23028 matrix).

* ``DualVsPCA.time_fit_transform``: wall time of one ``fit_transform`` per method;
* ``DualVsPCA.track_cpu_seconds``: its CPU seconds, from ``setup_cache``;
* ``DualVsPCA.track_cpu_ratio_to_pca``: CPU seconds of the method over PCA's, both
  measured in the same ``setup_cache`` process, interleaved (``ROUNDS`` rounds, the
  smallest per method): on a shared machine the ratio is what is compared, not the
  seconds. ``dual_pca``'s value is the speed-up's inverse (below 1: dual PCA is
  faster).

Measured by hand (``DualVsPCA().setup_cache()`` called directly, 1 BLAS thread, load
~1 on the 2-core reference machine; numpy 2.4.6, scipy 1.17.1, scikit-learn 1.9.1):
PCA 1.93 CPU-s, dual PCA 0.145 CPU-s, ratio 0.075 (dual PCA ~13x faster).

Threads: every fit runs under ``threadpoolctl.threadpool_limits(BLAS_THREADS)`` (BLAS
and OpenMP pinned to ``HARNESS_BENCH_THREADS`` threads, default 1), so that the ratio
does not depend on the core count.
"""

import os
import time

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.methods.dual_pca import DualPCA
from harness.methods.pca import PCA

N, D = (int(v) for v in os.environ.get("HARNESS_BENCH_DUAL_PCA_SHAPE", "400x23028").split("x"))
N_COMPONENTS = 2
ROUNDS = 3
SEED = 0
METHODS = {"pca": PCA, "dual_pca": DualPCA}


def teapot_shaped(n=N, d=D, seed=SEED):
    """Seeded uniform [0, 1) "pixels", ``n x d`` (float64)."""
    return np.random.default_rng(seed).random((n, d))


def _cpu_fit(method, X):
    start = time.process_time()
    METHODS[method](n_components=N_COMPONENTS).fit_transform(X)
    return time.process_time() - start


class DualVsPCA:
    """Dual PCA beside PCA on one 400 x 23028 matrix."""

    params = [list(METHODS)]
    param_names = ["method"]
    timeout = 600

    def setup_cache(self):
        X = teapot_shaped()
        best = {m: float("inf") for m in METHODS}
        with threadpool_limits(BLAS_THREADS):
            for _ in range(ROUNDS):
                for method in METHODS:
                    best[method] = min(best[method], _cpu_fit(method, X))
        return best

    setup_cache.timeout = 900

    def setup(self, cache, method):
        self._limits = threadpool_limits(BLAS_THREADS)
        self.X = teapot_shaped()

    def teardown(self, cache, method):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()

    def time_fit_transform(self, cache, method):
        METHODS[method](n_components=N_COMPONENTS).fit_transform(self.X)

    def track_cpu_seconds(self, cache, method):
        return cache[method]

    track_cpu_seconds.unit = "CPU seconds"

    def track_cpu_ratio_to_pca(self, cache, method):
        return cache[method] / cache["pca"]

    track_cpu_ratio_to_pca.unit = "CPU seconds / PCA CPU seconds"
