"""asv benchmarks of the thesis' ball tree (thesis 2.1.9, Fig. 2.15;
:mod:`harness.results.fig_2_15.balltree`) and of the query times its register entries
are about.

``Build.time_build``: the pure-NumPy tree with the mean and with the median split
("the mean is significantly faster to compute", s2-1-9-mean-split-faster) on the
Fig. 2.15 data (n = 1000, two Gaussians) and on :func:`benchmarks.common.mnist_like`
data projected to 15 dimensions; ``SplitValue.time_split_value``: the split value alone
(mean against a partial sort for the median) on n projections; ``Query.time_query`` and
``track_distance_evals``: 3-NN queries of each tree (s2-1-9-mean-split-identical-results);
``Scaling.time_balltree_query`` / ``time_brute_query``: scikit-learn's BallTree (r = 10)
and brute-force 3-NN query time against n (:data:`benchmarks.common.SIZES`;
s2-1-9-tree-d-log-n, s2-1-9-brute-force-o-nd). BLAS pinned to
:data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np
from sklearn.neighbors import BallTree, NearestNeighbors

from benchmarks.common import SIZES, Pinned, mnist_like
from harness.results.fig_2_15.balltree import SPLITS, build, query, split_value
from harness.results.fig_2_15.work import two_gaussians

_FIG = {"n_samples": 1000, "seed": 0, "gaussian_means": [[-2.0, 0.0], [2.0, 0.0]],
        "gaussian_stds": [1.0, 1.0]}


def _data(name: str, n: int = 1000, r: int = 15):
    if name == "gaussians":
        return two_gaussians({**_FIG, "n_samples": n}, 0)
    X, _ = mnist_like(n)
    X = X - X.mean(axis=0)
    return np.ascontiguousarray(X @ np.linalg.svd(X, full_matrices=False)[2][:r].T)


class Build(Pinned):
    params = [["gaussians", "mnist_like_r15"], list(SPLITS)]
    param_names = ["data", "split"]

    def setup(self, data, split):
        super().setup()
        self.X = _data(data, 1000 if data == "gaussians" else 5000)

    def time_build(self, data, split):
        build(self.X, 10, split, seed=0)


class SplitValue(Pinned):
    params = [[1000, 10000], list(SPLITS)]
    param_names = ["n", "split"]

    def setup(self, n, split):
        super().setup()
        self.proj = np.random.default_rng(0).standard_normal(n)

    def time_split_value(self, n, split):
        split_value(self.proj, split)


class Query(Pinned):
    params = [list(SPLITS)]
    param_names = ["split"]

    def setup(self, split):
        super().setup()
        X = _data("mnist_like_r15", 5000)
        self.tree = build(X[:4800], 10, split, seed=0)
        self.Q = X[4800:]

    def time_query(self, split):
        query(self.tree, self.Q, 3)

    def track_distance_evals(self, split):
        counts = query(self.tree, self.Q, 3)[2]
        return float((counts["point_evals"] + counts["center_evals"]).mean())


class Scaling(Pinned):
    params = [list(SIZES)]
    param_names = ["n"]

    def setup(self, n):
        super().setup()
        X, _ = mnist_like(n + 200)
        self.X, self.Q = X[:n], X[n:]
        Z = _data("mnist_like_r10", n + 200, r=10)
        self.tree, self.Zq = BallTree(Z[:n], leaf_size=10), Z[n:]
        self.brute = NearestNeighbors(n_neighbors=3, algorithm="brute").fit(self.X)

    def time_balltree_query(self, n):
        self.tree.query(self.Zq, k=3)

    def time_brute_query(self, n):
        self.brute.kneighbors(self.Q)
