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

from harness.register import QUANTIFIERS

__all__ = ["VERDICTS", "DECIDED", "KEYS", "HOLDS", "PARTLY", "FAILS", "UNDECIDED",
           "NOT_MEASURED", "STAND_IN", "NOT_COMPARABLE", "NOT_YET_BUILT", "QUANTIFIERS",
           "WITHIN_NOISE", "beyond_noise", "significant", "Reading", "verdict_of", "combined_verdict",
           "make_claim", "linked", "readings_claim", "parts_claim", "stand_in_claim",
           "not_comparable_claim",
           "check_claim", "claim_ids", "structured_claims", "about_every",
           "about_almost_every", "ALMOST_ALL_EXCEPTIONS", "about_most", "about_some"]

HOLDS, PARTLY, FAILS = "holds", "partly holds", "does not hold"
UNDECIDED = "undecided (within noise)"
NOT_MEASURED = "not measured"
STAND_IN = "not measured (stand-in)"
NOT_COMPARABLE = "not comparable"
#: a register claim no result of the harness decides yet (counted apart, never a pass)
NOT_YET_BUILT = "not yet built"
VERDICTS = (HOLDS, PARTLY, FAILS, UNDECIDED, NOT_MEASURED, STAND_IN, NOT_COMPARABLE,
            NOT_YET_BUILT)
#: the verdicts that decide a claim one way or the other
DECIDED = (HOLDS, PARTLY, FAILS)
KEYS = ("source", "claim", "verdict", "evidence")
#: optional keys: ``register`` (the id of the claims-register entry the claim decides,
#: :mod:`harness.register`) and ``counted`` (``False``: a check of the harness itself,
#: shown beside the thesis' claims but never counted among them)
OPTIONAL_KEYS = ("register", "counted")


def significant(p_claimed: float, p_other: float, level: float = 0.05):
    """The check of a one-sided test: a pass when significant in the claimed direction
    (``p_claimed < level``), a counterexample when significant the other way
    (``p_other < level``), else inside the noise (:data:`WITHIN_NOISE`: the test cannot
    tell; a NaN p-value, no test, likewise).

    Examples
    --------
    >>> significant(0.01, 0.99), significant(0.99, 0.01), significant(0.3, 0.7)
    (True, False, WITHIN_NOISE)
    """
    if p_claimed == p_claimed and p_claimed < level:
        return True
    if p_other == p_other and p_other < level:
        return False
    return WITHIN_NOISE


def _tri(check):
    """A check as ``True``, ``False`` or :data:`WITHIN_NOISE`."""
    if check is WITHIN_NOISE:
        return WITHIN_NOISE
    return bool(check)


def about_most(passed: dict, named: Sequence[str]) -> tuple[list, str]:
    """The check of a claim about *most* of the data sets ``named`` (a strict
    majority), ``passed`` holding each measured one's check (True, False or
    :data:`WITHIN_NOISE`): ``[True]`` once the passes are a majority of ``named``,
    ``[False]`` once they cannot be (every unmeasured or undecided one counted a pass),
    else no check and the sentence saying why (the counterpart of :func:`about_every`).

    Examples
    --------
    >>> about_most({"a": True}, ["a", "b"])
    ([], 'no verdict: the claim is about most of a, b, 1 of 2 measured')
    >>> about_most({"a": False}, ["a", "b"])[0], about_most({"a": True, "b": True}, "ab")[0]
    ([False], [True])
    """
    named = list(dict.fromkeys(named))
    decided = [bool(passed[n]) for n in named
               if n in passed and passed[n] is not WITHIN_NOISE]
    passes, fails = sum(decided), len(decided) - sum(decided)
    if 2 * passes > len(named):
        return [True], ""
    if 2 * (len(named) - fails) <= len(named):
        return [False], ""
    return [], (f"no verdict: the claim is about most of {', '.join(named)}, "
                f"{sum(n in passed for n in named)} of {len(named)} measured")


def about_some(passed: dict, named: Sequence[str]) -> tuple[list, str]:
    """The check of a claim about *some* one of the data sets ``named`` (an
    existential claim), ``passed`` holding each measured one's check (True, False or
    :data:`WITHIN_NOISE`): one pass decides; without one, a verdict only when every
    named data set is measured (a failure on a subset says nothing of the others).

    Examples
    --------
    >>> about_some({"a": False}, ["a", "b"])
    ([], 'no verdict: the claim is about some one of a, b, 1 of 2 measured, none passes')
    >>> about_some({"a": False, "b": True}, ["a", "b"])[0]
    [False, True]
    """
    named = list(dict.fromkeys(named))
    checks = [passed[d] for d in named if d in passed]
    if any(c is True for c in checks) or len(checks) == len(named):
        return checks, ""
    return [], (f"no verdict: the claim is about some one of {', '.join(named)}, "
                f"{len(checks)} of {len(named)} measured, none passes")


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
    checks = [_tri(c) for c in checks]
    if len(seen) == len(named) or (failure_decides and any(c is False for c in checks)):
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


