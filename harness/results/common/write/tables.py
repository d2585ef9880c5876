"""Records -> a thesis table: thesis value, ours and the delta for every cell,
in CSV (long, one row per method x data set x measure), Markdown and LaTeX (wide, as
the thesis prints them), with notes: stand-in data, gaps and their reasons, the
choices made where the thesis is ambiguous, and provenance.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness import registry
from harness.jobs import Job, read_job_record
from harness.known_deviations import PLACEHOLDER, known_deviations
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.reference import reference_value
from harness.results.common.write.certified import certified
from harness.formatting import fmt_number, solve_summary
from harness.results.common.work.grid import _summarise as summarise_runs
from harness.results.common.declare.grid_profile import column_dataset, grid_cells
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["build_table", "write_table", "write_table_files", "compare_with_thesis",
           "legend", "stand_in_note", "wide_tables", "AVERAGE",
           "LONG_COLUMNS", "GAP_MARKS", "UNEXPLAINED", "WITHIN_SPREAD", "SPREAD_STANDARD_ERRORS",
           "within_run_noise", "fill_reason", "Footnotes",
           "RUN_NUMBERS", "ColumnReading", "column_readings", "no_value_reason"]

UNEXPLAINED = "outside the tolerance and not yet explained"
#: how many standard errors of our mean a delta may be and still be noise of our runs
SPREAD_STANDARD_ERRORS = 2.0
WITHIN_SPREAD = ("outside the tolerance but inside the run-to-run noise: |delta| is at "
                 f"most {SPREAD_STANDARD_ERRORS:g} standard errors of our mean (the runs' "
                 "standard deviation / sqrt(runs))")

AVERAGE = "average"
#: The columns of a table's long CSV, in order.
LONG_COLUMNS = ["measure", "method", "thesis_label", "dataset", "thesis_dataset", "stand_in",
                "thesis", "ours", "ours_std", "delta", "within_tolerance", "deviation_note",
                "n_runs", "status", "reason", "solver_note", "certified"]
GAP_MARKS = {"unavailable": "n/a", "failed": "failed", "skipped": "skipped",
             "timeout": "timeout", "missing": "not run", "incomplete": "incomplete"}


@dataclasses.dataclass(frozen=True)
class ColumnReading:
    """One reading of a table's real data: the column it takes for each thesis data set
    (a table may show two readings of one thesis data set side by side: the profile's
    ``readings``), and the average column computed on those.

    ``name`` is ``""`` for a table with one reading; else the column this reading
    differs by (the first reading takes each thesis data set's first column and is
    named by the first columns of the data sets that have others). ``thesis_dataset``
    is the thesis data set whose column this reading swaps (``""`` for the first).
    """

    name: str
    columns: frozenset[str]
    average: str = AVERAGE
    thesis_dataset: str = ""


def reading_average(column: str) -> str:
    """The average column of the reading that takes ``column``: ``average (COLUMN)``."""
    return f"{AVERAGE} ({column})"


def column_readings(frame: pd.DataFrame) -> list[ColumnReading]:
    """The readings of a long table's real (not stand-in) columns: the first takes the
    first column of every thesis data set; each further column of a thesis data set
    makes one more reading, which swaps it in (and has its own average column)."""
    real = frame[~frame["stand_in"].astype(bool) & (frame["thesis_dataset"] != AVERAGE)]
    by_thesis: dict[str, list[str]] = {}
    for column, thesis in dict.fromkeys(zip(real["dataset"], real["thesis_dataset"])):
        by_thesis.setdefault(thesis, []).append(column)
    first = frozenset(columns[0] for columns in by_thesis.values())
    others = [(thesis, columns[0], other) for thesis, columns in by_thesis.items()
              for other in columns[1:]]
    if not others:
        return [ColumnReading("", first)]
    name = ", ".join(dict.fromkeys(column for _, column, _ in others))
    return [ColumnReading(name, first)] + [
        ColumnReading(other, (first - {column}) | {other}, reading_average(other), thesis)
        for thesis, column, other in others]


def _load(config: dict, cell) -> dict:
    return read_job_record(config, Job(cell.table, cell.key))


def _dataset_info(name: str) -> tuple[str, str | None]:
    cls = registry.get_dataset(name)
    return cls.thesis_name or name, cls.stand_in_for


def build_table(config: dict, spec: TableSpec) -> pd.DataFrame:
    """The long table: one row per (measure, method, dataset), plus the averages.

    Columns: ``measure, method, thesis_label, dataset, thesis_dataset, stand_in,
    thesis, ours, ours_std, delta, within_tolerance, n_runs, status, reason``.
    """
    table = spec.name
    tconf = config["results"][table]
    ref_dir = config["reference_dir"]
    rows = []
    for cell in grid_cells(config, table):
        record = _load(config, cell)
        method_cls = registry.get_method(cell.method)
        thesis_dataset, stand_in = _dataset_info(column_dataset(tconf, cell.dataset))
        for measure, quantity, _ in spec.measures:
            if method_cls.measures is not None and measure not in method_cls.measures:
                continue
            thesis = None
            if spec.thesis_values:
                quantity, ref_method = spec.reference_key(
                    measure, quantity.format(**tconf), method_cls.thesis_label)
                thesis = reference_value(ref_dir, spec.reference_file, quantity,
                                         ref_method, thesis_dataset)
            summary = _summary(record, measure) if record["status"] == "ok" else None
            if record["status"] == "ok" and summary is None and thesis is None:
                continue  # a measure this method does not have (an SVM has no energy)
            status, reason = record["status"], record.get("reason", "")
            if status == "ok" and summary is None:  # never "ok" without a value
                status, reason = "incomplete", no_value_reason(record, measure, method_cls)
            ours = summary["mean"] if summary else math.nan
            rows.append({
                "measure": measure,
                "method": cell.method + (f"/{cell.solver}" if cell.solver else ""),
                "thesis_label": method_cls.thesis_label,
                "dataset": cell.dataset,
                "thesis_dataset": thesis_dataset,
                "stand_in": stand_in is not None,
                "thesis": math.nan if thesis is None else thesis,
                "ours": ours,
                "ours_std": summary["std"] if summary else math.nan,
                "n_runs": summary["n"] if summary else 0,
                "status": status,
                "reason": reason,
                "solver_note": _solver_note(record),
                "certified": _certified(record),
            })
    rows += _uncovered_thesis_datasets(rows, spec, ref_dir)
    rows += _ratio_rows(rows, spec)
    frame = pd.DataFrame(rows)
    if spec.average:
        frame = pd.concat([frame, _averages(frame, spec, config, table)], ignore_index=True)
    return compare_with_thesis(frame, spec)[LONG_COLUMNS]


def no_value_reason(record: dict, measure: str, method_cls) -> str:
    """Why a job that ran (status ok) recorded no value of ``measure`` for a cell the
    thesis fills (issue 52: such a cell showed "0.00 / - / -" with no note): a
    leave-one-out error above the method's ``loo_max_samples`` training points, else
    the plain fact."""
    params = {**method_cls().get_params(), **record.get("params", {}).get("method_params", {})}
    runs = record.get("runs") or [{}]
    n_train = runs[0].get("info", {}).get("n_train")
    limit = params.get("loo_max_samples")
    if "loo" in measure and limit is not None and n_train is not None and n_train > limit:
        return (f"not computed: leave-one-out over the {n_train} training points would take "
                f"{n_train} refits; {method_cls.name} computes it up to loo_max_samples = "
                f"{limit} points (set it in the profile's method_params to compute it)")
    return (f"not computed: the job ran (status ok) but its record has no {measure} in "
            f"any run ({method_cls.name} returned none)")


#: numbers every run of a task records beside its measures (the fit's time), which a
#: table may show as measures too (the classification task also counts its CPU
#: seconds among its measures; the clustering and embedding tasks do not)
RUN_NUMBERS = ("fit_seconds", "fit_cpu_seconds")


def _summary(record: dict, measure: str) -> dict | None:
    """``{"mean", "std", "n"}`` of one measure of an ``ok`` record: its summary, or
    for a number of :data:`RUN_NUMBERS` that the task keeps beside the measures, the
    same statistics over the runs (the grid's own summary of a cell's runs)."""
    summary = record.get("summary", {}).get(measure)
    if summary is not None or measure not in RUN_NUMBERS:
        return summary
    values = [run.get(measure) for run in record.get("runs", [])]
    if not values or any(v is None for v in values):
        return None
    return summarise_runs([{"measures": {measure: v}} for v in values])[measure]


def compare_with_thesis(frame: pd.DataFrame, spec: TableSpec) -> pd.DataFrame:
    """Add ``delta``, ``within_tolerance`` and ``deviation_note`` to a long table
    (columns of :data:`LONG_COLUMNS` up to ``n_runs``, ``status``, ``reason``,
    ``solver_note``), in place; return it. A stand-in's delta is shown but never
    compared; so are the measures outside ``spec.compared``."""
    frame["solver_note"] = frame["solver_note"].fillna("")
    frame["certified"] = (frame["certified"] if "certified" in frame
                          else pd.Series(pd.NA, index=frame.index)).astype("boolean")
    frame["delta"] = frame["ours"] - frame["thesis"]
    within = (frame["delta"].abs() <= spec.tolerance).astype("boolean")
    # a stand-in is other data: its delta is shown, but it is no reproduction claim
    within[frame["delta"].isna() | frame["stand_in"].astype(bool)] = pd.NA
    if spec.compared is not None:  # CPU seconds, counts: shown, not a claim
        within[~frame["measure"].isin(spec.compared)] = pd.NA
    frame["within_tolerance"] = within
    frame["deviation_note"] = _attach_deviation_notes(frame, spec.name, spec.spread_counts,
                                                      spec.decimals)
    return frame


def _ratio_rows(rows: list[dict], spec: TableSpec) -> list[dict]:
    """``spec.ratios``: per data set, each method's mean over that of a reference
    method (``{derived: (measure, reference method)}``), e.g. CPU time relative to our
    LMNN in the same run -- the comparison that survives a shared, noisy machine."""
    out = []
    for derived, (measure, reference) in spec.ratios.items():
        base = {r["dataset"]: r["ours"] for r in rows
                if r["measure"] == measure and r["method"] == reference and r["status"] == "ok"}
        for r in rows:
            if r["measure"] != measure:
                continue
            denominator = base.get(r["dataset"], math.nan)
            ok = r["status"] == "ok" and np.isfinite(denominator) and denominator > 0
            out.append({**r, "measure": derived, "thesis": math.nan, "ours_std": math.nan,
                        "n_runs": 1,
                        "ours": r["ours"] / denominator if ok else math.nan,
                        "status": r["status"] if r["status"] != "ok" or ok else "incomplete",
                        "reason": r["reason"] if r["status"] != "ok" else
                        ("" if ok else f"no {reference} cell on {r['dataset']} to compare with")})
    return out


def _uncovered_thesis_datasets(rows: list[dict], spec: TableSpec, ref_dir) -> list[dict]:
    """Gap rows for the thesis' data sets that no data set of the profile stands for
    (no plugin yet, or not listed): the thesis' number beside a marked gap."""
    covered = {row["thesis_dataset"] for row in rows}
    pairs = dict.fromkeys((row["measure"], row["method"], row["thesis_label"]) for row in rows)
    quantities = {m: q for m, q, _ in spec.measures}
    plugins = {}
    for name, cls in registry.datasets().items():
        plugins.setdefault(cls.thesis_name or name, []).append(name)
    gaps = []
    for dataset in spec.thesis_datasets:
        if dataset in covered:
            continue
        if dataset in plugins:
            names = ", ".join(plugins[dataset])
            reason = (f"not in this profile: data set plugin(s) {names} provide this column; "
                      f"list them under results.{spec.name}.datasets (config/full.yaml does; "
                      f"`harness fetch {names.split(',')[0]}` first)")
        else:
            reason = ("not in this profile: the thesis' data sets without a data set plugin "
                      "here (see DATA.md) are gaps until one exists")
        for measure, method, label in pairs:
            quantity, ref_method = spec.reference_key(measure, quantities[measure], label)
            thesis = reference_value(ref_dir, spec.reference_file, quantity, ref_method, dataset)
            gaps.append({
                "measure": measure, "method": method, "thesis_label": label,
                "dataset": dataset, "thesis_dataset": dataset, "stand_in": False,
                "thesis": math.nan if thesis is None else thesis, "ours": math.nan,
                "ours_std": math.nan, "n_runs": 0, "status": "unavailable",
                "reason": reason, "solver_note": "",
            })
    return gaps


