"""The files of Figs. 2.9 and 2.12 (:mod:`harness.results.fig_2_9_12`): the grouped bar
plot (per data set, per measure, the thesis' ratio beside ours, a line at 1) and the
Markdown tables of the ratios."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.fig_2_9_12.ratios import (
    BETTER, HIGHER_UNSURE, LOWER_UNSURE, SAME, WORSE, format_ratio,
)
from harness.results.common.write.figure_files import gap_mark, save_png
from harness.results.common.write.tables import Footnotes

__all__ = ["plot", "ratio_table", "CLASS_MARKS", "column_title"]

CLASS_MARKS = {BETTER: "better", SAME: "≈", WORSE: "WORSE", LOWER_UNSURE: "lower (n.s.)",
               HIGHER_UNSURE: "higher (n.s.)", "": ""}
COLOURS = {"train_knn_loo_error": "tab:green", "test_knn_error": "tab:blue",
           "test_energy_error": "tab:orange"}


def column_title(row) -> str:
    """A data set's name; a stand-in says for which thesis data set."""
    if row["stand_in"]:
        return f"{row['dataset']} (stand-in for {row['thesis_dataset']})"
    return row["dataset"]


def _cell(row, notes: Footnotes) -> str:
    thesis = format_ratio(row["thesis_ratio"])
    if row["thesis_note"]:
        thesis += notes.mark(f"thesis: {row['thesis_note']}")
    if row["status"] != "ok":
        return f"{thesis} / {gap_mark(row['status'])}{notes.mark(row['reason'])}"
    ours = format_ratio(row["ours_ratio"])
    if row["ours_note"]:
        ours += notes.mark(f"ours: {row['ours_note']}")
    runs = int(row["n_paired"])
    spread = (f" ({row['diff_mean']:+.2f}±{row['diff_se']:.2f} pts, {runs} runs)"
              if runs else " (no paired runs)")
    return f"{thesis} / {ours}{spread} {CLASS_MARKS[row['ours_class']]}".rstrip()


def ratio_table(part: pd.DataFrame, labels: dict, notes: Footnotes) -> str:
    """One figure's ratios, data sets x measures: 'thesis / ours (paired difference
    of the errors in points ± its standard error, runs) class'."""
    rows = []
    for _, group in part.groupby("dataset", sort=False):
        cells = {"data set": column_title(group.iloc[0])}
        for _, row in group.iterrows():
            cells[labels[row["measure"]]] = _cell(row, notes)
        rows.append(cells)
    return tabulate(pd.DataFrame(rows), headers="keys", tablefmt="github", showindex=False)


def _bars(ax, part: pd.DataFrame, labels: dict, top: float) -> None:
    from matplotlib.patches import Patch

    datasets = list(dict.fromkeys(part["dataset"]))
    measures = list(dict.fromkeys(part["measure"]))
    width = 0.8 / (2 * len(measures))
    for i, dataset in enumerate(datasets):
        group = part[part["dataset"] == dataset].set_index("measure")
        for j, measure in enumerate(measures):
            if measure not in group.index:
                continue
            row = group.loc[measure]
            for who, k in (("thesis", 0), ("ours", 1)):
                x = i - 0.4 + width * (2 * j + k + 0.5)
                value = row[f"{who}_ratio"]
                if who == "ours" and row["status"] != "ok":
                    ax.text(x, 0.02 * top, gap_mark(row["status"]), ha="center",
                            va="bottom", rotation=90, fontsize=6, color="dimgray")
                if value is None or pd.isna(value):
                    continue
                ax.bar(x, min(float(value), top), width, color=COLOURS[measure],
                       alpha=0.45 if who == "thesis" else 1.0,
                       hatch="//" if who == "thesis" else None)
                if value > top:
                    ax.text(x, top, "inf" if math.isinf(value) else f"{value:.1f}",
                            ha="center", va="bottom", fontsize=6)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(datasets)))
    ax.set_xticklabels([column_title(part[part["dataset"] == d].iloc[0]) for d in datasets],
                       rotation=30, ha="right", fontsize=7)
    ax.set_ylim(0, top * 1.08)
    handles = [Patch(facecolor=COLOURS[m], alpha=a, hatch=h, label=f"{labels[m]} ({who})")
               for m in measures
               for who, a, h in (("thesis", 0.45, "//"), ("ours", 1.0, None))]
    ax.legend(handles=handles, fontsize=6, ncol=len(measures), loc="upper right")


def plot(frame: pd.DataFrame, figures: dict, labels: dict, title: str, path) -> None:
    """Grouped bars per data set and measure (thesis hatched beside ours), one panel
    per figure, a line at 1; ratios above the axis (or infinite) are clipped and
    labelled."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(figures), 1, figsize=(10, 3.4 * len(figures)))
    for ax, (figure, (method, _)) in zip(np.atleast_1d(axes), figures.items()):
        part = frame[frame["figure"] == figure]
        finite = pd.concat([part["thesis_ratio"], part["ours_ratio"]]).astype(float)
        finite = finite[np.isfinite(finite)]
        top = float(min(3.0, max(1.5, 1.1 * finite.max()))) if len(finite) else 1.5
        _bars(ax, part, labels, top)
        ax.set_title(f"Fig. {figure}: {method} error / {part['base'].iloc[0]} error",
                     fontsize=9)
        ax.set_ylabel("error ratio")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
