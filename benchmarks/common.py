"""Shared settings of the asv suite.

``HARNESS_BENCH_SIZES`` (comma-separated) overrides the data sizes, so that CI can run
a quick dry run at a small size; the recorded history uses the defaults.
``HARNESS_BENCH_MVU_SIZES`` does the same for the MVU SDP solves of
``bench_mvu_solvers.py`` (numbers of points; an interior-point SDP solve is already
~50 s at n = 100), and ``HARNESS_BENCH_MVU_BACKENDS`` restricts their backends
(default: all). Every benchmark pins BLAS to ``BLAS_THREADS`` threads with
threadpoolctl.
"""

import os

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_SIZES", "2000,20000").split(","))
BLAS_THREADS = int(os.environ.get("HARNESS_BENCH_THREADS", "1"))
MVU_SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_MVU_SIZES", "40,100").split(","))
MVU_BACKENDS = tuple(b for b in os.environ.get("HARNESS_BENCH_MVU_BACKENDS", "").split(",") if b)
