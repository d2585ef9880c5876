"""The thesis' qualitative claims, each with a verdict computed from our records.

The reproduction report (:mod:`harness.report`) lists every claim of the tables and
figures of a profile beside its verdict. A *claim* is a plain dict:

=============  ==================================================================
``source``     where it is checked: a figure (``"fig_3_24"``) or table
               (``"table_2_1"``) name
``claim``      the thesis' statement in one sentence, ending with its section,
               e.g. ``"... below 1 (3.1.11, Fig. 3.24)"``
``verdict``    one of :data:`VERDICTS`: ``"holds"``, ``"does not hold"``,
               ``"partly holds"``, ``"not measured"``
``evidence``   one sentence with the numbers the verdict rests on (and what was not
               measured, and why)
=============  ==================================================================

**The result interface.** A thesis result module (:mod:`harness.results`) MAY expose::

    def claims(config: dict) -> list[dict]:
        '''The thesis' statements about this result, each with a verdict.'''

reading its records or outputs (e.g. through its own ``build(config)``); it must not
run solves. The report calls it for every result of the profile's ``results:`` that
has it, and checks each dict with :func:`check_claim` (a malformed claim is a bug and
fails the report loudly). Stand-in data never counts as the thesis' data set; a claim
with no measured value is ``"not measured"``, not left out, so the reader sees it.
:func:`verdict_of` turns per-case checks into the verdict and :func:`make_claim`
builds a checked dict. The tables' claims live in :mod:`harness.report.table_claims`.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["VERDICTS", "KEYS", "verdict_of", "make_claim", "check_claim"]

VERDICTS = ("holds", "partly holds", "does not hold", "not measured")
KEYS = ("source", "claim", "verdict", "evidence")


def verdict_of(checks: Iterable[bool]) -> str:
    """``holds`` if every check passes, ``does not hold`` if none does, ``partly
    holds`` in between, ``not measured`` without checks."""
    checks = [bool(c) for c in checks]
    if not checks:
        return "not measured"
    if all(checks):
        return "holds"
    return "partly holds" if any(checks) else "does not hold"


def make_claim(source: str, claim: str, checks: Iterable[bool], evidence: str) -> dict:
    """A claim dict whose verdict is :func:`verdict_of` the checks."""
    return check_claim({"source": source, "claim": claim, "verdict": verdict_of(checks),
                        "evidence": evidence or "no measured value"})


def check_claim(claim: dict, where: str = "") -> dict:
    """Return ``claim`` if it follows the interface, else raise naming what is wrong.

    Raises
    ------
    ValueError
        A key is missing or not a non-empty string, or the verdict is not one of
        :data:`VERDICTS`; ``where`` names who made the claim.
    """
    origin = f" from {where}" if where else ""
    if not isinstance(claim, dict):
        raise ValueError(f"claim{origin} must be a dict with keys {KEYS}, got {claim!r}")
    for key in KEYS:
        if not isinstance(claim.get(key), str) or not claim[key]:
            raise ValueError(f"claim{origin} needs a non-empty string {key!r} (keys: "
                             f"{', '.join(KEYS)}); got {claim!r}")
    if claim["verdict"] not in VERDICTS:
        raise ValueError(f"claim{origin}: verdict {claim['verdict']!r} is not one of "
                         f"{', '.join(VERDICTS)}")
    return claim
