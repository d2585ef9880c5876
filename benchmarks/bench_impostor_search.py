"""asv benchmarks of LMNN's exact impostor search (thesis 2.1.9, eq. 2.20): the blocked
float32 GEMM screen against one ball tree per class
(:func:`harness.methods.shared.lmnn_impostors.impostor_pairs`, ``method="blocked"`` / ``"tree"``),
side by side at several dimensions r.

Data: the first ``n`` MNIST training digits (164 principal components, deskewed) when
MNIST is in the data cache (``harness fetch mnist``), else
:func:`benchmarks.common.mnist_like` (``n x 164``, seed 0; the track says which).
The inputs are mapped as LMNN's start maps them (:func:`harness.methods.shared.lmnn_solvers.initial_L`
with ``init="pca"``: the leading r principal directions, scaled to mean squared target
distance 3) and multiplied by ``sqrt(scale)``; radii are ``max_j d_ij + 1`` over the k = 3
target neighbours (eq. 2.20). ``scale`` > 1 is the thesis' remark that a larger input
scale shrinks the margin's relative size.

``HARNESS_BENCH_IMPOSTOR_SIZES`` (comma-separated n, default 10000,30000) and
``HARNESS_BENCH_IMPOSTOR_DIMS`` (default 5,10,15,20,30,50) override the sizes; BLAS is
pinned to ``BLAS_THREADS``. ``python -m benchmarks.bench_impostor_search N DIMS SCALES``
prints one JSON line per (r, scale) with both searches' best-of-2 seconds (how
:data:`harness.methods.shared.lmnn_impostors.AUTO_TREE_MAX_DIM` was chosen).
"""

import json
import os
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, mnist_like
from harness.metrics.knn_error import same_class_neighbors
from harness.plugin import ExpectedFailure
from harness.methods.shared.lmnn_core import target_sq_distances
from harness.methods.shared.lmnn_impostors import impostor_pairs
from harness.methods.shared.lmnn_solvers import initial_L

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_IMPOSTOR_SIZES",
                                             "10000,30000").split(","))
DIMS = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_IMPOSTOR_DIMS",
                                            "5,10,15,20,30,50").split(","))


def training_digits(n):
    """``(X, codes, source)``: the first n MNIST training digits (164 PCs), or the
    synthetic stand-in when MNIST is not in the cache."""
    from harness.datasets.mnist import MNIST

    try:
        ds = MNIST().load(n_components=164, n_train=n, n_test=1)
        X, y, source = ds.X[:n], np.asarray(ds.y)[:n], "mnist"
    except ExpectedFailure:
        X, y = mnist_like(n)
        source = "mnist_like"
    return np.ascontiguousarray(X), np.unique(y, return_inverse=True)[1], source


def problem(X, codes, targets, r, scale=1.0):
    """``(Z, radius)``: X under LMNN's scaled PCA start to r dims, times sqrt(scale)."""
    Z = X @ initial_L(X, targets, r, "pca").T * np.sqrt(scale)
    return Z, target_sq_distances(Z, targets).max(axis=1) + 1.0


class ImpostorSearch:
    """Both exact searches on the same problem; ``track_pairs`` is their output size."""

    params = [list(SIZES), list(DIMS), ["blocked", "tree"]]
    param_names = ["n", "r", "method"]
    timeout = 600

    def setup_cache(self):
        data = {}
        with threadpool_limits(BLAS_THREADS):
            for n in SIZES:
                X, codes, source = training_digits(n)
                data[n] = (X, codes, same_class_neighbors(X, codes, 3), source)
        return data

    def setup(self, data, n, r, method):
        self._limits = threadpool_limits(BLAS_THREADS)
        X, self.codes, targets, self.source = data[n]
        self.Z, self.radius = problem(X, self.codes, targets, r)

    def teardown(self, data, n, r, method):
        self._limits.restore_original_limits()

    def time_search(self, data, n, r, method):
        impostor_pairs(self.Z, self.codes, self.radius, method=method)

    def track_pairs(self, data, n, r, method):
        return int(len(impostor_pairs(self.Z, self.codes, self.radius, method=method)[0]))

    track_pairs.unit = "pairs"

    def track_on_mnist(self, data, n, r, method):
        """1 when the data are MNIST digits, 0 for the synthetic stand-in."""
        return int(self.source == "mnist")

    track_on_mnist.unit = "bool"


def _best(fn, repeats=2):
    best, out = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main(argv):
    """``N DIMS SCALES``: one JSON line per (r, scale), both searches, best of 2."""
    n = int(argv[0])
    dims = [int(v) for v in argv[1].split(",")]
    scales = [float(v) for v in argv[2].split(",")]
    with threadpool_limits(BLAS_THREADS):
        X, codes, source = training_digits(n)
        targets = same_class_neighbors(X, codes, 3)
        for r in dims:
            for scale in scales:
                Z, radius = problem(X, codes, targets, r, scale)
                row = {"data": source, "n": n, "r": r, "scale": scale}
                found = {}
                for method in ("blocked", "tree"):
                    row[method], found[method] = _best(
                        lambda: impostor_pairs(Z, codes, radius, method=method))
                assert all(np.array_equal(a, b) for a, b in zip(*found.values()))
                row["pairs"] = int(len(found["tree"][0]))
                row["tree_speedup"] = round(row["blocked"] / row["tree"], 3)
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
