"""The outputs of Fig. 2.15 (thesis 2.1.9) from its three jobs' records: the CSV (one
row per draw and tree, MNIST tree, build timing, depth check, timed query and summary
number), the figure (draw 0 divided into the first 2 and 4 balls and the final leaf
balls; query CPU time against n and d), the Markdown tables and the verdicts
(:mod:`.register_claims`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import (
    claim_lines, gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.fig_2_15 import KEYS, NAME, TITLE, _conf, keys
from harness.results.fig_2_15.register_claims import register_claims, summary

__all__ = ["records", "build", "claims", "write"]

#: what `harness compare` leaves out: its build and value ratios are ratios of times and its
#: slopes those of times against n and d (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^(build|value)_ratio$|_(build|value)_ratio$|_slope(_noise)?$"

_TREES = {"mean": "thesis, mean split", "median": "thesis, median split",
          "sklearn": "scikit-learn BallTree"}


def records(config: dict) -> dict[str, dict]:
    """The three jobs' records by key (a gap's record where a job has none)."""
    return {key: read_point(config, NAME, key) for key in KEYS}


def _scalar(value) -> bool:
    return isinstance(value, (int, float, bool, np.integer, np.floating))


def build(config: dict, recs: dict | None = None) -> pd.DataFrame:
    """The CSV frame: a ``part`` column (``draw``, ``depth``, ``mnist``, ``build``,
    ``scaling``, ``summary``, ``gap``) and the measured columns of each part."""
    recs = records(config) if recs is None else recs
    rows = []
    for key, rec in recs.items():
        if rec["status"] != "ok":
            rows.append({"part": "gap", "job": key, "status": rec["status"],
                         "reason": rec.get("reason", "")})
    g, m, s = (recs[k] for k in KEYS)
    if g["status"] == "ok":
        for d in g["draws"]:
            for tree in _TREES:
                rows.append({"part": "draw", "draw": d["draw"], "tree": tree,
                             **{k: v for k, v in d[tree].items() if _scalar(v)}})
        rows += [{"part": "depth", "data": "gaussians", **row} for row in g["depths"]]
        rows.append({"part": "build", "data": "gaussians", **g["figure"]["timings"]})
    if m["status"] == "ok":
        rows += [{"part": "mnist", "data": "mnist", **{k: v for k, v in r.items() if _scalar(v)}}
                 for r in m["trees"]]
        rows += [{"part": "build", "data": "mnist", **b} for b in m["builds"]]
        rows += [{"part": "depth", "data": "mnist", **row} for row in m["depths"]]
    if s["status"] == "ok":
        for r in s["rows"]:
            rows.append({"part": "scaling", **{k: v for k, v in r.items() if k != "per_repeat"},
                         **{f"repeat{i}_seconds": t for i, t in enumerate(r["per_repeat"])}})
    rows += [{"part": "summary", "quantity": k, "value": float(v)}
             for k, v in summary(recs).items() if _scalar(v)]
    return pd.DataFrame(rows)


def claims(config: dict, recs: dict | None = None) -> list[dict]:
    """The register entries' claims (:func:`register_claims.register_claims`)."""
    recs = records(config) if recs is None else recs
    return register_claims(summary(recs), _conf(config))


def _gaussian_table(s: dict) -> str:
    if "gauss_mean_n_leaves_mean" not in s:
        return "(the gaussians job has no record)"
    rows = []
    for tree, label in _TREES.items():
        p = f"gauss_{tree}"
        rows.append({"tree": label, "leaf balls (mean)": f"{s[f'{p}_n_leaves_mean']:.2f}",
                     "leaf balls (range)": f"{s[f'{p}_n_leaves_min']:.0f}-{s[f'{p}_n_leaves_max']:.0f}",
                     "levels (mean)": f"{s[f'{p}_depth_mean']:.2f}",
                     "largest leaf": f"{s[f'{p}_max_leaf_max']:.0f}",
                     "distance evaluations per query": f"{s[f'{p}_distance_evals_mean']:.1f}",
                     "nodes visited": (f"{100 * s[f'{p}_visited_fraction_mean']:.1f} %"
                                       if f"{p}_visited_fraction_mean" in s else "-"),
                     "inputs pruned": (f"{100 * s[f'{p}_points_pruned_fraction_mean']:.1f} %"
                                       if f"{p}_points_pruned_fraction_mean" in s else "-"),
                     "exact (draws)": f"{s[f'{p}_exact_draws']} of {s['draws_measured']}"})
    return tabulate(rows, headers="keys", tablefmt="github")


