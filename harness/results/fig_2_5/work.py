"""Fig. 2.5 has no jobs of its own (it reads Table 2.1's records): the work module the
contract asks for, never called."""

from __future__ import annotations

from harness.results.fig_2_5 import NAME, TABLE

__all__ = ["work"]


def work(params: dict) -> dict:
    """Never called: the figure has no jobs."""
    raise RuntimeError(f"{NAME} has no jobs; it reads the records of {TABLE}")
