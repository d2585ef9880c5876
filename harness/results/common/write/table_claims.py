"""How a thesis table's claims are checked on its long CSV (Tables 2.1 and 3.2 declare
theirs: ``CLAIMS`` of :mod:`harness.results.table_2_1` and ``table_3_2``).

Each claim is a test over the table's numbers by ``(measure, thesis row, thesis data
set)``. It runs twice: on our numbers (status ``ok``, real data only: a stand-in never
counts as the thesis' data set) and on the thesis' own numbers *for the same data
sets*. The second run tells whether the thesis' table itself bears the claim out as we
read it, e.g. "the energy classifier is very close to the SVM on almost all data
sets" is not borne out by the thesis' own Table 2.1 when "very close" is within the
table's 1.5 points (yalefaces, bal and wine differ by more). Where the thesis' words
are vague, the reading is stated in the claim (``at most 1.5 points``, ``at least
0.95``) and the thresholds are the tables' tolerances where one fits.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import NamedTuple

import pandas as pd

from harness.claims import (
    Reading,
    beyond_noise,
    about_almost_every,
    about_every,
    make_claim,
    readings_claim,
    verdict_of,
)
from harness.results.common.declare.table_spec import TableSpec
from harness.results.common.write.tables import AVERAGE, GAP_MARKS, ColumnReading, column_readings

__all__ = ["Values", "uncertified", "Check", "TableClaim", "SHORT", "compare", "compare_pairs", "table_claims",
           "thesis_labels"]


class Check(NamedTuple):
    """One tested case: the data sets it used, whether it passed, its numbers, and the
    reading of the claim it belongs to where the claim has several (e.g. which of two
    SVM rows stands for the thesis' SVM; used by coverage ``"almost all"``)."""

    datasets: tuple[str, ...]
    ok: bool
    text: str
    reading: str = ""


def uncertified(rows: pd.DataFrame) -> pd.Series:
    """The rows whose SDP solves are not certified optimal (``certified`` False; a row
    without an SDP, or a frame without the column, is not one of them)."""
    if "certified" not in rows:
        return pd.Series(False, index=rows.index)
    return rows["certified"].astype("boolean").eq(False).fillna(False).astype(bool)


class Values:
    """One column (``ours`` or ``thesis``) of a table's long frame, by ``(measure,
    thesis row label, thesis data set)``; stand-in rows are left out, and so are ours
    where a cell's SDP solve is not certified optimal (:func:`uncertified`: the
    numbers of an iterate are not the method's; such a data set is "not measured").

    Parameters
    ----------
    frame : DataFrame
        The long table (``results/<profile>/tables/<table>.csv``).
    column : {"ours", "thesis"}
    datasets : collection of str, optional
        Only these thesis data sets (the thesis run uses the ones ours measured).
    decimals : int
        Digits after the point when a check prints a number (the table's).
    labels : collection of str, optional
        Only these row labels (:func:`thesis_labels`: the thesis' rows, so that a
        method a user adds is shown in the table but never moves a claim about the
        thesis' rows, such as a ranking).
    columns : collection of str, optional
        Only these table columns (one reading of the data,
        :class:`~harness.results.common.write.tables.ColumnReading`: its columns and its
        average), where a thesis data set has more than one.
    """

    def __init__(self, frame: pd.DataFrame, column: str, datasets=None, decimals: int = 3,
                 labels=None, columns=None):
        self.decimals = decimals
        rows = frame[~frame["stand_in"].astype(bool)]
        if columns is not None:
            rows = rows[rows["dataset"].isin(set(columns))]
        if column == "ours":  # measured, and not an uncertified SDP iterate
            rows = rows[(rows["status"] == "ok") & ~uncertified(rows)]
        if labels is not None:
            rows = rows[rows["thesis_label"].isin(set(labels))]
        self._values: dict[tuple[str, str, str], float] = {}
        for row in rows.itertuples():
            value = getattr(row, column)
            if (datasets is None or row.thesis_dataset in datasets) and math.isfinite(value):
                self._values.setdefault((row.measure, row.thesis_label, row.thesis_dataset),
                                        float(value))

    def get(self, measure: str, label: str, dataset: str) -> float | None:
        """The number, or None where there is none."""
        return self._values.get((measure, label, dataset))

    def fmt(self, value: float) -> str:
        """A number as the table prints it."""
        return f"{value:.{self.decimals}f}"

    def labels(self, measure: str, dataset: str) -> list[str]:
        """The rows with a number for ``measure`` on ``dataset``."""
        return [k[1] for k in self._values if k[0] == measure and k[2] == dataset]


SHORT = {"train_knn_loo_error": "kNN train", "test_knn_error": "kNN test",
         "test_energy_error": "energy test", "test_svm_error": "SVM test",
         "local_continuity": "continuity", "local_trust": "trust",
         "neighborhood_intersection": "intersection", "test_error_pct": "test error (%)"}


def compare(values: Values, d: str, a: tuple[str, str], b: tuple[str, str], *,
             higher: bool = False, margin: float = 0.0, factor: float = 1.0,
             noise: float = 0.0) -> Check | None:
    """``a`` better than ``factor`` x ``b`` (+ ``margin``) on data set ``d``: lower (an
    error) or, with ``higher``, larger (a quality score). ``a``, ``b`` are
    ``(measure, row label)``. With ``noise`` > 0 a difference within it is inside the
    noise (:func:`harness.claims.beyond_noise`: the check is ``WITHIN_NOISE``)."""
    va, vb = values.get(a[0], a[1], d), values.get(b[0], b[1], d)
    if va is None or vb is None:
        return None
    gain = (va - (factor * vb - margin)) if higher else ((factor * vb + margin) - va)
    ok = beyond_noise(gain, noise) if noise > 0 else bool(gain > 0)
    what = (f"{SHORT.get(a[0], a[0])} " if a[0] == b[0] else "")
    left = a[1] if a[0] == b[0] else f"{a[1]} {SHORT.get(a[0], a[0])}"
    right = b[1] if a[0] == b[0] else f"{b[1]} {SHORT.get(b[0], b[0])}"
    return Check((d,), ok, f"{d} {what}{left} {values.fmt(va)} vs {right} {values.fmt(vb)}")


def compare_pairs(values: Values, datasets, pairs, reading: str = "", **kwargs) -> list[Check]:
    """:func:`compare` for every data set and ``(a, b)`` pair, where measured; each
    check tagged with ``reading`` (:attr:`Check.reading`) where the claim has several."""
    found = (compare(values, d, a, b, **kwargs) for d in datasets for a, b in pairs)
    return [c._replace(reading=reading) for c in found if c is not None]


#: how much of a claim's data sets its verdict needs (:class:`TableClaim`)
COVERAGES = ("measured", "all", "almost all", "average")


@dataclasses.dataclass(frozen=True)
class TableClaim:
    """A claim of one table: ``test(values, datasets) -> checks`` on the data sets the
    claim speaks about (``datasets``; None: all of the table's thesis data sets).

    ``coverage`` says what a verdict needs when some of those data sets are not
    measured (their absence is listed in the evidence either way):

    - ``"measured"``: the verdict of the checks on the measured ones (a claim about
      the data sets one by one, e.g. LDA helps on wine and hurts on MNIST);
    - ``"all"``: the claim is about every one of them ("on all of the large data
      sets", "on every data set", "on the Swiss roll and the teapot"): a failing
      check decides (a counterexample), checks that all pass do not -- "not
      measured" until every data set is;
    - ``"almost all"``: the claim is about almost every one of them, read as all but
      at most :data:`~harness.claims.ALMOST_ALL_EXCEPTIONS`
      (:func:`~harness.claims.about_almost_every`; a data set passes when all its
      checks do). Checks with different ``reading`` are separate readings, each with
      its own verdict: "partly holds" when they disagree;
    - ``"average"``: the claim is about a mean over them (an average rank): "not
      measured" until every data set is.
    """

    claim: str
    test: Callable[[Values, tuple[str, ...]], list[Check]]
    datasets: tuple[str, ...] | None = None
    coverage: str = "measured"
    #: the quantifier its checks are judged under (:func:`harness.claims.verdict_of`;
    #: ``None``: the register entry's, else ``every``)
    quantifier: str | None = None
    #: the claims-register entry it decides (:mod:`harness.register`)
    register: str | None = None

    def __post_init__(self):
        if self.coverage not in COVERAGES:
            raise ValueError(f"TableClaim coverage {self.coverage!r}: use one of {COVERAGES}")


def _unmeasured(frame: pd.DataFrame, datasets: list[str]) -> str:
    """``olivetti (n/a), average (incomplete)``: why each data set has no number."""
    parts = []
    for d in datasets:
        rows = frame[(frame["thesis_dataset"] == d) & ~frame["stand_in"].astype(bool)]
        bad = rows[rows["status"] != "ok"]
        loose = rows[uncertified(rows) & (rows["status"] == "ok")]
        marks = []
        if len(bad):
            marks.append(GAP_MARKS.get(bad["status"].iloc[0], bad["status"].iloc[0]))
            if d == AVERAGE and bad["reason"].iloc[0]:  # short: which data sets it lacks
                marks[-1] += f": {bad['reason'].iloc[0]}"
        if len(loose):
            marks.append("not certified: the SDP solve of " + ", ".join(
                dict.fromkeys(loose["method"])) + " is not certified optimal")
        if not marks:
            marks.append("not in this profile" if rows.empty else "a row not in this profile")
        parts.append(f"{d} ({'; '.join(marks)})")
    return ", ".join(parts)


def thesis_labels(frame: pd.DataFrame) -> set[str]:
    """The row labels the thesis reports a number for anywhere in the table: the rows
    its claims are about (a row without any thesis number, e.g. a plugin added to the
    harness, is not one of them)."""
    thesis = pd.to_numeric(frame["thesis"], errors="coerce")
    return set(frame.loc[thesis.notna(), "thesis_label"])


def _tags(checks: list[Check], tag: str | None) -> list[Check]:
    return [c for c in checks if tag is None or c.reading == tag]


def _checked(claim: TableClaim, spec: TableSpec, frame: pd.DataFrame,
             reading: ColumnReading, tag: str | None = None) -> tuple[list[bool], str]:
    """The claim's checks and evidence (no final full stop) on the columns of one
    reading of the data, and only its checks of reading ``tag`` (:attr:`Check.reading`)
    where given."""
    targets = claim.datasets or spec.thesis_datasets
    columns = reading.columns | {reading.average}
    ours = _tags(claim.test(Values(frame, "ours", decimals=spec.decimals,
                                   labels=thesis_labels(frame), columns=columns), targets),
                 tag)
    measured = list(dict.fromkeys(d for c in ours for d in c.datasets))
    parts = ["; ".join(c.text for c in ours)] if ours else []
    almost_all = claim.coverage == "almost all"
    if ours:
        thesis = _tags(claim.test(Values(frame, "thesis", measured, spec.decimals,
                                         columns=columns), targets), tag)
        verdict = verdict_of(_almost_every(thesis, measured)[0] if almost_all
                             else (c.ok for c in thesis),
                             "every" if almost_all else _quantifier(claim))
        parts.append(f"the thesis' own numbers on the same data sets: {verdict}")
    missing = [d for d in targets if d not in measured]
    checks = [c.ok for c in ours]
    if missing:
        shown = frame[frame["dataset"].isin(columns)]
        parts.append(f"not measured: {_unmeasured(shown, missing)}")
    why = ""
    if almost_all:
        checks, why = _almost_every(ours, targets)
    elif missing and claim.coverage == "all":
        checks, why = about_every(checks, targets, measured)
    elif missing and claim.coverage == "average" and checks:
        checks, why = about_every(checks, targets, measured, "the mean over",
                                  failure_decides=False)
    if why:
        parts.append(why)
    return checks, "; ".join(parts)


def _almost_every(checks: list[Check], targets) -> tuple[list[bool], str]:
    """Coverage ``"almost all"``: per reading of the checks, a data set passes when
    all its checks pass; each reading's verdict by
    :func:`~harness.claims.about_almost_every` over ``targets``."""
    verdicts, notes = [], []
    for reading in dict.fromkeys(c.reading for c in checks):
        passed: dict[str, bool] = {}
        for c in checks:
            if c.reading == reading:
                for d in c.datasets:
                    passed[d] = passed.get(d, True) and bool(c.ok)
        found, text = about_almost_every(passed, targets)
        verdicts += found
        notes.append(f"{reading}: {text}" if reading else text)
    return verdicts, "; ".join(notes)


def _quantifier(claim: TableClaim) -> str:
    if claim.quantifier:
        return claim.quantifier
    if claim.register:
        from harness.register import load_register

        return load_register()[claim.register].quantifier
    return "every"


def _check_tags(claim: TableClaim, spec: TableSpec, frame: pd.DataFrame) -> list[str]:
    """The readings the claim's checks are tagged with (:attr:`Check.reading`), where
    there are two or more: each is a reading of its own."""
    targets = claim.datasets or spec.thesis_datasets
    tags = list(dict.fromkeys(
        c.reading for c in claim.test(Values(frame, "ours", decimals=spec.decimals),
                                      targets)))
    return tags if len(tags) > 1 else []


def evaluate(claim: TableClaim, spec: TableSpec, frame: pd.DataFrame,
             descriptions: dict[str, str] | None = None) -> dict:
    """The claim dict (:mod:`harness.claims`) of one claim of the table ``spec`` on its
    long frame; our numbers are those of the thesis' rows only (:func:`thesis_labels`).

    The checks are judged under the claim's quantifier (:attr:`TableClaim.quantifier`,
    its register entry's, or ``every``: one counterexample refutes a claim about every
    data set). Where the table shows a thesis data set the claim speaks about (or the
    average) under two or more readings
    (:func:`~harness.results.common.write.tables.column_readings`), or the claim's checks are
    tagged with two or more readings (:attr:`Check.reading`, e.g. the two LDA rows or
    the two SVM rows),
    the claim is checked under each and combined by :func:`harness.claims.readings_claim`
    ("partly holds" when they disagree); each column reading's evidence starts with its
    ``descriptions[column]`` where given."""
    targets = claim.datasets or spec.thesis_datasets
    first, *others = column_readings(frame)
    involved = [r for r in others if AVERAGE in targets or r.thesis_dataset in targets]
    tags = _check_tags(claim, spec, frame)
    quantifier = "every" if claim.coverage == "almost all" else _quantifier(claim)
    if not involved and not tags:
        checks, evidence = _checked(claim, spec, frame, first)
        return make_claim(spec.name, claim.claim, checks, evidence + ".", quantifier,
                          claim.register)
    descriptions = descriptions or {}
    readings = []
    for reading in [first] + involved:
        for tag in tags or [None]:
            checks, evidence = _checked(claim, spec, frame, reading, tag)
            about = descriptions.get(reading.name)
            name = ", ".join(n for n in ((reading.name if involved else ""), tag or "") if n)
            readings.append(Reading(name, checks,
                                    f"{about.strip()}: {evidence}" if about else evidence,
                                    quantifier))
    return readings_claim(spec.name, claim.claim, readings, claim.register)


def table_claims(spec: TableSpec, claims, frame: pd.DataFrame | None,
                 missing: str = "", descriptions: dict[str, str] | None = None) -> list[dict]:
    """Every claim of ``claims`` (:class:`TableClaim`) checked on the long frame of the
    table ``spec`` (:func:`evaluate`; ``descriptions``: the readings' texts by column);
    without a frame (the table was not generated), each claim is ``not measured`` with
    ``missing`` as evidence."""
    if frame is None:
        return [make_claim(spec.name, claim.claim, [], missing, register=claim.register)
                for claim in claims]
    return [evaluate(claim, spec, frame, descriptions) for claim in claims]
