"""Table 2.1's per-run errors, paired over the runs, for the register's comparisons.

The table's long CSV keeps each cell's mean and spread; the register's readings of
Table 2.1 (issue 51) compare two cells with a paired test over the runs (every
method of a data set runs on the same splits: run ``r`` has seed ``seed + r``,
:mod:`harness.results.common.work.grid`). This module reads the per-run errors from the
job records (:class:`Runs`) and pairs two cells (:func:`pair`: the mean paired
difference, its standard error and the one-sided paired t-tests), and decides a
reading over the thesis' nine data sets from per-data-set cases (:class:`Case`,
:func:`over_every`, :func:`over_most`, :func:`over_some`, :func:`over_all_but`,
:func:`over_share`).

A single-run data set (the thesis' MNIST and Isolet, on their fixed splits) has no
spread over runs: its standard error is the binomial one of the test-set errors
(``sqrt(p (1 - p) / n_test)`` each, independent), and a paired significance test
there would be McNemar's over the test points, which needs each point's prediction;
the records keep only the error rates, so such a case is not measured and says so
(:data:`NO_MCNEMAR`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats

from harness.claims import WITHIN_NOISE, Reading, about_every

__all__ = ["NINE", "NO_MCNEMAR", "Cell", "Runs", "Pair", "pair", "binomial_se", "Case",
           "over_every", "over_most", "over_some", "over_all_but", "over_share",
           "reading", "fmt"]

#: the thesis' nine data sets of Table 2.1, in its order (its column names)
NINE = ("mnist", "20news", "letters", "isolet", "yalefaces", "iris", "bal", "wine",
        "olivetti")
#: why a significance test on a single-run data set is not measured
NO_MCNEMAR = ("a single run: the reading's McNemar test over the test points needs each "
              "point's prediction, which the records do not keep")


def fmt(value: float) -> str:
    """An error rate as Table 2.1 prints it (two decimals)."""
    return f"{value:.2f}"


@dataclasses.dataclass(frozen=True)
class Cell:
    """One (data set, row) cell of Table 2.1: its per-run values by measure and seed,
    its test-set size (per run), and its record's status and reason."""

    runs: dict[str, dict[int, float]]
    n_test: int | None = None
    status: str = "ok"
    reason: str = ""
    n_train: int | None = None


class Runs:
    """Table 2.1's cells by ``(thesis data set, thesis row label)``, real data only (a
    stand-in is never the thesis' data set), with the thesis' numbers by ``(measure,
    row label, data set)`` where known.

    Parameters
    ----------
    cells : dict
        ``(thesis data set, row label) -> Cell``.
    thesis : dict, optional
        ``(measure, row label, thesis data set) -> the thesis' number``.
    """

    def __init__(self, cells: dict[tuple[str, str], Cell],
                 thesis: dict[tuple[str, str, str], float] | None = None):
        self.cells = dict(cells)
        self.thesis = dict(thesis or {})

    @classmethod
    def from_config(cls, config: dict, spec) -> "Runs":
        """The cells of the profile's ``results.<spec.name>`` from their job records,
        and the thesis' numbers from the table's long CSV where it was written."""
        from harness import registry
        from harness.jobs import Job, read_job_record
        from harness.outputs import output_paths
        from harness.report.sections import read_long_table
        from harness.results.common.declare.grid_profile import column_dataset, grid_cells
        from harness.results.fig_2_9_12.ratios import run_values

        tconf = config["results"][spec.name]
        cells = {}
        for cell in grid_cells(config, spec.name):
            info = registry.get_dataset(column_dataset(tconf, cell.dataset))
            if info.stand_in_for is not None:
                continue
            label = registry.get_method(cell.method).thesis_label
            record = read_job_record(config, Job(cell.table, cell.key))
            ok = record.get("status") == "ok"
            measures = {m for run in record.get("runs", []) for m in run.get("measures", {})}
            runs = {m: run_values(record, m) for m in measures} if ok else {}
            infos = [run.get("info", {}) for run in record.get("runs", [])]
            cells[(info.thesis_name or cell.dataset, label)] = Cell(
                runs, infos[0].get("n_test") if infos else None, record.get("status", ""),
                record.get("reason", ""), infos[0].get("n_train") if infos else None)
        thesis = {}
        path = output_paths(config, spec.name, "table")["csv"]
        if path.exists():
            frame = read_long_table(path)
            for row in frame.itertuples():
                value = float(row.thesis) if row.thesis == row.thesis else math.nan
                if math.isfinite(value) and not bool(row.stand_in):
                    thesis.setdefault((row.measure, row.thesis_label, row.thesis_dataset), value)
        return cls(cells, thesis)

    def values(self, dataset: str, label: str, measure: str) -> dict[int, float] | None:
        """The per-run values (by seed) of one cell's measure, or None where the cell
        is not measured (not in the profile, a gap, no such measure)."""
        cell = self.cells.get((dataset, label))
        if cell is None or cell.status != "ok":
            return None
        return cell.runs.get(measure) or None

    def mean(self, dataset: str, label: str, measure: str) -> float | None:
        """The mean over the runs (the table's number), or None."""
        values = self.values(dataset, label, measure)
        return float(np.mean(list(values.values()))) if values else None

    def n_test(self, dataset: str, label: str) -> int | None:
        cell = self.cells.get((dataset, label))
        return cell.n_test if cell else None

    def why(self, dataset: str, labels: Iterable[str] = ()) -> str:
        """Why ``dataset`` (or one of its rows ``labels``) has no number: not in this
        profile, or the record's status and reason."""
        rows = [(label, self.cells.get((dataset, label))) for label in labels]
        for label, cell in rows:
            if cell is not None and cell.status != "ok":
                return f"{dataset} ({label}: {cell.status}{': ' + cell.reason if cell.reason else ''})"
        if not any(d == dataset for d, _ in self.cells):
            return f"{dataset} (not in this profile)"
        missing = [label for label, cell in rows if cell is None]
        return f"{dataset} ({', '.join(missing) or 'a row'} not in this profile)"


