"""A result's claims as the report and its sidecar state them: no verdict from a run
whose jobs have not all run.

A result's ``claims(config)`` (:mod:`harness.claims`) reads whatever records exist. On
a run where some of the result's jobs have not run yet (a long profile run result by
result, a run stopped half-way) those claims would be decided on a subset the thesis
does not speak about: Fig. 3.28's "locks from k = 5 on" from 2 of its 22 jobs, Fig.
3.23's "every ratio below 2" from the Swiss roll's trials alone. :func:`result_claims`
calls the hook and, when a record the result is built from is not on disk
(:func:`harness.jobs.result_input_records`: its own jobs' and those of the results it
``reads``), turns every decided verdict (holds, partly holds, does not hold) into
"not measured", its evidence naming how many jobs have not run and the first of them,
then what was measured so far. A job that ran and failed, timed out or found its data
unavailable has a record and is not "not run": the claims judge it as they do.

A result whose claims check each cell of its table and state unmeasured cells
themselves (the grid tables' :class:`~harness.results.common.write.table_claims.TableClaim`,
where a claim about every data set needs every one and a missing record is a cell
"not measured"; Figs. 2.9/2.12 on Table 2.1's cells) declares ``CLAIMS_PER_CELL =
True`` and keeps its verdicts.
"""

from __future__ import annotations

from types import ModuleType

from harness.claims import check_claim, make_claim
from harness.jobs import records_dir, result_input_records
from harness.record_check import CorruptRecordError, check_readable
from harness.result_registry import hook

__all__ = ["result_claims", "not_run", "withhold"]

#: verdicts a partial run does not decide (stand-in and not-comparable claims are not
#: verdicts on the thesis and stay as they are)
UNDECIDED_ON_PARTIAL = ("holds", "partly holds", "does not hold")


def not_run(config: dict, module: ModuleType) -> tuple[list[str], int]:
    """The job ids of the records ``module`` is built from that are not on disk, and
    how many records it is built from."""
    paths = result_input_records(config, module.NAME)
    root = records_dir(config)
    return [p.relative_to(root).with_suffix("").as_posix() for p in paths
            if not p.exists()], len(paths)


def withhold(claim: dict, missing: list[str], total: int) -> dict:
    """``claim`` with its decided verdict withheld: "not measured", the evidence
    saying which jobs have not run (``missing`` of ``total``) before what was
    measured so far."""
    if claim["verdict"] not in UNDECIDED_ON_PARTIAL:
        return claim
    named = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
    evidence = (f"no verdict: {len(missing)} of the {total} jobs this result is built "
                f"from have not run ({named}); decided on a run with every job. So far "
                f"({claim['verdict']} on the records there are): {claim['evidence']}")
    return check_claim({**claim, "verdict": "not measured", "evidence": evidence})


def result_claims(config: dict, module: ModuleType) -> list[dict]:
    """The result's ``claims(config)`` (none without the hook), each checked
    (:func:`harness.claims.check_claim`), with every decided verdict withheld while a
    record it is built from has not run (:func:`withhold`), unless the result declares
    ``CLAIMS_PER_CELL``."""
    claims = hook(module, "claims")
    try:
        check_readable(result_input_records(config, module.NAME))
        stated = [check_claim(c, f"{module.__name__}.claims") for c in
                  (claims(config) if claims else [])]
    except CorruptRecordError as exc:  # the report goes on with the other results
        unread = make_claim(module.NAME, f"The claims of {module.NAME} could not be "
                            f"judged: one of its records is unreadable", [], str(exc))
        return [{**unread, "counted": False}]
    if not stated or getattr(module, "CLAIMS_PER_CELL", False):
        return stated
    missing, total = not_run(config, module)
    return [withhold(c, missing, total) for c in stated] if missing else stated
