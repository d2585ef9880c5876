"""Figs. 3.25-3.27 have no jobs of their own (they read Fig. 3.24's records): the work
module the contract asks for, never called."""

from __future__ import annotations

from harness.results.fig_3_25_27 import NAME, SOURCE

__all__ = ["work"]


def work(params: dict) -> dict:
    """Never called: the figure has no jobs."""
    raise RuntimeError(f"{NAME} has no jobs; it reads the records of {SOURCE}")
