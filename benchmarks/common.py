"""Shared settings of the asv suite.

``HARNESS_BENCH_SIZES`` (comma-separated) overrides the data sizes, so that CI can run
a quick dry run at a small size; the recorded history uses the defaults.
``HARNESS_BENCH_MVU_SIZES`` does the same for the MVU SDP solves of
``bench_mvu_solvers.py`` (numbers of points; an interior-point SDP solve is already
~50 s at n = 100), and ``HARNESS_BENCH_MVU_BACKENDS`` restricts their backends
(default: all), ``HARNESS_BENCH_MVU_TIME_LIMIT`` their CPU budget per solve (seconds,
default 600; CSDP at n = 1000 needs more). ``HARNESS_BENCH_LMNN_SIZES`` sets the numbers of training points of
the synthetic MNIST-shaped LMNN fits of ``bench_lmnn.py`` (default 2000,8000; the
60000-point fit is measured by ``python -m benchmarks.scale_lmnn``, not by asv).
``HARNESS_BENCH_KSWEEP_N`` sets n of the noise-free k-sweep of ``bench_mvu_k_sweep.py``
(default 1000, the thesis' Fig. 3.28); ``HARNESS_BENCH_EXT_SIZES`` the sizes of the
extended-precision certificate benchmark (default 1000,2000).
Every benchmark pins BLAS to ``BLAS_THREADS`` threads with threadpoolctl.
"""

import os

import numpy as np
from threadpoolctl import threadpool_limits

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_SIZES", "2000,20000").split(","))
BLAS_THREADS = int(os.environ.get("HARNESS_BENCH_THREADS", "1"))
MVU_SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_MVU_SIZES", "40,100").split(","))
MVU_BACKENDS = tuple(b for b in os.environ.get("HARNESS_BENCH_MVU_BACKENDS", "").split(",") if b)
MVU_TIME_LIMIT = float(os.environ.get("HARNESS_BENCH_MVU_TIME_LIMIT", "600"))
LMNN_SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_LMNN_SIZES",
                                                  "2000,8000").split(","))


class Pinned:
    """Benchmarks whose ``setup`` pins BLAS to ``BLAS_THREADS`` threads (threadpoolctl)
    and whose ``teardown`` restores the limits."""

    def setup(self, *args):
        self._limits = threadpool_limits(BLAS_THREADS)

    def teardown(self, *args):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()


class OneSample:
    """asv timing settings for benchmarks whose one call is a whole solve (seconds to
    minutes): one sample, no repeats, no warm-up. Subclasses set ``timeout``."""

    number = 1
    repeat = 1
    rounds = 1
    min_run_count = 1
    warmup_time = 0.0


def mnist_like(n, d=164, n_classes=10, seed=0, n_modes=4, separation=4.0):
    """Seeded synthetic stand-in with MNIST's shape after PCA (``n x d``, 10 classes).

    Every class is a mixture of ``n_modes`` Gaussian modes (writing styles). Mode
    centres vary along coordinate ``j`` (1-based) with standard deviation
    ``separation / j`` (class signal concentrated in the leading "principal"
    coordinates, modes of a class spread half as much as the classes); the noise
    around each mode has standard deviation ``j ** -0.3``, decaying more slowly than
    the signal, so the trailing coordinates carry mostly noise that a learned metric
    can shrink, and the classes overlap enough for many impostors. Labels are
    balanced (``n // n_classes`` or one more per class), in random order.

    Measured with ``separation=4`` (train and test n points each, k = 3): Euclidean
    3-NN test error 4.3 % at n = 2000 and 2.9 % at n = 8000, LMNN (``harness.methods.lmnn``)
    1.5 % and 1.1 % with ~5 and ~10 active triples per point -- near MNIST's
    2.9 % (Euclidean) and 1.3 % (LMNN, thesis Table 2.1).

    Returns ``(X float64 of shape (n, d), y int of shape (n,))``.
    """
    rng = np.random.default_rng(seed)
    j = 1.0 + np.arange(d)
    signal = separation / j
    noise = j ** -0.3
    centres = rng.normal(size=(n_classes, 1, d)) * signal
    modes = centres + 0.5 * rng.normal(size=(n_classes, n_modes, d)) * signal
    y = rng.permutation(np.arange(n) % n_classes)
    mode = rng.integers(n_modes, size=n)
    X = modes[y, mode] + rng.normal(size=(n, d)) * noise
    return X, y
