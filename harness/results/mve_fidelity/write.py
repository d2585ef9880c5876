"""The outputs of the MVE fidelity table from its records: the long CSV, the table in
Markdown and LaTeX, the sidecar and the verdicts on the lecture's two statements
(:func:`claims`); the table itself is :mod:`.table`."""

from __future__ import annotations

from harness.results.mve_fidelity import NAME, TITLE, _conf, keys
from harness.results.mve_fidelity import table

__all__ = ["build", "claims", "write"]


def build(config: dict):
    """The long table (:func:`harness.results.mve_fidelity.table.build`)."""
    return table.build(config, NAME, keys(config))


def claims(config: dict, frame=None) -> list[dict]:
    """The lecture's two statements with verdicts (:func:`table.claims`)."""
    frame = build(config) if frame is None else frame
    return table.claims(NAME, _conf(config), frame)


def write(config: dict) -> list:
    """``tables/mve_fidelity.{csv,md,tex,json}``."""
    frame = build(config)
    return table.write(config, NAME, TITLE, keys(config), frame,
                            claims(config, frame))
