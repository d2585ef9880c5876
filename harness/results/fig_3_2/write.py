"""The outputs of Fig. 3.2 (thesis 3.1.2) from its jobs' records: the CSV (one row per
measured setting, plus the fits of the lemma's dimension), the figure (the sphere
projected onto a plane, the histograms of ||f_k(x)||^2, the smallest k against n), the
Markdown with the verdicts (:func:`claims`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import (
    figure_markdown, gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.common.write.tables import Footnotes
from harness.results.fig_3_2 import NAME, TITLE, _conf, keys
from harness.results.fig_3_2.register_claims import fits, register_claims

__all__ = ["build", "claims", "write"]

_DROP = ("histogram",)  # lists kept in the record (the plot reads them), not the CSV


def build(config: dict) -> pd.DataFrame:
    """One row per measured setting (``part``: histogram, all_pairs, dimension, tail,
    real_data), a job without an ``ok`` record one row with its status, and the
    ``dimension_fit`` rows of :func:`~harness.results.fig_3_2.register_claims.fits`."""
    conf = _conf(config)
    rows = []
    for key in keys(config):
        record = read_point(config, NAME, key)
        kind = key.split("/")[0]
        base = {"part": kind, "key": key, "status": record["status"],
                "reason": record.get("reason", "")}
        if record["status"] != "ok":
            rows.append(base)
            continue
        for row in record["rows"]:
            row = {**base, **{k: v for k, v in row.items() if k not in _DROP}}
            if kind == "histogram":
                row["expected_mapped"] = 1.0
            if kind == "all_pairs":
                row["points"] = key.split("/")[1]
            if kind == "real_data":
                row["well"] = conf["real_data"]["well"]
            rows.append(row)
    frame = pd.DataFrame(rows)
    dimension = frame[(frame["part"] == "dimension") & (frame["status"] == "ok")]
    if len(dimension):
        frame = pd.concat([frame, fits(dimension)], ignore_index=True)
    return frame


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register's entries of 3.1.2's random projections, decided on this run."""
    return register_claims(build(config) if frame is None else frame)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    rng = np.random.default_rng(config["seed"])
    sphere = rng.standard_normal((300, 3))
    sphere /= np.linalg.norm(sphere, axis=1, keepdims=True)
    axes[0].scatter(sphere[:, 0], sphere[:, 1], s=4, color="red", label="projected (x_p)")
    axes[0].plot([0, sphere[0, 0]], [0, sphere[0, 1]], color="blue")
    axes[0].set_aspect("equal")
    axes[0].set_title("unit sphere of R^3 projected onto a plane", fontsize=8)
    sizes = _conf(config)["histogram"]["sizes"]
    record = read_point(config, NAME, f"histogram/n{max(sizes)}")
    if record["status"] == "ok":
        edges = np.asarray(record["bin_edges"])
        for row in record["rows"]:
            axes[1].stairs(row["histogram"], edges, label=f"k = {row['k']}")
        axes[1].axvline(1.0, color="black", linewidth=0.8)
        axes[1].legend(fontsize=7)
        axes[1].set_xlabel("||f_k(x)||^2", fontsize=8)
        axes[1].set_title(f"{record['rows'][0]['n']} unit vectors of "
                          f"R^{record['rows'][0]['d']}", fontsize=8)
    else:
        axes[1].text(0.5, 0.5, gap_mark(record["status"]), ha="center",
                     transform=axes[1].transAxes)
    dim = frame[(frame["part"] == "dimension") & (frame["status"] == "ok")]
    for index, (eps, part) in enumerate(dim.groupby("eps") if len(dim) else []):
        axes[2].plot(part["n"], part["smallest_k"], "o-", color=f"C{index}", label=f"eps = {eps:g}")
        axes[2].plot(part["n"], part["lemma_k"], "--", color=f"C{index}", linewidth=0.8)
    axes[2].set_xscale("log")
    axes[2].set_yscale("log")
    axes[2].set_xlabel("n", fontsize=8)
    axes[2].set_title("smallest k keeping every distance (dashed: the lemma's k)", fontsize=8)
    if len(dim):
        axes[2].legend(fontsize=7)
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


_COLUMNS = {
    "histogram": ["n", "k", "mean_projected", "expected_projected", "mean_mapped", "std_mapped",
                  "near_fraction"],
    "all_pairs": ["points", "n", "d", "eps", "k", "draws", "kept_fraction", "required",
                  "worst_distortion_max"],
    "dimension": ["n", "eps", "smallest_k", "lemma_k", "draws"],
    "tail": ["eps", "n", "k", "d", "samples", "outside", "ci_high", "bound", "exact_tail"],
    "real_data": ["n", "d", "k", "draws", "median_distortion", "median_distortion_max"],
}


def _tables(frame: pd.DataFrame, notes: Footnotes) -> list[str]:
    md = []
    for part, columns in _COLUMNS.items():
        rows = frame[frame["part"] == part]
        ok = rows[rows["status"] == "ok"]
        md += [f"## {part.replace('_', ' ')}", ""]
        if len(ok):
            md += [tabulate(ok[columns], headers="keys", tablefmt="github", showindex=False,
                            floatfmt=".4g"), ""]
        md += [f"- `{r.key}`: {gap_mark(r.status)}{notes.mark(r.reason)}"
               for r in rows[rows["status"] != "ok"].itertuples()]
        md += [""]
    return md


def _choices(config: dict) -> list[str]:
    c = _conf(config)
    return [
        f"Fig. 3.2's size: the caption says n = 100000 unit vectors, the text 10000; the "
        f"histograms are drawn for {c['histogram']['sizes']} (results.{NAME}.histogram.sizes); "
        f"the figure shows the largest.",
        "Uniform unit vectors are normalised Gaussians; 'the projection onto the first k "
        "dimensions' is taken literally (coordinates 1..k).",
        "The lemma's tail: the thesis prints the factor both as +-(1 + eps) and +-(1 - eps); "
        "both are read as a relative deviation eps of the squared norm.",
        "Random projections are Gaussian matrices scaled by 1/sqrt(k), drawn in the QR-reduced "
        "space of the points (exact in distribution, work.py); every k of one draw comes "
        "from nested columns of one Gaussian matrix.",
        f"MNIST points are training images drawn without replacement ({c['real_data']['n_points']} "
        f"for the distortion), loaded with {c['mnist_params']} (the register's d = 784); "
        f"'surprisingly well' reads as a median "
        f"relative distortion below {c['real_data']['well']:g} (the register's reading).",
    ]


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_3_2.{csv,png,md,json}``; return the paths."""
    frame = build(config)
    notes = Footnotes()
    md = figure_markdown(config, TITLE, claims(config, frame), _tables(frame, notes),
                         "![Fig. 3.2](fig_3_2.png)", _choices(config))
    return write_figure_files(config, NAME, keys(config), frame, md, notes.texts, _plot)
