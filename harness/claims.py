"""The thesis' qualitative claims, each with a verdict computed from our records.

The reproduction report (:mod:`harness.report`) lists every claim of the tables and
figures of a profile beside its verdict. A *claim* is a plain dict:

=============  ==================================================================
``source``     where it is checked: a figure (``"fig_3_24"``) or table
               (``"table_2_1"``) name
``claim``      the thesis' statement in one sentence, ending with its section,
               e.g. ``"... below 1 (3.1.11, Fig. 3.24)"``
``verdict``    one of :data:`VERDICTS`: ``"holds"``, ``"does not hold"``,
               ``"partly holds"``, ``"not measured"``, ``"not measured (stand-in)"``,
               ``"not comparable"``
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

**The rules a verdict follows** (what a skeptical reader checks; each has its helper
here, so that a result cannot break it by accident):

- *The reading is fixed from the thesis' text before our numbers are seen.* Where two
  readings of a claim (threshold, comparator, test) are defensible, the claim is made
  with :func:`readings_claim`: each reading gets its own verdict, both are stated in the
  evidence, and the claim is ``"partly holds"`` when they disagree.
- *Stand-in data is shown, never counted*: a claim computed on stand-in data is made with
  :func:`stand_in_claim` (verdict ``"not measured (stand-in)"``, the numbers in the
  evidence).
- *A check that cannot fail never raises a verdict*: a property that holds by
  construction (a Gram matrix F F^T is PSD; a search compared with itself) is not a
  check. Pass only checks that could come out against the thesis.
- *Numbers the thesis measured on other hardware are not comparable*: a wall time of
  2007 against one of today is made with :func:`not_comparable_claim` (the ratio in the
  evidence), unless the claim is about the algorithm's scaling.
- *A verdict from a toy size is not a verdict*: below the size where a claim can be
  tested the claim is ``"not measured"`` and its evidence says why and names n.
- *A subset does not decide a claim about every member*: a claim about every one of
  its data sets ("on all of the large data sets", "on every data set") passes its
  checks through :func:`about_every`: a failing one decides (a counterexample),
  checks that all pass decide nothing while a data set is not measured.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence

__all__ = ["VERDICTS", "KEYS", "STAND_IN", "NOT_COMPARABLE", "Reading", "verdict_of",
           "make_claim", "readings_claim", "stand_in_claim", "not_comparable_claim",
           "check_claim", "claim_ids", "structured_claims", "about_every",
           "about_almost_every", "ALMOST_ALL_EXCEPTIONS"]

STAND_IN = "not measured (stand-in)"
NOT_COMPARABLE = "not comparable"
VERDICTS = ("holds", "partly holds", "does not hold", "not measured", STAND_IN,
            NOT_COMPARABLE)
KEYS = ("source", "claim", "verdict", "evidence")


def about_every(checks: Sequence[bool], named: Sequence[str], measured: Iterable[str],
                what: str = "every one of", failure_decides: bool = True
                ) -> tuple[list[bool], str]:
    """The checks of a claim about every one of the data sets ``named`` (or about
    ``what`` else over them, e.g. ``"the mean over"``), of which ``measured`` were
    measured (real data; a stand-in does not count).

    Returns the checks unchanged and ``""`` when every named data set was measured or
    a check fails and ``failure_decides`` (a counterexample decides a claim about every
    one; not a claim about a mean, whose failure on a subset says nothing of the
    whole); else no checks (``"not measured"``) and the sentence saying why, ``"no
    verdict: the claim is about every one of a, b, c, 1 of 3 measured"``.

    Examples
    --------
    >>> about_every([True], ["iris", "mnist"], ["iris"])
    ([], 'no verdict: the claim is about every one of iris, mnist, 1 of 2 measured')
    >>> about_every([True, False], ["iris", "mnist"], ["iris"])
    ([True, False], '')
    >>> about_every([False], ["iris", "mnist"], ["iris"], "the mean over", False)[0]
    []
    """
    named = list(dict.fromkeys(named))
    seen = set(measured) & set(named)
    checks = [bool(c) for c in checks]
    if len(seen) == len(named) or (failure_decides and not all(checks)):
        return checks, ""
    return [], (f"no verdict: the claim is about {what} {', '.join(named)}, "
                f"{len(seen)} of {len(named)} measured")


#: "almost all" of a claim's data sets, read as every one but at most this many
ALMOST_ALL_EXCEPTIONS = 1


def about_almost_every(passed: dict[str, bool], named: Sequence[str],
                       exceptions: int = ALMOST_ALL_EXCEPTIONS) -> tuple[list[bool], str]:
    """A claim about *almost all* of the data sets ``named``, read as every one but at
    most ``exceptions``; ``passed`` says, per measured data set, whether it bears the
    claim out.

    The claim holds (``[True]``) once the data sets that fail or are not measured are
    at most ``exceptions``; it does not hold (``[False]``) once more than
    ``exceptions`` fail; between the two no verdict (``[]``). The sentence names the
    failing and the unmeasured data sets.

    Examples
    --------
    >>> about_almost_every({"iris": True, "wine": False}, ["iris", "wine"])
    ([True], '1 of 2 fail (wine); almost all read as all but at most 1')
    >>> about_almost_every({"iris": False, "wine": False}, ["iris", "wine", "bal"])[0]
    [False]
    >>> about_almost_every({"iris": False}, ["iris", "wine", "bal"])
    ([], '1 of 3 fail (iris), 2 not measured (wine, bal); almost all read as all but at most 1: no verdict')
    """
    named = list(dict.fromkeys(named))
    failed = [d for d in named if d in passed and not passed[d]]
    unmeasured = [d for d in named if d not in passed]
    text = f"{len(failed)} of {len(named)} fail" + (f" ({', '.join(failed)})" if failed else "")
    if unmeasured:
        text += f", {len(unmeasured)} not measured ({', '.join(unmeasured)})"
    text += f"; almost all read as all but at most {exceptions}"
    if len(failed) > exceptions:
        return [False], text
    if len(failed) + len(unmeasured) <= exceptions:
        return [True], text
    return [], text + ": no verdict"


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


@dataclasses.dataclass(frozen=True)
class Reading:
    """One defensible reading of a claim: its name (``"over brute force"``), the checks
    it makes and the evidence (numbers) it rests on."""

    name: str
    checks: Sequence[bool]
    evidence: str


def readings_claim(source: str, claim: str, readings: Sequence[Reading]) -> dict:
    """A claim read in two or more defensible ways, each fixed from the thesis' text.

    Each reading's verdict is :func:`verdict_of` its checks. The claim's verdict is the
    readings' common verdict when the measured ones agree, ``"partly holds"`` when they
    disagree, ``"not measured"`` when none is measured. The evidence states every
    reading with its own verdict: ``reading A (holds): ...; reading B (does not hold):
    ...``.

    Raises
    ------
    ValueError
        Fewer than two readings, or two with the same name.
    """
    names = [r.name for r in readings]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"readings_claim from {source} needs two or more readings with "
                         f"distinct names, got {names}; use make_claim for one reading")
    verdicts = [verdict_of(r.checks) for r in readings]
    measured = {v for v in verdicts if v != "not measured"}
    if not measured:
        verdict = "not measured"
    elif len(measured) == 1:
        verdict = measured.pop()
    else:
        verdict = "partly holds"
    evidence = "; ".join(f"reading {r.name} ({v}): {r.evidence}"
                         for r, v in zip(readings, verdicts))
    return check_claim({"source": source, "claim": claim, "verdict": verdict,
                        "evidence": evidence})


def stand_in_claim(source: str, claim: str, stand_ins: Iterable[str], evidence: str) -> dict:
    """A claim whose only measurements are on stand-in data: shown, never counted.

    The verdict is ``"not measured (stand-in)"``; the evidence names the stand-in data
    sets and carries the numbers (what the verdict would rest on, for the reader)."""
    names = ", ".join(dict.fromkeys(stand_ins)) or "stand-in data"
    return check_claim({"source": source, "claim": claim, "verdict": STAND_IN,
                        "evidence": f"measured on the stand-in {names} only, which does not "
                                    f"count: {evidence or 'no measured value'}"})


def not_comparable_claim(source: str, claim: str, evidence: str) -> dict:
    """A claim about a number measured on the thesis' hardware (a 2007 wall time) that
    ours cannot confirm or refute: verdict ``"not comparable"``, the evidence gives our
    number and the ratio."""
    return check_claim({"source": source, "claim": claim, "verdict": NOT_COMPARABLE,
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


#: how many words of a claim's statement its id keeps
ID_WORDS = 8


def _slug(text: str) -> str:
    """The first :data:`ID_WORDS` words of ``text`` made only of letters, lower case,
    joined by ``-``: numbers are left out, so that a statement that names a profile's
    size (``n = 1000``) keeps its id across profiles."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    return "-".join(words[:ID_WORDS]) or "claim"