def _mnist_table(s: dict) -> str:
    dims = s.get("mnist_dimensions", [])
    if not dims:
        return "(the mnist job has no record)"
    rows = []
    for r in dims:
        for split in ("mean", "median"):
            p = f"mnist_r{r}_{split}"
            rows.append({"r": r, "split": split, "leaf balls": f"{s[f'{p}_n_leaves']:.1f}",
                         "levels": f"{s[f'{p}_depth']:.1f}",
                         "nodes visited": f"{100 * s[f'{p}_visited_fraction']:.1f} %",
                         "sibling balls intersecting": f"{100 * s[f'{p}_sibling_overlap']:.1f} %",
                         "distance evaluations per query": f"{s[f'{p}_distance_evals']:.1f}",
                         "exact": "yes" if s[f"{p}_exact"] else "no"})
    return tabulate(rows, headers="keys", tablefmt="github")


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = read_point(config, NAME, "gaussians")
    sc = read_point(config, NAME, "scaling")
    fig, axes = plt.subplots(1, 5, figsize=(18, 3.8))
    if g["status"] == "ok":
        X = np.asarray(g["figure"]["points"])
        panels = (("input", np.zeros(len(X), int)), ("first 2 balls", g["figure"]["level2"]),
                  ("first 4 balls", g["figure"]["level3"]),
                  (f"final {len(set(g['figure']['leaves']))} balls", g["figure"]["leaves"]))
        for ax, (title, labels) in zip(axes[:4], panels):
            codes = np.unique(np.asarray(labels), return_inverse=True)[1]
            ax.scatter(*X.T, c=codes % 20, cmap="tab20", s=4)
            ax.set_title(title, fontsize=9)
            ax.set_aspect("equal")
            ax.set_xticks([])
            ax.set_yticks([])
    else:
        for ax in axes[:4]:
            ax.text(0.5, 0.5, gap_mark(g["status"]), ha="center", transform=ax.transAxes)
    ax = axes[4]
    if sc["status"] == "ok":
        for method, sweep, style in (("balltree", "n", "o-"), ("brute", "n", "s-"),
                                     ("brute", "d", "^--")):
            rows = [r for r in sc["rows"] if r["method"] == method and r["sweep"] == sweep]
            xs = [r[sweep] for r in rows]
            ax.loglog(xs, [r["seconds"] for r in rows], style,
                      label=f"{method} against {sweep}")
        ax.set_xlabel("n or d")
        ax.set_ylabel("CPU seconds per query")
        ax.legend(fontsize=7)
    else:
        ax.text(0.5, 0.5, gap_mark(sc["status"]), ha="center", transform=ax.transAxes)
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}, draw 0", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_15.{csv,png,md,json}``; return the paths."""
    recs = records(config)
    frame = build(config, recs)
    s = summary(recs)
    gaps = [f"{NAME}/{k}: {gap_mark(r['status'])} ({r.get('reason', '')})"
            for k, r in recs.items() if r["status"] != "ok"]
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", ""]
    md += claim_lines(claims(config, recs))
    md += ["## The Fig. 2.15 data: balls, depth and pruning per tree", "", _gaussian_table(s),
           "", "## MNIST after PCA: mean against median split, pruning against r", "",
           _mnist_table(s), "", "![Fig. 2.15](fig_2_15.png)", "",
           "The choices where the thesis is ambiguous: `harness/results/fig_2_15/README.md`."]
    return write_figure_files(config, NAME, keys(config), frame, md, gaps, _plot)
