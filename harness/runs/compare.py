"""``harness compare RUN_A RUN_B``: do two runs agree, cell by cell and verdict by
verdict?

Each run is a run directory or a reference run (:func:`harness.runs.layout.open_run`).
For every result both have, its CSVs are compared cell by cell and its claims verdict
by verdict (matched by the claim's id, :func:`harness.claims.claim_ids`); results,
rows, columns and claims that only one run has are listed as such.

**Rows** are matched by the table's key columns, not by their order. A result may
declare them (``COMPARE_KEYS``, a tuple of column names, in its ``write.py``); else
they are the columns of :data:`KEY_COLUMNS` (names that identify a row in the
harness' CSVs: what was measured, by which method, on which data set, at which
size or parameter) that both CSVs have, in the CSV's order: ``measure, method,
dataset`` for the thesis tables, ``variant, backend, n`` for the solver table,
``reading, k, dataset`` for Fig. 3.28, ... Rows these do not make unique are matched
in order within their key (and the listing says so).

**Ignored**: columns that measure time or memory, not results: a name containing
``seconds``, ``wall``, ``cpu``, ``memory`` or ``time_ratio``, ending in ``_mb``, the
``commit`` column, and the timing-derived ``speedup``, ``gain`` and ``spread``
columns (Figs. 2.13 and 2.16, speed-ups read from CPU times) unless the name says
``work`` (a speed-up counted in work units is deterministic); and in the long tables
the rows whose ``measure`` is such a name (``fit_cpu_seconds``).

**Texts** differ when they differ other than in their absolute paths (a reason
naming where a missing file goes names the machine's data cache) and in the numbers
they contain, which are compared as numbers with the result's tolerance (a
certificate's "gap 8.2e-04" against "gap 6.5e-04" agrees within an SDP result's
atol of 1e-3).

**Numbers** (cells both of which parse as floats) differ when
``|a - b| > atol + rtol * max(|a|, |b|)``, with the result's ``COMPARE_TOLERANCE``
(``{"rtol": ..., "atol": ...}`` in its ``write.py``, not in its declaration,
which may be a source file of its jobs: editing it would rerun them) or :data:`DEFAULT_TOLERANCE`;
two empty or two NaN cells agree. Other cells (status, reason, verdict columns)
differ when their text differs. A result whose CSV holds timing-derived values under
names no rule can tell from others (a time ratio called ``ratio``, a long table's
timing rows) declares ``COMPARE_IGNORE`` in its ``write.py``: a regular expression
searched in the column names and in each row's key values; what it matches is left
out like a timing column.
"""

from __future__ import annotations

import dataclasses
import math
import re

import pandas as pd

from harness.runs.layout import Run, open_run

__all__ = ["DEFAULT_TOLERANCE", "KEY_COLUMNS", "CellDiff", "ResultComparison",
           "Comparison", "compare_runs", "key_columns", "ignored_column", "tolerance_of",
           "render_markdown"]

#: the CSVs are written with 10 significant digits
#: (:data:`harness.records.CSV_FLOAT_FORMAT`): by default two runs agree when their
#: numbers agree to 6 (seeded jobs, one BLAS thread: a rerun reproduces them)
DEFAULT_TOLERANCE = {"rtol": 1e-6, "atol": 1e-9}
#: columns that identify a row (never values), in no particular order: a CSV's own
#: order decides
KEY_COLUMNS = frozenset({
    "figure", "table", "panel", "part", "estimate", "reading", "column", "source", "key",
    "variant", "backend", "dataset", "task", "measure", "method", "kernel", "kernel_type",
    "extension", "label", "base", "stage", "job", "seed", "trial", "draw", "n_metrics",
    "r", "m", "k", "n", "n_components", "noise", "metric", "setting", "scale",
    "path", "quantity", "entry", "group",
})
#: key columns that name what a long table's ``value`` is: a row whose name measures
#: time or memory is left out like a timing column
MEASURE_COLUMNS = ("measure", "path", "quantity")
_TIMING = re.compile(r"seconds|wall|cpu|memory|time_ratio|^time_|_mb$|^commit$")
_TIMING_DERIVED = re.compile(r"speedup|gain|spread")
_SHOWN = 20  # differing cells listed per result; the rest counted


def ignored_column(name: str) -> bool:
    """Whether a column (or a long table's ``measure``) measures time or memory and
    is left out of the comparison (see the module's note)."""
    name = str(name).lower()
    if _TIMING.search(name):
        return True
    return bool(_TIMING_DERIVED.search(name)) and "work" not in name


