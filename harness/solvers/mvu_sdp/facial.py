"""MVU by facial reduction: the interior-point method on the face the cliques expose.

Noise-free inputs of dimension below k make the MVU SDP (equality and minimum-trace
variants) lose its interior: every feasible K lies in a face ``{U Q U^T}``
(:mod:`harness.problems.facial_reduction`, thesis 3.1.4 and 3.1.12), and
interior-point methods stall on the full problem. :func:`solve_facial` solves the
reduced problem (the independent edges, basis ``c U``) with
:func:`harness.solvers.mvu_sdp.ipm.run_ipm`, lifts its multipliers to the full problem
(cross term removed, ``+ t w_Y``: :func:`~harness.problems.facial_reduction.
lift_multipliers`) and judges the result by the certificate of the *full* problem
(:func:`harness.problems.mvu_certificate.certify`): a wrong face (a tolerance that
calls a small eigenvalue zero) shows up there as a violation or a gap.
"""

from __future__ import annotations

import time

import numpy as np

from harness.problems import facial_reduction as fr
from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import certify, trace_bound
from harness.solvers.mvu_sdp.result import NativeResult, final_status, judge
from harness.timelimit import Deadline

__all__ = ["solve_facial", "FACIAL_VARIANTS"]

#: The variants without a strictly feasible point on noise-free data (inequality and
#: slack have one: K = 0 meets every inequality, and slack has no hard constraint).
FACIAL_VARIANTS = ("equality", "min_trace")


def solve_facial(problem: MVUProblem, *, tol_gap: float = 1e-3, tol_violation: float = 1e-4,
                 time_limit: float = 600.0, rel_tol: float = fr.REL_TOL,
                 face_tol: float = fr.FACE_TOL,
                 reduction: fr.FacialReduction | None = None, verbose: bool = False):
    """Solve an MVU SDP on the face its cliques expose, certified on the full problem.

    Parameters
    ----------
    problem : MVUProblem
        Built by :meth:`MVUProblem.from_points` (it needs the cliques).
    tol_gap, tol_violation : float
        Tolerances on the full problem's recomputed certificate; the interior-point
        iteration stops as soon as the lifted certificate meets them.
    time_limit : float
        CPU seconds of this process (:class:`harness.timelimit.Deadline`) for the
        reduction, the interior-point iteration and the lift.
    rel_tol, face_tol : float
        Zero-eigenvalue tolerances of the clique Grams and of ``L(w_Y)``
        (:func:`harness.problems.facial_reduction.reduce`).
    reduction : FacialReduction, optional
        A reduction computed beforehand (e.g. with another tolerance).
    verbose : bool

    Returns
    -------
    harness.solvers.mvu_sdp.result.NativeResult or None
        ``None`` for the variants ``inequality`` and ``slack`` (strictly feasible:
        nothing to reduce) and when the face is the whole complement of 1
        (``d_f = n - 1``). Otherwise F (n x p), the lifted multipliers w (m; where
        they were proven in extended precision, the float64 rounding of the exact
        sum the certificate used, and ``extended_precision`` is True in the last
        history entry), the status from the full problem's certificate, and the
        interior-point history, each entry also carrying ``face_dim`` and (where the
        certificate was checked) ``t``; the last entry carries the reduction's
        summary.
    """
    from harness.solvers.mvu_sdp.ipm import IPMRun, run_ipm

    if problem.variant not in FACIAL_VARIANTS:
        return None
    t0 = time.perf_counter()  # wall seconds, for the result
    deadline = Deadline(time_limit)
    red = fr.reduce(problem, rel_tol, face_tol) if reduction is None else reduction
    if red.face_dim >= problem.n - 1:
        return None
    kept = red.kept
    sub = MVUProblem(n=problem.n, edges=problem.edges[kept],
                     sq_lengths=problem.sq_lengths[kept], variant=problem.variant)
    T = trace_bound(problem)
    # run_ipm's starting point (SDPT3's, without the constraint norms) assumes
    # |u_e|^2 ~ 2 as for the complement of 1; on a face |U^T a_e|^2 can be 1e-6 and
    # the iteration then stalls at once (measured: noise-free roll, k = 5, d_f = 4).
    # The basis c U gives the same K = c^2 U X U^T, the objective tr X = tr K / c^2
    # and the multipliers w / c^2: the same problem, scaled.
    u = red.U[sub.edges[:, 0]] - red.U[sub.edges[:, 1]]
    c2 = 2.0 / float(np.median(np.einsum("ij,ij->i", u, u))) if red.face_dim else 1.0
    lifts = []  # t of each accept call (NaN: not lifted, the violation was too large)
    last = {}  # the lifted multipliers of the last accept call

    def full_w(w_sub, F):
        w = np.zeros(problem.m)
        w[kept] = w_sub
        return fr.lift_multipliers(problem, red, w, F, T=T, deadline=deadline)

    def accept(F, w_sub):
        if problem.violation(F) > tol_violation:  # cheap: O(m), no eigenvalues
            lifts.append(np.nan)
            return False
        lift = full_w(c2 * w_sub, F)
        lifts.append(lift.t)
        last["lift"] = lift
        return judge(certify(problem, F, lift.w, T=T, w_low=lift.w_low),
                     tol_gap, tol_violation)[0] == "optimal"

    if red.face_dim == 0:  # the face is {0}: nothing to iterate, K = 0 is judged
        run = IPMRun(F=np.zeros((problem.n, 1)), w=np.zeros(len(kept)), status="converged",
                     iterations=0, history=[{"time": 0.0, "primal": 0.0, "dual": 0.0}])
    else:
        run = run_ipm(sub, basis=np.sqrt(c2) * red.U,
                      time_limit=max(0.0, deadline.left()),
                      accept=accept, check_below=min(tol_gap, tol_violation),
                      verbose=verbose)
    lift = last["lift"] if run.status == "accepted" else full_w(c2 * run.w, run.F)
    w, t = lift.w, lift.t
    final = certify(problem, run.F, w, T=T, w_low=lift.w_low)
    status = final_status(final, "timeout" if run.status == "timeout" else "inaccurate",
                          tol_gap, tol_violation)
    checked = iter(lifts)
    for entry in run.history:
        entry["primal"] *= c2  # the basis c U reports tr K / c^2
        entry["dual"] *= c2
        entry["face_dim"] = red.face_dim
        if entry.get("checked"):
            entry["t"] = next(checked, np.nan)
    run.history[-1].update(t_final=t, extended_precision=lift.w_low is not None,
                           ipm_status=run.status, kept_edges=len(kept),
                           dropped_residual=red.dropped_residual,
                           reduction_seconds=red.seconds, clique_nulls=red.clique_nulls)
    if verbose:
        print(f"facial: d_f {red.face_dim}, kept {len(kept)} of {problem.m} edges, "
              f"t {t:.1e}, gap {final.gap:.2e}, violation {final.violation:.2e}, "
              f"{run.status}")
    return NativeResult(F=run.F, w=w, status=status, certificate=final,
                        iterations=run.iterations, seconds=time.perf_counter() - t0,
                        history=run.history, w_low=lift.w_low,
                        t=float(t) if problem.maximize else -float(t),
                        w_Y=red.w_Y, U=red.U)
