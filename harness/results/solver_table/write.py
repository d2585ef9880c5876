"""The outputs of the MVU solver comparison: ``tables/solver_table.{csv,md,tex,json}``
from the solve records (:mod:`harness.results.solver_table.frame`) and its report
section, the grids coloured by verdict (:mod:`.section`)."""

from __future__ import annotations

from harness.results.solver_table.frame import write_solver_table
from harness.results.solver_table.section import solver_section

__all__ = ["write", "section", "claims"]


def write(config: dict) -> list:
    """``tables/solver_table.{csv,md,tex}`` from the solve records."""
    return write_solver_table(config)


def claims(config: dict, frame=None) -> list[dict]:
    """The claims-register entries the table decides (:mod:`.register_claims`)."""
    from harness.results.solver_table.register_claims import register_claims

    return register_claims(config, frame)


def section(config: dict):
    """The report's section: the grids, coloured by verdict."""
    return solver_section(config)


#: ``harness compare``'s tolerance (harness.runs.compare). Every cell is one certified
#: MVU solve: objective and bound to the certified gap, gap and violation below their
#: tolerances (tol_gap 1e-3, tol_violation 1e-4) at values that depend on where the
#: solver stopped (atol 1e-3 covers them). An interior point solve stops at the first
#: iterate whose certified gap is below its tolerance (1e-3 relative by default,
#: harness.solvers.mvu_sdp.native_solver.solve_native), so another BLAS, machine or commit may stop
#: at another iterate, equally certified: the numbers computed from the kernel agree to
#: about that gap, not to the CSV's six digits. Looser than the default (rtol 1e-6) for
#: that reason; a change of a few per cent, or of a status or verdict, is still listed.
#: Declared here, in the writer, not in the declaration: a declaration can be one of the
#: jobs' source files, and editing it would rerun them.
COMPARE_TOLERANCE = {"rtol": 1e-3, "atol": 1e-3}
#: the columns that identify a row of its CSV for ``harness compare``: m and rank are a
#: solve's numbers (the number of constraints, the rank of the kernel found), not its
#: identity.
COMPARE_KEYS = ("variant", "backend", "n")
