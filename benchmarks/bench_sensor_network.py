"""asv benchmarks of variational MVU on the sensor network of thesis Fig. 3.20.

The problem: ``harness.datasets.sensor_network.SensorNetwork().load(n_samples=N)`` (n =
20000 uniform sensors in the centred unit square, up to 20 nearest within r = 0.06,
10% uniform distance noise, seed 0; ``HARNESS_BENCH_SENSOR_N`` overrides n), m = 10
bottom Laplacian eigenvectors, omega = 0.9 in the SDP, the CG on the loss (3.26)
(omega = 1), at most 100 line searches per CG stage (in the basis, then in 2-D). The
thesis (2007, Intel Core Duo): 19 s to construct and solve the SDP, 52 s for 100 CG
line searches; the target here: both together within 20 s on one BLAS thread.

Two implementations of the same steps (``implementation``):

* ``before``: the variational MVU core as Table 3.2's plugins run it -- ARPACK's
  shift-invert with its own factorisation (SuperLU, COLAMD ordering), Clarabel on
  the E x m^2 edge design (cvxpy), scipy's nonlinear CG (Wolfe line searches);
* ``after``: the graph path's choices (:mod:`harness.methods.shared.variational_graph`) -- one
  SuperLU factor of L + 1e-6 I with a minimum-degree ordering for the eigenvectors,
  the SDP data reduced to m(m + 1)/2 svec coordinates and the native barrier
  solver, preconditioned CG with exact line searches (stops when converged).

Timed (one sample each; the network and the Laplacian are built in ``setup``):

* ``time_eigenvectors``: the m bottom eigenvectors (with the factorisation);
* ``time_sdp_solve``: the SDP's data from the edges and its solve;
* ``time_sdp``: both, the thesis' "construct and solve the SDP" (19 s);
* ``time_cg``: both CG stages from the same SDP solution (the thesis' 52 s).

Tracked (from one end-to-end run per implementation in ``setup_cache``):
``track_loss`` (3.26) of the final 2-D positions, ``track_mean_error`` (mean
positional error after the best rotation/reflection and translation, in units of
the radius r), ``track_sdp_objective`` (the SDP's objective on the normalised
distances, recomputed) and ``track_line_searches`` (both CG stages).

Measured with ``ASV_PYTHONPATH=$PWD asv run --python=same -b bench_sensor_network``
(1 thread; the 2-core machine shared with other jobs, load average ~3)::

    stage                    before    after
    eigenvectors (m = 10)    1.51 s    0.57 s
    SDP data + solve         0.49 s    0.19 s
    SDP total                2.23 s    0.83 s    (thesis: 19 s)
    CG, both stages          4.32 s    0.84 s    (thesis: 52 s)
    line searches            200       44
    loss (3.26)              2.3e-3    2.1e-4    (the true positions: 2.9e-4)
    mean error / r           1.19      0.011

``before`` leaves the SDP's stretch (omega = 0.9 stretches the solution by 1/0.6)
largely in place after 2 x 100 scipy line searches; ``after`` converges.
"""

import os

import numpy as np
from scipy.sparse.linalg import LinearOperator
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, OneSample
from harness.datasets.sensor_network import SensorNetwork
from harness.methods.shared.variational_graph import RANK_TOL, graph_laplacian, laplacian_factor
from harness.methods.shared.variational_mvu import bottom_eigenvectors, cg_refinement, variational_mvu
from harness.methods.shared.variational_refine import reconstruction_loss

N = int(os.environ.get("HARNESS_BENCH_SENSOR_N", "20000"))
M, OMEGA, CG_OMEGA, MAXITER, SEED = 10, 0.9, 1.0, 100, 0
IMPLEMENTATIONS = ["before", "after"]


def network():
    return SensorNetwork().load(n_samples=N, seed=SEED)


