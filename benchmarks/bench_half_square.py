"""asv benchmarks of Figs. 2.3 and 2.4 (thesis 2.1.5): one run of the half-square
experiment (:mod:`harness.results.fig_2_3_4.work`).

Data: the half-square (``harness/datasets/half_square.py``: n uniform points of [0, 10]^2,
label 1 above y = 5, seed 0), n = 1000 as in Fig. 2.3. Benchmarks:

* ``time_p_grid``: p, the 1-NN misclassified area fraction, by the midpoint rule on a
  ``grid`` x ``grid`` grid (500: the quick profile, 1000: the full one) under a
  fixed L (a k-d tree query of ``grid**2`` centres among the mapped points);
* ``time_lmnn_fit``: LMNN (k = 1, L-BFGS) from M = I on the same points (the numba
  kernels are warmed up in ``setup``, not timed);
* ``track_vertical_over_horizontal``: the ratio of the factors by which the fitted L
  stretches the vertical and the horizontal axis (the thesis: 2.2 / 1.4 = 1.57).

Every call runs under ``threadpool_limits(BLAS_THREADS)``.
"""

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.datasets.half_square import HalfSquare
from harness.results.fig_2_3_4.work import axis_scaling, misclassified_fraction
from harness.methods.lmnn import LMNN

N = 1000


class HalfSquareSuite:
    """p on a grid and the LMNN fit of one Fig. 2.3 training set."""

    params = [[500, 1000]]
    param_names = ["grid"]

    def setup(self, grid):
        self._limits = threadpool_limits(BLAS_THREADS)
        data = HalfSquare().load(n_samples=N, seed=0)
        self.X, self.y = data.X, data.y
        self.L = np.array([[1.4, 0.1], [0.0, 2.2]])
        LMNN(n_neighbors=1, init=np.eye(2)).fit(self.X[:50], self.y[:50])  # numba warm-up

    def teardown(self, grid):
        self._limits.restore_original_limits()

    def time_p_grid(self, grid):
        misclassified_fraction(self.X, self.y, self.L, 10.0, grid)

    def time_lmnn_fit(self, grid):
        LMNN(n_neighbors=1, init=np.eye(2)).fit(self.X, self.y)

    def track_vertical_over_horizontal(self, grid):
        s = axis_scaling(LMNN(n_neighbors=1, init=np.eye(2)).fit(self.X, self.y).components_)
        return s["vertical"] / s["horizontal"]
