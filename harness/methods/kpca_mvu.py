"""Kernel PCA with the kernel learned by MVU (thesis 3.1.9, "Learning the kernel matrix")."""

from __future__ import annotations

from harness.solvers.mvu_sdp import mvu_solvers
from harness.methods.shared.kernel_pca import KernelPCAEmbedding
from harness.methods.mvu import MVU


class KernelPCAMVU(KernelPCAEmbedding):
    """Kernel PCA on the kernel matrix learned by maximum variance unfolding.

    Thesis 3.1.9: "MVU learns a kernel matrix that reveals when high dimensional inputs
    lie on or near a low dimensional manifold. The last step of MVU [...] is identical
    to kernel PCA." The kernel K = F F^T is the solution of the MVU SDP (3.1.4) solved
    by :class:`harness.methods.mvu.MVU` (the harness' solvers, every solve certified: status,
    recomputed gap and violation in ``solve_info_``); it is centred (3.49: MVU's
    constraint sum K = 0 makes this a no-op up to the solve's violation) and
    diagonalised like any other kernel, so the embedding is MVU's (up to the sign of
    each column). The thesis learns it "with k = 4 nearest neighbors" (Figs. 3.32,
    3.33), hence the default here (MVU's own default is Table 3.2's k = 5).

    A solve that returns no kernel (failed, timed out, skipped) raises MVU's
    :class:`harness.methods.mvu.SolverFailedError`; ``solve_info_`` holds the solver's
    report either way.

    Parameters
    ----------
    n_neighbors : int, default=4
        k of MVU's neighbourhood graph.
    n_components : int, default=2
        Output dimension d.
    solver : str, default="native"
        MVU's solver backend (:func:`harness.solvers.mvu_sdp.mvu_solvers`).
    tol_gap : float, default=1e-3
        Certified relative gap below which the solve counts as optimal.
    tol_violation : float, default=1e-4
        Relative constraint violation below which the solve counts as optimal.
    time_limit : float, default=600.0
        Seconds for the SDP solve.
    random_state : int or None, default=None

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    kernel_factor_ : ndarray of shape (n_samples, p)
        The learned kernel K = F F^T (MVU's ``kernel_factor_``).
    solve_info_ : dict
        MVU's certified solve report: status, gap, violation, solver, seconds, ...
    kernel_eigenvalues_ : ndarray
        Eigenvalues of the centred learned kernel, largest first.
    normalised_eigenvalues_ : ndarray
        Divided by its trace.
    kernel_trace_ : float
    """

    name = "kpca_mvu"
    thesis_label = "kernel PCA (MVU)"
    references = ("thesis 3.1.9 (Learning the kernel matrix; Figs. 3.32-3.35)",
                  "Weinberger, Sha & Saul, ICML 2004")
    solvers = mvu_solvers()
    uses_neighbors = True
    requires_connected_graph = True
    table_note = "kernel PCA on the MVU kernel (k = 4, 3.1.9), certified like every MVU solve."

    def __init__(self, *, n_neighbors=4, n_components=2, solver="native", tol_gap=1e-3,
                 tol_violation=1e-4, time_limit=600.0, random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.solver = solver
        self.tol_gap = tol_gap
        self.tol_violation = tol_violation
        self.time_limit = time_limit
        self.random_state = random_state

    @classmethod
    def skip(cls, dataset, solver):
        """MVU's: a dense cvxpy backend beyond its size cap is skipped."""
        return MVU.skip(dataset, solver)

    def _kernel(self, X):
        mvu = MVU(n_neighbors=self.n_neighbors, n_components=self.n_components,
                  solver=self.solver, variant="equality", tol_gap=self.tol_gap,
                  tol_violation=self.tol_violation, time_limit=self.time_limit,
                  random_state=self.random_state)
        try:
            mvu.fit(X)
        finally:
            if hasattr(mvu, "solve_info_"):
                self.solve_info_ = mvu.solve_info_
        self.kernel_factor_ = mvu.kernel_factor_
        return mvu.kernel_factor_ @ mvu.kernel_factor_.T
