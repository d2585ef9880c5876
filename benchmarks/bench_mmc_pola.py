"""asv benchmarks of MMC and POLA (thesis 2.2.2, :mod:`harness.results.mmc_pola`).

``MMCFit``: one fit of metric-learn's MMC (Xing et al.'s projected gradient) and of our
certified solve of MMC's problem (:func:`harness.results.mmc_pola.mmc.solve_mmc`) on
2000 labelled pairs of iris, beside RCA's map on the same data (the timing claim
s2-2-2-mmc-slower). ``POLAPass``: one batch-POLA pass over ``pairs`` random pairs of
:func:`benchmarks.common.mnist_like` data with 50 features (s2-2-2-pola-fast-large).
BLAS pinned to :data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, mnist_like


class _Pinned:
    def setup(self, *args):
        self._limits = threadpool_limits(BLAS_THREADS)

    def teardown(self, *args):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()


def _iris_pairs():
    from sklearn.datasets import load_iris

    from harness.results.mmc_pola.mmc import pair_differences, sample_pairs

    X, y = load_iris(return_X_y=True)
    i, j = sample_pairs(y, 2000, np.random.default_rng(0))
    return X, y, pair_differences(X, y, i, j)


class MMCFit(_Pinned):
    def setup(self):
        super().setup()
        self.X, self.y, (self.D, self.same) = _iris_pairs()

    def time_metric_learn_mmc(self):
        from harness.results.mmc_pola.work import fit_metric_learn_mmc

        fit_metric_learn_mmc(self.D, self.same, 100, 0)

    def time_certified_mmc(self):
        from harness.results.mmc_pola.mmc import solve_mmc

        solve_mmc(self.D, self.same)

    def time_rca_map(self):
        from harness.methods.rca_knn import rca_map

        rca_map(self.X, self.y, None)


class POLAPass(_Pinned):
    params = [[1000, 10000, 100000]]
    param_names = ["pairs"]

    def setup(self, pairs):
        super().setup()
        from harness.results.mmc_pola.mmc import pair_differences
        from harness.results.mmc_pola.pola import batch_pola

        X, y = mnist_like(2000, d=50)
        rng = np.random.default_rng(0)
        self.D, same = pair_differences(X, y, rng.integers(0, 2000, pairs),
                                        rng.integers(0, 2000, pairs))
        self.y = 2.0 * same - 1.0
        batch_pola(self.D[:2], self.y[:2], max_passes=1)  # compile outside the timing

    def time_one_pass(self, pairs):
        from harness.results.mmc_pola.pola import batch_pola

        batch_pola(self.D, self.y, beta=0.0, max_passes=1)
