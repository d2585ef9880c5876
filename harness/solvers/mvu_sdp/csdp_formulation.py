"""The MVU SDP as CSDP reads it, in three formulations, and CSDP's answer as the
harness' kernel K and edge multipliers w.

CSDP solves ``max <C, X> s.t. <A_i, X> = a_i, X PSD`` with dual ``min a . y s.t.
sum_i y_i A_i - C = Z PSD`` (:mod:`harness.solvers.mvu_sdp.sdpa_format`). Notation as in
:mod:`harness.problems.mvu_certificate`: edges e = (i, j), A_e = (e_i - e_j)(e_i -
e_j)^T, b_e = |x_i - x_j|^2 (the thesis' D_ij), L(y) = sum_e y_e A_e, 1 the ones
vector, J = I - 1 1^T / n the centring matrix (the thesis' H, 3.1.2), s = +1 for
maximum trace and s = -1 for minimum trace (3.1.11).

The thesis' SDP (3.1.4; the thesis solved it with CSDP 4.9):

    (T)  maximise s tr K (3.19)  s.t.  K PSD (3.15),  sum_ij K_ij = 0 (3.14),
         K_ii - 2 K_ij + K_jj = D_ij on every edge (3.13).

Formulations (``formulation=``), each with one constraint per edge (A_e, b_e):

``"centring_constraint"``
    (T) as printed: C = s I, and the centring constraint (3.14) as ``<1 1^T, X> =
    0``, a dense matrix of n (n + 1) / 2 entries.
``"centred_objective"``
    (V) maximise ``s <J, K>`` s.t. K PSD and (3.13), without (3.14): C = s J.
    ``<J, K> = tr K - 1^T K 1 / n = (1 / 2n) sum_ij (K_ii + K_jj - 2 K_ij)`` is the
    thesis' own variance objective Phi of (3.10), before (3.16)-(3.19) use the
    centring (3.9) to turn it into the trace.
``"centring_penalty"`` (default)
    (P) maximise ``s <J, K> - 1^T K 1 / n`` s.t. K PSD and (3.13): C = s J - 1 1^T /
    n, i.e. ``I - 2 (1 1^T) / n`` for maximum trace and ``-I`` for minimum trace (the
    plain trace: its centring comes for free). The translation (3.9) removes is
    penalised instead of constrained.

All three have the same optimal embedding; where they differ (degeneracy) and
how CSDP fared on each (measured): ``docs/csdp_formulations.md``.

**The multipliers.** CSDP's dual slack is ``Z = L(y) - C`` (+ ``y_c 1 1^T`` for the
centring constraint; + ``diag(y)`` in the slack block of the inequality variant, so
y >= 0 there). On the complement of 1, where the harness' certificate looks
(:func:`harness.problems.mvu_certificate.certify`: mu(w), nu(w) of L(w) there), C
acts as ``s I`` in every formulation, so dual feasibility reads ``L(y) - I PSD``
there (mu(y) >= 1) when maximising and ``L(y) + I PSD`` (nu(-y) <= 1) for minimum
trace: the harness' multipliers are ``w = s y`` on the edges -- the signs of the
cvxpy backends (:mod:`harness.solvers.mvu_sdp.cvxpy`). The centring multiplier y_c and
Z are not needed: the harness recomputes mu from w alone, so a y whose Z is not
quite PSD (CSDP's dual infeasibility) weakens the bound through mu < 1, never
falsifies it.
"""

from __future__ import annotations

import numpy as np

from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp.sdpa_format import CSDPSolution, SDPAProblem

__all__ = ["FORMULATIONS", "CSDP_VARIANTS", "to_sdpa", "kernel_and_multipliers",
           "check_formulation"]

#: The formulations, the default (``to_sdpa``, ``solve_csdp``, ``solve_mvu``) first.
FORMULATIONS = ("centring_penalty", "centred_objective", "centring_constraint")
#: The variants written for CSDP: the slack variant's L1 penalty is not (its O(m)
#: slack variables are modelled by the cvxpy backends only).
CSDP_VARIANTS = ("equality", "inequality", "min_trace")


