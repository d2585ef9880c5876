"""The claims-register entries Table 3.2's cells decide (issue 51), beyond its row
entries (:mod:`harness.results.common.write.row_claims`) and its five statements of 3.1.9
(:data:`harness.results.table_3_2.write.CLAIMS`).

Each entry is one :class:`Entry` of :data:`ENTRIES`: its register id, its statement,
and one :class:`Part` per reading the register fixes (the name, predicate, comparator,
tolerance and test written there before any number was computed). A part's test reads
our numbers of the thesis' rows (:class:`~harness.results.common.write.table_claims.Values`:
real data only, an uncertified SDP solve left out) and the shapes and MVU spectra of
the cells' records (:class:`Context`), once per reading of the table's columns
(:func:`~harness.results.common.write.tables.column_readings`: the Swiss roll of the table's
input-dim row and that of Section 3.1.5); the readings' verdicts are combined by
:func:`harness.claims.readings_claim` ("partly holds" when they disagree).

A reading the register states over several cells ("on at least 3 of the 4 data sets",
"on more than half of the cells") is counted here (:func:`at_least`) and enters as one
check: it is decided once the measured cells settle the count either way, and "not
measured" while the cells not measured could still turn it. A reading whose quantity
this result does not record (a full PCA spectrum, a Spearman correlation with the
roll's angle, l = 5) is a part without a test: "not measured", its evidence saying what
is missing. Where the register's wording is ambiguous, the docstring of the test and
the claim's evidence say which sense is taken (the most literal one).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from harness import registry
from harness.claims import (
    WITHIN_NOISE, Reading, about_every, beyond_noise, make_claim, readings_claim,
)
from harness.jobs import Job, read_job_record
from harness.outputs import output_paths
from harness.report.sections import read_long_table
from harness.results.common.write.certified import certified
from harness.results.common.declare.grid_profile import grid_cells
from harness.results.common.write.table_claims import SHORT, Values, thesis_labels
from harness.results.common.write.tables import AVERAGE, column_readings
from harness.results.solver_table.register_claims import TIMING_BAND, timing_ratio_check

__all__ = ["FOUR", "ROWS", "SPECTRAL", "Context", "Part", "Entry", "at_least", "rank",
           "ENTRIES", "register_claims", "decide"]

NAME = "table_3_2"
#: the thesis' four data sets of Table 3.2 (3.1.9, lines 1789-1794)
FOUR = ("olivetti", "teapot", "swiss_roll", "frey")
#: the table's ten rows (lines 1797-1827)
ROWS = ("MVU", "var.MVU(CG)(LLE)", "var.MVU(CG)(Lap)", "var.MVU(LLE)", "var.MVU(Lap)",
        "PCA", "Isomap", "hLLE", "Lap", "LLE")
CONT, TRUST, INTER = "local_continuity", "local_trust", "neighborhood_intersection"
QUALITY = (CONT, TRUST, INTER)
#: Table 3.2's n and input dim rows (lines 1792, 1794)
THESIS_N = {"olivetti": 400, "teapot": 400, "swiss_roll": 2000, "frey": 1965}
THESIS_DIM = {"olivetti": 1178, "teapot": 23028, "swiss_roll": 3, "frey": 650}


@dataclasses.dataclass(frozen=True)
class Context:
    """What a part's test reads under one reading of the table's columns: ``values``
    (our numbers), ``shapes`` (thesis data set -> (n, input dim, generated) of its
    column's records), ``spectra`` (thesis data set -> the eigenvalues of MVU's kernel,
    certified solves only) and ``times`` (thesis data set -> row -> the fit's CPU
    seconds, the median over the cell's runs; MVU's the fastest of its solvers' cells)."""

    values: Values
    shapes: dict[str, tuple[int, int]]
    spectra: dict[str, list[float]]
    times: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)

    def get(self, measure: str, row: str, dataset: str) -> float | None:
        return self.values.get(measure, row, dataset)

    def fmt(self, value: float) -> str:
        return self.values.fmt(value)


#: a test: the checks and the sentence with their numbers (no final full stop)
Test = Callable[[Context], tuple[list, str]]


@dataclasses.dataclass(frozen=True)
class Part:
    """One register reading: its name, its test (``None``: this result does not
    record the quantity; ``missing`` says what) and the quantifier its checks are
    judged under (``every``: the tests below count themselves where the register
    counts)."""

    name: str
    test: Test | None
    missing: str = ""
    quantifier: str = "every"


@dataclasses.dataclass(frozen=True)
class Entry:
    """A register entry decided from Table 3.2: its id, our statement of it and its
    readings."""

    id: str
    claim: str
    parts: tuple[Part, ...]


# ---- counting ------------------------------------------------------------------------
def at_least(k: int, n: int, checks: Sequence, what: str = "cells") -> tuple[list, str]:
    """A reading "at least ``k`` of ``n``" from the checks of the measured cases
    (``True`` pass, ``False`` fail, :data:`WITHIN_NOISE`): ``[True]`` once ``k`` pass,
    ``[False]`` once ``k`` can no longer pass (counting every undecided or unmeasured
    case as a pass), ``[WITHIN_NOISE]`` when all are measured and the noise decides,
    else ``[]`` (not measured: the unmeasured cases could still turn it).

    Examples
    --------
    >>> at_least(3, 4, [True, True, True])[0], at_least(3, 4, [False, False])[0]
    ([True], [False])
    >>> at_least(3, 4, [True])[0], at_least(2, 2, [True, WITHIN_NOISE])[0]
    ([], [WITHIN_NOISE])
    """
    passes = sum(c is True for c in checks)
    fails = sum(c is False for c in checks)
    noisy = len(checks) - passes - fails
    unmeasured = n - len(checks)
    text = (f"{passes} of {n} {what} pass, {fails} fail, {noisy} within the tolerance, "
            f"{unmeasured} not measured (needs {k})")
    if passes >= k:
        return [True], text
    if passes + noisy + unmeasured < k:
        return [False], text
    if unmeasured == 0:
        return [WITHIN_NOISE], text
    return [], text + ": no verdict"