def _certified(record: dict):
    """Whether a cell's SDP solves are certified optimal: True when every run's
    ``solve_info`` says so, False when one does not, ``pd.NA`` for a cell without an
    SDP solve. A claim counts a cell marked False as not measured
    (:class:`harness.results.common.write.table_claims.Values`): its numbers are those of an
    iterate, not of the SDP's solution."""
    infos = [run.get("info", {}).get("solve_info") for run in record.get("runs", [])]
    infos = [info for info in infos if info]
    if not infos:
        return pd.NA
    return all(certified(info.get("status")) for info in infos)


def _solver_note(record: dict) -> str:
    """Why a cell's optimisation is not certified optimal (MVU SDP solves record a
    ``solve_info`` with the harness' verdict), or ``""``."""
    notes = []
    for run in record.get("runs", []):
        info = run.get("info", {}).get("solve_info")
        if info and info.get("status") != "optimal":
            notes.append(f"the SDP solve ({info.get('solver')}) is not certified optimal: "
                         f"{solve_summary(info)}; the metrics are those of its best "
                         f"iterate")
    return "; ".join(dict.fromkeys(notes))


def _averages(frame: pd.DataFrame, spec: TableSpec, config: dict, table: str) -> pd.DataFrame:
    """The thesis' average column, computed the same way: the mean over its data sets,
    real data only; a gap naming what is missing otherwise. One average column per
    reading of the data (:func:`column_readings`)."""
    rows = []
    tconf = config["results"][table]
    for reading in column_readings(frame):
        for (measure, method), group in frame.groupby(["measure", "method"], sort=False):
            rows.append(_average_row(group, reading, spec, config, tconf))
    return pd.DataFrame(rows)


