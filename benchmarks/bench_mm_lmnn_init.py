"""asv benchmarks of MM-LMNN's start (thesis 2.1.8: "To speed up training time, we
initialized each metric with the single LMNN metric"; :class:`harness.methods.mm_lmnn.MMLMNN`).

``MMLMNNInit.time_fit``: the whole fit on the 70/30 digits split of ``bench_lmnn``
from the single LMNN metric (its fit included) and from the scaled identity;
``track_n_iter``: MM-LMNN's L-BFGS iterations from each start. BLAS pinned to
:data:`benchmarks.common.BLAS_THREADS` threads.
"""

from threadpoolctl import threadpool_limits

from benchmarks.bench_lmnn import digits_split
from benchmarks.common import BLAS_THREADS
from harness.methods.mm_lmnn import MMLMNN


class MMLMNNInit:
    params = [["single", "identity"]]
    param_names = ["init"]

    def setup(self, init):
        self._limits = threadpool_limits(BLAS_THREADS)
        self.Xtr, _, self.ytr, _ = digits_split()

    def teardown(self, init):
        self._limits.restore_original_limits()

    def time_fit(self, init):
        MMLMNN(n_neighbors=3, init=init).fit(self.Xtr, self.ytr)

    def track_n_iter(self, init):
        return MMLMNN(n_neighbors=3, init=init).fit(self.Xtr, self.ytr).n_iter_
