"""One LMNN fit on MNIST-shaped synthetic data, measured by hand (not an asv benchmark).

    python -m benchmarks.scale_lmnn --n 60000 --d 164 --classes 10 --threads 2

builds :func:`benchmarks.common.mnist_like` data (seed 0), fits
``harness.methods.lmnn.LMNN(n_neighbors=3)`` (L-BFGS solver) with BLAS pinned to
``--threads`` threads (threadpoolctl) and prints wall and CPU seconds of the fit,
the peak resident memory of the process (``resource.getrusage(RUSAGE_SELF).ru_maxrss``,
which includes the data and the imports), ``n_active_``, ``n_iter_``, ``loss_``,
``converged_``, the largest cached impostor set and the cost split between the
impostor searches, the numba passes and the rest. The numba kernels are compiled (or loaded
from numba's cache) by a tiny fit before the timed one.

The issue's target at n = 60000, d = 164: the fit within 15 minutes on 2 cores, with
memory O(n k + active set) (no n x n array). ``--profile FILE`` writes cProfile
statistics of the fit to FILE and prints the top entries. asv tracks the same fit at
smaller n in ``bench_lmnn.LMNNScale``. This module defines no asv-discoverable names.

Measured on the 2-core / 24 GiB reference machine (shared; numpy 2.4.6, scipy
1.17.1, numba 0.68.1), ``LMNN(n_neighbors=3)``, every fit converged; peak RSS of the
process (0.43 GiB of it before the fit at n = 60000)::

    n      threads  wall s  CPU s  peak RSS  n_iter_  n_active_  cached pairs (max)
    2000   1           3.6    3.6  0.47 GiB      164      10466    120033 (60 / point)
    2000   2           8.7   16.8  0.48 GiB
    8000   1          16.7   16.5  0.59 GiB      108      79987    882781 (110 / point)
    8000   2          21.1   37.8  0.58 GiB
    20000  1          64.1   63.6  0.78 GiB       98     265412   3206370 (160 / point)
    20000  2          57.1   93.1  0.80 GiB
    60000  1         357.8  357.6  1.51 GiB       82     993963  15240745 (254 / point)
    60000  2         310.1  479.5  1.54 GiB
    60000  2         550.1  611.6  1.54 GiB   (load ~3.5 from other jobs)

At n = 60000 (1 thread) the 11 impostor searches took 208 s (O(n^2 d) time, O(TILE^2)
memory), the 111 loss passes 79 s, the 100 ``Lap Y`` passes 38 s, the rest (BLAS,
L-BFGS-B) 32 s. Two OpenBLAS threads speed up the searches' GEMMs but slow down the
small BLAS calls and scipy's L-BFGS-B update (``setulb``: ~5.6 ms per call with 2
threads vs. negligible with 1 at n = 2000), hence the slower small fits.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import warnings

from threadpoolctl import threadpool_limits

from benchmarks.common import mnist_like

__all__ = ["main"]


def _rss_gib() -> float:
    # ru_maxrss is in KiB on Linux (bytes on macOS)
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**30


class _Counters:
    """Counts calls, wall time and pairs of the impostor search and of the two numba
    passes (loss / active counts in ``TripletState.__init__``, ``Lap Y`` in
    ``TripletState.laplacian_times``) by wrapping them in :mod:`harness.methods.shared.lmnn_core`.
    The rest of the fit is BLAS (``X L^T``, ``(Lap Z)^T X``) and scipy's L-BFGS-B."""

    def __init__(self):
        self.searches = 0
        self.search_seconds = 0.0
        self.passes = 0
        self.pass_seconds = 0.0
        self.laplacians = 0
        self.laplacian_seconds = 0.0
        self.last_pairs = 0
        self.max_pairs = 0

    def install(self):
        import harness.methods.shared.lmnn_core as core

        search = core.impostor_pairs
        state_init = core.TripletState.__init__
        laplacian = core.TripletState.laplacian_times
        counters = self

        def counted_search(*args, **kwargs):
            t = time.perf_counter()
            out = search(*args, **kwargs)
            counters.search_seconds += time.perf_counter() - t
            counters.searches += 1
            return out

        def counted_init(state, Z, targets, anchors, imps, mu):
            t = time.perf_counter()
            state_init(state, Z, targets, anchors, imps, mu)
            counters.pass_seconds += time.perf_counter() - t
            counters.passes += 1
            counters.last_pairs = len(anchors)
            counters.max_pairs = max(counters.max_pairs, len(anchors))

        def counted_laplacian(state, Y):
            t = time.perf_counter()
            out = laplacian(state, Y)
            counters.laplacian_seconds += time.perf_counter() - t
            counters.laplacians += 1
            return out

        core.impostor_pairs = counted_search
        core.TripletState.__init__ = counted_init
        core.TripletState.laplacian_times = counted_laplacian


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=60000, help="training points")
    parser.add_argument("--d", type=int, default=164, help="dimensions")
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2, help="BLAS threads")
    parser.add_argument("--k", type=int, default=3, help="n_neighbors")
    parser.add_argument("--max-iter", type=int, default=1000)
    parser.add_argument("--profile", metavar="FILE", help="write cProfile stats here")
    args = parser.parse_args(argv)

    from harness.methods.lmnn import LMNN

    X, y = mnist_like(args.n, d=args.d, n_classes=args.classes)
    print(f"data: n={args.n} d={args.d} classes={args.classes} k={args.k} "
          f"threads={args.threads}; X {X.nbytes / 2**20:.0f} MiB; "
          f"peak RSS before fit {_rss_gib():.2f} GiB", flush=True)
    counters = _Counters()
    counters.install()
    with threadpool_limits(args.threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Xw, yw = mnist_like(120, d=8, n_classes=3, seed=1)
        LMNN(n_neighbors=args.k, max_iter=5).fit(Xw, yw)  # JIT warm-up, untimed
        print(f"peak RSS after the JIT warm-up {_rss_gib():.2f} GiB", flush=True)
        counters.__init__()
        est = LMNN(n_neighbors=args.k, max_iter=args.max_iter)
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        w0, c0 = time.perf_counter(), time.process_time()
        est.fit(X, y)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        if profiler is not None:
            profiler.disable()
    print(f"fit: wall {wall:.1f} s, CPU {cpu:.1f} s; peak RSS {_rss_gib():.2f} GiB")
    print(f"n_active_={est.n_active_} n_iter_={est.n_iter_} loss_={est.loss_:.6g} "
          f"converged_={est.converged_} loss_curve points={len(est.loss_curve_)}")
    c = counters
    rest = wall - c.search_seconds - c.pass_seconds - c.laplacian_seconds
    print(f"impostor searches: {c.searches} in {c.search_seconds:.1f} s wall; "
          f"loss passes: {c.passes} in {c.pass_seconds:.1f} s; Lap Y passes: "
          f"{c.laplacians} in {c.laplacian_seconds:.1f} s; rest (BLAS, L-BFGS-B, "
          f"target search): {rest:.1f} s")
    print(f"impostor pairs: {c.max_pairs} at most in one pass (the cached candidate set, "
          f"{c.max_pairs / args.n:.1f} per point); {c.last_pairs} in the final exact pass "
          f"(radius max_j d_ij + 1)")
    if profiler is not None:
        import pstats

        profiler.dump_stats(args.profile)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