def majority(n: int, checks: Sequence, what: str = "cells") -> tuple[list, str]:
    """"More than half of ``n``": :func:`at_least` ``n // 2 + 1``."""
    return at_least(n // 2 + 1, n, checks, what)


def rank(value: float, others: Sequence[float], ties: float) -> int:
    """1 + the number of ``others`` above ``value`` by more than ``ties`` (scores within
    ``ties`` share the rank; higher is better).

    >>> rank(0.90, [0.95, 0.905, 0.5], 0.01)
    2
    """
    return 1 + sum(o > value + ties for o in others)


def _row_values(ctx: Context, measure: str, dataset: str) -> dict[str, float]:
    found = {r: ctx.get(measure, r, dataset) for r in ROWS}
    return {r: v for r, v in found.items() if v is not None}


def _cmp(ctx: Context, measure: str, dataset: str, better: str, worse: str,
         tolerance: float) -> tuple[object, str] | None:
    """``better`` above ``worse`` beyond ``tolerance`` (a difference within it decides
    nothing: :func:`harness.claims.beyond_noise`); None where one is not measured."""
    a, b = ctx.get(measure, better, dataset), ctx.get(measure, worse, dataset)
    if a is None or b is None:
        return None
    return (beyond_noise(a - b, tolerance),
            f"{dataset} {SHORT[measure]} {better} {ctx.fmt(a)} vs {worse} {ctx.fmt(b)}")


def _pairs(ctx, datasets, measures, pairs, tolerance):
    """:func:`_cmp` for every data set, measure and (better, worse) pair measured."""
    found = [_cmp(ctx, m, d, a, b, tolerance) for d in datasets for m in measures
             for a, b in pairs]
    found = [f for f in found if f is not None]
    return [c for c, _ in found], "; ".join(t for _, t in found)


def _every_pair(datasets, measures, pairs, tolerance, named=None) -> Test:
    """A test: every pair above its partner beyond ``tolerance`` (a failing one
    decides; all passing decides only once every named case is measured)."""
    def test(ctx):
        checks, text = _pairs(ctx, datasets, measures, pairs, tolerance)
        total = len(datasets) * len(measures) * len(pairs)
        if len(checks) < total and not any(c is False for c in checks):
            return [], (text + "; " if text else "") + (
                f"no verdict: {len(checks)} of the {total} comparisons measured")
        return checks, text
    return test


def _threshold(datasets, measures, rows, bound: float, above: bool) -> Test:
    """A test: every row's value at least ``bound`` (``above``) or below it, on every
    data set and measure (no noise band: the register's tolerance is the bound)."""
    def test(ctx):
        checks, said = [], []
        for d in datasets:
            for m in measures:
                for r in rows:
                    v = ctx.get(m, r, d)
                    if v is None:
                        continue
                    checks.append(v >= bound if above else v < bound)
                    said.append(f"{d} {SHORT[m]} {r} {ctx.fmt(v)}")
        total = len(datasets) * len(measures) * len(rows)
        text = "; ".join(said) + f" ({'>=' if above else '<'} {bound:g})"
        if len(checks) < total and all(checks):
            return [], text + f"; no verdict: {len(checks)} of {total} values measured"
        return checks, text
    return test


def _average_needed(ctx: Context) -> str:
    return (f"the Average column needs all of {', '.join(FOUR)}; measured: "
            f"{', '.join(d for d in FOUR if ctx.get(CONT, 'PCA', d) is not None) or 'none'}")


# ---- the entries' tests --------------------------------------------------------------
def _pca_vs_mvu_cells(ctx):
    """3.1.2 line 1350, faithfulness: PCA's three metrics below MVU's beyond 0.01 on
    the Swiss roll and the teapot; 'not generally' (most) read as more than half of
    the 6 (data set, metric) cells."""
    checks, text = _pairs(ctx, ("swiss_roll", "teapot"), QUALITY, [("MVU", "PCA")], 0.01)
    found, count = majority(6, checks)
    return found, "; ".join(t for t in (text, count) if t)


def _classical_mds(ctx):
    """3.1.2 line 1368: PCA's embedding is classical MDS's (the thesis, line 1350);
    continuity and trust below MVU's beyond 0.01 on the Swiss roll. Metric MDS is no
    row of Table 3.2: all passing decides nothing without it."""
    checks, text = _pairs(ctx, ("swiss_roll",), (CONT, TRUST), [("MVU", "PCA")], 0.01)
    measured = ["classical MDS (= PCA)"] if len(checks) == 2 else []
    checks, why = about_every(checks, ["classical MDS (= PCA)", "metric MDS"], measured)
    return checks, "; ".join(t for t in (f"PCA as classical MDS: {text}" if text else "",
                                         "metric MDS is not a row of Table 3.2", why) if t)


def _per_dataset(pairs, measures, tolerance, k):
    """A test: on a data set all ``pairs`` above their partners beyond ``tolerance``
    under every measure (one below beyond it fails the data set, else within the
    noise); at least ``k`` of the four data sets."""
    def test(ctx):
        per, said = [], []
        for d in FOUR:
            checks, text = _pairs(ctx, (d,), measures, pairs, tolerance)
            if len(checks) < len(pairs) * len(measures):
                continue
            per.append(False if any(c is False for c in checks) else
                       True if all(c is True for c in checks) else WITHIN_NOISE)
            said.append(text)
        found, count = at_least(k, len(FOUR), per, "data sets")
        return found, "; ".join(said + [count])
    return test


def _pca_continuity_over_trust(ctx):
    """3.1.9 line 1773, within PCA: continuity - trust beyond 0.02 on >= 3 of 4."""
    per, said = [], []
    for d in FOUR:
        c, t = ctx.get(CONT, "PCA", d), ctx.get(TRUST, "PCA", d)
        if c is None or t is None:
            continue
        per.append(beyond_noise(c - t, 0.02))
        said.append(f"{d} PCA continuity {ctx.fmt(c)}, trust {ctx.fmt(t)}")
    found, count = at_least(3, len(FOUR), per, "data sets")
    return found, "; ".join(said + [count])


def _average_ranks(measure_rows_half: Sequence[tuple[str, str, str]], ties: float) -> Test:
    """A test on the Average column: each ``(measure, row, half)`` ranks in the
    ``upper`` (1-5) or ``lower`` (6-10) half of the ten rows, ties within ``ties``
    sharing the rank."""
    def test(ctx):
        checks, said = [], []
        for measure, row, half in measure_rows_half:
            scores = _row_values(ctx, measure, AVERAGE)
            if len(scores) < len(ROWS):
                return [], _average_needed(ctx)
            r = rank(scores[row], [v for k, v in scores.items() if k != row], ties)
            checks.append(r <= 5 if half == "upper" else r >= 6)
            said.append(f"{row} {SHORT[measure]} average {ctx.fmt(scores[row])} ranks {r} "
                        f"of {len(ROWS)} ({half} half wanted)")
        return checks, "; ".join(said)
    return test


def _mvu_best_average(ctx):
    """3.1.9 line 1789, best average: MVU's Average trust and intersection lead every
    other row; a lead (or lag) within 0.01 is undecided."""
    checks, said = [], []
    for m in (TRUST, INTER):
        scores = _row_values(ctx, m, AVERAGE)
        if len(scores) < len(ROWS):
            return [], _average_needed(ctx)
        rival = max((r for r in scores if r != "MVU"), key=scores.get)
        checks.append(beyond_noise(scores["MVU"] - scores[rival], 0.01))
        said.append(f"average {SHORT[m]} MVU {ctx.fmt(scores['MVU'])} vs best other "
                    f"{rival} {ctx.fmt(scores[rival])}")
    return checks, "; ".join(said)


def _mvu_near_best_per_dataset(ctx):
    """3.1.9 line 1789, per data set: MVU best or within 0.02 of the best row on at
    least 3 of the 4 data sets, for trust and for intersection (both must hold: a
    metric that fails decides, one without a verdict leaves the reading open)."""
    found, said, decided = [], [], []
    for m in (TRUST, INTER):
        per = []
        for d in FOUR:
            scores = _row_values(ctx, m, d)
            if "MVU" not in scores:
                continue
            best = max(scores, key=scores.get)
            per.append(scores["MVU"] >= scores[best] - 0.02)
            said.append(f"{d} {SHORT[m]} MVU {ctx.fmt(scores['MVU'])} vs best {best} "
                        f"{ctx.fmt(scores[best])}")
        checks, count = at_least(3, len(FOUR), per, "data sets")
        said.append(f"{SHORT[m]}: {count}")
        found += checks
        if checks:
            decided.append(SHORT[m])
    found, why = about_every(found, [SHORT[m] for m in (TRUST, INTER)], decided)
    return found, "; ".join(said + ([why] if why else []))


def _cg_over_mvu_average(ctx):
    """3.1.9 line 1834, average: both var. MVU (CG) rows' Average continuity above
    MVU's beyond 0.01."""
    checks, text = _pairs(ctx, (AVERAGE,), (CONT,), [("var.MVU(CG)(LLE)", "MVU"),
                                                     ("var.MVU(CG)(Lap)", "MVU")], 0.01)
    return (checks, text) if len(checks) == 2 else ([], _average_needed(ctx))


def _signs(ctx):
    """3.1.9 line 1834, no consistent sign: per metric (trust, intersection) the signs
    of var. MVU (CG) - var. MVU over the 8 (basis, data set) pairs, a difference within
    0.01 counting as zero (its own sign), are not all the same. Mixed signs on the
    measured pairs decide (more pairs cannot unmix them); one sign decides only when
    all 8 are measured."""
    checks, said, measured = [], [], []
    for m in (TRUST, INTER):
        signs = []
        for d in FOUR:
            for basis in ("LLE", "Lap"):
                a, b = ctx.get(m, f"var.MVU(CG)({basis})", d), ctx.get(m, f"var.MVU({basis})", d)
                if a is None or b is None:
                    continue
                diff = a - b
                signs.append(0 if abs(diff) <= 0.01 else int(math.copysign(1, diff)))
                said.append(f"{d} {SHORT[m]} var.MVU(CG)({basis}) {ctx.fmt(a)} vs "
                            f"var.MVU({basis}) {ctx.fmt(b)}")
        if len(set(signs)) > 1:
            checks.append(True)
            measured.append(m)
        elif len(signs) == 2 * len(FOUR):
            checks.append(False)
            measured.append(m)
        said.append(f"{SHORT[m]}: signs {sorted(set(signs))} on {len(signs)} of 8 pairs")
    checks, why = about_every(checks, [SHORT[m] for m in (TRUST, INTER)],
                              [SHORT[m] for m in measured])
    return checks, "; ".join(said + ([why] if why else []))


def _small_average_change(ctx):
    """3.1.9 line 1834, small average: the mean absolute change (CG - no CG, over the
    two bases) of the Average trust and of the Average intersection below the mean
    continuity improvement, beyond 0.01."""
    def change(m):
        diffs = [(ctx.get(m, f"var.MVU(CG)({b})", AVERAGE), ctx.get(m, f"var.MVU({b})", AVERAGE))
                 for b in ("LLE", "Lap")]
        if any(a is None or c is None for a, c in diffs):
            return None
        return [a - c for a, c in diffs]
    cont = change(CONT)
    if cont is None:
        return [], _average_needed(ctx)
    improvement = float(np.mean(cont))
    checks = []
    for m in (TRUST, INTER):
        checks.append(beyond_noise(improvement - float(np.mean(np.abs(change(m)))), 0.01))
    return checks, "the Average column's changes with the CG step compared"


def _lle_lap_below(ctx):
    """3.1.9 line 1838, below Isomap and MVU: LLE's and Lap's Average values below
    Isomap's and MVU's beyond 0.01, under each metric."""
    checks, text = _pairs(ctx, (AVERAGE,), QUALITY, [(a, b) for a in ("Isomap", "MVU")
                                                     for b in ("LLE", "Lap")], 0.01)
    return (checks, text) if len(checks) == 12 else ([], _average_needed(ctx))


def _isometry_each(ctx):
    """3.1.9 line 1843, each: each of MVU, Isomap, hLLE above each of LLE and Lap in
    the Average continuity and trust, beyond 0.01 ('each': every one of the 12)."""
    checks, text = _pairs(ctx, (AVERAGE,), (CONT, TRUST),
                          [(a, b) for a in ("MVU", "Isomap", "hLLE") for b in ("LLE", "Lap")],
                          0.01)
    return (checks, text) if len(checks) == 12 else ([], _average_needed(ctx))


def _isometry_groups(ctx):
    """3.1.9 line 1843, group mean: the mean Average value of MVU, Isomap, hLLE above
    that of LLE, Lap beyond 0.01, under continuity and under trust."""
    checks, said = [], []
    for m in (CONT, TRUST):
        scores = _row_values(ctx, m, AVERAGE)
        if len(scores) < len(ROWS):
            return [], _average_needed(ctx)
        iso = float(np.mean([scores[r] for r in ("MVU", "Isomap", "hLLE")]))
        loc = float(np.mean([scores[r] for r in ("LLE", "Lap")]))
        checks.append(beyond_noise(iso - loc, 0.01))
        said.append(f"{SHORT[m]} group means compared")
    return checks, "; ".join(said)


def _shape(index: int, thesis: dict[str, int], what: str) -> Test:
    """Table 3.2's n (``index`` 0) or input dim (1) row: our copies' shape equals the
    thesis' number exactly (a mismatch decides; all equal decides only once every one
    is measured). A generated data set (the Swiss roll) has the shape the profile
    asks for: shown, not a check (it cannot fail, or fails by the profile's choice of
    reading), so the entry is decided on the read data sets."""
    def test(ctx):
        checks, said, read = [], [], []
        for d in FOUR:
            if d not in ctx.shapes:
                if d != "swiss_roll":
                    read.append(d)
                continue
            ours, generated = ctx.shapes[d][index], ctx.shapes[d][2]
            if generated:
                said.append(f"{d} {what} {ours} (thesis {thesis[d]}; generated, the "
                            f"profile's choice: shown, not counted)")
                continue
            read.append(d)
            checks.append(ours == thesis[d])
            said.append(f"{d} {what} {ours} (thesis {thesis[d]})")
        checks, why = about_every(checks, read, [d for d in read if d in ctx.shapes])
        return checks, "; ".join(said + ([why] if why else []))
    return test


def _isomap_mvu_close(ctx):
    """3.2.1 line 2021, scores: |Isomap - MVU| < 0.1 on most of the 12 (data set,
    metric) cells (more than half)."""
    per, said = [], []
    for d in FOUR:
        for m in QUALITY:
            a, b = ctx.get(m, "Isomap", d), ctx.get(m, "MVU", d)
            if a is None or b is None:
                continue
            per.append(abs(a - b) < 0.1)
            said.append(f"{d} {SHORT[m]} Isomap {ctx.fmt(a)} vs MVU {ctx.fmt(b)}")
    found, count = majority(12, per)
    return found, "; ".join(said + [count])


def _mvu_quality_roll_and_real(ctx):
    """Chapter 4 line 2208, quality metrics: MVU >= 0.95 under all three metrics on the
    Swiss roll and on the teapot (the real image set of the register's reading)."""
    per, measured, said = [], [], []
    for d in ("swiss_roll", "teapot"):
        vals = [ctx.get(m, "MVU", d) for m in QUALITY]
        if any(v is None for v in vals):
            continue
        per.append(all(v >= 0.95 for v in vals))
        measured.append(d)
        said.append(f"{d} MVU " + ", ".join(f"{SHORT[m]} {ctx.fmt(v)}"
                                            for m, v in zip(QUALITY, vals)))
    checks, why = about_every(per, ["swiss_roll", "teapot"], measured)
    return checks, "; ".join(said + [why] if why else said)


def _top_two_share(ctx):
    """Chapter 4 line 2208, spectrum: the top two eigenvalues of MVU's kernel carry at
    least 0.9 of its trace (the sum of the recorded eigenvalues), on the Swiss roll and
    on the teapot; certified solves only."""
    per, measured, said = [], [], []
    for d in ("swiss_roll", "teapot"):
        if d not in ctx.spectra:
            continue
        ev = np.sort(np.asarray(ctx.spectra[d], float))[::-1]
        ok = bool(ev[:2].sum() >= 0.9 * ev.sum())
        per.append(ok)
        measured.append(d)
        said.append(f"{d}: the top two of MVU's {len(ev)} recorded eigenvalues carry "
                    f"{'at least' if ok else 'less than'} 0.9 of their sum")
    checks, why = about_every(per, ["swiss_roll", "teapot"], measured)
    return checks, "; ".join(said + [why] if why else said)


def _mvu_mean_over_four(ctx, measure):
    rows = {r: [ctx.get(measure, r, d) for d in FOUR] for r in ROWS}
    rows = {r: v for r, v in rows.items() if all(x is not None for x in v)}
    return rows if "MVU" in rows else None


def _top_two_mean_rank(ctx):
    """Chapter 4 line 2208, top-two mean rank: per metric, MVU's mean rank over the
    four data sets (scores within 0.005 share the rank) is among the best two of the
    rows' mean ranks."""
    checks, said = [], []
    for m in QUALITY:
        rows = _mvu_mean_over_four(ctx, m)
        if rows is None:
            return [], f"the mean rank is over all of {', '.join(FOUR)}: not all measured"
        means = {}
        for r, vals in rows.items():
            means[r] = float(np.mean([rank(v, [rows[o][i] for o in rows if o != r], 0.005)
                                      for i, v in enumerate(vals)]))
        place = 1 + sum(v < means["MVU"] for v in means.values())
        checks.append(place <= 2)
        said.append(f"{SHORT[m]}: MVU's mean rank is place {place} of {len(means)}")
    return checks, "; ".join(said)


def _within_005_of_best(ctx):
    """Chapter 4 line 2208, within 0.05 of best: per metric, MVU's mean score over the
    four data sets at least the best row's mean minus 0.05."""
    checks, said = [], []
    for m in QUALITY:
        rows = _mvu_mean_over_four(ctx, m)
        if rows is None:
            return [], f"the mean is over all of {', '.join(FOUR)}: not all measured"
        means = {r: float(np.mean(v)) for r, v in rows.items()}
        best = max(means, key=means.get)
        checks.append(means["MVU"] >= means[best] - 0.05)
        said.append(f"{SHORT[m]}: MVU's mean {'within' if checks[-1] else 'not within'} "
                    f"0.05 of the best mean ({best})")
    return checks, "; ".join(said)


def _below_by(rows: Sequence[str], gap: float) -> Test:
    """Lecture readings 'PCA fails on the roll': PCA's continuity and trust on the
    Swiss roll ('continuity / trust' read as both) at least ``gap`` below each of
    ``rows``'; all passing decides only once every one of ``rows`` is measured."""
    def test(ctx):
        checks, said, measured = [], [], []
        for r in rows:
            found = []
            for m in (CONT, TRUST):
                a, p = ctx.get(m, r, "swiss_roll"), ctx.get(m, "PCA", "swiss_roll")
                if a is None or p is None:
                    continue
                found.append(a - p >= gap)
                said.append(f"swiss_roll {SHORT[m]} PCA {ctx.fmt(p)} vs {r} {ctx.fmt(a)}")
            if len(found) == 2:
                measured.append(r)
            checks += found
        checks, why = about_every(checks, list(rows), measured)
        return checks, "; ".join(said + [f"at least {gap:g} below wanted"]
                                 + ([why] if why else []))
    return test


def _lle_over_isomap_cells(ctx):
    """Lecture 'better result in many problems', most data sets: LLE above Isomap
    beyond 0.01 (a tie within 0.01 undecided) on more than half of the 12 (data set,
    metric) pairs."""
    checks, text = _pairs(ctx, FOUR, QUALITY, [("LLE", "Isomap")], 0.01)
    found, count = majority(12, checks)
    return found, "; ".join(t for t in (text, count) if t)


# ---- the fits' CPU times (the cells' records) ---------------------------------------
#: the spectral methods section 3.2.1 compares
SPECTRAL = ("MVU", "Isomap", "LLE", "Lap")


def _timed(ctx: Context, dataset: str, rows: Sequence[str]) -> dict[str, float] | None:
    """The fit CPU seconds of every one of ``rows`` on ``dataset``; None unless all
    are measured."""
    found = ctx.times.get(dataset, {})
    return {r: found[r] for r in rows} if all(r in found for r in rows) else None


def _seconds(times: dict[str, float]) -> str:
    return ", ".join(f"{r} {t:.3g}" for r, t in sorted(times.items(), key=lambda x: x[1]))


def _timing_test(rows: Sequence[str], per_dataset) -> Test:
    """A test over the four data sets: ``per_dataset(times) -> (checks, text)`` on each
    data set whose ``rows`` are all timed (fit CPU seconds, median of the cell's runs;
    a ratio inside the timing band of a factor ``1 + TIMING_BAND`` is undecided); a
    counterexample decides, all passing decides once all four are measured."""
    def test(ctx):
        checks, said, measured = [], [], []
        for d in FOUR:
            times = _timed(ctx, d, rows)
            if times is None:
                continue
            found, text = per_dataset(times)
            checks += found
            said.append(f"{d}: {text} (fit CPU s: {_seconds(times)})")
            measured.append(d)
        checks, why = about_every(checks, FOUR, measured)
        return checks, "; ".join(said + [f"timing band a factor {1 + TIMING_BAND:g}"]
                                 + ([why] if why else []))
    return test


def _two_fastest(rows: Sequence[str]) -> Test:
    """3.1.9 line 1843: LLE and Lap the two fastest of ``rows``, the third at least
    twice the slower of the two."""
    def one(times):
        third = min((t, r) for r, t in times.items() if r not in ("LLE", "Lap"))
        ratio = third[0] / max(times["LLE"], times["Lap"])
        return [timing_ratio_check(ratio, 2.0)], (
            f"third fastest {third[1]} / slower of LLE and Lap = {ratio:.3g} (at least 2 needed)")
    return _timing_test(rows, one)


def _mvu_slowest(rows: Sequence[str], factor: float) -> Test:
    """MVU's fit CPU time at least ``factor`` times that of the slowest other of
    ``rows``."""
    def one(times):
        other = max((t, r) for r, t in times.items() if r != "MVU")
        ratio = times["MVU"] / other[0]
        return [timing_ratio_check(ratio, factor)], (
            f"MVU / slowest other ({other[1]}) = {ratio:.3g} (at least {factor:g} needed)")
    return _timing_test(rows, one)


def _lap_faster(factor: float) -> Test:
    """3.2.1 line 2090: Laplacian eigenmaps' fit CPU time at least ``factor`` times below
    Isomap's and MVU's."""
    def one(times):
        ratios = {r: times[r] / times["Lap"] for r in ("Isomap", "MVU")}
        return [timing_ratio_check(v, factor) for v in ratios.values()], ", ".join(
            f"{r} / Lap = {v:.3g}" for r, v in ratios.items()) + f" (at least {factor:g} needed)"
    return _timing_test(("Lap", "Isomap", "MVU"), one)


NOT_RECORDED = "this result does not record it: "
NO_SPECTRUM_PCA = NOT_RECORDED + ("PCA's record keeps only its top r explained variances, "
                                  "not the full spectrum or its trace")
NO_SPEARMAN = NOT_RECORDED + "the roll's angular parameter is not kept beside the embeddings"

ENTRIES: tuple[Entry, ...] = (
    Entry("s3-1-2-linear-methods-fail-on-manifolds",
          "Linear methods (PCA) do not generally succeed when the inputs lie on a low "
          "dimensional manifold: PCA's metrics below MVU's on the Swiss roll and the "
          "teapot (3.1.2)",
          (Part("spectrum", None, NO_SPECTRUM_PCA),
           Part("faithfulness", _pca_vs_mvu_cells))),
    Entry("s3-1-2-global-methods-miss-manifold-structure",
          "Methods that preserve all pairwise distances (classical MDS = PCA's embedding) "
          "do not discover the Swiss roll's structure: continuity and trust below MVU's "
          "(3.1.2)",
          (Part("2-D faithfulness", _classical_mds),
           Part("spectrum", None, NOT_RECORDED + "classical MDS's eigenvalues (PCA's "
                "full spectrum) are not kept"))),
    Entry("s3-1-8-lle-better-for-skinny-data",
          "On the Swiss roll the LLE basis gives a more faithful variational MVU (CG) "
          "embedding than the Laplacian basis (3.1.8; Table 3.2's n = 2000 roll; Fig. "
          "3.17's n = 10000 roll is not this result's)",
          (Part("faithful", _every_pair(("swiss_roll",), QUALITY,
                                        [("var.MVU(CG)(LLE)", "var.MVU(CG)(Lap)")], 0.01)),
           Part("thicker", None, NOT_RECORDED + "the eigenvalues of the final 2-D "
                "embeddings and the roll's width/length variance are not kept"))),
    Entry("s3-1-8-swiss-neighbourhoods-preserved",
          "Variational MVU (CG) preserves the Swiss roll's local neighbourhoods: "
          "continuity and trust at least 0.9 with both bases (3.1.8; Table 3.2's n = "
          "2000 roll)",
          (Part("trust and continuity", _threshold(
              ("swiss_roll",), (CONT, TRUST), ("var.MVU(CG)(LLE)", "var.MVU(CG)(Lap)"),
              0.9, True)),)),
    Entry("s3-1-8-le-lle-not-faithful",
          "Laplacian eigenmaps and LLE do not learn a faithful representation of the "
          "Swiss roll: their continuity below variational MVU (CG)'s and below 0.9 (3.1.8)",
          (Part("vs variational MVU (CG)", _every_pair(
              ("swiss_roll",), (CONT,), [(cg, x) for cg in ("var.MVU(CG)(LLE)",
                                                           "var.MVU(CG)(Lap)")
                                         for x in ("Lap", "LLE")], 0.01)),
           Part("absolute", _threshold(("swiss_roll",), (CONT,), ("Lap", "LLE"), 0.9,
                                       False)))),
    Entry("s3-1-8-lle-basis-more-faithful",
          "Before the CG step, the LLE basis gives a more faithful variational MVU "
          "embedding of the Swiss roll than the Laplacian basis (3.1.8)",
          (Part("before CG", _every_pair(("swiss_roll",), (CONT, TRUST),
                                         [("var.MVU(LLE)", "var.MVU(Lap)")], 0.01)),
           Part("loss", None, NOT_RECORDED + "the local-distance loss (3.26) of the "
                "variational solutions is not kept"))),
    Entry("s3-1-9-linear-projections-high-continuity-low-trust",
          "Linear projections usually have high continuity but low trust: PCA in Table "
          "3.2 (3.1.9)",
          (Part("within PCA", _pca_continuity_over_trust),
           Part("relative to others", _average_ranks(
               [(CONT, "PCA", "upper"), (TRUST, "PCA", "lower")], 0.01)))),
    Entry("s3-1-9-mvu-surprisingly-well-trust-intersection",
          "MVU performs surprisingly well according to trust and local intersection "
          "(3.1.9)",
          (Part("best average", _mvu_best_average),
           Part("per data set", _mvu_near_best_per_dataset))),
    Entry("s3-1-9-var-mvu-cg-better-than-mvu-continuity",
          "Variational MVU (CG) performs better than MVU in local continuity (3.1.9)",
          (Part("average", _cg_over_mvu_average),
           Part("per data set", _per_dataset([("var.MVU(CG)(LLE)", "MVU"),
                                              ("var.MVU(CG)(Lap)", "MVU")], (CONT,), 0.01,
                                             3)))),
    Entry("s3-1-9-no-trend-other-metrics",
          "The CG step shows no such obvious trend for local trust and local "
          "intersection (3.1.9)",
          (Part("no consistent sign", _signs),
           Part("small average", _small_average_change))),
    Entry("s3-1-9-lle-lap-perform-poorly",
          "LLE and Laplacian eigenmaps perform relatively poorly: their Average values "
          "below Isomap's and MVU's and in the bottom half of the ten rows (3.1.9)",
          (Part("below Isomap and MVU", _lle_lap_below),
           Part("bottom half", _average_ranks(
               [(m, r, "lower") for m in QUALITY for r in ("LLE", "Lap")], 0.01)))),
    Entry("s3-1-9-favouring-local-isometry",
          "The metrics favour algorithms based on local isometry (MVU, Isomap, hLLE) "
          "over LLE and Laplacian eigenmaps (3.1.9)",
          (Part("each", _isometry_each), Part("group mean", _isometry_groups))),
    Entry("s3-1-9-table-3-2-sizes",
          "Table 3.2's n row: 400, 400, 2000, 1965 inputs (3.1.9)",
          (Part("sizes", _shape(0, THESIS_N, "n")),)),
    Entry("s3-1-9-table-3-2-input-dims",
          "Table 3.2's input dim row: 1178, 23028, 3, 650 (3.1.9)",
          (Part("dims", _shape(1, THESIS_DIM, "input dim")),)),
    Entry("s3-2-1-isomap-mvu-similar",
          "On many problems Isomap and MVU return generally similar results (3.2.1)",
          (Part("scores", _isomap_mvu_close),
           Part("dimension", None, NOT_RECORDED + "Isomap's eigenvalues are not kept by "
                "its records (fig_3_37 holds spectra)"))),
    Entry("s3-1-9-lle-lap-fastest",
          "LLE and Laplacian eigenmaps are by far the fastest algorithms of Table 3.2, "
          "at least twice as fast as the third (3.1.9)",
          (Part("among nonlinear", _two_fastest(tuple(r for r in ROWS if r != "PCA"))),
           Part("among all", _two_fastest(ROWS)))),
    Entry("s3-1-9-mvu-most-demanding",
          "MVU is by far the most computationally demanding of the algorithms of Table "
          "3.2 (3.1.9; MVU at k = 5, the others at k = 15, as the thesis ran them)",
          (Part("slowest", _mvu_slowest(ROWS, 1.0)),
           Part("by far", _mvu_slowest(ROWS, 10.0)))),
    Entry("s3-2-1-mvu-most-demanding",
          "Of the spectral methods (Isomap, MVU, LLE, Laplacian eigenmaps), MVU is the "
          "most computationally demanding (3.2.1)",
          (Part("slowest", _mvu_slowest(SPECTRAL, 1.0)),)),
    Entry("s3-2-1-lap-faster-than-isomap-mvu",
          "Laplacian eigenmaps is much faster than the exact versions of Isomap and MVU "
          "(3.2.1)",
          (Part("much faster", _lap_faster(5.0)), Part("faster", _lap_faster(1.0)))),
    Entry("s4-mvu-works-synthetic-and-real",
          "MVU works on synthetic and real-world image manifold data: the Swiss roll and "
          "the teapot (4)",
          (Part("quality metrics", _mvu_quality_roll_and_real),
           Part("spectrum", _top_two_share))),
    Entry("s4-mvu-highly-competitive-three-metrics",
          "On all three metrics MVU is highly competitive with the other manifold "
          "learners of Table 3.2 (4)",
          (Part("top-two mean rank", _top_two_mean_rank),
           Part("within 0.05 of best", _within_005_of_best))),
    Entry("lec-lle-unwraps-manifold",
          "LLE unwraps the Swiss roll: its continuity and trust at least 0.9 (lecture)",
          (Part("quality metrics", _threshold(("swiss_roll",), (CONT, TRUST), ("LLE",),
                                              0.9, True)),
           Part("parameter recovery", None, NO_SPEARMAN))),
    Entry("lec-linear-methods-not-sufficient",
          "Linear methods are not sufficient: PCA's continuity and trust on the Swiss "
          "roll at least 0.05 below MVU's and Isomap's (lecture)",
          (Part("pca fails on roll", _below_by(("MVU", "Isomap"), 0.05)),
           Part("parameter recovery", None, NO_SPEARMAN))),
    Entry("lec-notes-swiss-roll-not-solvable-pca",
          "The Swiss roll is not nicely solvable with PCA: its continuity and trust at "
          "least 0.05 below MVU's and Isomap's (lecture)",
          (Part("pca fails on roll", _below_by(("MVU", "Isomap"), 0.05)),)),
    Entry("lec-notes-mds-difficulties-swiss-roll",
          "Classical MDS (= PCA's embedding) has difficulties on the Swiss roll: its "
          "continuity and trust at least 0.05 below Isomap's (lecture)",
          (Part("mds fails on roll", _below_by(("Isomap",), 0.05)),)),
    Entry("lec-isomap-unfolds-manifold",
          "Isomap unfolds the Swiss roll: its continuity and trust at least 0.9 (lecture)",
          (Part("quality metrics", _threshold(("swiss_roll",), (CONT, TRUST), ("Isomap",),
                                              0.9, True)),
           Part("parameter recovery", None, NO_SPEARMAN))),
    Entry("lec-lle-better-than-isomap-many",
          "LLE gives a better result than Isomap in many problems (lecture)",
          (Part("most data sets", _lle_over_isomap_cells),
           Part("some data sets", _per_dataset([("LLE", "Isomap")], QUALITY, 0.01, 2)))),
)


# ---- running them --------------------------------------------------------------------
def _records(config: dict, frame: pd.DataFrame):
    """Per table column: (n, input dim) of its first measured record, MVU's kernel
    eigenvalues where its solve is certified optimal, and each row's fit CPU seconds
    (the median over the cell's runs; of MVU's solvers the fastest cell)."""
    shapes, spectra, times = {}, {}, {}
    for cell in grid_cells(config, NAME):
        record = read_job_record(config, Job(NAME, cell.key))
        if record.get("status") != "ok":
            continue
        cpu = [run.get("fit_cpu_seconds") for run in record.get("runs") or []]
        if cpu and None not in cpu:
            row = registry.method_info(cell.method).thesis_label or cell.method
            column = times.setdefault(cell.dataset, {})
            column[row] = min(column.get(row, math.inf), float(np.median(cpu)))
        if record.get("n_samples") is not None:
            generated = (record.get("dataset_meta") or {}).get("source") == "generated"
            shapes.setdefault(cell.dataset, (int(record["n_samples"]),
                                             int(record["n_features"]), generated))
        if cell.method == "mvu":
            info = (record.get("runs") or [{}])[0].get("info", {})
            solve = info.get("solve_info") or {}
            if info.get("eigenvalues") and solve and certified(solve.get("status")):
                spectra[cell.dataset] = info["eigenvalues"]
    return shapes, spectra, times


def _contexts(config: dict | None, frame: pd.DataFrame, shapes=None, spectra=None,
              times=None):
    """One (name, Context) per reading of the table's columns."""
    if shapes is None:
        shapes, spectra, times = (_records(config, frame) if config is not None
                                  else ({}, {}, {}))
    real = frame[~frame["stand_in"].astype(bool)]
    thesis_of = dict(zip(real["dataset"], real["thesis_dataset"]))
    out = []
    for reading in column_readings(frame):
        columns = reading.columns | {reading.average}
        values = Values(frame, "ours", decimals=3, labels=thesis_labels(frame),
                        columns=columns)
        pick = lambda found: {thesis_of[c]: v for c, v in found.items()
                              if c in reading.columns and c in thesis_of}
        out.append((reading.name, Context(values, pick(shapes), pick(spectra or {}),
                                          pick(times or {}))))
    return out


def decide(entry: Entry, contexts) -> dict:
    """The claim of one entry: each part under each reading of the columns (named
    ``part, column reading`` where there are several), combined."""
    readings = []
    for part in entry.parts:
        if part.test is None:
            readings.append(Reading(part.name, [], f"not measured: {part.missing}",
                                    part.quantifier))
            continue
        for name, ctx in contexts:
            checks, text = part.test(ctx)
            label = f"{part.name}, {name}" if len(contexts) > 1 and name else part.name
            readings.append(Reading(label, checks, text or "no cell measured",
                                    part.quantifier))
    if len(readings) == 1:
        r = readings[0]
        return make_claim(NAME, entry.claim, r.checks, r.evidence + ".", r.quantifier,
                          entry.id)
    return readings_claim(NAME, entry.claim, readings, entry.id)


def _bounded(frame: pd.DataFrame) -> dict:
    """3.1.9 line 1773, 'T(Y) is bounded within [0, 1]': with the closed-form scale
    the metrics are squared cosines (Cauchy-Schwarz), so the bound holds by
    construction; the check cannot fail and is not evidence: not measured, with the
    observed range for the reader."""
    rows = frame[~frame["stand_in"].astype(bool) & (frame["status"] == "ok")
                 & frame["measure"].isin([CONT, TRUST])
                 & (frame["thesis_dataset"] != AVERAGE)]
    ours = pd.to_numeric(rows["ours"], errors="coerce").dropna()
    seen = (f"observed over {len(ours)} real-data values: min {ours.min():.6f}, max "
            f"{ours.max():.6f}" if len(ours) else "no real-data value measured")
    return make_claim(NAME, "Local trust (and continuity) are bounded within [0, 1] "
                            "(3.1.9, eq. 3.28)", [],
                      f"not evidence: with the scale s in closed form C = <a,b>^2/"
                      f"(<a,a><b,b>) (Cauchy-Schwarz), so every value lies in [0, 1] by "
                      f"construction and the check cannot fail; {seen}.",
                      register="s3-1-9-trust-bounded-0-1")


def register_claims(config: dict, frame: pd.DataFrame | None = None,
                    shapes=None, spectra=None, times=None) -> list[dict]:
    """The claims of :data:`ENTRIES` (and the bound of eq. 3.28) on the table's long
    CSV (read when ``frame`` is None; every claim ``not measured`` without it).
    ``shapes``/``spectra``/``times`` (per table column) default to the cells'
    records."""
    if frame is None:
        path = output_paths(config, NAME, "table")["csv"]
        if not path.exists():
            why = (f"the table was not generated: {path} does not exist; run "
                   f"`harness write {NAME}`")
            return [make_claim(NAME, e.claim, [], why, register=e.id) for e in ENTRIES] + [
                make_claim(NAME, "Local trust (and continuity) are bounded within [0, 1] "
                                 "(3.1.9, eq. 3.28)", [], why,
                           register="s3-1-9-trust-bounded-0-1")]
        frame = read_long_table(path)
    contexts = _contexts(config, frame, shapes, spectra, times)
    return [decide(e, contexts) for e in ENTRIES] + [_bounded(frame)]