def check_formulation(formulation: str, variant: str) -> None:
    """Raise ``ValueError`` naming the valid choices for an unknown formulation or a
    variant CSDP is not given."""
    if formulation not in FORMULATIONS:
        raise ValueError(f"csdp_formulation={formulation!r} is not one of {FORMULATIONS}")
    if variant not in CSDP_VARIANTS:
        raise ValueError(f"the csdp backend solves the variants {CSDP_VARIANTS}, not "
                         f"{variant!r}; use a cvxpy backend for it")


def _entries(matrix, block, i, j, values) -> tuple[np.ndarray, np.ndarray]:
    """SDPA entry rows (1-based) from 0-based i <= j."""
    i, j = np.asarray(i), np.asarray(j)
    index = np.column_stack([np.broadcast_to(matrix, i.shape), np.full(i.shape, block),
                             i + 1, j + 1]).astype(np.int64)
    return index, np.broadcast_to(np.asarray(values, dtype=np.float64), i.shape)


def to_sdpa(problem: MVUProblem, formulation: str = "centring_penalty") -> SDPAProblem:
    """``problem`` (variant equality, inequality or min_trace) in CSDP's form.

    Constraint e + 1 (1-based) is edge e; the centring constraint, if any, comes last
    (number m + 1). Block 1 is K (n x n); the inequality variant adds the slacks as a
    diagonal block 2 of size m.

    Raises
    ------
    ValueError
        For an unknown ``formulation`` or the slack variant.
    """
    check_formulation(formulation, problem.variant)
    n, m = problem.n, problem.m
    sign = 1.0 if problem.maximize else -1.0
    e = np.arange(m)
    i, j = problem.edges[:, 0], problem.edges[:, 1]
    parts = [_entries(e + 1, 1, i, i, 1.0), _entries(e + 1, 1, j, j, 1.0),
             _entries(e + 1, 1, i, j, -1.0)]
    rhs = [problem.sq_lengths]
    upper_i, upper_j = np.triu_indices(n)
    if formulation != "centring_constraint":  # C = s J, minus 1 1^T / n for the penalty
        penalty = 1.0 / n if formulation == "centring_penalty" else 0.0
        parts.append(_entries(0, 1, upper_i, upper_j,
                              sign * ((upper_i == upper_j) - 1.0 / n) - penalty))
    else:
        diagonal = np.arange(n)
        parts.append(_entries(0, 1, diagonal, diagonal, sign))
        parts.append(_entries(m + 1, 1, upper_i, upper_j, 1.0))
        rhs.append(np.zeros(1))
    block_sizes = (n,)
    if problem.variant == "inequality":
        parts.append(_entries(e + 1, 2, e, e, 1.0))
        block_sizes = (n, -m)
    index = np.concatenate([p[0] for p in parts])
    values = np.concatenate([p[1] for p in parts])
    index, values = index[values != 0], values[values != 0]  # e.g. -I's off-diagonal
    order = np.lexsort((index[:, 3], index[:, 2], index[:, 1], index[:, 0]))
    return SDPAProblem(block_sizes, np.concatenate(rhs), index[order], values[order])


def kernel_and_multipliers(problem: MVUProblem,
                           solution: CSDPSolution) -> tuple[np.ndarray, np.ndarray]:
    """The harness' candidate from CSDP's solution (module docstring).

    Returns
    -------
    K : ndarray of shape (n, n)
        ``J X J``, X CSDP's first block (centred exactly; not yet factored).
    w : ndarray of shape (m,)
        ``y`` on the edges, negated for minimum trace.
    """
    X = solution.X[0]
    K = X - X.mean(axis=0) - X.mean(axis=1)[:, None] + X.mean()
    sign = 1.0 if problem.maximize else -1.0
    return K, sign * solution.y[: problem.m]