def eigenvectors(L, implementation):
    """``(Q, factor)``: the m bottom eigenvectors (and the factor the CG reuses)."""
    if implementation == "before":
        return bottom_eigenvectors(L, M, SEED), None
    factor = laplacian_factor(L)
    OPinv = LinearOperator(L.shape, matvec=factor.solve, dtype=float)
    return bottom_eigenvectors(L, M, SEED, OPinv=OPinv), factor


def sdp(Q, net, implementation):
    """The SDP (no CG): a :class:`harness.methods.shared.variational_mvu.VariationalResult`."""
    return variational_mvu(Q, net.edges, net.sq_distances, n_components=2, omega=OMEGA,
                           sdp_solver="clarabel" if implementation == "before" else "native",
                           rank_tol=None if implementation == "before" else RANK_TOL)


def cg(result, net, factor, implementation):
    """Both CG stages from the SDP's solution; returns ``(Y, line_searches)`` in the
    input's units."""
    scale = result.scale
    stage = (dict(cg_method="scipy") if implementation == "before" else
             dict(cg_method="pcg", precondition=factor.solve, rank_tol=RANK_TOL))
    Y, its, _ = cg_refinement(result.Y_basis / np.sqrt(scale), net.edges,
                              net.sq_distances / scale, n_components=2, omega=CG_OMEGA,
                              maxiter=MAXITER, **stage)
    return Y * np.sqrt(scale), its


def rigid_error(Y, X):
    """Mean |aligned y_i - x_i| after the best rotation/reflection and translation."""
    Yc, Xc = Y - Y.mean(0), X - X.mean(0)
    U, _, Vt = np.linalg.svd(Yc.T @ Xc)
    return float(np.linalg.norm(Yc @ U @ Vt - Xc, axis=1).mean())


class SensorNetworkStages(OneSample):
    """Per stage: the core as Table 3.2 runs it (``before``) and the graph path."""

    params = [IMPLEMENTATIONS]
    param_names = ["implementation"]
    timeout = 600

    def setup_cache(self):
        out = {}
        with threadpool_limits(BLAS_THREADS):
            net = network()
            L = graph_laplacian(N, net.edges)
            for implementation in IMPLEMENTATIONS:
                Q, factor = eigenvectors(L, implementation)
                result = sdp(Q, net, implementation)
                Y, its = cg(result, net, factor, implementation)
                out[implementation] = {
                    "loss": reconstruction_loss(Y, net.edges, net.sq_distances),
                    "mean_error": rigid_error(Y, net.X) / net.meta["params"]["radius"],
                    "sdp_objective": result.sdp.objective, "line_searches": its}
        return out

    setup_cache.timeout = 1200

    def setup(self, cache, implementation):
        if implementation == "before":
            import cvxpy  # noqa: F401  (imported here, not inside a timed call)
        self._limits = threadpool_limits(BLAS_THREADS)
        self.net = network()
        self.L = graph_laplacian(N, self.net.edges)
        self.Q, self.factor = eigenvectors(self.L, "after")
        self.start = sdp(self.Q, self.net, "after")

    def teardown(self, cache, implementation):
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()

    def time_eigenvectors(self, cache, implementation):
        eigenvectors(self.L, implementation)

    def time_sdp_solve(self, cache, implementation):
        sdp(self.Q, self.net, implementation)

    def time_sdp(self, cache, implementation):
        Q, _ = eigenvectors(self.L, implementation)
        sdp(Q, self.net, implementation)

    def time_cg(self, cache, implementation):
        cg(self.start, self.net, self.factor, implementation)

    def track_loss(self, cache, implementation):
        return cache[implementation]["loss"]

    track_loss.unit = "loss (3.26)"

    def track_mean_error(self, cache, implementation):
        return cache[implementation]["mean_error"]

    track_mean_error.unit = "radius"

    def track_sdp_objective(self, cache, implementation):
        return cache[implementation]["sdp_objective"]

    track_sdp_objective.unit = "objective"

    def track_line_searches(self, cache, implementation):
        return cache[implementation]["line_searches"]

    track_line_searches.unit = "line searches"
