"""asv benchmarks of our NJW spectral clustering against scikit-learn's (issue 57).

Both clustering plugins of ``lecture_clustering`` (:mod:`harness.methods.spectral_clustering`,
:mod:`harness.methods.sklearn_spectral_clustering`) fit the lecture's data sets with the
profiles' affinity (``config/quick.yaml`` ``methods:``, a 10-nearest-neighbour graph),
``n_clusters`` = the number of labels, ``random_state`` = 0, the data sets' default
sizes (two moons, circles, blobs: 300 points; digits: 1797).

* ``SpectralClustering.time_fit``: wall time of one ``fit`` per method and data set;
* ``SpectralClustering.track_cpu_seconds``: its CPU seconds, from ``setup_cache``;
* ``SpectralClustering.track_cpu_ratio_to_sklearn``: CPU seconds over scikit-learn's on
  the same data set, both measured in the same ``setup_cache`` process, interleaved
  (``ROUNDS`` rounds, the smallest per method): below 1 ours is faster;
* ``SpectralClustering.track_ari``: the adjusted Rand index of the partition against
  the labels, so that speed is never bought with quality.

Threads: every fit runs under ``threadpoolctl.threadpool_limits(BLAS_THREADS)``, which
pins BLAS *and* OpenMP (k-means) to ``HARNESS_BENCH_THREADS`` threads, default 1.

Measured (1 thread; 2-core machine under load 8-16, so seconds move by ~10 % between
runs; numpy 2.4.6, scipy 1.17.1, scikit-learn 1.9.1), CPU-s ours / scikit-learn's
(ratio), the same in both runs: ``asv run --python=same --bench SpectralClustering
--quick`` two moons 0.0057 / 0.0082 (0.69), circles 0.0054 / 0.0083 (0.65), blobs
0.0062 / 0.0091 (0.68), digits 0.053 / 0.060 (0.89); ``python -m
benchmarks.bench_spectral_clustering`` 0.64, 0.61-0.67, 0.63-0.65, 0.83-0.88. ARI
ours / scikit-learn's: 1 / 1 on the shapes, 0.819 / 0.756 on digits. Before the sparse
path ours took 0.36-0.41 CPU-s on digits (dense LAPACK of the 1797 x 1797 M, ratio 6).
The shapes' 10-NN graphs have as many components as clusters, so ours needs no
eigensolver there (the component vectors are the embedding).

In a git worktree whose package is not the one installed in the environment, asv
drops ``PYTHONPATH``; give the checkout as ``ASV_PYTHONPATH=$PWD`` or asv times the
installed code.
"""

import time
import warnings

import numpy as np
from sklearn.metrics import adjusted_rand_score
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.datasets.cluster_shapes import Blobs, Circles, TwoMoons
from harness.datasets.digits import Digits
from harness.methods.sklearn_spectral_clustering import SklearnSpectralClustering
from harness.methods.spectral_clustering import NJWSpectralClustering

DATASETS = {"two_moons": TwoMoons, "circles": Circles, "blobs": Blobs, "digits": Digits}
METHODS = {"spectral_clustering": NJWSpectralClustering,
           "sklearn_spectral_clustering": SklearnSpectralClustering}
AFFINITY = {"affinity": "nearest_neighbors", "n_neighbors": 10}
ROUNDS = 7
SEED = 0


def _load(dataset):
    data = DATASETS[dataset]().load()
    return data.X, data.y


def _estimator(method, k):
    return METHODS[method](n_clusters=k, random_state=SEED, **AFFINITY)


def _fit(method, X, k):
    with warnings.catch_warnings():
        # scikit-learn warns on the shapes' disconnected k-NN graphs
        warnings.simplefilter("ignore", UserWarning)
        return _estimator(method, k).fit(X)


def measure(rounds=ROUNDS):
    """``{(method, dataset): {"cpu": smallest CPU-s of rounds, "ari": ARI}}``,
    methods interleaved within each round."""
    out = {}
    with threadpool_limits(BLAS_THREADS):
        for dataset in DATASETS:
            X, y = _load(dataset)
            k = len(np.unique(y))
            for method in METHODS:  # warm-up (imports, first-call caches)
                _fit(method, X, k)
            for _ in range(rounds):
                for method in METHODS:
                    start = time.process_time()
                    est = _fit(method, X, k)
                    cpu = time.process_time() - start
                    cell = out.setdefault((method, dataset), {"cpu": np.inf})
                    cell["cpu"] = min(cell["cpu"], cpu)
                    cell["ari"] = float(adjusted_rand_score(y, est.labels_))
    return out


class SpectralClustering:
    """Ours (NJW, sparse k-NN path) beside scikit-learn's SpectralClustering."""

    params = [list(METHODS), list(DATASETS)]
    param_names = ["method", "dataset"]
    timeout = 600

    def setup_cache(self):
        return measure()

    setup_cache.timeout = 900

    def setup(self, cache, method, dataset):
        self._limits = threadpool_limits(BLAS_THREADS)
        self.X, y = _load(dataset)
        self.k = len(np.unique(y))

    def teardown(self, cache, method, dataset):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()

    def time_fit(self, cache, method, dataset):
        _fit(method, self.X, self.k)

    def track_cpu_seconds(self, cache, method, dataset):
        return cache[(method, dataset)]["cpu"]

    track_cpu_seconds.unit = "CPU seconds"

    def track_cpu_ratio_to_sklearn(self, cache, method, dataset):
        return cache[(method, dataset)]["cpu"] / cache[("sklearn_spectral_clustering",
                                                         dataset)]["cpu"]

    track_cpu_ratio_to_sklearn.unit = "CPU seconds / scikit-learn's CPU seconds"

    def track_ari(self, cache, method, dataset):
        return cache[(method, dataset)]["ari"]

    track_ari.unit = "adjusted Rand index"


if __name__ == "__main__":
    result = measure()
    print(f"BLAS/OpenMP threads: {BLAS_THREADS}; smallest CPU-s of {ROUNDS} interleaved "
          f"rounds")
    print(f"{'dataset':10s} {'ours CPU-s':>11s} {'sklearn CPU-s':>14s} {'ratio':>6s} "
          f"{'ours ARI':>9s} {'sklearn ARI':>12s}")
    for dataset in DATASETS:
        ours = result[("spectral_clustering", dataset)]
        peer = result[("sklearn_spectral_clustering", dataset)]
        print(f"{dataset:10s} {ours['cpu']:11.4f} {peer['cpu']:14.4f} "
              f"{ours['cpu'] / peer['cpu']:6.2f} {ours['ari']:9.4f} {peer['ari']:12.4f}")
