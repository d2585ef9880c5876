"""The harness' low-rank augmented-Lagrangian MVU solver at every size
(:func:`harness.solvers.mvu_sdp.native_solver.solve_native`, ``method="lowrank"``), to
compare it with the interior point; no linear cost."""

from harness.solvers.native_backend import NativeBackend


class NativeLowrank(NativeBackend):
    order = 20
    description = "the harness' low-rank augmented Lagrangian at every size"
    method = "lowrank"
    linear_cost = False
