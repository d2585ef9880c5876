"""Shared settings of the asv suite.

``HARNESS_BENCH_SIZES`` (comma-separated) overrides the data sizes, so that CI can run
a quick dry run at a small size; the recorded history uses the defaults. Every
benchmark pins BLAS to ``BLAS_THREADS`` threads with threadpoolctl.
"""

import os

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_SIZES", "2000,20000").split(","))
BLAS_THREADS = int(os.environ.get("HARNESS_BENCH_THREADS", "1"))
