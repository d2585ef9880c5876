"""The harness' own MVU solver (3.1.4-3.1.6): facial reduction, the dense interior
point within its memory budget, the low-rank method beyond
(:func:`harness.solvers.mvu_sdp.native_solver.solve_native`, ``method="auto"``)."""

from harness.solvers.native_backend import NativeBackend


class Native(NativeBackend):
    order = 10
    description = "the harness' interior point / low-rank solver (auto)"
    method = "auto"
