"""The SDP out-of-sample extension of thesis 3.1.10, "sdp" in Fig. 3.23."""

from __future__ import annotations

from harness.methods.shared.oos_sdp_core import SDP_PARAMETERS, SDPExtensionBase


class SDPExtension(SDPExtensionBase):
    __doc__ = """Map new inputs into an MVU embedding by the SDP of thesis 3.1.10.

    For each new input x_t with nearest fitted inputs x_1..x_k (embedded at
    y_1..y_k): minimise sum_i |xi_i| + s over S = [[I, y_t], [y_t^T, s]] >= 0 with
    y^_i^T S y^_i = |x_i - x_t|^2 + xi_i; y_t is read off S. Every point's answer
    is certified by a recomputed dual bound.
    """ + SDP_PARAMETERS + """
    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)

    ``extend(X)`` returns the coordinates and the solves' statistics: solver,
    points, how many certified optimal, the largest gap and violation, seconds per
    point.
    """

    name = "oos_sdp"
    thesis_label = "sdp"
    references = ("thesis 3.1.10 (eqs. 3.30-3.33), Fig. 3.23",)

    def __init__(self, *, n_neighbors=5, solver="native", top_left="identity",
                 centre="neighbors", tol_gap=1e-4):
        self.n_neighbors = n_neighbors
        self.solver = solver
        self.top_left = top_left
        self.centre = centre
        self.tol_gap = tol_gap