def _declared(result: str, name: str):
    """``name`` as the result declares it: in its writer (``write.py``: the
    declaration can be a job's source file, and editing it would rerun the jobs),
    else in its declaration; None for a result without it or one this checkout does
    not know."""
    from harness.registry import UnknownNameError
    from harness.result_registry import get_result, write_module

    try:
        module = get_result(result)
    except UnknownNameError:
        return None
    found = getattr(write_module(module), name, None)
    return found if found is not None else getattr(module, name, None)


def tolerance_of(result: str) -> tuple[dict, str]:
    """The result's ``COMPARE_TOLERANCE`` (``{"rtol": ..., "atol": ...}``, in its
    ``write.py``) and where it came from: ``"declared"``, or ``"default"``
    (:data:`DEFAULT_TOLERANCE`) for a result without one or one this checkout does
    not know."""
    declared = _declared(result, "COMPARE_TOLERANCE")
    if declared is None:
        return dict(DEFAULT_TOLERANCE), "default"
    return {**DEFAULT_TOLERANCE, **declared}, "declared"


def key_columns(frames: list[pd.DataFrame], declared=None) -> tuple[list[str], bool]:
    """The key columns of a result's CSVs (see the module's note) and whether they
    make every row unique in every frame."""
    if declared:
        keys = [c for c in declared if all(c in f for f in frames)]
        return keys, all(not f.duplicated(keys).any() for f in frames if keys)
    keys = [c for c in frames[0].columns if c in KEY_COLUMNS and all(c in f for f in frames)]
    return keys, all(not f.duplicated(keys).any() for f in frames if keys)


def _read(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _float(text: str) -> float | None:
    if text in ("True", "False"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


#: an absolute path inside a text cell (a reason naming where a file is expected:
#: the data cache of the machine that ran it)
_PATH = re.compile(r"(?<![\w.])/[^\s'\"),;]+")
#: a number inside a text cell ("gap 8.2e-04", "k = 7"): compared with the
#: result's tolerance, like a number cell
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def cells_differ(a: str, b: str, tol: dict) -> bool:
    """Whether two CSV cells differ: numbers beyond the tolerance; texts when they
    differ other than in their absolute paths (``/work/data/x.zip`` and
    ``/home/u/cache/x.zip`` name the same file on two machines).

    Examples
    --------
    >>> tol = {"rtol": 1e-6, "atol": 1e-9}
    >>> cells_differ("put it at /a/b/x.zip (or set $D)", "put it at /c/x.zip (or set $D)", tol)
    False
    >>> cells_differ("put it at /a/x.zip", "fetch it", tol)
    True
    >>> cells_differ("gap 8.2e-04", "gap 6.5e-04", {"rtol": 1e-2, "atol": 1e-3})
    False
    >>> cells_differ("gap 8.2e-04", "gap 6.5e-04", tol)
    True
    """
    if a == b:
        return False
    x, y = _float(a), _float(b)
    if x is None or y is None:
        a, b = _PATH.sub("<path>", a), _PATH.sub("<path>", b)
        if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
            return True
        return any(_numbers_differ(float(u), float(v), tol)
                   for u, v in zip(_NUMBER.findall(a), _NUMBER.findall(b)))
    return _numbers_differ(x, y, tol)


def _numbers_differ(x: float, y: float, tol: dict) -> bool:
    if math.isnan(x) or math.isnan(y):
        return not (math.isnan(x) and math.isnan(y))
    return abs(x - y) > tol["atol"] + tol["rtol"] * max(abs(x), abs(y))


@dataclasses.dataclass(frozen=True)
class CellDiff:
    """One differing cell: its row's key, its column and both runs' values."""

    row: str
    column: str
    a: str
    b: str


@dataclasses.dataclass
class ResultComparison:
    """One result of both runs: cells compared, differing cells, rows and columns of
    one run only, verdict changes and claims of one run only."""

    name: str
    tolerance: dict
    tolerance_source: str
    keys: list[str] = dataclasses.field(default_factory=list)
    keys_unique: bool = True
    cells: int = 0
    ignored_columns: list[str] = dataclasses.field(default_factory=list)
    diffs: list[CellDiff] = dataclasses.field(default_factory=list)
    rows_only: dict = dataclasses.field(default_factory=lambda: {"a": [], "b": []})
    columns_only: dict = dataclasses.field(default_factory=lambda: {"a": [], "b": []})
    csv_only: str = ""  # "a" or "b": only that run has the result's CSV
    claims: int = 0
    claims_read_from: tuple[str, str] = ("", "")
    verdicts: list[tuple[str, str, str, str]] = dataclasses.field(default_factory=list)
    claims_only: dict = dataclasses.field(default_factory=lambda: {"a": [], "b": []})

    @property
    def differs(self) -> bool:
        """Whether anything of this result differs between the runs."""
        return bool(self.diffs or self.verdicts or self.csv_only
                    or any(self.rows_only.values()) or any(self.columns_only.values())
                    or any(self.claims_only.values()))


@dataclasses.dataclass
class Comparison:
    """Two runs compared: per shared result a :class:`ResultComparison`, and the
    results of one run only."""

    a: Run
    b: Run
    results: list[ResultComparison]
    only: dict

    @property
    def differs(self) -> bool:
        """Whether anything differs between the runs."""
        return any(r.differs for r in self.results) or any(self.only.values())

    def summary(self) -> str:
        """One line: results, cells and verdicts compared, and what differs."""
        cells = sum(r.cells for r in self.results)
        diffs = sum(len(r.diffs) for r in self.results)
        claims = sum(r.claims for r in self.results)
        changed = sum(len(r.verdicts) for r in self.results)
        rows = sum(len(v) for r in self.results for v in r.rows_only.values())
        only = sum(len(v) for v in self.only.values())
        claims_only = sum(len(v) for r in self.results for v in r.claims_only.values())
        state = "DIFFER" if self.differs else "agree"
        return (f"runs {state}: {len(self.results)} shared results, {cells} cells compared, "
                f"{diffs} differing; {claims} verdicts compared, {changed} changed; "
                f"{rows} rows, {claims_only} claims and {only} results in one run only")


def _row_label(keys: list[str], values: tuple) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, values)) or "(row)"


