"""asv benchmarks of the extended-precision eigenvalue proof of lifted facial
multipliers (:mod:`harness.problems.extended_precision`) beside its float64 peer.

The matrix is the one the certificate factorises: ``L(w + t w_Y) - lambda I`` (plus
the ones-direction shift) on the noise-free Swiss roll's clique graph (k = 5), with
random multipliers ``w`` and the cliques' exposing vector ``w_Y`` at t = 2^40, as
:func:`harness.problems.facial_reduction.lift_multipliers` forms it.

* ``time_extended``: :func:`~harness.problems.extended_precision.centred_extreme_at`,
  the dense blocked Cholesky in ``numpy.longdouble`` (one test of one shift).
* ``time_float64``: the same dense matrix in float64 through LAPACK's Cholesky
  (``scipy.linalg.cho_factor``): the peer, which cannot resolve the answer at this t.

Sizes: ``HARNESS_BENCH_EXT_SIZES`` (default 1000,2000). BLAS threads: ``BLAS_THREADS``
(the extended path uses NumPy's own longdouble loops, not BLAS).
"""

import os

import numpy as np
import scipy.linalg as sla
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness.problems import extended_precision as xp
from harness.problems.facial_reduction import exposing_vector
from harness.problems.mvu_problem import MVUProblem

SIZES = tuple(int(s) for s in os.environ.get("HARNESS_BENCH_EXT_SIZES",
                                             "1000,2000").split(","))


class ExtendedCertificate:
    """One eigenvalue test of lifted multipliers: longdouble against float64 LAPACK."""

    params = [SIZES]
    param_names = ["n"]
    timeout = 600

    def setup(self, n):
        from harness.datasets.swiss_roll import SwissRoll

        X = SwissRoll().load(n_samples=n, noise=0.0, seed=0).X
        problem = MVUProblem.from_points(X, 5)
        w_Y, _ = exposing_vector(problem)
        w = np.random.default_rng(0).uniform(-1.0, 3.0, problem.m)
        high, low = xp.exact_lift(w, 2.0**40, w_Y)
        self.dense = xp.dense_laplacian(n, problem.edges, [high, low])
        self.plain = self.dense.astype(np.float64) + 1.0 / n

    def time_extended(self, n):
        with threadpool_limits(BLAS_THREADS):
            xp.centred_extreme_at(self.dense, -1e3)  # proven: a full factorisation

    def time_float64(self, n):
        with threadpool_limits(BLAS_THREADS):
            sla.cho_factor(self.plain + np.eye(n), lower=True, check_finite=False)