def _average_row(group: pd.DataFrame, reading: ColumnReading, spec: TableSpec, config: dict,
                 tconf: dict) -> dict:
    """One (measure, method)'s average over the columns of ``reading``."""
    measure, method = group["measure"].iloc[0], group["method"].iloc[0]
    label = group["thesis_label"].iloc[0]
    quantity = dict((m, q) for m, q, _ in spec.measures)[measure].format(**tconf)
    thesis = reference_value(config["reference_dir"], spec.reference_file, quantity,
                             label, AVERAGE)
    real = group[~group["stand_in"] & group["thesis_dataset"].isin(spec.thesis_datasets)
                 & group["dataset"].isin(reading.columns)]
    values = real.set_index("thesis_dataset")["ours"]
    missing = [d for d in spec.thesis_datasets
               if d not in values.index or not np.isfinite(values.get(d, np.nan))]
    ok = not missing
    certified = real["certified"] if "certified" in real else pd.Series(dtype=object)
    certified = certified[certified.notna()]
    return {
        "measure": measure, "method": method, "thesis_label": label,
        "dataset": reading.average, "thesis_dataset": AVERAGE, "stand_in": False,
        "thesis": math.nan if thesis is None else thesis,
        "ours": float(values[list(spec.thesis_datasets)].mean()) if ok else math.nan,
        "ours_std": math.nan, "n_runs": 0,
        "status": "ok" if ok else "incomplete",
        "reason": "" if ok else "needs all of the thesis' data sets; missing: "
                  + ", ".join(missing),
        # an average over a cell whose SDP solve is not certified is not certified
        "certified": bool(certified.astype(bool).all()) if len(certified) else pd.NA,
    }