def _compare_csv(out: ResultComparison, fa: pd.DataFrame, fb: pd.DataFrame) -> None:
    out.keys, out.keys_unique = key_columns([fa, fb], _declared(out.name, "COMPARE_KEYS"))
    keys = out.keys
    for f in (fa, fb):
        f["__n"] = f.groupby(keys, sort=False).cumcount() if keys else range(len(f))
    index = keys + ["__n"]
    out.columns_only = {"a": [c for c in fa if c not in fb], "b": [c for c in fb if c not in fa]}
    shared = [c for c in fa if c in fb and c not in index]
    declared = _declared(out.name, "COMPARE_IGNORE")
    own = re.compile(declared) if declared else None
    out.ignored_columns = [c for c in shared
                           if ignored_column(c) or (own is not None and own.search(c))]
    values = [c for c in shared if c not in out.ignored_columns]
    a, b = fa.set_index(index), fb.set_index(index)
    rows_a, rows_b = list(a.index), set(b.index)
    def label(row) -> str:
        if not keys:  # no key column: rows are matched by position, the index is __n
            return f"row {row + 1}"
        return _row_label(keys, row[:-1]) + (f" (#{row[-1] + 1})" if not out.keys_unique else "")
    out.rows_only = {"a": [label(r) for r in rows_a if r not in rows_b],
                     "b": [label(r) for r in b.index if r not in set(rows_a)]}
    named = [keys.index(c) for c in MEASURE_COLUMNS if c in keys]
    for row in rows_a:
        if row not in rows_b or any(ignored_column(row[i]) for i in named):
            continue
        if own is not None and keys and any(own.search(str(v)) for v in row[:-1]):
            continue
        ra, rb = a.loc[row], b.loc[row]
        for column in values:
            out.cells += 1
            if cells_differ(ra[column], rb[column], out.tolerance):
                out.diffs.append(CellDiff(label(row), column, ra[column], rb[column]))


def _compare_claims(out: ResultComparison, run_a: Run, run_b: Run) -> None:
    (ca, sa), (cb, sb) = run_a.claims(out.name), run_b.claims(out.name)
    out.claims_read_from = (sa, sb)
    by_a, by_b = {c["id"]: c for c in ca}, {c["id"]: c for c in cb}
    out.claims_only = {"a": [i for i in by_a if i not in by_b],
                       "b": [i for i in by_b if i not in by_a]}
    for cid, claim in by_a.items():
        if cid in by_b:
            out.claims += 1
            if claim["verdict"] != by_b[cid]["verdict"]:
                out.verdicts.append((cid, claim["claim"], claim["verdict"],
                                     by_b[cid]["verdict"]))


