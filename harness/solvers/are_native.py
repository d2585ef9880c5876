r"""The action respecting embedding SDP (:mod:`harness.problems.are_problem`) on the native
interior-point method of :mod:`harness.solvers.mvu_sdp.ipm`.

ARE's constraints are signed combinations of edge rank-ones
(:mod:`harness.solvers.mvu_sdp.edge_constraints`): with ``A_ij = (e_i - e_j)(e_i -
e_j)^T``, a distance row ``<A_ij, K> <= b_ij`` (``=`` with ``distances="equality"``)
is one atom with coefficient +1, an action row (Bowling, Ghodsi & Wilkinson 2005;
lecture 7's constraint)

.. math::

   \langle A_{i'j'} - A_{ij},\ K\rangle = 0

two atoms with +1 and -1. The atoms are the distinct pairs among the edges and the
action pairs' ``(i, j)`` and ``(i', j')``; the iteration's Schur matrix is ``C E C^T``
with ``E`` the atoms' HKM matrix (:meth:`harness.solvers.mvu_sdp.ipm._Operators.schur`).
The distance rows of the default variant are inequalities with slacks, the action
rows equalities: only the distance multipliers carry the dual sign constraint.

Multipliers. The iteration solves ``min <-I, X>`` with dual ``A^T(y) + Z = -I``; its
multipliers ``-y`` split into the edge part ``w`` (``>= 0`` for inequalities) and the
action part ``v`` (free), and ``Z = V^T L(w, v) V - I`` with :meth:`harness.problems.
are.AREProblem.dual_laplacian`'s ``L(w, v) = sum_e w_e A_e + sum v (A_{i'j'} -
A_ij)``: exactly the pair :func:`harness.problems.are_problem.certify_are` takes. The
iteration stops as soon as that certificate, recomputed from the problem data, meets
the tolerances, and the status is read from it alone
(:func:`harness.solvers.mvu_sdp.ipm.solve_certified`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from harness.problems.are_problem import AREProblem, certify_are
from harness.problems.mvu_certificate import Certificate, trace_bound
from harness.solvers.mvu_sdp.edge_constraints import EdgeConstraints
from harness.solvers.mvu_sdp.ipm import (IPM_MEMORY_BUDGET, MIXED_FROM_M, schur_bytes,
                                     solve_certified)
from harness.solvers.mvu_sdp.result import NativeResult

__all__ = ["are_constraints", "split_multipliers", "solve_are_native", "NativeAREResult",
           "are_ipm_bytes", "proves_infeasible", "INFEASIBLE_MARGIN"]

#: A dual bound below ``-INFEASIBLE_MARGIN * |b|.|w|`` proves infeasibility
#: (:func:`proves_infeasible`): far beyond the rounding of ``b.w``.
INFEASIBLE_MARGIN = 1e-9


def are_constraints(problem: AREProblem) -> EdgeConstraints:
    """The rows of ``problem`` as signed edge rank-ones: the m distance rows (in the
    base problem's edge order), then the c action rows (in ``pairs``' order).

    Without action pairs, the base MVU problem's own constraints (no combination)."""
    base = problem.base
    if not problem.c:
        return EdgeConstraints.of_mvu(base)
    m, c, p = problem.m, problem.c, problem.pairs
    action_rows = m + np.arange(c)
    rows = np.concatenate([np.arange(m), action_rows, action_rows])
    pairs = np.vstack([base.edges, p[:, 2:], p[:, :2]])
    coefficients = np.concatenate([np.ones(m), np.ones(c), -np.ones(c)])
    b = np.concatenate([base.sq_lengths, np.zeros(c)])
    inequality = np.arange(m) if base.variant == "inequality" else None
    return EdgeConstraints.from_terms(problem.n, rows, pairs, coefficients, b,
                                      inequality=inequality, maximize=True,
                                      scale=float(base.sq_lengths.mean()))


def split_multipliers(problem: AREProblem, multipliers: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The iteration's multipliers (one per row of :func:`are_constraints`) as the
    edge multipliers ``w`` (m) and the action multipliers ``v`` (c)."""
    return multipliers[:problem.m], multipliers[problem.m:]


def are_ipm_bytes(problem: AREProblem) -> int:
    """Memory of one interior-point iteration on ``problem`` (bytes,
    :func:`harness.solvers.mvu_sdp.ipm.schur_bytes` at the precision it would use)."""
    system = are_constraints(problem)
    atoms = None if system.combination is None else len(system.atoms)
    precision = "mixed" if system.m >= MIXED_FROM_M else "double"
    return schur_bytes(problem.n, system.m, precision, atoms)


def proves_infeasible(problem: AREProblem, w: np.ndarray, certificate: Certificate
                      ) -> bool:
    """Whether the certificate's dual bound proves that ``problem`` has no feasible K.

    The bound holds for every feasible K (:func:`harness.problems.are_problem.certify_are`)
    and ``tr K >= 0`` for every PSD K, so a negative bound leaves none (Farkas: the
    multipliers are then a ray along which the dual objective falls without limit;
    seen with ``distances="equality"`` on the moving window, where Clarabel reports
    infeasibility). Negative means below ``-INFEASIBLE_MARGIN * |b|.|w|``, beyond the
    rounding of ``b.w``.
    """
    margin = INFEASIBLE_MARGIN * float(np.abs(problem.base.sq_lengths) @ np.abs(w))
    return bool(np.isfinite(certificate.bound) and certificate.bound < -margin)


@dataclasses.dataclass
class NativeAREResult(NativeResult):
    """A :class:`~harness.solvers.mvu_sdp.result.NativeResult` whose ``w`` holds the edge
    multipliers, plus the action multipliers.

    Attributes
    ----------
    v : ndarray of shape (c,) or None
    """

    v: np.ndarray | None = None


def solve_are_native(problem: AREProblem, *, tol_gap: float = 1e-3,
                     tol_violation: float = 1e-4, time_limit: float = 600.0,
                     max_iter: int = 100, memory_budget: float = IPM_MEMORY_BUDGET,
                     verbose: bool = False) -> NativeAREResult:
    """Solve the ARE SDP by the native interior-point method, certified by
    :func:`harness.problems.are_problem.certify_are`.

    Parameters
    ----------
    problem : AREProblem
    tol_gap, tol_violation : float
        The certificate's tolerances: the iteration stops as soon as both are met,
        and the status is "optimal" only then.
    time_limit : float
        CPU seconds of this process (:class:`harness.timelimit.Deadline`).
    max_iter : int
    memory_budget : float
        Refuse (ValueError) a problem whose iteration needs more bytes.
    verbose : bool
        Print one line per iteration.

    Returns
    -------
    NativeAREResult
        ``F`` (``K = F F^T``), ``w`` and ``v``, the status "optimal" / "inaccurate" /
        "timeout" from the recomputed certificate.
    """
    T = trace_bound(problem.base)

    def judged(F, multipliers):
        w, v = split_multipliers(problem, multipliers)
        return certify_are(problem, F, w, v, T=T)

    result = solve_certified(are_constraints(problem), judged, tol_gap=tol_gap,
                             tol_violation=tol_violation, time_limit=time_limit,
                             max_iter=max_iter, memory_budget=memory_budget,
                             verbose=verbose)
    w, v = split_multipliers(problem, result.w)
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(NativeResult)}
    return NativeAREResult(**{**fields, "w": w}, v=v)