def within_run_noise(delta: float, std: float, runs: int) -> bool:
    """Whether ``delta`` (our mean minus the thesis' number) is inside the noise of our
    mean over ``runs`` runs of standard deviation ``std``: at most
    :data:`SPREAD_STANDARD_ERRORS` standard errors, ``std / sqrt(runs)`` (issue 51: the
    per-run standard deviation is the spread of one run, not of the mean).

    Examples
    --------
    >>> within_run_noise(1.6, 1.84, 100)  # olivetti PCA-LMNN: 9 standard errors apart
    False
    >>> within_run_noise(0.3, 1.0, 10)
    True
    """
    return bool(abs(delta) <= SPREAD_STANDARD_ERRORS * std / math.sqrt(runs))




def fill_reason(reason: str, frame: pd.DataFrame, row, decimals: int = 3,
                where: str = "") -> str:
    """``reason`` with each :data:`PLACEHOLDER` replaced by this run's number (our mean,
    the runs' standard deviation or their number) of the cell ``row`` or of the cell it
    names, formatted as the table prints it; ``n/a`` where that cell has no number. A
    reason that states a number of this run names it so, and can never contradict the
    cell it explains (issue 51 defect 8); its literal numbers are those of the earlier
    measurement it describes.

    Raises
    ------
    ValueError
        A placeholder naming a cell the table does not have (``where`` names the entry).
    """
    columns = {"ours": "ours", "std": "ours_std", "runs": "n_runs"}

    def number(match):
        what, method, dataset, measure = match.groups()
        if method is None:
            cell = row
        else:
            found = frame[(frame["method"] == method) & (frame["dataset"] == dataset)
                          & (frame["measure"] == measure)]
            if found.empty:
                raise ValueError(f"{where}: {match.group(0)} names no cell of the table "
                                 f"(method/dataset/measure as in its long CSV); fix the "
                                 f"placeholder in config/known_deviations.yaml")
            cell = next(found.itertuples())
        value = getattr(cell, columns[what])
        if value is None or pd.isna(value) or getattr(cell, "status", "ok") != "ok":
            return "n/a"
        return str(int(value)) if what == "runs" else _fmt(float(value), decimals=decimals)

    return PLACEHOLDER.sub(number, reason)


