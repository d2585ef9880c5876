"""What an MVU solve returns: the harness' verdict for every backend
(:class:`SolveResult`, :func:`judge`, :data:`STATUSES`) and a native solver's own
outcome (:class:`NativeResult`).

Two types for two layers. :class:`NativeResult` is what the native methods
(interior point, low rank, facial) hand to their dispatcher: the solver's own last
word (``status`` of ``optimal, inaccurate, timeout``, :func:`final_status`), its
iterations and per-iteration history, which the dispatcher compares
(``_better_result``) and the tests read. :class:`SolveResult` is the verdict
:func:`harness.solvers.mvu_sdp.dispatch.solve_mvu` returns for any backend: the backend's
name, a status of :data:`STATUSES` set by :func:`judge` from the recomputed
certificate (plus ``skipped``/``failed``/``infeasible`` that a native solver never
returns), the reason, and the timings a record keeps; the native status is kept
there as ``solver_status``, never trusted. :func:`psd_factor` turns the dense K of a
general-purpose solver (cvxpy, CSDP) into the factor F a :class:`SolveResult` holds.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from harness.problems.mvu_certificate import Certificate

__all__ = ["STATUSES", "SolveResult", "NativeResult", "judge", "final_status", "psd_factor",
           "better_certificate"]

STATUSES = ("optimal", "inaccurate", "infeasible", "failed", "timeout", "skipped")


@dataclasses.dataclass
class SolveResult:
    """One solve, judged by the harness.

    Attributes
    ----------
    status : str
        One of ``optimal, inaccurate, infeasible, failed, timeout, skipped``.
    reason : str
        Why, for anything but ``optimal``.
    solver : str
    F : ndarray of shape (n, p) or None
        K = F F^T, centred.
    w : ndarray of shape (m,) or None
        Edge multipliers (the dual certificate).
    w_low : ndarray of shape (m,) or None
        Where the multipliers are the exact sum ``w + w_low`` (lifted facial
        multipliers proven in extended precision); pass it to ``certify``.
    certificate : Certificate or None
    solver_status : str
        What the solver itself said (recorded, not trusted).
    compile_seconds, solve_seconds, wall_seconds : float
    details : dict
        Plain facts a solver reports about how it solved (e.g. the exposed face of
        facial reduction: ``{"face": {"dimension": ..., "single_point": ...}}``);
        recorded, never used to judge.
    t : float
        The lift of facial multipliers, signed: ``w + w_low = w_base + t w_Y``, w_base
        the reduced problem's multipliers with the cross term removed (t > 0 for
        maximum, t < 0 for minimum trace; 0.0 when the multipliers were not lifted).
    w_Y : ndarray of shape (m,) or None
        The exposing vector of the face the multipliers were lifted with.
    U : ndarray of shape (n, d_f) or None
        Orthonormal basis of that face (``U^T 1 = 0``, ``L(w_Y) U = 0``).
    """

    status: str
    reason: str
    solver: str
    F: np.ndarray | None = None
    w: np.ndarray | None = None
    certificate: Certificate | None = None
    solver_status: str = ""
    w_low: np.ndarray | None = None
    compile_seconds: float = float("nan")
    solve_seconds: float = float("nan")
    wall_seconds: float = float("nan")
    details: dict = dataclasses.field(default_factory=dict)
    t: float = 0.0
    w_Y: np.ndarray | None = None
    U: np.ndarray | None = None

    def info(self) -> dict:
        """Plain values for a record."""
        out = {k: getattr(self, k) for k in ("status", "reason", "solver", "solver_status",
                                             "compile_seconds", "solve_seconds",
                                             "wall_seconds")}
        if self.certificate is not None:
            out.update(self.certificate.as_dict())
        out["rank"] = None if self.F is None else int(self.F.shape[1])
        out.update(self.details)
        return out


def judge(certificate: Certificate, tol_gap: float, tol_violation: float) -> tuple[str, str]:
    """Status from the recomputed certificate alone
    (:meth:`~harness.problems.mvu_certificate.Certificate.shortfalls`).

    Parameters
    ----------
    certificate : Certificate
        :func:`harness.problems.mvu_certificate.certify` of the candidate.
    tol_gap, tol_violation : float
        Largest certified relative gap and relative violation of an ``optimal`` solve.

    Returns
    -------
    status : {"optimal", "inaccurate"}
    reason : str
        Empty for ``optimal``; else the gap and violation against their tolerances,
        why the certificate is inconsistent (a value beyond its dual bound), or the
        candidate's own gap (:attr:`~harness.problems.mvu_certificate.Certificate.
        own_gap`: its residuals, times the multipliers, move the bound by more than
        the tolerance).
    """
    short = certificate.shortfalls(tol_gap, tol_violation)
    if not short:
        return "optimal", ""
    if short == ["own_gap"]:
        return "inaccurate", (f"the candidate's own residuals move its dual bound to "
                              f"{certificate.candidate_bound:.6g} (own gap "
                              f"{certificate.own_gap:.2e}, tol {tol_gap:g}): its certified "
                              f"gap {certificate.gap:.2e} holds only for the distances it "
                              f"meets, violation {certificate.violation:.2e}")
    if not certificate.consistent:
        side = "above" if certificate.value > certificate.bound else "below"
        return "inaccurate", (f"inconsistent certificate: value {certificate.value:.6g} "
                              f"{side} the dual bound {certificate.bound:.6g} (the "
                              f"candidate's own constraint values allow "
                              f"{certificate.candidate_bound:.6g}), violation "
                              f"{certificate.violation:.2e} (tol {tol_violation:g})")
    return "inaccurate", (f"certified gap {certificate.gap:.2e} (tol {tol_gap:g}), "
                          f"violation {certificate.violation:.2e} (tol {tol_violation:g})")


def better_certificate(a: Certificate, other: Certificate, tol_gap: float,
                       tol_violation: float) -> bool:
    """Whether ``a`` certifies more than ``other``: optimal (:func:`judge`) first, then
    feasible to ``tol_violation``, then the smaller of the larger of the certified gap
    and the candidate's own gap (else the smaller violation). An inconsistent certificate (a value
    beyond its dual bound) has ``gap = inf`` and so ranks below every consistent one.

    Parameters
    ----------
    a, other : Certificate
    tol_gap, tol_violation : float
        As for :func:`judge`.

    Returns
    -------
    bool
    """
    optimal = [judge(c, tol_gap, tol_violation)[0] == "optimal" for c in (a, other)]
    if optimal[0] != optimal[1]:
        return optimal[0]
    ok, ok_other = (c.violation <= tol_violation for c in (a, other))
    if ok != ok_other:
        return ok
    if ok:
        return max(a.gap, a.own_gap) < max(other.gap, other.own_gap)
    return a.violation < other.violation


def psd_factor(K: np.ndarray, rel_tol: float = 1e-9) -> np.ndarray:
    """A factor F with ``F F^T`` = the PSD part of a solver's dense K.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        Symmetrised first; its eigenvalues at or below ``rel_tol`` times the largest
        (negative ones included) are dropped, the largest is always kept.
    rel_tol : float

    Returns
    -------
    ndarray of shape (n, p)
        Columns by decreasing eigenvalue.
    """
    lam, V = np.linalg.eigh((K + K.T) / 2)
    keep = lam > rel_tol * max(lam.max(), 1e-300)
    keep[-1] = True
    order = np.argsort(lam[keep])[::-1]
    return (V[:, keep] * np.sqrt(np.clip(lam[keep], 0, None)))[:, order]


def final_status(certificate: Certificate, status: str, tol_gap: float,
                 tol_violation: float) -> str:
    """A native solver's last word: "optimal" when the recomputed certificate meets
    both tolerances, else its own status ("timeout", "inaccurate"), never "optimal".

    Parameters
    ----------
    certificate : Certificate
        The final certificate, recomputed from the problem data.
    status : str
        What the solver's iteration concluded.
    tol_gap, tol_violation : float
        As for :func:`judge`.

    Returns
    -------
    str
        The :attr:`NativeResult.status`.
    """
    if judge(certificate, tol_gap, tol_violation)[0] == "optimal":
        return "optimal"
    return "inaccurate" if status == "optimal" else status


@dataclasses.dataclass
class NativeResult:
    """Outcome of a native solve: :func:`harness.solvers.mvu_sdp.native_solver.solve_native` and
    the methods it runs (:func:`harness.solvers.mvu_sdp.ipm.solve_ipm`,
    :func:`harness.solvers.mvu_sdp.lowrank.solve_lowrank`,
    :func:`harness.solvers.mvu_sdp.facial.solve_facial`).

    Attributes
    ----------
    F : ndarray of shape (n, p)
        Centred low-rank factor, ``K = F F^T``.
    w : ndarray of shape (m,)
        Edge multipliers (the dual certificate; ``w >= 0`` for ``inequality``).
    status : {"optimal", "inaccurate", "timeout"}
        "optimal" only if the recomputed certificate meets both tolerances.
    certificate : Certificate
        :func:`harness.problems.mvu_certificate.certify` of ``(F, w)``, recomputed
        at the end from the problem data.
    iterations : int
        Outer (multiplier) iterations.
    seconds : float
        Wall-clock time including the final certificate.
    history : list of dict
        One entry per outer iteration: time, value, violation, bound, gap, rank,
        sigma, mu, inner (Newton iterations).
    details : dict
        Plain facts about the solve for the record (e.g. ``{"method": "ipm"}``, and
        ``"face"`` after facial reduction).
    w_low : ndarray of shape (m,) or None
        The low part of multipliers kept as an exact sum ``w + w_low``
        (:func:`harness.problems.facial_reduction.lift_multipliers`); ``certify``
        takes it as ``w_low=``.
    t, w_Y, U : float, ndarray or None
        Facial reduction's lift, exposing vector and face basis (as in
        :class:`SolveResult`); 0.0, None, None for a solve of the full problem.
    """

    F: np.ndarray
    w: np.ndarray
    status: str
    certificate: Certificate
    iterations: int
    seconds: float
    history: list
    details: dict = dataclasses.field(default_factory=dict)
    w_low: np.ndarray | None = None
    t: float = 0.0
    w_Y: np.ndarray | None = None
    U: np.ndarray | None = None
