"""Shared core of the SDP out-of-sample extensions ("sdp" and "sdp cg", Fig. 3.23):
one SDP of thesis 3.1.10 per new point, solved natively (all points in one batch) or
by a cvxpy backend, each answer certified by the harness."""

from __future__ import annotations

import time

import numpy as np

from harness.problems.out_of_sample import TOP_LEFT, OutOfSampleProblem
from harness import registry
from harness.solvers.out_of_sample_native import solve_out_of_sample
from harness.methods.shared.out_of_sample_core import OutOfSampleExtension

__all__ = ["SDPExtensionBase", "SDP_PARAMETERS", "SOLVERS", "cvxpy_point"]

SOLVERS = ("native", "clarabel", "scs", "cvxopt", "mosek")
CENTRES = ("neighbors", "origin")
SDP_PARAMETERS = """
    Parameters
    ----------
    n_neighbors : int, default=5
        k, the neighbours whose distances constrain the new point. 3.1.10 does not
        fix it; k >= 2r + 1 makes the solution unique.
    solver : {"native", "clarabel", "scs", "cvxopt", "mosek"}, default="native"
        ``native`` solves all new points in one batch
        (:func:`harness.solvers.out_of_sample_native.solve_out_of_sample`); a cvxpy
        backend solves the SDP as printed, one point at a time.
    top_left : {"identity", "diagonal"}, default="identity"
        The top-left block of S: I, as the text and (3.31)-(3.33) require, or only
        its diagonal fixed, as constraint (2) is printed (cvxpy solvers only); see
        :mod:`harness.problems.out_of_sample`.
    centre : {"neighbors", "origin"}, default="neighbors"
        Where the origin of S's coordinates lies. The objective's s >= |y_t|^2 pulls
        y_t towards the origin; with the embedding's own origin ("origin", the
        printed problem read literally) a point whose neighbourhood is small against
        its distance from the embedding's centre is pulled inwards even when its
        distances are exact (moving by delta towards the origin saves 2 |y_t| delta
        of s and costs at most 2 sum_i |y_t - y_i| delta of slack). "neighbors"
        (default) solves in coordinates centred on the k neighbours' mean and
        shifts back, which makes the extension translation invariant and exact for
        consistent distances. The thesis does not say; the choice is stated in
        Fig. 3.23's notes.
    tol_gap : float, default=1e-4
        Recomputed relative duality gap below which a point counts as optimal.
"""


def cvxpy_point(problem: OutOfSampleProblem, backend: str) -> tuple[np.ndarray, dict]:
    """Solve one point's SDP with a cvxpy backend; certify it with the constraint
    duals (either sign: D(w) bounds the optimum for every w, so the larger counts)."""
    cp_problem, S = problem.to_cvxpy()
    cp_problem.solve(solver=backend.upper())
    if S.value is None:
        return np.full(problem.r, np.nan), {"status": "failed", "gap": np.inf,
                                            "violation": np.inf,
                                            "solver_status": cp_problem.status}
    r = problem.r
    y, s = S.value[:r, r], float(S.value[r, r])
    info = {"solver_status": cp_problem.status}
    if problem.top_left == "identity":
        w = np.asarray(cp_problem.constraints[0].dual_value, dtype=float)
        certs = [problem.certificate(y, s, sign * w) for sign in (1.0, -1.0)]
        info.update(min(certs, key=lambda c: c["gap"]))
    else:  # the printed constraint set: no certificate of ours, the solver's word only
        info.update(objective=float(cp_problem.value), gap=np.nan,
                    violation=float(max(0.0, -np.linalg.eigvalsh(S.value).min())))
    return y, info


class SDPExtensionBase(OutOfSampleExtension):
    """The SDP extension; ``refine_`` hooks let the CG variant post-process."""

    solvers = SOLVERS
    uses_neighbors = True

    def __sklearn_tags__(self):
        # the SDP matches input distances, so it predicts well only targets that
        # are (near-)isometric embeddings of X, not scikit-learn's regression test
        # targets: poor_score spares it check_regressors_train's R^2 > 0.5
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True
        return tags

    def _check_solver(self):
        if self.solver not in SOLVERS:
            raise ValueError(f"solver must be one of {SOLVERS}, got {self.solver!r}")
        if self.top_left not in TOP_LEFT:
            raise ValueError(f"top_left must be one of {TOP_LEFT}, got {self.top_left!r}")
        if self.centre not in CENTRES:
            raise ValueError(f"centre must be one of {CENTRES}, got {self.centre!r}")
        if self.solver == "native" and self.top_left != "identity":
            raise ValueError("the native solver solves top_left='identity' only; use a "
                             "cvxpy solver (e.g. solver='clarabel') for 'diagonal'")
        if self.solver in registry.backends():
            ok, why = registry.backend_status(self.solver)
            if not ok:
                raise RuntimeError(f"solver {self.solver} is not usable here: {why}")

    def _solve(self, anchors, sq_dists):
        """(m, r) coordinates and the per-point solve statistics."""
        start = time.perf_counter()
        if self.solver == "native":
            sol = solve_out_of_sample(anchors, sq_dists, tol_gap=self.tol_gap)
            Y, status, gap = sol.y, sol.status, sol.gap
            violation, extra = sol.violation, {"newton_steps_max": int(sol.newton_steps.max())}
        else:
            rows = [cvxpy_point(OutOfSampleProblem(a, d, self.top_left), self.solver)
                    for a, d in zip(anchors, sq_dists)]
            Y = np.array([y for y, _ in rows])
            gap = np.array([i["gap"] for _, i in rows], dtype=float)
            violation = np.array([i["violation"] for _, i in rows], dtype=float)
            status = np.where(gap <= self.tol_gap, "optimal",
                              np.where(np.isnan(gap), "uncertified", "inaccurate"))
            extra = {}
        seconds = time.perf_counter() - start
        m = len(Y)
        info = {
            "solver": self.solver, "top_left": self.top_left, "n_points": m,
            "n_optimal": int((status == "optimal").sum()),
            "max_gap": float(np.nanmax(gap)) if m and not np.isnan(gap).all() else None,
            "max_violation": float(np.nanmax(violation)) if m else None,
            "seconds_per_point": seconds / max(m, 1), **extra,
        }
        return Y, info

    def _extend(self, X, neighbors, sq_dists):
        self._check_solver()
        anchors = self.embedding_[neighbors]
        shift = anchors.mean(axis=1) if self.centre == "neighbors" else np.zeros(
            (len(anchors), anchors.shape[2]))
        Y, info = self._solve(anchors - shift[:, None, :], sq_dists)
        info["centre"] = self.centre
        return self._refine(Y + shift, anchors, sq_dists, info), info

    def _refine(self, Y, anchors, sq_dists, info):
        return Y