def _attach_deviation_notes(frame: pd.DataFrame, table: str,
                            spread_counts: bool = False, decimals: int = 3) -> pd.Series:
    reasons = known_deviations(table)
    notes = []
    for row in frame.itertuples():
        if row.status != "ok" or pd.isna(row.within_tolerance) or row.within_tolerance:
            notes.append("")
        elif spread_counts and row.n_runs > 1 and within_run_noise(row.delta, row.ours_std,
                                                                   row.n_runs):
            notes.append(WITHIN_SPREAD)
        else:
            key = (row.method, row.dataset, row.measure)
            notes.append(fill_reason(reasons[key], frame, row, decimals,
                                     f"{table} {'/'.join(key)}")
                         if key in reasons else UNEXPLAINED)
    return pd.Series(notes, index=frame.index, dtype="string")


def _fmt(value: float, signed: bool = False, decimals: int = 3) -> str:
    return fmt_number(value, f"{'+' if signed else ''}.{decimals}f", missing="–")


class Footnotes:
    """Numbered reasons, each text once."""

    def __init__(self):
        self.texts: list[str] = []

    def mark(self, text: str) -> str:
        if text not in self.texts:
            self.texts.append(text)
        return f"[{self.texts.index(text) + 1}]"


def _cell_text(row: pd.Series, notes: Footnotes, decimals: int = 3,
               thesis_values: bool = True) -> str:
    """A cell: thesis / ours / delta, or ours alone for a table without thesis
    values; a gap's mark and footnote; the cell's deviation and solver marks."""
    thesis = _fmt(row["thesis"], decimals=decimals) + " / " if thesis_values else ""
    if row["status"] != "ok":
        mark = GAP_MARKS.get(row["status"], row["status"])
        return f"{thesis}{mark}{notes.mark(row['reason'])}"
    ours = _fmt(row["ours"], decimals=decimals)
    if row["n_runs"] > 1:
        ours += f"±{_fmt(row['ours_std'], decimals=decimals)}"
    text = (f"{thesis}{ours} / {_fmt(row['delta'], signed=True, decimals=decimals)}"
            if thesis_values else ours)
    if row["deviation_note"]:
        symbol = {UNEXPLAINED: "!", WITHIN_SPREAD: "~"}.get(row["deviation_note"], "‡")
        text += symbol + notes.mark(
            row["deviation_note"])
    if isinstance(row.get("solver_note"), str) and row["solver_note"]:
        text += "§" + notes.mark(row["solver_note"])
    return text


def _column_title(dataset: str, frame: pd.DataFrame) -> str:
    if dataset == AVERAGE:
        return "average"
    row = frame[frame["dataset"] == dataset].iloc[0]
    if row["stand_in"]:
        return f"{dataset} (stand-in for {row['thesis_dataset']})"
    return dataset


