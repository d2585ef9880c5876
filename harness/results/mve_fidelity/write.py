"""The outputs of the MVE fidelity table from its records: the long CSV, the table in
Markdown and LaTeX, the sidecar and the verdicts on the lecture's two statements
(:func:`claims`); the table itself is :mod:`.table`."""

from __future__ import annotations

from harness.results.mve_fidelity import NAME, TITLE, _conf, keys
from harness.results.mve_fidelity import register_claims, table

__all__ = ["build", "claims", "write"]


def build(config: dict):
    """The long table (:func:`harness.results.mve_fidelity.table.build`)."""
    return table.build(config, NAME, keys(config))


def claims(config: dict, frame=None) -> list[dict]:
    """The harness' two readings of the lecture (:func:`table.claims`, not counted),
    then one claim per register entry the table decides
    (:func:`register_claims.register_claims`)."""
    frame = build(config) if frame is None else frame
    return (table.claims(NAME, _conf(config), frame)
            + register_claims.register_claims(NAME, frame))


def write(config: dict) -> list:
    """``tables/mve_fidelity.{csv,md,tex,json}``."""
    frame = build(config)
    return table.write(config, NAME, TITLE, keys(config), frame,
                            claims(config, frame))


#: ``harness compare``'s tolerance (harness.runs.compare). SDE and every MVE iteration
#: are SDP solves; the fidelities are their kernels' eigenvalue shares. An interior
#: point solve stops at the first iterate whose certified gap is below its tolerance
#: (1e-3 relative by default, harness.solvers.mvu_sdp.native_solver.solve_native), so another BLAS,
#: machine or commit may stop at another iterate, equally certified: the numbers
#: computed from the kernel agree to about that gap, not to the CSV's six digits. Looser
#: than the default (rtol 1e-6) for that reason; a change of a few per cent, or of a
#: status or verdict, is still listed. Declared here, in the writer, not in the
#: declaration: a declaration can be one of the jobs' source files, and editing it would
#: rerun them.
COMPARE_TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}
