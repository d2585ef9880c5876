"""Fig. 2.5 (thesis 2.1.6, line 736): "Training and test results on five standard
classification data sets with kNN classification (under PCA, LDA and the learned
Mahalanobis distance) and the Energy classifier", rebuilt as the thesis' bar chart from
Table 2.1's records, beside Table 2.1's active-constraint counts (2.1.3, 2.1.7) and the
register entries Table 2.1's and its peers' records decide (issue 54).

The declaration (keys, params, checks). The profile section's schema is
``schema.yaml``; the figure trains nothing (``keys`` is empty: it reads the records of
``results.table_2_1`` and, where the profile has it, ``results.table_2_1_peers``);
:mod:`.write` writes the outputs and the verdicts; ``README.md`` says what it shows and
the choices where the thesis is ambiguous.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.result_registry import get_result

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "CLAIMS_PER_CELL", "TABLE",
           "PEERS", "check", "keys", "params", "reads", "inputs"]

NAME = "fig_2_5"
TITLE = ("Fig. 2.5: kNN (PCA, LDA, PCA-LMNN) and energy training and test errors, with "
         "Table 2.1's active constraints, from Table 2.1's records (thesis 2.1.6)")
THESIS_SECTION = "2.1.6"
KIND = "figure"
SIDECAR = True
#: its claims read Table 2.1's cells one by one: a job not run is a data set "not
#: measured", named in the evidence
CLAIMS_PER_CELL = True
TABLE = "table_2_1"          # the result whose records the figure is
PEERS = "table_2_1_peers"    # NCA, RCA and LMNN on raw inputs on the same splits


def check(config: dict) -> None:
    """Table 2.1 must be in the profile: its records are this figure's data."""
    if TABLE not in config["results"]:
        raise ConfigError(f"results.{NAME} is built from Table 2.1's records: add a "
                          f"results.{TABLE} section to the profile (its data sets and "
                          f"rows pca_knn, lda_knn, pca_lmnn are the figure's)")


def keys(config: dict) -> list[str]:
    """None: the figure trains nothing (it reads Table 2.1's records)."""
    return []


def params(config: dict, key: str) -> dict:
    """There are no jobs; a job id of this figure is an error naming Table 2.1's."""
    raise ConfigError(f"{NAME} has no jobs ({NAME}/{key}): it reads Table 2.1's records; "
                      f"run the jobs of {TABLE} (e.g. {TABLE}/iris/pca_lmnn) and "
                      f"`harness write {NAME}`")


def reads(config: dict) -> list[str]:
    """Table 2.1 (and its peers where the profile has them): a new record of either
    rewrites the figure."""
    return [TABLE] + ([PEERS] if PEERS in config["results"] else [])


def inputs(config: dict) -> list[str]:
    """Table 2.1's inputs (the thesis' reference CSV, the known deviations)."""
    return get_result(TABLE).inputs(config)