def wide_tables(frame: pd.DataFrame, spec: TableSpec, cell=None
                ) -> tuple[list[tuple[str, pd.DataFrame]], list[str]]:
    """The wide blocks of a long table, 'thesis / ours / delta' per cell: per measure,
    methods x data sets, or with ``spec.transpose_by`` one block per data set, its
    rows (tasks) x methods (:func:`_transposed`).

    ``cell(row, text)``, if given, makes what a grid holds from the long table's row
    and the cell's text (the report wraps the text with the row's tolerance class);
    by default the grid holds the text.
    """
    notes = Footnotes()
    cell = cell or (lambda row, text: text)
    datasets = list(dict.fromkeys(frame["dataset"]))
    blocks = []
    for measure, _, label in spec.measures:
        part = frame[frame["measure"] == measure]
        decimals = spec.measure_decimals.get(measure, spec.decimals)

        def text(row: pd.Series) -> object:
            return cell(row, _cell_text(row, notes, decimals, spec.thesis_values))

        if spec.transpose_by is not None:
            blocks += [(f"{label} on {title}", grid)
                       for title, grid in _transposed(part, spec.transpose_by, text)]
            continue
        grid = {}
        for method, group in part.groupby("method", sort=False):
            by_dataset = group.set_index("dataset")
            grid[_row_name(group.iloc[0])] = {_column_title(d, frame): text(by_dataset.loc[d])
                                               for d in datasets if d in by_dataset.index}
        blocks.append((label, pd.DataFrame.from_dict(grid, orient="index")))
    return blocks, notes.texts


def _row_name(row: pd.Series) -> str:
    """A method's name in a table: the thesis' label, else the plugin's name."""
    return row["thesis_label"] or row["method"]


def _transposed(part: pd.DataFrame, columns: tuple[str, str], text
                ) -> list[tuple[str, pd.DataFrame]]:
    """``(title, grid)`` per value of the block column (in order of appearance): rows
    the values of the row column, columns the methods, each cell ``text(row)``; the
    title marks a stand-in (``usps_standin (stand-in for usps)``)."""
    missing = [c for c in columns if c not in part.columns]
    if missing:
        raise KeyError(f"transpose_by={columns!r}: the long table has no column(s) "
                       f"{missing}; add them to every row (Table 3.3: source_dataset, task)")
    block_column, row_column = columns
    out = []
    for block, rows in part.groupby(block_column, sort=False, dropna=False):
        order = {value: i for i, value in enumerate(dict.fromkeys(rows[row_column]))}
        rows = rows.sort_values(row_column, key=lambda v: v.map(order), kind="stable")
        grid = {}
        for _, row in rows.iterrows():
            grid.setdefault(row[row_column], {})[_row_name(row)] = text(row)
        frame = pd.DataFrame.from_dict(grid, orient="index")
        frame.index.name = row_column
        title = str(block)
        if rows["stand_in"].astype(bool).any():
            title += f" (stand-in for {_dataset_info(title)[1]})"
        out.append((title, frame))
    return out


def legend(spec: TableSpec) -> str:
    """The first note of every thesis table: what a cell shows and its marks."""
    if not spec.thesis_values:
        return ("Each cell: ours, the mean ± the standard deviation over the runs; not a "
                "thesis result, so no thesis number, no delta and no verdict. § marks a "
                "cell whose optimisation (an SDP) is not certified optimal.")
    return (f"Each cell: thesis / ours / delta (ours - thesis); tolerance "
            f"{spec.tolerance} for 'reproduced'. ‡ marks a cell outside the tolerance "
            f"with a measured explanation (config/known_deviations.yaml), ! one without"
            f"{', ~ one inside the run-to-run noise (2 standard errors of our mean)' if spec.spread_counts else ''}; "
            f"§ a cell whose optimisation (the MVU SDP) is not certified optimal.")


def stand_in_note(name: str) -> str:
    """The note under a table that shows the stand-in data set ``name``."""
    cls = registry.get_dataset(name)
    return (f"{name} is a synthetic stand-in for the thesis' {cls.stand_in_for} "
            f"data ({cls.description}); compare its column with care.")


