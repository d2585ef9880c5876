"""The names of the MVU SDP's variants, without importing the problem (NumPy, SciPy,
scikit-learn): what a profile is checked against."""

from __future__ import annotations

__all__ = ["VARIANTS", "NATIVE_VARIANTS"]

#: The SDP's variants (:class:`~harness.problems.mvu_problem.MVUProblem`).
VARIANTS = ("equality", "inequality", "slack", "min_trace")
#: The variants the native solvers (interior point and low rank) handle: every one
#: but the slack variant, whose O(m) slack variables only the cvxpy backends model
NATIVE_VARIANTS = ("equality", "inequality", "min_trace")
