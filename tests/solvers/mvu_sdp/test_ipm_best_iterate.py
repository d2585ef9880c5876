"""The interior point never returns an iterate worse than one it already certified,
and stops when its checked iterates keep getting worse (issue 50)."""

import dataclasses

import numpy as np

from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import Certificate, certify
from harness.solvers.mvu_sdp import ipm as ipm_module
from harness.solvers.mvu_sdp.ipm import solve_certified
from harness.solvers.mvu_sdp.result import better_certificate
from tests.problems.mvu_data import noisy_roll

GOOD = Certificate(value=99.0, violation=1e-6, bound=100.0, gap=1e-2, eigenvalue=1.0)
WORSE = Certificate(value=101.0, violation=1e-6, bound=100.0, gap=np.inf, eigenvalue=1.0,
                    consistent=False, candidate_bound=130.0)


def test_better_certificate_ranks_optimal_then_feasible_then_gap():
    optimal = dataclasses.replace(GOOD, gap=5e-4)
    infeasible = dataclasses.replace(GOOD, gap=1e-5, violation=1e-2)
    assert better_certificate(optimal, GOOD, 1e-3, 1e-4)
    assert not better_certificate(GOOD, optimal, 1e-3, 1e-4)
    assert better_certificate(GOOD, WORSE, 1e-3, 1e-4)  # inconsistent: gap inf
    assert not better_certificate(WORSE, GOOD, 1e-3, 1e-4)
    assert better_certificate(GOOD, infeasible, 1e-3, 1e-4)
    smaller_violation = dataclasses.replace(infeasible, violation=1e-3)
    assert better_certificate(smaller_violation, infeasible, 1e-3, 1e-4)


def test_a_later_worse_iterate_gives_way_to_the_best_checked_one(monkeypatch):
    """The certificates of the checked iterates are scripted: the first is consistent
    (gap 1e-2), every later one inconsistent. The solve stops after
    ``DIVERGING_CHECKS`` worse checks and returns the first iterate, not the last."""
    problem = MVUProblem.from_points(noisy_roll(60, seed=1), 5)
    seen = []

    def judged(F, w):
        seen.append(F)
        if len(F) and seen[0] is F:
            return GOOD
        if len(seen) <= 1 + ipm_module.DIVERGING_CHECKS:
            return WORSE
        return dataclasses.replace(WORSE, value=102.0)  # the final iterate's

    monkeypatch.setattr(ipm_module, "TRACK_FROM", 1e9)  # check every iterate
    result = solve_certified(problem, judged, time_limit=60, max_iter=60,
                             schur_precision="double")
    assert result.details["stopped"] == "diverging"
    assert result.details["iterate"] == "best checked"
    assert result.certificate is GOOD and result.F is seen[0]
    assert result.status == "inaccurate"
    # the checks: the good one, DIVERGING_CHECKS worse ones, then the final iterate
    assert len(seen) == 2 + ipm_module.DIVERGING_CHECKS


def test_a_real_solve_still_certifies_and_returns_its_last_iterate():
    problem = MVUProblem.from_points(noisy_roll(80, seed=2), 5)
    result = solve_certified(problem, lambda F, w: certify(problem, F, w), time_limit=60)
    assert result.status == "optimal"
    assert result.details["iterate"] == "last"
    assert result.details["stopped"] == "accepted"
    again = certify(problem, result.F, result.w)
    assert again.gap <= 1e-3 and again.violation <= 1e-4