def _notes(config: dict, spec: TableSpec, frame: pd.DataFrame) -> list[str]:
    table = spec.name
    lines = [legend(spec)] + list(spec.notes)
    for name in config["results"][table]["methods"]:
        cls = registry.get_method(name)
        if cls.table_note:
            lines.append(f"{cls.thesis_label or name}: {cls.table_note}")
    tconf = config["results"][table]
    plugins = dict.fromkeys(column_dataset(tconf, name) for name in tconf["datasets"])
    for name in plugins:
        note = getattr(registry.get_dataset(name), "table_note", "")
        if note:
            lines.append(note)
    for name in dict.fromkeys(frame.loc[frame["stand_in"], "dataset"]):
        lines.append(stand_in_note(name))
    return (lines + _readings_notes(tconf, frame) + _shape_notes(config, spec)
            + _fit_notes(config, table))


def _readings_notes(tconf: dict, frame: pd.DataFrame) -> list[str]:
    """One line per thesis data set shown under two or more readings: each column with
    its description (the profile's ``readings``), and how the claims use them."""
    readings = column_readings(frame)
    if len(readings) < 2:
        return []
    described = tconf.get("readings", {})
    lines = []
    for thesis in dict.fromkeys(r.thesis_dataset for r in readings[1:]):
        others = [r for r in readings[1:] if r.thesis_dataset == thesis]
        (first,) = readings[0].columns - others[0].columns
        columns = [first] + [r.name for r in others]
        texts = [f"{c} ({described[c]['description'].strip()})" if c in described else c
                 for c in columns]
        averages = [readings[0].average] + [r.average for r in others]
        lines.append(
            f"The thesis' {thesis} column under {len(columns)} readings of its data, each "
            f"fixed from the thesis' text before any result was seen: {'; '.join(texts)}. "
            f"Each reading has its own average column ({', '.join(averages)}); a claim "
            f"that involves {thesis} is checked under every reading and 'partly holds' "
            f"when they disagree.")
    return lines


def _shape_notes(config: dict, spec: TableSpec) -> list[str]:
    """One line: each data set's inputs x dimension as its cells ran it (the first
    record that has them) beside the thesis' rows (``spec.shape_quantities``), so that
    data prepared otherwise than the thesis' shows (the thesis' Table 2.1 lists MNIST's
    and isolet's raw dimension, 784 and 617, though 2.1.6 projects them on 164 and
    172 principal components)."""
    if spec.shape_quantities is None or not spec.thesis_values:
        return []
    shapes: dict[str, tuple[int, int]] = {}
    for cell in grid_cells(config, spec.name):
        if cell.dataset not in shapes:
            record = _load(config, cell)
            if "n_samples" in record and "n_features" in record:
                shapes[cell.dataset] = (record["n_samples"], record["n_features"])
    size_q, dim_q = spec.shape_quantities
    parts = []
    for name in config["results"][spec.name]["datasets"]:
        if (ours := shapes.get(name)) is None:
            continue
        thesis_name = _dataset_info(column_dataset(config["results"][spec.name], name))[0]
        thesis = tuple(reference_value(config["reference_dir"], spec.reference_file, q, "",
                                       thesis_name) for q in (size_q, dim_q))
        text = f"{name} {ours[0]} x {ours[1]}"
        if all(v is not None for v in thesis):
            text += f" (thesis' rows: {int(thesis[0])} x {int(thesis[1])})"
        parts.append(text)
    return [f"Data as run, inputs x dimension: {'; '.join(parts)}."] if parts else []


def _fit_notes(config: dict, table: str) -> list[str]:
    """One line per cell whose method says its fit did something differently (a
    run's ``fit_note``, e.g. hLLE's dense eigensolver after ARPACK failed)."""
    lines = []
    for cell in grid_cells(config, table):
        runs = _load(config, cell).get("runs") or []
        notes = dict.fromkeys(n for n in (r.get("info", {}).get("fit_note") for r in runs) if n)
        lines += [f"{cell.id}: {note}" for note in notes]
    return lines


def _chosen_k(record: dict, k) -> str:
    """``k`` as configured, or for k chosen on a validation split the choices per run
    (``validation: 3 x1, 7 x9``)."""
    chosen = [run.get("info", {}).get("n_neighbors") for run in record.get("runs", [])]
    if not any(c is not None for c in chosen):
        return str(k)
    values, counts = np.unique([c for c in chosen if c is not None], return_counts=True)
    return f"{k}: " + ", ".join(f"{v} x{c}" for v, c in zip(values, counts))


