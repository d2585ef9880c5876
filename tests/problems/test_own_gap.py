"""A candidate is optimal only if its own gap -- the dual bound for the distances it
meets exactly -- is within the tolerance too (issue 50): on a problem without an
interior a tiny violation times huge multipliers moves the bound."""

import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import Certificate, certify
from harness.problems.verify import verify_certificate
from harness.solvers.mvu_sdp.ipm import solve_ipm
from harness.solvers.mvu_sdp.result import judge

# value within 3.6e-4 of its bound, violation 5e-6, but its own residuals allow a bound
# 8.6e-2 higher (the noise-free roll of issue 50, n = 1000, k = 4, seed 1)
SHIFTED = Certificate(value=710135.4, violation=5.4e-6, bound=710392.5, gap=3.6e-4,
                      eigenvalue=1.00009, candidate_bound=776645.0)


def test_own_gap_is_the_gap_for_the_distances_the_candidate_meets():
    assert SHIFTED.own_gap == pytest.approx((776645.0 - 710135.4) / 776645.0)
    assert SHIFTED.shortfalls(1e-3, 1e-4) == ["own_gap"]
    healthy = Certificate(value=99.95, violation=1e-8, bound=100.0, gap=5e-4,
                          eigenvalue=1.0, candidate_bound=100.0000001)
    assert healthy.shortfalls(1e-3, 1e-4) == []
    slack = Certificate(value=1.0, violation=0.0, bound=1.0, gap=0.0, eigenvalue=1.0)
    assert slack.own_gap == 0.0  # no candidate bound computed (the slack variant)


def test_judge_names_the_own_gap():
    status, reason = judge(SHIFTED, 1e-3, 1e-4)
    assert status == "inaccurate"
    assert "own gap 8.56e-02" in reason and "776645" in reason
    assert judge(SHIFTED, 0.1, 1e-4) == ("optimal", "")


def test_an_iterate_of_a_problem_without_interior_is_not_optimal_on_its_gap_alone():
    """Noise-free roll, n = 200, k = 5 (seed 1): the full interior point's iterates meet
    the distances to 5e-10 and read gap 3e-7, yet their own gap stays near 1e-5 --
    certified to 1e-4, not to 1e-6. The old rule (gap and violation) called it
    optimal at 1e-6."""
    X = SwissRoll().load(n_samples=200, noise=0.0, seed=1).X
    P = MVUProblem.from_points(X, 5)
    res = solve_ipm(P, tol_gap=1e-6, tol_violation=1e-6)
    c = res.certificate
    assert res.status == "inaccurate"
    assert c.gap <= 1e-6 and c.violation <= 1e-6 and c.own_gap > 1e-6
    assert certify(P, res.F, res.w).shortfalls(1e-6, 1e-6) == ["own_gap"]
    report = verify_certificate(P.edges, P.sq_lengths, res.F, res.w, tol_gap=1e-6,
                                tol_violation=1e-6)
    assert not report.certified and any("own gap" in p for p in report.problems)
    assert verify_certificate(P.edges, P.sq_lengths, res.F, res.w, tol_gap=1e-4,
                              tol_violation=1e-6).certified
