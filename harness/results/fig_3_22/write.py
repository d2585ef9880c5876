"""The outputs of Fig. 3.22 (thesis 3.1.9) from its records: the CSV, the Markdown, the
sidecar (and the figure, for a figure) and the verdicts on the thesis' statements
(:func:`claims`).
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness import registry
from harness.claims import make_claim
from harness.results.common.write.certified import not_counted
from harness.formatting import certificate_text
from harness.results.common.write.figure_files import (
    gap_mark, missing_column_reason, read_point, save_png, write_figure_files,
)
from harness.results.common.declare.profile import thesis_column
from harness.results.common.work.mvu_point import MEASURES
from harness.results.common.write.tables import Footnotes
from harness.results.fig_3_22.register_claims import register_claims
from harness.results.fig_3_22 import NAME, TITLE, _conf, dimensions, keys, params

__all__ = ["THESIS_DATASETS", "CLAIM", "LABELS", "build", "assess", "claims", "write"]

# the thesis' data sets of Fig. 3.22 (top: Frey, bottom: Olivetti) and Table 3.2's n
THESIS_DATASETS = {"frey": ("Frey faces", 1965), "olivetti": ("Olivetti faces", 400)}
CLAIM = ("all three metrics improve monotonically with increasing r and plateau as the "
         "magnitude of the eigenvalues tends to zero (3.1.9, Fig. 3.22)")
LABELS = {"local_continuity": "continuity", "local_trust": "trust",
          "neighborhood_intersection": "intersection"}


# ---- aggregation -----------------------------------------------------------------
def _counted(dataset: str) -> tuple[bool, bool]:
    """(is a stand-in, counts for the verdicts: real data of one of the figure's sets)."""
    stand_in = registry.get_dataset(dataset).stand_in_for is not None
    return stand_in, not stand_in and thesis_column(dataset) in THESIS_DATASETS


def _gap_rows(base: dict, rs: list[int], status: str, reason: str) -> list[dict]:
    return [{**base, "r": r, **{q: math.nan for q in MEASURES}, "eigenvalue": math.nan,
             "normalised_eigenvalue": math.nan, "status": status, "reason": reason}
            for r in rs]


def build(config: dict) -> pd.DataFrame:
    """One row per (data set, r): the three metrics, the r-th eigenvalue and its
    normalised value, the solve's certified status, gap and violation, the parameters
    used; a gap's rows carry its status and reason (thesis data sets no listed data
    set fills included)."""
    conf = _conf(config)
    rs = dimensions(conf)
    rows = []
    for dataset in conf["datasets"]:
        record = read_point(config, NAME, dataset)
        point = record.get("params") or params(config, dataset)
        stand_in, counted = _counted(dataset)
        solve = record.get("solve") or {}
        base = {"dataset": dataset, "thesis_dataset": point["thesis_dataset"],
                "stand_in": stand_in, "counted": counted,
                "n_samples": record.get("n_samples") or point["subsample"]
                or point["dataset_params"].get("n_samples"),
                "n_features": record.get("n_features"),
                "n_neighbors": point["method_params"]["n_neighbors"],
                "eval_neighbors": point["eval_neighbors"], "solver": point["solver"],
                "solve_status": solve.get("status"), "solve_gap": solve.get("gap"),
                "solve_certificate": certificate_text(solve) if solve else None,
                "solve_violation": solve.get("violation"),
                "wall_seconds": (record.get("timing") or {}).get("wall_seconds")}
        if record["status"] != "ok":
            rows += _gap_rows(base, rs, record["status"], record.get("reason", ""))
            continue
        for sweep in record["measures_by_dimension"]:
            rows.append({**base, "r": sweep["n_components"],
                         **{q: float(sweep[q]) for q in MEASURES},
                         "eigenvalue": sweep["eigenvalue"],
                         "normalised_eigenvalue": sweep["normalised_eigenvalue"],
                         "status": "ok", "reason": ""})
    listed = {thesis_column(d) for d in conf["datasets"]}
    for column, (label, _) in THESIS_DATASETS.items():
        if column not in listed:
            rows += _gap_rows({"dataset": column, "thesis_dataset": column, "stand_in": False,
                               "counted": True}, rs, "unavailable",
                              missing_column_reason(NAME, column, label))
    frame = pd.DataFrame(rows)
    frame["certified"] = frame["solve_status"] == "optimal"
    _add_assessment(frame, conf)
    first = ["dataset", "r", *MEASURES, "eigenvalue", "normalised_eigenvalue", "status",
             "reason"]
    return frame[first + [c for c in frame.columns if c not in first]]


def _add_assessment(frame: pd.DataFrame, conf: dict) -> None:
    """Per measured data set, :func:`assess`'s numbers as columns (the same on each of
    its rows): ``<measure>_largest_drop``, ``plateau_r`` and ``<measure>_plateau_rise``,
    the numbers the claims' evidence shows."""
    for column in ["plateau_r", *(f"{q}_{what}" for q in MEASURES
                                  for what in ("largest_drop", "plateau_rise"))]:
        frame[column] = math.nan
    measured = frame[frame["status"] == "ok"]
    for dataset, part in measured.groupby("dataset", sort=False):
        a = assess(part, conf)
        rows = part.index
        frame.loc[rows, "plateau_r"] = (math.nan if a["plateau_r"] is None
                                        else a["plateau_r"])
        for q in MEASURES:
            frame.loc[rows, f"{q}_largest_drop"] = a["monotone"][q][1]
            if q in a["plateau"]:
                frame.loc[rows, f"{q}_plateau_rise"] = a["plateau"][q][1]


def assess(part: pd.DataFrame, conf: dict) -> dict:
    """Our reading of one data set's curves (measured rows, one per r).

    Returns
    -------
    dict
        ``monotone``: per measure ``(ok, largest drop, the r it ends at)`` (0 and
        None if the curve never drops); ``plateau_r``: r0, the last r whose normalised eigenvalue is >=
        ``plateau_eigenvalue``, or None when no eigenvalue in the range falls below
        it (the plateau is then untested); ``plateau``: per measure ``(ok, rise)``,
        the largest rise above the value at r0 for r > r0.
    """
    part = part.sort_values("r")
    r = part["r"].to_numpy(dtype=int)
    ev = part["normalised_eigenvalue"].to_numpy(dtype=float)
    above = np.flatnonzero(ev >= conf["plateau_eigenvalue"])
    r0 = int(r[above[-1]]) if len(above) else int(r[0])
    plateau_r = r0 if r0 < r[-1] else None
    out = {"monotone": {}, "plateau": {}, "plateau_r": plateau_r}
    for q in MEASURES:
        v = part[q].to_numpy(dtype=float)
        steps = np.diff(v)
        worst = int(np.argmin(steps))
        drop = max(0.0, -float(steps[worst]))
        out["monotone"][q] = (drop <= conf["monotone_tolerance"], drop,
                              int(r[worst + 1]) if drop > 0 else None)
        if plateau_r is not None:
            at = int(np.flatnonzero(r == plateau_r)[0])
            rise = float(np.max(v[at:]) - v[at])
            out["plateau"][q] = (rise <= conf["plateau_tolerance"], rise)
    return out


def _label(frame: pd.DataFrame, dataset: str) -> str:
    row = frame[frame["dataset"] == dataset].iloc[0]
    if row["stand_in"]:
        return f"{dataset} (stand-in for {row['thesis_dataset']}, not a data set of Fig. 3.22)"
    if dataset in THESIS_DATASETS:
        return THESIS_DATASETS[dataset][0]
    return f"{dataset} (not a data set of Fig. 3.22)" if not row["counted"] else dataset


def _size_note(frame: pd.DataFrame, dataset: str) -> str:
    part = frame[frame["dataset"] == dataset]
    n, column = part["n_samples"].iloc[0], part["thesis_dataset"].iloc[0]
    thesis_n = THESIS_DATASETS.get(column, (None, None))[1]
    if thesis_n is None or n is None or pd.isna(n) or int(n) == thesis_n:
        return ""
    return f" (n = {int(n)}, the thesis: {thesis_n})"


def _curve_texts(name: str, part: pd.DataFrame, a: dict, conf: dict) -> tuple[str, str]:
    """One measured data set's evidence for the monotone and the plateau claim, from
    its rows and their :func:`assess` ``a``; † where its solve is not certified."""
    first, last = part.sort_values("r").iloc[[0, -1]].itertuples()
    flag = "" if part["certified"].iloc[0] else " † (solve not certified optimal)"
    mono = name + ": " + ", ".join(
        f"{LABELS[q]} {getattr(first, q):.3f} (r = {first.r}) -> {getattr(last, q):.3f} "
        f"(r = {last.r}), " + (f"largest drop {a['monotone'][q][1]:.4f} at r = "
                               f"{a['monotone'][q][2]}" if a["monotone"][q][1] > 0
                               else "never drops")
        for q in MEASURES) + flag
    if a["plateau_r"] is None:
        return mono, (f"{name}: no normalised eigenvalue below "
                      f"{conf['plateau_eigenvalue']:g} up to r = {last.r} (untested)")
    return mono, (f"{name}: eigenvalues below {conf['plateau_eigenvalue']:g} after "
                  f"r = {a['plateau_r']}; rise beyond it: " + ", ".join(
                      f"{LABELS[q]} {a['plateau'][q][1]:.4f}" for q in MEASURES) + flag)


def _evidence(frame: pd.DataFrame, conf: dict) -> tuple[list, list, list, list]:
    """The checks and evidence of both claims: counted data sets whose solve is
    certified optimal give checks; a counted one whose solve is not is named and left
    out (its curves are an iterate's); the others (stand-ins) only text."""
    mono_checks, plat_checks, mono_text, plat_text = [], [], [], []
    for dataset, part in frame[frame["status"] == "ok"].groupby("dataset", sort=False):
        counted = bool(part["counted"].iloc[0])
        name = (f"{'' if counted else 'shown, not counted: '}{dataset}"
                f"{_size_note(frame, dataset)}")
        if counted and not part["certified"].iloc[0]:
            first = part.iloc[0]
            left_out = not_counted(name, first["solve_status"], first["solve_certificate"])
            mono_text.append(left_out)
            plat_text.append(left_out)
            continue
        a = assess(part, conf)
        mono, plateau = _curve_texts(name, part, a, conf)
        mono_text.append(mono)
        plat_text.append(plateau)
        if counted:
            mono_checks += [a["monotone"][q][0] for q in MEASURES]
            plat_checks += [a["plateau"][q][0] for q in MEASURES if q in a["plateau"]]
    gaps = frame[(frame["status"] != "ok") & frame["counted"].astype(bool)]
    gaps = gaps.drop_duplicates("dataset")
    if len(gaps):
        line = "not measured: " + ", ".join(f"{r.dataset} ({gap_mark(r.status)})"
                                            for r in gaps.itertuples())
        mono_text.append(line)
        plat_text.append(line)
    return mono_checks, plat_checks, mono_text, plat_text


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The thesis' statement as two claims with verdicts (:mod:`harness.claims`): the
    metrics are non-decreasing in r (one check per counted data set and metric), and
    they plateau once the eigenvalues have tended to zero (one check per counted data
    set and metric where testable). Stand-ins and other data sets are shown, not
    counted; no measured thesis data set gives "not measured". Then the register
    entries its spectra decide (:mod:`harness.results.fig_3_22.register_claims`)."""
    frame = build(config) if frame is None else frame
    conf = _conf(config)
    mono_checks, plat_checks, mono_text, plat_text = _evidence(frame, conf)
    mono_text.append(f"a step down of at most {conf['monotone_tolerance']:g} counts as "
                     f"non-decreasing")
    plat_text.append(f"plateau: a rise of at most {conf['plateau_tolerance']:g} after the "
                     f"last r whose normalised eigenvalue is >= {conf['plateau_eigenvalue']:g}")
    return [
        make_claim(NAME, "MVU's local continuity, trust and intersection on the Frey and "
                         "Olivetti faces all improve monotonically with increasing output "
                         "dimensionality r (3.1.9, Fig. 3.22)",
                   mono_checks, "; ".join(mono_text) + ".",
        register="s3-1-9-fig-3-22-monotone-in-r"),
        make_claim(NAME, "The three metrics plateau as the magnitude of the (normalised) "
                         "eigenvalues tends to zero (3.1.9, Fig. 3.22)",
                   plat_checks, "; ".join(plat_text) + ".",
        register="s3-1-9-fig-3-22-plateau"),
    ] + register_claims(frame)


# ---- outputs ---------------------------------------------------------------------
def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    conf = _conf(config)
    datasets = list(dict.fromkeys(frame["dataset"]))
    fig, axes = plt.subplots(len(datasets), 2, figsize=(11, 3.0 * len(datasets)),
                             squeeze=False)
    for (left, right), dataset in zip(axes, datasets):
        part = frame[frame["dataset"] == dataset].sort_values("r")
        label = _label(frame, dataset)
        left.set_title(label, fontsize=9)
        right.set_title(f"{dataset}: normalised eigenvalues λ_r / Σλ", fontsize=9)
        if part["status"].iloc[0] != "ok":
            text = textwrap.shorten(f"{gap_mark(part['status'].iloc[0])}: "
                                    f"{part['reason'].iloc[0]}", 280, placeholder=" ...")
            for ax in (left, right):
                ax.text(0.5, 0.5, textwrap.fill(text, 70), ha="center", va="center",
                        fontsize=7, color="dimgray", transform=ax.transAxes)
                ax.set_xticks([])
                ax.set_yticks([])
            continue
        style = "--" if part["stand_in"].iloc[0] else "-"
        for q in MEASURES:
            left.plot(part["r"], part[q], style, marker="o", markersize=3, label=LABELS[q])
        left.set_xlabel("output dimensionality r")
        left.set_ylim(min(0.0, float(part[list(MEASURES)].min().min())), 1.02)
        left.legend(fontsize=7, loc="lower right")
        right.bar(part["r"], part["normalised_eigenvalue"], color="tab:gray")
        right.axhline(conf["plateau_eigenvalue"], color="black", linestyle="--",
                      linewidth=1, label=f"plateau threshold {conf['plateau_eigenvalue']:g}")
        right.set_xlabel("r")
        for ax in (left, right):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        right.legend(fontsize=7, loc="upper right")
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}, k = {conf['n_neighbors']}, "
                 f"l = {conf['eval_neighbors']}, solver {conf['solver']}; dashed lines: "
                 f"stand-in data (not counted)", fontsize=9, y=1.0)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def _dataset_table(part: pd.DataFrame) -> str:
    shown = pd.DataFrame({"r": part["r"].astype(int),
                          **{LABELS[q]: part[q].map(lambda v: f"{v:.3f}") for q in MEASURES},
                          "λ_r/Σλ": part["normalised_eigenvalue"].map(lambda v: f"{v:.3g}")})
    return tabulate(shown, headers="keys", tablefmt="github", showindex=False)


def _choices(config: dict) -> list[str]:
    conf = _conf(config)
    return [
        f"r = 1 .. {conf['max_dimension']}: the thesis' text does not give the range of "
        f"its plot (results.{NAME}.max_dimension).",
        f"k = {conf['n_neighbors']} and l = {conf['eval_neighbors']} as in Table 3.2 "
        f"(3.1.9: MVU with k = 5; the table's metrics with l = 15).",
        "One SDP per data set: the MVU SDP does not depend on r; the r-dimensional "
        "embedding is the top r eigenvectors of the one kernel scaled by the square roots "
        "of their eigenvalues (3.21), and the metrics compare it with the full input.",
        "Normalised eigenvalue: λ_r divided by the sum of all of the kernel's eigenvalues "
        "(the caption: 'the eigenvalue shows the variance in each dimension').",
        f"'Improve monotonically' is read as non-decreasing: every step m(r+1) - m(r) is "
        f"at least -{conf['monotone_tolerance']:g} (results.{NAME}.monotone_tolerance; "
        f"the intersection moves in steps of 1/(n l)).",
        f"'Plateau as the eigenvalues tend to zero' is read as: after r0, the last r whose "
        f"normalised eigenvalue is >= {conf['plateau_eigenvalue']:g}, no metric rises by "
        f"more than {conf['plateau_tolerance']:g} above its value at r0 "
        f"(plateau_eigenvalue, plateau_tolerance); untested where no eigenvalue in the "
        f"range falls below the threshold.",
        "Data as in Table 3.2: all 1965 Frey faces (20 x 28 pixels; the table says input "
        "dim 650, 560 looks right) and all 400 Olivetti faces at 38 x 31 = 1178 pixels "
        "(the table's input dim); smaller profiles take seeded subsamples (n_samples).",
        f"Solver: {conf['solver']} (the thesis used CSDP); every solve is certified by "
        f"the harness; † marks a data set whose solve is not certified optimal, and the "
        f"claims leave such a data set out (its curves are those of an iterate).",
    ]


def _stand_in_notes(frame: pd.DataFrame) -> list[str]:
    lines = []
    for dataset in dict.fromkeys(frame.loc[~frame["counted"].astype(bool), "dataset"]):
        cls = registry.get_dataset(dataset)
        what = (f"a synthetic stand-in for the thesis' {cls.stand_in_for} data "
                f"({cls.description})" if cls.stand_in_for else cls.description)
        lines.append(f"{dataset} is {what}: NOT one of the thesis' two data sets of Fig. "
                     f"3.22 (Frey and Olivetti faces). It is listed so that the figure's "
                     f"code runs offline; its curves are shown and never count for a "
                     f"verdict.")
    return lines


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_3_22.{csv,png,md,json}``; return the paths."""
    conf = _conf(config)
    frame = build(config)
    notes = Footnotes()
    verdicts = claims(config, frame)
    md = [f"# {TITLE}", "",
          f"Profile `{config['profile']}`: solver `{conf['solver']}`, k = "
          f"{conf['n_neighbors']}, l = {conf['eval_neighbors']}, r = 1 .. "
          f"{conf['max_dimension']}.", "", f"**Thesis' claim:** {CLAIM}.", ""]
    for label, claim in zip(("monotone in r", "plateau"), verdicts):
        md += [f"**Our verdict ({label}):** {claim['verdict']}: {claim['evidence']}", ""]
    for dataset, part in frame.groupby("dataset", sort=False):
        md += ["", f"## {_label(frame, dataset)}{_size_note(frame, dataset)}", ""]
        if part["status"].iloc[0] != "ok":
            md.append(f"{gap_mark(part['status'].iloc[0])}"
                      f"{notes.mark(part['reason'].iloc[0])}")
            continue
        first = part.iloc[0]
        gap = "-" if first["solve_gap"] is None or pd.isna(first["solve_gap"]) \
            else f"{first['solve_gap']:.1e}"
        md += [f"n = {int(first['n_samples'])}, solve {first['solve_status']}, certified "
               f"gap {gap}" + ("" if first["certified"] else " †") + ".", "",
               _dataset_table(part)]
    md += ["", "![Fig. 3.22](fig_3_22.png)", "", "## Choices where the thesis is ambiguous",
           ""]
    md += [f"- {line}" for line in _choices(config) + _stand_in_notes(frame)]
    return write_figure_files(config, NAME, keys(config), frame, md, notes.texts, _plot)


#: ``harness compare``'s tolerance (harness.runs.compare). The metrics of one MVU solve
#: per data set, per output dimension. An interior point solve stops at the first
#: iterate whose certified gap is below its tolerance (1e-3 relative by default,
#: harness.solvers.mvu_sdp.native_solver.solve_native), so another BLAS, machine or commit may stop
#: at another iterate, equally certified: the numbers computed from the kernel agree to
#: about that gap, not to the CSV's six digits. Looser than the default (rtol 1e-6) for
#: that reason; a change of a few per cent, or of a status or verdict, is still listed.
#: Declared here, in the writer, not in the declaration: a declaration can be one of the
#: jobs' source files, and editing it would rerun them.
COMPARE_TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}
