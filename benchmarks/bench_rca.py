"""asv benchmarks of RCA (thesis 2.2.1, eqs. 2.23-2.24, :mod:`harness.methods.rca_knn`).

``RCAMap.time_rca_map``: chunklets (every point, one per class) and ``A_rca`` on
:func:`benchmarks.common.mnist_like` data (``n`` of :data:`benchmarks.common.SIZES`,
164 features, 10 classes): a full PCA, the within-chunklet covariance and one 164 x 164
eigen-decomposition. ``RCADigits.time_fit``: the ``rca_knn`` plugin's whole fit on the
70/30 digits split of ``bench_lmnn`` (the map plus the target neighbours the energy rule
needs); ``track_test_error``: its 3-NN test error in %. BLAS pinned to
:data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np

from benchmarks.bench_lmnn import digits_split
from benchmarks.common import SIZES, Pinned, mnist_like
from harness.methods.rca_knn import RCAKNN, make_chunklets, rca_map


class RCAMap(Pinned):
    params = [list(SIZES)]
    param_names = ["n"]

    def setup(self, n):
        super().setup()
        self.X, y = mnist_like(n)
        self.chunks = make_chunklets(y)

    def time_rca_map(self, n):
        rca_map(self.X, self.chunks)


class RCADigits(Pinned):
    def setup(self):
        super().setup()
        self.Xtr, self.Xte, self.ytr, self.yte = digits_split()

    def time_fit(self):
        RCAKNN(n_neighbors=3).fit(self.Xtr, self.ytr)

    def track_test_error(self):
        est = RCAKNN(n_neighbors=3).fit(self.Xtr, self.ytr)
        return 100.0 * float(np.mean(est.predict(self.Xte) != self.yte))
