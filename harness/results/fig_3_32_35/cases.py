"""The data sets a claim of Figs. 3.32-3.35 is about, sorted into counted, stand-in,
gap and uncertified (:func:`_cases`), shared by the figure's own claims (:mod:`.write`)
and the register's (:mod:`.register_claims`)."""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

__all__ = ["Cases", "_cases"]


class Cases(NamedTuple):
    """The data sets of a claim, each as ``(dataset, its rows)``: ``real`` (counted),
    ``stand`` (stand-ins: shown, not counted), ``gaps`` (a kernel the claim needs not
    measured) and ``loose`` (real, but a kernel the claim needs has an SDP solve not
    certified optimal: its spectrum is an iterate's, not counted)."""

    real: list
    stand: list
    gaps: list
    loose: list


def _cases(frame: pd.DataFrame, columns, needed) -> Cases:
    """Per data set of the thesis columns ``columns``: a data set is measured when every
    kernel in ``needed`` is, and counted when it is real data and those kernels'
    solves are certified (column ``certified``)."""
    cases = Cases([], [], [], [])
    for dataset, part in frame[frame["thesis_dataset"].isin(columns)].groupby(
            "dataset", sort=False):
        measured = set(part.loc[part["status"] == "ok", "kernel"])
        if not set(needed) <= measured:
            cases.gaps.append((dataset, part))
        elif part["stand_in"].any():
            cases.stand.append((dataset, part))
        elif not part.loc[part["kernel"].isin(needed), "certified"].all():
            cases.loose.append((dataset, part))
        else:
            cases.real.append((dataset, part))
    return cases
