"""The outputs of ``lmnn_rescale`` from its records: the CSV (one row per data set,
run and scale, and the per-scale tests), a figure (error difference and relative
Frobenius distance per data set and scale), the Markdown and the verdict.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import (
    claim_lines, gap_mark, measured_frame, read_point, save_png, write_figure_files,
)
from harness.results.common.write.tables import Footnotes
from harness.results.lmnn_rescale import NAME, TITLE, _conf, keys
from harness.results.lmnn_rescale.register_claims import register_claims, scale_tests

__all__ = ["MEASURED", "build", "claims", "write"]

MEASURED = ("dataset", "run", "scale", "error", "agreement", "rel_frobenius", "converged",
            "n_iter", "fit_cpu_seconds", "n_train", "n_test", "n_features")


def build(config: dict) -> pd.DataFrame:
    """One row per (data set, run, scale); a gap is one row with its status."""
    rows = []
    for key in keys(config):
        record = read_point(config, NAME, key)
        base = {"dataset": key, "status": record["status"], "reason": record.get("reason", "")}
        if record["status"] != "ok":
            rows.append(base)
            continue
        sizes = {k: record[k] for k in ("n_train", "n_test", "n_features")}
        rows += [{**base, **sizes, **run} for run in record["runs"]]
    return measured_frame(rows, MEASURED)


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entry's claim (s2-1-9-rescale-no-accuracy-effect)."""
    return register_claims(_conf(config), build(config) if frame is None else frame)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tests = scale_tests(frame, _conf(config)["se_factor"])
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    if tests.empty:
        for ax in axes:
            ax.text(0.5, 0.5, "not measured", ha="center", transform=ax.transAxes)
    else:
        labels = [f"{r.dataset}\nc={r.scale:g}" for r in tests.itertuples()]
        x = np.arange(len(tests))
        axes[0].errorbar(x, tests["diff_pct"], yerr=tests["allowed_pct"], fmt="o")
        axes[0].axhline(0, color="gray", linewidth=0.5)
        axes[0].set_ylabel("test error at c minus at 1 (points)", fontsize=8)
        axes[1].bar(x, tests["max_rel_frobenius"])
        axes[1].axhline(_conf(config)["frobenius_tolerance"], color="red", linewidth=0.8)
        axes[1].set_yscale("log")
        axes[1].set_ylabel("max |c^2 M_c - M_1| / |M_1|", fontsize=8)
        for ax in axes:
            ax.set_xticks(x, labels, fontsize=7)
    fig.suptitle(f"{TITLE}, profile {config['profile']}", fontsize=8)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/lmnn_rescale.{csv,png,md,json}``."""
    conf = _conf(config)
    frame = build(config)
    tests = scale_tests(frame, conf["se_factor"])
    notes = Footnotes()
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", ""]
    md += claim_lines(claims(config, frame))
    if len(tests):
        md += ["## Per data set and scale", "",
               tabulate(tests, headers="keys", tablefmt="github", showindex=False,
                        floatfmt=".4g"), ""]
    for r in frame[frame["status"] != "ok"].drop_duplicates("dataset").itertuples():
        md.append(f"- {r.dataset}: {gap_mark(r.status)}{notes.mark(r.reason)}")
    md += ["", f"![{NAME}]({NAME}.png)", "", "## Choices where the thesis is ambiguous", "",
           f"- LMNN from {conf['init']} (identity: the thesis' M = I at every scale), "
           f"k = {conf['n_neighbors']}, mu = {conf['mu']:g}, at most {conf['max_iter']} "
           f"iterations; {conf['n_runs']} stratified splits with {conf['test_fraction']:g} "
           f"test (MNIST: its own split, once); scales {conf['scales']}.",
           f"- 'No effect on the accuracy': the test error within {conf['se_factor']:g} "
           f"standard errors and predictions agreeing on at least "
           f"{100 * conf['min_agreement']:g} %; 'only affects the scale': "
           f"|c^2 M_c - M_1|_F / |M_1|_F below {conf['frobenius_tolerance']:g} "
           f"(results.{NAME}.se_factor, min_agreement, frobenius_tolerance)."]
    # the tests' numbers are in the CSV beside the runs (harness audit)
    csv = pd.concat([frame, tests.assign(row="test")], ignore_index=True)
    return write_figure_files(config, NAME, keys(config), csv, md, notes.texts, _plot)
