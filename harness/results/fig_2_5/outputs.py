"""The files of Fig. 2.5 (:mod:`harness.results.fig_2_5`): the grouped bar chart (per
data set, per bar, the thesis' value hatched beside ours) and the Markdown tables of
the bars and of the active constraints."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import gap_mark, save_png
from harness.results.common.write.tables import Footnotes

__all__ = ["bars_table", "active_table", "plot"]

COLOURS = {"PCA": "tab:gray", "LDA": "tab:green", "LDA (unshrunk)": "tab:olive",
           "PCA-LMNN": "tab:blue"}


def _num(value, fmt: str = ".2f") -> str:
    return "-" if value is None or pd.isna(value) else format(float(value), fmt)


def _title(dataset: str, in_figure: bool) -> str:
    return dataset if in_figure else f"{dataset} (not in Fig. 2.5)"


def bars_table(bars: pd.DataFrame, notes: Footnotes) -> str:
    """Data sets x bars: 'thesis / ours ± std (runs)', a gap its mark and footnote."""
    rows = []
    for d, group in bars.groupby("dataset", sort=False):
        cells = {"data set": _title(d, bool(group["in_figure"].iloc[0]))}
        for r in group.itertuples():
            thesis = _num(r.thesis)
            if r.status != "ok":
                cells[r.bar] = f"{thesis} / {gap_mark(r.status)}{notes.mark(r.reason)}"
            else:
                cells[r.bar] = f"{thesis} / {_num(r.ours)} ± {_num(r.ours_std)} ({int(r.n_runs)})"
        rows.append(cells)
    return tabulate(pd.DataFrame(rows), headers="keys", tablefmt="github", showindex=False)


def active_table(active: list[dict], thesis_k: int, notes: Footnotes) -> str:
    """Per data set and row (one metric, multiple metrics): the thesis' count and
    estimated share, ours (mean over the runs), our candidate triplets and shares."""
    rows = []
    for r in active:
        cells = {"data set": r["dataset"], "row": r["row"],
                 "thesis active": _num(r["thesis_active"], ".0f"),
                 f"thesis share (estimate, k = {thesis_k}, balanced)":
                     _num(100 * r["thesis_share_estimate"], ".3g") + " %"
                     if not pd.isna(r["thesis_share_estimate"]) else "-"}
        if r["status"] != "ok":
            cells["ours active (mean)"] = f"{gap_mark(r['status'])}{notes.mark(r['reason'])}"
        else:
            cells.update({"ours active (mean)": _num(r["active_mean"], ".1f"),
                          "candidate triplets (mean)": _num(r["candidates_mean"], ".0f"),
                          "k (mean)": _num(r["k_mean"], ".1f"),
                          "share mean": _num(100 * r["fraction_mean"], ".3g") + " %",
                          "share max": _num(100 * r["fraction_max"], ".3g") + " %",
                          "runs": str(int(r["n_runs"]))})
        rows.append(cells)
    return tabulate(pd.DataFrame(rows).fillna(""), headers="keys", tablefmt="github",
                    showindex=False)


def plot(bars: pd.DataFrame, title: str, path) -> None:
    """Two panels (training, test errors), grouped bars per data set: each row's
    thesis value (hatched, light) beside ours (solid, with its std); a gap's mark
    where ours is missing."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    panels = (("training (leave-one-out)", ("train_knn_loo_error",)),
              ("test", ("test_knn_error", "test_energy_error")))
    datasets = list(dict.fromkeys(bars["dataset"]))
    fig, axes = plt.subplots(2, 1, figsize=(12, 7.5))
    for ax, (name, measures) in zip(np.atleast_1d(axes), panels):
        part = bars[bars["measure"].isin(measures)]
        series = list(dict.fromkeys(zip(part["measure"], part["row"])))
        width = 0.8 / (2 * len(series))
        values = pd.concat([part["thesis"], part["ours"]]).astype(float)
        top = float(np.nanmax(values)) * 1.15 if values.notna().any() else 1.0
        for i, d in enumerate(datasets):
            group = part[part["dataset"] == d].set_index(["measure", "row"])
            for j, (measure, row) in enumerate(series):
                r = group.loc[(measure, row)]
                colour = COLOURS[row]
                hatch = "xx" if measure == "test_energy_error" else None
                for k, who in enumerate(("thesis", "ours")):
                    x = i - 0.4 + width * (2 * j + k + 0.5)
                    value = r[who]
                    if who == "ours" and r["status"] != "ok":
                        ax.text(x, 0.02 * top, gap_mark(r["status"]), ha="center",
                                va="bottom", rotation=90, fontsize=5, color="dimgray")
                    if value is None or pd.isna(value):
                        continue
                    ax.bar(x, float(value), width, color=colour,
                           alpha=0.4 if who == "thesis" else 1.0,
                           hatch="//" if who == "thesis" else hatch, edgecolor="black",
                           linewidth=0.3,
                           yerr=(r["ours_std"] if who == "ours" and not pd.isna(r["ours_std"])
                                 else None), error_kw={"elinewidth": 0.5})
        ax.set_xticks(range(len(datasets)))
        ax.set_xticklabels([_title(d, bool(bars.loc[bars["dataset"] == d, "in_figure"].iloc[0]))
                            for d in datasets], rotation=20, ha="right", fontsize=7)
        ax.set_ylim(0, top if math.isfinite(top) and top > 0 else 1.0)
        ax.set_ylabel(f"{name} error (%)")
        ax.set_title(f"{name} errors: thesis (hatched, light) beside ours (solid)", fontsize=9)
        handles = [Patch(facecolor=COLOURS[row], hatch="xx" if m == "test_energy_error" else None,
                         label=("energy " if m == "test_energy_error" else "kNN ") + row)
                   for m, row in series]
        ax.legend(handles=handles, fontsize=6, ncol=len(series), loc="upper right")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
