"""Shared data of the MVU solver tests: noisy Swiss rolls and Clarabel's optimum."""

import numpy as np

from harness.datasets.swiss_roll import SwissRoll


def noisy_roll(n, seed=0):
    """``n`` points of the Swiss roll with 5 noise dimensions of N(0, 0.1^2) (Fig. 3.5)."""
    return SwissRoll().load(n_samples=n, extra_noise_dims=5, extra_noise_std=0.1,
                            seed=seed).X


def clarabel_value(problem):
    """The optimal value of ``problem`` by cvxpy + Clarabel (dense; small n only)."""
    cvx_problem, _, _ = problem.to_cvxpy()
    cvx_problem.solve(solver="CLARABEL")
    return cvx_problem.value


def helix(n=60, radius=3.0, pitch=0.1, turns=2.0):
    """``n`` evenly spaced points of the helix ``(r cos s, r sin s, pitch r s)``, s in
    [0, 2 pi turns]: noise-free 3-D data, so k >= 4 puts MVU on the facial path
    (every clique Gram of k + 1 points in R^3 is singular)."""
    s = np.linspace(0.0, 2.0 * np.pi * turns, n)
    return np.column_stack([radius * np.cos(s), radius * np.sin(s), pitch * radius * s])