def binomial_se(percent: float, n_points: int | None) -> float:
    """The binomial standard error (in points) of an error rate in % on ``n_points``
    test points (NaN without a size)."""
    if not n_points:
        return math.nan
    p = percent / 100.0
    return 100.0 * math.sqrt(max(p * (1 - p), 0.0) / n_points)


class Pair(NamedTuple):
    """Two cells paired over the runs both have (the same seeds: the same splits).

    ``diff`` is the mean of ``a - b``; ``se`` its standard error (the paired runs'
    for two or more runs, the two binomial ones combined for a single run);
    ``p_less`` / ``p_greater`` the one-sided paired t-tests that ``a`` is below /
    above ``b`` (NaN for a single run: no test over runs)."""

    a: float
    b: float
    diff: float
    se: float
    n: int
    p_less: float
    p_greater: float

    @property
    def single(self) -> bool:
        return self.n < 2


def pair(runs: Runs, dataset: str, a: tuple[str, str], b: tuple[str, str]) -> Pair | None:
    """Cells ``a`` and ``b`` (each ``(row label, measure)``) of ``dataset`` paired, or
    None where either is not measured."""
    va, vb = runs.values(dataset, *a), runs.values(dataset, *b)
    if not va or not vb:
        return None
    seeds = sorted(set(va) & set(vb))
    if not seeds:
        return None
    xa = np.array([va[s] for s in seeds])
    xb = np.array([vb[s] for s in seeds])
    diff = xa - xb
    if len(seeds) > 1:
        se = float(diff.std(ddof=1) / math.sqrt(len(seeds)))
        if np.all(diff == diff[0]):  # no spread: the sign decides, a zero nothing
            less = math.nan if diff[0] == 0 else float(diff[0] > 0)
            greater = math.nan if diff[0] == 0 else float(diff[0] < 0)
        else:
            less = float(stats.ttest_rel(xa, xb, alternative="less").pvalue)
            greater = float(stats.ttest_rel(xa, xb, alternative="greater").pvalue)
    else:
        se = math.hypot(binomial_se(xa[0], runs.n_test(dataset, a[0])),
                        binomial_se(xb[0], runs.n_test(dataset, b[0])))
        less = greater = math.nan
    return Pair(float(xa.mean()), float(xb.mean()), float(diff.mean()), se, len(seeds),
                less, greater)


class Case(NamedTuple):
    """One data set's case of a reading: its check (``True``, ``False``,
    :data:`~harness.claims.WITHIN_NOISE`, or ``None``: not measured) and the text
    with its numbers (or why it is not measured)."""

    dataset: str
    check: object
    text: str


def _measured(cases: Sequence[Case]) -> list[Case]:
    return [c for c in cases if c.check is not None]


def _unmeasured(cases: Sequence[Case], named: Sequence[str]) -> list[str]:
    seen = {c.dataset for c in _measured(cases)}
    return [d for d in dict.fromkeys(named) if d not in seen]