def compare_runs(path_a, path_b, results: list[str] | None = None) -> Comparison:
    """Compare two runs (run directories or reference runs).

    Parameters
    ----------
    path_a, path_b : path
    results : list of str, optional
        Compare only these results (the listing still names those of one run only
        among them).

    Raises
    ------
    harness.runs.layout.NotARunError
        A path that is not a run.
    ValueError
        ``results`` names a result neither run has.
    """
    run_a, run_b = open_run(path_a), open_run(path_b)
    names_a, names_b = set(run_a.outputs), set(run_b.outputs)
    if results:
        unknown = [r for r in results if r not in names_a | names_b]
        if unknown:
            raise ValueError(f"neither run has {', '.join(unknown)}; the runs have: "
                             f"{', '.join(sorted(names_a | names_b))}")
        names_a &= set(results)
        names_b &= set(results)
    compared = []
    for name in sorted(names_a & names_b):
        tol, source = tolerance_of(name)
        out = ResultComparison(name, tol, source)
        csv_a, csv_b = run_a.csv(name), run_b.csv(name)
        if csv_a and csv_b:
            _compare_csv(out, _read(csv_a), _read(csv_b))
        elif csv_a or csv_b:
            out.csv_only = "a" if csv_a else "b"
        _compare_claims(out, run_a, run_b)
        compared.append(out)
    return Comparison(run_a, run_b, compared, {"a": sorted(names_a - names_b),
                                               "b": sorted(names_b - names_a)})


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ") or "(empty)"


def render_markdown(comparison: Comparison) -> str:
    """The comparison as Markdown: the summary line, then per result the cells
    compared, the differing cells with both values, the verdict changes and what
    only one run has."""
    a, b = comparison.a.root, comparison.b.root
    out = ["# Comparison of two runs", "", f"- A: `{a}` ({comparison.a.kind})",
           f"- B: `{b}` ({comparison.b.kind})", "", f"**{comparison.summary()}.**", ""]
    for side in ("a", "b"):
        if comparison.only[side]:
            out += [f"Results only in {side.upper()}: {', '.join(comparison.only[side])}.", ""]
    for r in comparison.results:
        tol = f"rtol {r.tolerance['rtol']:g}, atol {r.tolerance['atol']:g} ({r.tolerance_source})"
        state = "differs" if r.differs else "agrees"
        out += [f"## {r.name}: {state}", ""]
        if r.csv_only:
            out += [f"- CSV only in {r.csv_only.upper()}."]
        else:
            unique = "" if r.keys_unique else " (not unique: rows matched in order within a key)"
            out += [f"- {r.cells} cells compared, {len(r.diffs)} differ; tolerance {tol}; "
                    f"rows matched by {', '.join(r.keys) or 'their order'}{unique}"]
            if r.ignored_columns:
                out += [f"- ignored (time, memory): {', '.join(r.ignored_columns)}"]
        for side in ("a", "b"):
            if r.columns_only[side]:
                out += [f"- columns only in {side.upper()}: {', '.join(r.columns_only[side])}"]
            if r.rows_only[side]:
                out += [f"- rows only in {side.upper()}: "
                        + "; ".join(r.rows_only[side][:_SHOWN])
                        + (f"; ... ({len(r.rows_only[side])} in all)"
                           if len(r.rows_only[side]) > _SHOWN else "")]
        read = set(filter(None, r.claims_read_from))
        out += [f"- {r.claims} verdicts compared, {len(r.verdicts)} changed"
                + (f" (read from {' and '.join(sorted(read))})" if read else "")]
        for side in ("a", "b"):
            if r.claims_only[side]:
                out += [f"- claims only in {side.upper()}: {', '.join(r.claims_only[side])}"]
        out.append("")
        if r.diffs:
            out += ["| row | column | A | B |", "|---|---|---|---|"]
            out += [f"| {_cell(d.row)} | {_cell(d.column)} | {_cell(d.a)} | {_cell(d.b)} |"
                    for d in r.diffs[:_SHOWN]]
            if len(r.diffs) > _SHOWN:
                out.append(f"| ... | {len(r.diffs) - _SHOWN} more | | |")
            out.append("")
        if r.verdicts:
            out += ["| claim | A | B |", "|---|---|---|"]
            out += [f"| {_cell(cid)}: {_cell(text)} | {va} | {vb} |"
                    for cid, text, va, vb in r.verdicts]
            out.append("")
    return "\n".join(out).rstrip() + "\n"
