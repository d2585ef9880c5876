"""asv benchmarks of the embedding-quality metrics of thesis section 3.1.9.

Data: a seeded Swiss roll ``X`` (``sklearn.datasets.make_swiss_roll``, 3-D) and
as ``Y`` its true 2-D coordinates (roll parameter ``t``, height) with a little
seeded noise, i.e. a good but imperfect unfolding. Neighbourhood size
``l = 15`` as in Table 3.2 of the thesis.
"""

import numpy as np
from sklearn.datasets import make_swiss_roll
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, SIZES, OneSample
from harness.metrics import (
    embedding_quality,
    input_neighbors,
    local_continuity,
    local_trust,
    neighborhood_intersection,
)

N_NEIGHBORS = 15


class EmbeddingQualitySuite:
    """Local continuity, local trust and neighbourhood intersection (eqs 3.27-3.29)."""

    params = [list(SIZES)]
    param_names = ["n"]

    def setup(self, n):
        self._limits = threadpool_limits(BLAS_THREADS)
        X, t = make_swiss_roll(n, random_state=0)
        rng = np.random.default_rng(0)
        Y = np.column_stack([t, X[:, 1]])
        Y += 0.05 * rng.standard_normal(Y.shape)
        self.X = X
        self.Y = Y

    def teardown(self, n):
        self._limits.restore_original_limits()

    def time_local_continuity(self, n):
        local_continuity(self.X, self.Y, N_NEIGHBORS)

    def time_local_trust(self, n):
        local_trust(self.X, self.Y, N_NEIGHBORS)

    def time_neighborhood_intersection(self, n):
        neighborhood_intersection(self.X, self.Y, N_NEIGHBORS)

    def time_all_three(self, n):
        embedding_quality(self.X, self.Y, N_NEIGHBORS)

    def track_local_continuity(self, n):
        return local_continuity(self.X, self.Y, N_NEIGHBORS)

    track_local_continuity.unit = "score"

    def track_local_trust(self, n):
        return local_trust(self.X, self.Y, N_NEIGHBORS)

    track_local_trust.unit = "score"

    def track_neighborhood_intersection(self, n):
        return neighborhood_intersection(self.X, self.Y, N_NEIGHBORS)

    track_neighborhood_intersection.unit = "score"


class InputNeighborsSweepSuite(OneSample):
    """An r sweep as Fig. 3.22's (the leading r = 1..20 columns of one embedding) on a
    teapot-shaped input, 400 points x 23,028 dimensions (seeded Gaussian noise: the
    cost depends on the shape only): the metrics searching X for every r, against X's
    side computed once (:func:`harness.metrics.input_neighbors`). Measured by hand on
    the teapot stand-in: 12.7 s -> 5.1 s CPU (one BLAS thread)."""

    timeout = 300

    def setup(self):
        self._limits = threadpool_limits(BLAS_THREADS)
        rng = np.random.default_rng(0)
        self.X = rng.standard_normal((400, 23028))
        self.Y = self.X[:, :20] @ rng.standard_normal((20, 20))

    def teardown(self):
        self._limits.restore_original_limits()

    def time_sweep_searching_x_per_r(self):
        for r in range(1, 21):
            embedding_quality(self.X, self.Y[:, :r], N_NEIGHBORS)

    def time_sweep_x_once(self):
        inputs = input_neighbors(self.X, N_NEIGHBORS)
        for r in range(1, 21):
            embedding_quality(self.X, self.Y[:, :r], N_NEIGHBORS, input_neighbors=inputs)
