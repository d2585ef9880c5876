"""Which SDP solves a claim about the SDP's solution may count, and how its evidence
names one it leaves out.

Every MVU (MVE, SDE, variational MVU) solve a record keeps carries the status the
harness recomputed from its certificate; only ``"optimal"`` is certified (gap and
violation within the solver's tolerances). The kernel of any other status is an
iterate, not the SDP's solution: a verdict about that solution must not rest on it.
A claim's check leaves such a cell out (it is "not measured" for that data set or
case) and its evidence says which cell and why (:func:`not_counted`). A cell without
an SDP (a linear kernel, kPCA) has no status and counts as before.

Writer code only (no job imports it).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["CERTIFIED", "certified", "not_counted"]

#: the one status of a certified solve
CERTIFIED = "optimal"


def certified(status) -> bool:
    """Whether a cell whose SDP solve has the harness status ``status`` counts for a
    claim about the SDP's solution: ``"optimal"``, or no status at all (``None``,
    NaN, ``""``: a cell without an SDP).

    Parameters
    ----------
    status : str or None
        The solve's status as the record (or a frame's column) holds it.

    Returns
    -------
    bool

    Examples
    --------
    >>> certified("optimal"), certified("inaccurate"), certified(None), certified("")
    (True, False, True, True)
    """
    if status is None or (not isinstance(status, str) and pd.isna(status)):
        return True
    return status in (CERTIFIED, "")


def not_counted(name: str, status, certificate: str = "", what: str = "MVU solve") -> str:
    """The evidence's words for a cell left out of a claim's checks because its SDP
    solve is not certified optimal.

    Parameters
    ----------
    name : str
        The cell: a data set, a key, a stage (``"swiss_roll"``, ``"m = 6"``).
    status : str
        The solve's status (``"inaccurate"``, ``"timeout"``, ...).
    certificate : str or None
        Its certificate as the writer shows it (``"gap 1.0e+00"``,
        :func:`harness.formatting.certificate_text`); left out where
        empty or not a string (a frame's missing value).
    what : str
        The solve (``"MVU solve"``, ``"min-trace MVU solve"``, ``"SDE SDP"``).

    Returns
    -------
    str

    Examples
    --------
    >>> not_counted("swiss_roll", "inaccurate", "gap 1.0e+00")
    'swiss_roll: MVU solve not certified optimal (inaccurate, gap 1.0e+00), not counted'
    """
    certificate = certificate if isinstance(certificate, str) else ""
    detail = ", ".join(part for part in (str(status), certificate) if part)
    return f"{name}: {what} not certified optimal ({detail}), not counted"
