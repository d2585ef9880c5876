"""Figs. 2.9 and 2.12 (thesis 2.1.8, "Multiple applications of LMNN", "Multiple Metrics"):
error ratios of MUL-LMNN and MM-LMNN over a single LMNN metric, per data set.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.result_registry import get_result

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "CLAIMS_PER_CELL", "TABLE",
           "check", "keys", "params", "reads", "inputs"]

NAME = "fig_2_9_12"
TITLE = ("Figs. 2.9 and 2.12: kNN and energy error ratios of MUL-LMNN and MM-LMNN over "
         "a single LMNN metric, from Table 2.1 (thesis 2.1.8)")
THESIS_SECTION = "2.1.8"
KIND = "figure"
SIDECAR = True
#: its claims check Table 2.1's cells one by one: a job not run is a data set "not
#: measured", named in the evidence (:mod:`harness.result_claims`)
CLAIMS_PER_CELL = True
TABLE = "table_2_1"  # the result whose records the figures read


def check(config: dict) -> None:
    """Table 2.1 must be in the profile: its records are this figure's data."""
    if TABLE not in config["results"]:
        raise ConfigError(f"results.{NAME} is built from Table 2.1's records: add a "
                          f"results.{TABLE} section to the profile (its data sets and "
                          f"methods pca_lmnn, mul_lmnn, mm_lmnn are this figure's)")


def keys(config: dict) -> list[str]:
    """None: the figure trains nothing (it reads Table 2.1's records)."""
    return []


def params(config: dict, key: str) -> dict:
    """There are no jobs; a job id of this figure is an error naming Table 2.1's."""
    raise ConfigError(f"{NAME} has no jobs ({NAME}/{key}): it reads Table 2.1's records; "
                      f"run the jobs of {TABLE} (e.g. {TABLE}/iris/mul_lmnn) and "
                      f"`harness write {NAME}`")


def reads(config: dict) -> list[str]:
    """Table 2.1: a new record of it rewrites the figure."""
    return [TABLE]


def inputs(config: dict) -> list[str]:
    """Table 2.1's inputs (the thesis' reference CSV, the known deviations)."""
    return get_result(TABLE).inputs(config)
