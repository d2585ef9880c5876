"""asv benchmarks of the speed statements of the LMNN solver profile (thesis 2.1.7,
2.1.9; :mod:`harness.results.lmnn_solver_profile`).

``Gradients``: the full gradient (2.14) and the incremental one (2.15) on
:func:`benchmarks.common.mnist_like` data at the solver's scaled PCA start, between the
active sets of two nearby maps (``L`` and ``1.01 L``). ``FullCheck``: the exact full
check of all triples (the blocked search and the triple pass) and the impostor search
alone, for ``n`` of :data:`benchmarks.common.SIZES`. ``OuterProducts``: the sum of 100
outer products against ``d``. BLAS pinned to :data:`benchmarks.common.BLAS_THREADS`.
"""

import numpy as np

from benchmarks.common import SIZES, Pinned, mnist_like
from harness.metrics.knn_error import same_class_neighbors
from harness.results.lmnn_solver_profile.trace import (
    active_triples, gradient_2_14, gradient_2_15,
)
from harness.methods.shared.lmnn_core import candidate_pairs, loss_over_all_triples
from harness.methods.shared.lmnn_solvers import initial_L


def _start(n):
    X, y = mnist_like(n)
    targets = same_class_neighbors(X, y, 3)
    return X, y, targets, X @ initial_L(X, targets, X.shape[1], "pca").T


class Gradients(Pinned):
    params = [list(SIZES)]
    param_names = ["n"]

    def setup(self, n):
        super().setup()
        self.X, y, self.targets, Z = _start(n)
        sets = []
        for Zs in (Z, 1.01 * Z):
            exact = loss_over_all_triples(Zs, y, self.targets, 0.5)
            sets.append(active_triples(Zs, self.targets, exact.anchors, exact.imps))
        self.old, self.new = sets
        self.G = gradient_2_14(self.X, self.targets, self.old, 0.5)

    def time_gradient_2_14(self, n):
        gradient_2_14(self.X, self.targets, self.new, 0.5)

    def time_gradient_2_15(self, n):
        gradient_2_15(self.G, self.X, self.targets, self.old, self.new, 0.5)


class FullCheck(Pinned):
    params = [list(SIZES)]
    param_names = ["n"]

    def setup(self, n):
        super().setup()
        self.X, self.y, self.targets, self.Z = _start(n)

    def time_full_check(self, n):
        loss_over_all_triples(self.Z, self.y, self.targets, 0.5, "blocked")

    def time_impostor_search(self, n):
        candidate_pairs(self.Z, self.y, self.targets, 0.0, "blocked")


class OuterProducts(Pinned):
    params = [[64, 128, 256, 512, 1024]]
    param_names = ["d"]

    def setup(self, d):
        super().setup()
        self.V = np.random.default_rng(0).standard_normal((100, d))

    def time_sum_outer_products(self, d):
        G = np.zeros((self.V.shape[1],) * 2)
        for v in self.V:
            G += np.outer(v, v)