def claim_ids(claims: Sequence[dict]) -> list[str]:
    """A stable id per claim, ``SOURCE/slug-of-its-statement``: the claim's own ``id``
    where it has one, else the slug of its first words without numbers; a repeated id
    gets ``-2``, ``-3``, ... in the order of ``claims``. The id does not depend on the
    verdict or the evidence, so two runs' verdicts on the same statement can be
    matched by it (``harness compare``).

    Examples
    --------
    >>> claim_ids([{"source": "fig_3_28", "claim": "k = 4, 5, 6 are clearly the best "
    ...             "choices (3.1.12)"}])
    ['fig_3_28/k-are-clearly-the-best-choices']
    """
    ids, seen = [], {}
    for claim in claims:
        base = f"{claim['source']}/{claim.get('id') or _slug(claim['claim'])}"
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return ids


def structured_claims(claims: Sequence[dict], where: str = "") -> list[dict]:
    """The claims as a result's sidecar keeps them, for programs that compare
    verdicts: one dict per claim with ``id`` (:func:`claim_ids`), ``source``,
    ``claim`` (the thesis' statement), ``verdict`` (exactly the string the report
    shows) and ``evidence``, each claim checked first (:func:`check_claim`).

    Raises
    ------
    ValueError
        A malformed claim (``where`` names who made it).
    """
    checked = [check_claim(c, where) for c in claims]
    return [{"id": cid, **{key: c[key] for key in KEYS}}
            for cid, c in zip(claim_ids(checked), checked)]