class _WithinNoise:
    """The check of a case whose difference lies inside the measured noise: neither a
    pass nor a counterexample (:data:`WITHIN_NOISE`)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        raise TypeError("WITHIN_NOISE is neither a pass nor a failure; compare it with "
                        "'is WITHIN_NOISE' instead of using it as a bool")

    def __repr__(self) -> str:
        return "WITHIN_NOISE"


#: a check whose difference is inside the noise (timing band, standard error over runs,
#: a named test): it decides nothing (:func:`verdict_of`)
WITHIN_NOISE = _WithinNoise()

def beyond_noise(difference: float, noise: float):
    """The check that ``difference`` (the claim's side minus the other, in the claim's
    favour when positive) is positive beyond ``noise`` (>= 0): ``True`` above
    ``noise``, ``False`` below ``-noise``, :data:`WITHIN_NOISE` in between (and for a
    NaN difference or noise, which measure nothing).

    Examples
    --------
    >>> beyond_noise(0.5, 0.1), beyond_noise(-0.5, 0.1), beyond_noise(0.05, 0.1)
    (True, False, WITHIN_NOISE)
    """
    if not (difference == difference and noise == noise):
        return WITHIN_NOISE
    if noise < 0:
        raise ValueError(f"beyond_noise: the noise {noise!r} must be >= 0")
    if difference > noise:
        return True
    if difference < -noise:
        return False
    return WITHIN_NOISE


def verdict_of(checks: Iterable, quantifier: str = "every") -> str:
    """The verdict of a claim from its per-case checks (``True`` a pass, ``False`` a
    counterexample beyond the tolerance, :data:`WITHIN_NOISE` inside the noise), under
    the claim's ``quantifier`` (:data:`QUANTIFIERS`). One semantics for every claim:

    - ``every`` (and ``mean``, ``trend``, ``number``): one counterexample and the claim
      ``does not hold``; else a case inside the noise leaves it ``undecided (within
      noise)``; else it ``holds``.
    - ``some``: one pass and it ``holds``; else a case inside the noise leaves it
      undecided; else it ``does not hold``.
    - ``most``: it ``holds`` when the passes are more than half of the cases, ``does
      not hold`` when they cannot be (counting every case inside the noise as a pass),
      else undecided.
    - no checks: ``not measured``.

    "Partly holds" never comes from here: it is for readings that disagree
    (:func:`readings_claim`) or a claim of separate parts (:func:`parts_claim`).

    Examples
    --------
    >>> verdict_of([True, False])
    'does not hold'
    >>> verdict_of([True, False], "some")
    'holds'
    >>> verdict_of([True, WITHIN_NOISE])
    'undecided (within noise)'
    >>> verdict_of([True, True, False], "most")
    'holds'
    """
    if quantifier not in QUANTIFIERS:
        raise ValueError(f"verdict_of: quantifier {quantifier!r} is not one of "
                         f"{', '.join(QUANTIFIERS)}")
    checks = [_tri(c) for c in checks]
    if not checks:
        return NOT_MEASURED
    passes = sum(c is True for c in checks)
    fails = sum(c is False for c in checks)
    noisy = len(checks) - passes - fails
    if quantifier == "some":
        return HOLDS if passes else (UNDECIDED if noisy else FAILS)
    if quantifier == "most":
        if 2 * passes > len(checks):
            return HOLDS
        return FAILS if 2 * (passes + noisy) <= len(checks) else UNDECIDED
    return FAILS if fails else (UNDECIDED if noisy else HOLDS)


def _quantifier(quantifier: str | None, register: str | None) -> str:
    """The quantifier a claim is judged under: the one given, else its register
    entry's, else ``every``."""
    if quantifier:
        return quantifier
    if register:
        return _entry(register).quantifier
    return "every"


def _entry(register: str):
    from harness.register import load_register

    entries = load_register()
    if register not in entries:
        raise ValueError(f"claim names register entry {register!r}, which is not in the "
                         f"claims register (harness/claims_register/*.yaml); add the entry "
                         f"(from the thesis' text) or fix the id")
    return entries[register]


def _registered(claim: dict, register: str | None) -> dict:
    if register:
        claim["register"] = register
    return check_claim(claim)


def linked(claim: dict, register: str) -> dict:
    """``claim`` naming the claims-register entry it decides (a copy; checked, so an id
    not in the register raises). For a result whose claim is made in several places."""
    return _registered(dict(claim), register)


def make_claim(source: str, claim: str, checks: Iterable, evidence: str,
               quantifier: str | None = None, register: str | None = None) -> dict:
    """A claim dict whose verdict is :func:`verdict_of` the checks under
    ``quantifier`` -- by default the quantifier of the ``register`` entry the claim
    decides (:mod:`harness.register`), else ``every`` (a universal claim: one
    counterexample refutes it)."""
    return _registered({"source": source, "claim": claim,
                        "verdict": verdict_of(checks, _quantifier(quantifier, register)),
                        "evidence": evidence or "no measured value"}, register)


