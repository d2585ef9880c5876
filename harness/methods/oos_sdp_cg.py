"""The SDP out-of-sample extension followed by conjugate gradients, "sdp cg" in
Fig. 3.23."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from harness.methods.shared.oos_sdp_core import SDP_PARAMETERS, SDPExtensionBase

__all__ = ["SDPCGExtension", "patch_objective"]


def patch_objective(y, anchors, sq_dists, centre, omega):
    """-(objective) and gradient of the CG step for one new point y (r,).

    The variational MVU refinement (3.1.8) restricted to the new point's patch:
    maximise (1 - omega) |y - c|^2 / sigma - omega * 2 sum_i ((|y - y_i|^2 - d_i) /
    sigma)^2, c the centre of the fitted embedding, sigma = mean d_i (the squared
    distances normalised as in the variational plugins), each edge counted for both
    ordered pairs as there.
    """
    sigma = max(float(sq_dists.mean()), 1e-300)
    diff = y - anchors
    r = (np.einsum("kr,kr->k", diff, diff) - sq_dists) / sigma
    value = (1 - omega) * ((y - centre) @ (y - centre)) / sigma - omega * 2 * (r @ r)
    grad = 2 * (1 - omega) * (y - centre) / sigma - omega * 8 * (r @ diff) / sigma
    return -value, -grad


class SDPCGExtension(SDPExtensionBase):
    __doc__ = """The SDP extension of thesis 3.1.10, then conjugate gradients "from
    variational MVU (CG) on the local patch around the inserted vector".

    The thesis does not say what the patch is. Here only the new point moves; its k
    neighbours stay where the fitted embedding has them (moving them would change
    the embedding every later point is extended into, so that the result would
    depend on the order of the new points). The objective is the variational MVU
    refinement's (variance minus omega times the squared distance misfit) over the
    new point's k edges, see :func:`patch_objective`; scipy's nonlinear CG with the
    analytic gradient, ``cg_maxiter`` iterations, from the SDP's answer.
    """ + SDP_PARAMETERS + """    omega : float, default=0.9
        Weight of the distance misfit against the variance, as in variational MVU.
    cg_maxiter : int, default=100

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)

    ``extend(X)`` also returns the SDP solves' statistics and ``cg_iterations_mean``.
    """

    name = "oos_sdp_cg"
    thesis_label = "sdp cg"
    references = ("thesis 3.1.10 and 3.1.8 (CG refinement), Fig. 3.23",)

    def __init__(self, *, n_neighbors=5, solver="native", top_left="identity",
                 centre="neighbors", tol_gap=1e-4, omega=0.9, cg_maxiter=100):
        self.n_neighbors = n_neighbors
        self.solver = solver
        self.top_left = top_left
        self.centre = centre
        self.tol_gap = tol_gap
        self.omega = omega
        self.cg_maxiter = cg_maxiter

    def _refine(self, Y, anchors, sq_dists, info):
        centre = self.embedding_.mean(axis=0)
        out, iterations = np.empty_like(Y), []
        for i, (y0, a, d) in enumerate(zip(Y, anchors, sq_dists)):
            result = minimize(patch_objective, y0, args=(a, d, centre, self.omega),
                              jac=True, method="CG",
                              options={"maxiter": self.cg_maxiter, "gtol": 1e-10})
            out[i] = result.x
            iterations.append(result.nit)
        info["cg_iterations_mean"] = float(np.mean(iterations)) if iterations else 0.0
        return out
