"""The rule by which bad edges are found (thesis 3.1.12): its parameters and their
checks, without NumPy or SciPy, so that a profile is checked without importing the
detection (:mod:`harness.problems.bad_edges`, whose docstring explains each choice)."""

from __future__ import annotations

import dataclasses
import math
from numbers import Integral, Real

__all__ = ["BadEdgeRule", "TRANSITIONS", "PASSAGES"]

TRANSITIONS = ("row", "raw")
PASSAGES = ("first", "visits")


@dataclasses.dataclass(frozen=True)
class BadEdgeRule:
    """How bad edges are found (thesis 3.1.12; the choices: module docstring).

    Parameters
    ----------
    walk_steps : int, default=7
        t: q^t is the probability of reaching j within t steps (thesis: t = 7).
    walk_sigma : float, default=1.0
        sigma of ``p_ij = exp(-|x_i - x_j| / sigma)``, in the data's units (thesis: 1).
    fence : float, default=1.5
        Tukey factor of the lower fence of ``log(q_ij + q_ji)``; larger cuts fewer.
    transition : {"row", "raw"}, default="row"
    passage : {"first", "visits"}, default="first"

    Raises
    ------
    ValueError
        A value out of range, naming it and what is allowed.
    """

    walk_steps: int = 7
    walk_sigma: float = 1.0
    fence: float = 1.5
    transition: str = "row"
    passage: str = "first"

    def __post_init__(self):
        t = self.walk_steps
        if isinstance(t, bool) or not isinstance(t, Integral) or t < 1:
            raise ValueError(f"walk_steps (t) must be an integer >= 1 (the walk's number "
                             f"of steps; the thesis uses 7), got {t!r}")
        for name, low, what in (("walk_sigma", 0.0, "> 0 (the thesis uses 1)"),
                                ("fence", None, ">= 0 (Tukey's 1.5 is the default)")):
            value = getattr(self, name)
            ok = (isinstance(value, Real) and not isinstance(value, bool)
                  and math.isfinite(value) and (value > low if low is not None else value >= 0))
            if not ok:
                raise ValueError(f"{name} must be a finite number {what}, got {value!r}")
        if self.transition not in TRANSITIONS:
            raise ValueError(f"transition must be one of {TRANSITIONS}, got {self.transition!r}")
        if self.passage not in PASSAGES:
            raise ValueError(f"passage must be one of {PASSAGES}, got {self.passage!r}")

    def as_dict(self) -> dict:
        """The rule as plain values (for records)."""
        return dataclasses.asdict(self)