@dataclasses.dataclass(frozen=True)
class Reading:
    """One defensible reading of a claim, or one part of a claim of separate parts: its
    name (``"over brute force"``), the checks it makes, the evidence (numbers) it rests
    on and its quantifier (:data:`QUANTIFIERS`; ``None``: the claim's register entry's,
    else ``every``)."""

    name: str
    checks: Sequence
    evidence: str
    quantifier: str | None = None

    def verdict_under(self, register: str | None = None) -> str:
        """:func:`verdict_of` the checks under the reading's quantifier (or that of the
        ``register`` entry)."""
        return verdict_of(self.checks, _quantifier(self.quantifier, register))

    @property
    def verdict(self) -> str:
        """:func:`verdict_of` the checks under the reading's quantifier (``every`` when
        it has none)."""
        return self.verdict_under()


def combined_verdict(verdicts: Sequence[str]) -> str:
    """The verdict of two or more readings (or parts) from theirs: the common verdict
    when every measured one agrees, ``partly holds`` when they disagree (one holds,
    another does not or is undecided), ``not measured`` when none is measured.

    Examples
    --------
    >>> combined_verdict(["holds", "not measured"])
    'holds'
    >>> combined_verdict(["holds", "does not hold"])
    'partly holds'
    """
    measured = set(verdicts) - {NOT_MEASURED}
    if not measured:
        return NOT_MEASURED
    return measured.pop() if len(measured) == 1 else PARTLY


def _named(source: str, readings: Sequence[Reading], what: str) -> None:
    names = [r.name for r in readings]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"{what} from {source} needs two or more {what.split('_')[0]}s "
                         f"with distinct names, got {names}; use make_claim for one")


def _combined(source: str, claim: str, readings: Sequence[Reading], word: str,
              register: str | None) -> dict:
    _named(source, readings, f"{word}_claim")
    verdicts = [r.verdict_under(register) for r in readings]
    evidence = "; ".join(f"{word} {r.name} ({v}): {r.evidence}"
                         for r, v in zip(readings, verdicts))
    return _registered({"source": source, "claim": claim,
                        "verdict": combined_verdict(verdicts), "evidence": evidence},
                       register)


def readings_claim(source: str, claim: str, readings: Sequence[Reading],
                   register: str | None = None) -> dict:
    """A claim read in two or more defensible ways, each fixed from the thesis' text
    (the ``register`` entry's readings, :mod:`harness.register`).

    Each reading's verdict is :func:`verdict_of` its checks under its quantifier (the
    register entry's by default); the claim's is :func:`combined_verdict` theirs
    (``"partly holds"`` when the measured readings disagree). The evidence states every
    reading with its own verdict: ``reading A (holds): ...; reading B (does not hold):
    ...``.

    Raises
    ------
    ValueError
        Fewer than two readings, or two with the same name.
    """
    return _combined(source, claim, readings, "reading", register)


def parts_claim(source: str, claim: str, parts: Sequence[Reading],
                register: str | None = None) -> dict:
    """A claim of separate parts (two statements in one sentence, e.g. "A is faster and
    B is more accurate"): each part is decided on its own, the claim is
    :func:`combined_verdict` theirs -- ``"partly holds"`` when one part holds and
    another does not. The evidence states every part with its verdict.

    Raises
    ------
    ValueError
        Fewer than two parts, or two with the same name.
    """
    return _combined(source, claim, parts, "part", register)


def stand_in_claim(source: str, claim: str, stand_ins: Iterable[str], evidence: str,
                   register: str | None = None) -> dict:
    """A claim whose only measurements are on stand-in data: shown, never counted.

    The verdict is ``"not measured (stand-in)"``; the evidence names the stand-in data
    sets and carries the numbers (what the verdict would rest on, for the reader)."""
    names = ", ".join(dict.fromkeys(stand_ins)) or "stand-in data"
    return _registered({"source": source, "claim": claim, "verdict": STAND_IN,
                        "evidence": f"measured on the stand-in {names} only, which does not "
                                    f"count: {evidence or 'no measured value'}"}, register)


def not_comparable_claim(source: str, claim: str, evidence: str,
                         register: str | None = None) -> dict:
    """A claim about a number measured on the thesis' hardware (a 2007 wall time) that
    ours cannot confirm or refute: verdict ``"not comparable"``, the evidence gives our
    number and the ratio."""
    return _registered({"source": source, "claim": claim, "verdict": NOT_COMPARABLE,
                        "evidence": evidence or "no measured value"}, register)


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
    if claim.get("register") is not None:
        _entry(claim["register"])
    if not isinstance(claim.get("counted", True), bool):
        raise ValueError(f"claim{origin}: 'counted' must be a bool (False: a check of the "
                         f"harness shown but not counted among the thesis' claims)")
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
    return [{"id": cid, **{key: c[key] for key in KEYS},
             "register": c.get("register") or "", "counted": c.get("counted", True)}
            for cid, c in zip(claim_ids(checked), checked)]
