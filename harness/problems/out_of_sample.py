"""The out-of-sample SDP of thesis 3.1.10: where a new input goes in an MVU embedding.

Given the embedding y_1..y_k (in R^r) of the k nearest neighbours of a new input x_t
and the squared input distances d_i = |x_i - x_t|^2, the thesis defines (3.31)

    y^_i = [y_i; -1],        S = [[I, y_t], [y_t^T, s]]

so that y^_i^T S y^_i = |y_i|^2 - 2 y_i^T y_t + s = |y_t - y_i|^2 + (s - |y_t|^2)
(3.32), and solves

    minimise   sum_i |xi_i| + e_{r+1}^T S e_{r+1}
    subject to (1) y^_i^T S y^_i = d_i + xi_i,   i = 1..k
               (2) e_i^T S e_i = 1,              i = 1..r
               (3) S >= 0.

**Where the thesis contradicts itself.** Constraint (2) as printed fixes only the
diagonal of S's top-left r x r block; the text says it "ensures ... that the top
left corner consists of the identity matrix", and the derivation (3.31)-(3.33) needs
that block to be I (with any other correlation matrix C, y^_i^T S y^_i is y_i^T C y_i
- 2 y_i^T y_t + s, not a distance). ``top_left="identity"`` (default) is the derived
problem: the top-left block *is* I, and then S >= 0 <=> s >= |y_t|^2 (Schur
complement, 3.30), so the SDP is the small convex program

    minimise  sum_i |a_i + s - 2 y_i^T y_t| + s   s.t.  s >= |y_t|^2,
    a_i = |y_i|^2 - d_i,

which :func:`harness.solvers.out_of_sample_native.solve_out_of_sample` solves.
``top_left="diagonal"`` is the printed constraint set (off-diagonal entries of the
top-left block free); only the cvxpy backends solve it.

Dual (derived here, used to certify any solver): for w in [-1, 1]^k (the
multipliers of t_i >= +-xi_i in the epigraph form) with nu = 1 + sum_i w_i > 0,

    D(w) = sum_i w_i a_i - |sum_i w_i y_i|^2 / nu  <=  optimal value,

and at the optimum y_t = sum_i w_i y_i / nu. Where s >= |y_t|^2 is inactive at the
optimum, nu* = 0 and D(w) is 0/0 in the limit, so :func:`dual_bound` minimises the
Lagrangian over a bounded relaxation of the domain instead (exact where the
constraint is active). :meth:`OutOfSampleProblem.certificate` recomputes objective,
violation, this bound and the gap for any candidate.
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["OutOfSampleProblem", "TOP_LEFT", "dual_bound"]

TOP_LEFT = ("identity", "diagonal")


def dual_bound(B, a, w, upper):
    """Batched (``B`` (m, k, r) anchors, ``a`` (m, k) offsets, ``w`` (m, k), ``upper``
    (m,)): a lower bound on the optimal value from multipliers ``w`` (any values),
    valid also where the constraint s >= |y|^2 is inactive (nu -> 0).

    The Lagrangian is minimised over the relaxed domain 0 <= s <= U, |y| <= sqrt(U),
    with U = ``upper`` >= the optimal value (so the optimum, with s* <= U, lies in
    it): with w clipped to [-1, 1] and nu = max(0, 1 + sum w),

        D = sum w_i a_i + min(0, (1 + sum w - nu) U) + min_{|y| <= sqrt U} (nu |y|^2 - 2 g^T y),

    g = sum w_i y_i; the last term is -|g|^2 / nu when |g| / nu <= sqrt U, else its
    value on the sphere. It equals the exact dual function where the constraint is
    active.
    """
    w = np.clip(w, -1.0, 1.0)
    c = 1.0 + w.sum(1)
    nu = np.maximum(c, 0.0)
    g = np.einsum("mk,mkr->mr", w, B)
    gn = np.sqrt(np.einsum("mr,mr->m", g, g))
    rho = np.sqrt(np.maximum(upper, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = (nu > 0) & (gn <= nu * rho)
        y_term = np.where(inside, -gn**2 / np.where(nu > 0, nu, 1.0), nu * rho**2 - 2 * gn * rho)
    return np.einsum("mk,mk->m", w, a) + np.minimum(0.0, (c - nu) * upper) + y_term


@dataclasses.dataclass(frozen=True)
class OutOfSampleProblem:
    """The SDP of 3.1.10 for one new point.

    Parameters
    ----------
    anchors : ndarray of shape (k, r)
        Embedding coordinates y_1..y_k of the new point's k nearest neighbours.
    sq_dists : ndarray of shape (k,)
        Squared input distances d_i = |x_i - x_t|^2.
    top_left : {"identity", "diagonal"}, default "identity"
        The derived problem or the printed constraint set (module docstring).
    """

    anchors: np.ndarray
    sq_dists: np.ndarray
    top_left: str = "identity"

    def __post_init__(self):
        anchors = np.asarray(self.anchors, dtype=np.float64)
        sq = np.asarray(self.sq_dists, dtype=np.float64)
        if anchors.ndim != 2 or sq.shape != (anchors.shape[0],):
            raise ValueError(f"anchors must be (k, r) and sq_dists (k,); got "
                             f"{anchors.shape} and {sq.shape}")
        if not (np.isfinite(anchors).all() and np.isfinite(sq).all()) or (sq < 0).any():
            raise ValueError("anchors and sq_dists must be finite, sq_dists non-negative")
        if self.top_left not in TOP_LEFT:
            raise ValueError(f"top_left must be one of {TOP_LEFT}, got {self.top_left!r}")
        object.__setattr__(self, "anchors", anchors)
        object.__setattr__(self, "sq_dists", sq)

    @property
    def k(self) -> int:
        return int(self.anchors.shape[0])

    @property
    def r(self) -> int:
        return int(self.anchors.shape[1])

    @property
    def offsets(self) -> np.ndarray:
        """a_i = |y_i|^2 - d_i."""
        return np.einsum("ij,ij->i", self.anchors, self.anchors) - self.sq_dists

    def slacks(self, y: np.ndarray, s: float) -> np.ndarray:
        """xi_i of constraint (1) for S = [[I, y], [y^T, s]]."""
        return self.offsets + s - 2.0 * self.anchors @ np.asarray(y, dtype=np.float64)

    def objective(self, y: np.ndarray, s: float) -> float:
        """sum_i |xi_i| + s."""
        return float(np.abs(self.slacks(y, s)).sum() + s)

    def violation(self, y: np.ndarray, s: float) -> float:
        """How far S is from PSD: max(0, |y|^2 - s) (Schur complement, 3.30)."""
        y = np.asarray(y, dtype=np.float64)
        return float(max(0.0, y @ y - s))

    def dual_bound(self, w: np.ndarray, upper: float) -> float:
        """A lower bound on the optimal value from multipliers ``w``, given an upper
        bound ``upper`` on it (e.g. any feasible point's objective): :func:`dual_bound`."""
        w = np.asarray(w, dtype=np.float64)[None]
        return float(dual_bound(self.anchors[None], self.offsets[None], w,
                                np.array([float(upper)]))[0])

    def certificate(self, y: np.ndarray, s: float, w: np.ndarray) -> dict:
        """Recomputed objective, violation, dual bound and relative gap
        (objective - bound) / max(objective, mean d_i) of a candidate ``(y, s)`` with
        multipliers ``w`` (``top_left="identity"``)."""
        value = self.objective(y, s)
        bound = self.dual_bound(w, value)
        gap = (value - bound) / max(abs(value), float(self.sq_dists.mean()), 1e-300)
        return {"objective": value, "violation": self.violation(y, s), "bound": bound,
                "gap": float(gap)}

    def to_cvxpy(self):
        """The SDP as printed in 3.1.10, as a cvxpy problem.

        Returns
        -------
        problem : cvxpy.Problem
        S : cvxpy.Variable of shape (r + 1, r + 1), PSD
            ``S.value[:r, r]`` is y_t.
        """
        import cvxpy as cp

        r, k = self.r, self.k
        S = cp.Variable((r + 1, r + 1), PSD=True)
        xi = cp.Variable(k)
        hats = np.hstack([self.anchors, -np.ones((k, 1))])
        constraints = [cp.sum(cp.multiply(hats @ S, hats), axis=1) == self.sq_dists + xi]
        if self.top_left == "identity":
            constraints.append(S[:r, :r] == np.eye(r))
        else:
            constraints.append(cp.diag(S)[:r] == 1.0)
        problem = cp.Problem(cp.Minimize(cp.sum(cp.abs(xi)) + S[r, r]), constraints)
        return problem, S

