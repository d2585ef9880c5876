"""asv benchmarks of the bad-edge detection of thesis 3.1.12 (Fig. 3.29).

Data: the noisy Swiss roll of Fig. 3.29 (``harness.datasets.swiss_roll``, noise 0.75, seed 3)
at n points, its symmetric k = 7 nearest-neighbour graph, and the thesis' walk
(t = 7, sigma = 1). The first-passage recursion costs t sparse products per block of
256 targets, O(t m n) in all (no n x n matrix): n = 600 is the thesis' size.
``HARNESS_BENCH_BAD_EDGE_SIZES`` (comma-separated) overrides the sizes.
"""

import os

from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.datasets.swiss_roll import SwissRoll
from harness.problems.bad_edges import BadEdgeRule, detect_bad_edges, neighbour_graph

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_BAD_EDGE_SIZES",
                                             "600,2000").split(","))


class BadEdgeSuite:
    """``detect_bad_edges`` on the k = 7 graph of a noisy roll, both readings of q."""

    params = [list(SIZES), ["first", "visits"]]
    param_names = ["n", "passage"]

    def setup(self, n, passage):
        self._limits = threadpool_limits(BLAS_THREADS)
        X = SwissRoll().load(n_samples=n, noise=0.75, seed=3).X
        dist, nbrs = NearestNeighbors(n_neighbors=7).fit(X).kneighbors()
        self.graph = neighbour_graph(nbrs, dist)
        self.rule = BadEdgeRule(walk_steps=7, walk_sigma=1.0, passage=passage)

    def teardown(self, n, passage):
        self._limits.restore_original_limits()

    def time_detect(self, n, passage):
        detect_bad_edges(self.graph, self.rule)

    def track_cut_fraction(self, n, passage):
        return float(detect_bad_edges(self.graph, self.rule).cut.mean())

    track_cut_fraction.unit = "fraction of edges"