def over_every(cases: Sequence[Case], named: Sequence[str]) -> tuple[list, str]:
    """A reading about every one of ``named``: the cases' checks
    (:func:`harness.claims.about_every`: a failing case decides, passes decide nothing
    while a named data set is not measured)."""
    measured = _measured(cases)
    return about_every([c.check for c in measured], list(named),
                       [c.dataset for c in measured])


def _counts(cases: Sequence[Case], ties_against: bool) -> tuple[int, int, int]:
    checks = [c.check for c in _measured(cases)]
    passes = sum(c is True for c in checks)
    noisy = sum(c is WITHIN_NOISE for c in checks)
    fails = len(checks) - passes - noisy
    return (passes, 0, fails + noisy) if ties_against else (passes, noisy, fails)


def over_most(cases: Sequence[Case], named: Sequence[str], ties_against: bool = False
              ) -> tuple[list, str]:
    """A reading about more than half of the data sets ``named`` (not only of those
    measured): one check, ``True`` once the passes are more than half of ``named``,
    ``False`` once they cannot be (every case inside the noise and every unmeasured
    data set counted as a pass), :data:`WITHIN_NOISE` when only the noise keeps it
    open, else none (not measured). ``ties_against``: a case inside the noise counts
    against (the reading says so)."""
    total = len(dict.fromkeys(named))
    passes, noisy, fails = _counts(cases, ties_against)
    missing = len(_unmeasured(cases, named))
    text = (f"{passes} of {total} pass, {fails} fail, {noisy} inside the noise, "
            f"{missing} not measured; more than half needed")
    if 2 * passes > total:
        return [True], text
    if 2 * (passes + noisy + missing) <= total:
        return [False], text
    return ([WITHIN_NOISE], text) if not missing else ([], text + ": no verdict")


def over_some(cases: Sequence[Case], named: Sequence[str]) -> tuple[list, str]:
    """A reading about at least one of ``named``: the cases' checks when one passes
    or every named data set is measured, else none (what is not measured might be
    the example)."""
    measured = _measured(cases)
    checks = [c.check for c in measured]
    missing = _unmeasured(cases, named)
    if any(c is True for c in checks) or not missing:
        return checks, ""
    return [], (f"no verdict: no measured data set is an example and {len(missing)} of "
                f"{len(dict.fromkeys(named))} are not measured")


def over_all_but(cases: Sequence[Case], named: Sequence[str], exceptions: int = 1
                 ) -> tuple[list, str]:
    """A reading about all but at most ``exceptions`` of ``named`` ("almost always"):
    ``True`` once the failing, noisy and unmeasured data sets are at most
    ``exceptions``; ``False`` once more than ``exceptions`` fail; :data:`WITHIN_NOISE`
    when only the noise keeps it open; else none."""
    _, noisy, fails = _counts(cases, False)
    missing = len(_unmeasured(cases, named))
    text = (f"{fails} of {len(dict.fromkeys(named))} fail, {noisy} inside the noise, "
            f"{missing} not measured; all but at most {exceptions} needed")
    if fails > exceptions:
        return [False], text
    if fails + noisy + missing <= exceptions:
        return [True], text
    return ([WITHIN_NOISE], text) if fails + missing <= exceptions else ([], text + ": no verdict")


def over_share(cases: Sequence[Case], total: int, share: float) -> tuple[list, str]:
    """A reading about at least ``share`` of ``total`` cells (``cases`` the measured
    and unmeasured ones): ``True`` once the passes reach it, ``False`` once they
    cannot (unmeasured cells counted as passes), else none."""
    passes = sum(c.check is True for c in cases)
    missing = total - len(_measured(cases))
    need = math.ceil(share * total - 1e-9)
    text = f"{passes} of {total} cells pass, {missing} not measured; {need} needed"
    if passes >= need:
        return [True], text
    if passes + missing < need:
        return [False], text
    return [], text + ": no verdict"


def reading(name: str, cases: Sequence[Case], checks_note: tuple[list, str],
            runs: Runs | None = None, quantifier: str | None = None) -> Reading:
    """A :class:`~harness.claims.Reading` from its cases and the ``(checks, note)``
    of one of the ``over_*`` rules: the evidence lists each measured case, the note,
    and the data sets not measured with why."""
    checks, note = checks_note
    shown = [c.text for c in cases if c.check is not None]
    absent = list(dict.fromkeys(c.text for c in cases if c.check is None))
    parts = ["; ".join(shown)] if shown else []
    if note:
        parts.append(note)
    if absent:
        parts.append("not measured: " + ", ".join(absent))
    return Reading(name, checks, "; ".join(parts) or "no measured value", quantifier)
