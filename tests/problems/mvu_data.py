"""Shared data of the MVU solver tests: noisy Swiss rolls and Clarabel's optimum."""

from datasets.swiss_roll import SwissRoll


def noisy_roll(n, seed=0):
    """``n`` points of the Swiss roll with 5 noise dimensions of N(0, 0.1^2) (Fig. 3.5)."""
    return SwissRoll().load(n_samples=n, extra_noise_dims=5, extra_noise_std=0.1,
                            seed=seed).X


def clarabel_value(problem):
    """The optimal value of ``problem`` by cvxpy + Clarabel (dense; small n only)."""
    cvx_problem, _, _ = problem.to_cvxpy()
    cvx_problem.solve(solver="CLARABEL")
    return cvx_problem.value