def _params_lines(config: dict, spec: TableSpec) -> list[str]:
    lines = []
    for cell in grid_cells(config, spec.name):
        record = _load(config, cell)
        if record["status"] == "missing":
            continue
        params = record["params"]
        mp = params.get("method_params", {})
        if spec.task == "classification":
            setting = (f"k={_chosen_k(record, mp.get('n_neighbors', '-'))}, "
                       f"train fraction={params['train_fraction']:.3f}, "
                       f"runs={params['n_runs']} ({params['n_runs_source']})")
        elif spec.task == "clustering":
            found = {r.get("info", {}).get("n_clusters") for r in record.get("runs", [])}
            setting = (f"n_clusters={', '.join(map(str, sorted(found - {None}))) or '-'}, "
                       f"{', '.join(f'{k}={v}' for k, v in mp.items()) or 'defaults'}, "
                       f"runs={params['n_runs']}")
        else:
            setting = (f"k={mp.get('n_neighbors', '-')} ({params.get('n_neighbors_source')}), "
                       f"r={mp.get('n_components')}, l={params.get('eval_neighbors')}, "
                       f"runs={params['n_runs']}")
        lines.append(
            f"{cell.id}: {setting}, status={record['status']}, "
            f"wall={fmt_number(record.get('timing', {}).get('wall_seconds'), '.1f')}s, "
            f"commit={record['provenance']['git']['commit'][:10]}"
            + (" (dirty)" if record["provenance"]["git"]["dirty"] else "")
        )
    return lines


def write_table(config: dict, spec: TableSpec) -> list[Path]:
    """Write ``results/<profile>/tables/<table>.{csv,md,tex}`` and the sidecar
    ``<table>.json`` of a grid table (:func:`build_table`); return the paths."""
    frame = build_table(config, spec)
    return write_table_files(config, spec, frame, _notes(config, spec, frame),
                             _params_lines(config, spec))


def write_table_files(config: dict, spec: TableSpec, frame: pd.DataFrame,
                      notes: list[str], cell_lines: list[str]) -> list[Path]:
    """Write a long table ``frame`` (:data:`LONG_COLUMNS`, and any more) as
    ``results/<profile>/tables/<table>.{csv,md,tex}``, wide as the thesis prints it
    (:func:`wide_tables`), with ``notes`` and the numbered gap footnotes under it and
    one line per job (``cell_lines``), and the sidecar ``<table>.json`` (title,
    heading, the notes without the gap footnotes, which the report makes from the
    CSV); return the paths."""
    table = spec.name
    out = output_paths(config, table, "table", sidecar=True)
    blocks, gap_notes = wide_tables(frame, spec)
    all_notes = notes + [f"[{i + 1}] {text}" for i, text in enumerate(gap_notes)]
    heading = spec.heading.format(**config["results"][table])

    md = [f"# {spec.title}", "", f"Profile `{config['profile']}`. {config.get('description', '')}", ""]
    for label, block in blocks:
        md += [f"## {label}{heading}", "",
               tabulate(block.fillna(""), headers="keys", tablefmt="github"), ""]
    md += ["## Notes", ""] + [f"- {line}" for line in all_notes]
    md += ["", "## Cells", ""] + [f"- `{line}`" for line in cell_lines]

    cells = "thesis / ours / delta" if spec.thesis_values else "ours (no thesis values)"
    tex = [f"% {spec.title}", f"% profile {config['profile']}; cells: {cells}"]
    for label, block in blocks:
        tex += [f"% {label}", tabulate(block.fillna(""), headers="keys",
                                       tablefmt="latex_booktabs"), ""]
    tex += ["% " + line for line in all_notes]

    paths = [
        write_csv_atomic(out["csv"], frame),
        write_text_atomic(out["md"], "\n".join(md) + "\n"),
        write_text_atomic(out["tex"], "\n".join(tex) + "\n"),
    ]
    sidecar = {"title": spec.title, "heading": heading, "notes": list(notes)}
    return paths + [write_sidecar(out["json"], sidecar)]
