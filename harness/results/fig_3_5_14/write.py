"""Figs. 3.5 and 3.14's outputs: ``results/<profile>/figures/fig_3_5_14.{csv,png,md,json}``
and the verdicts (:mod:`.register_claims`).

The frame has one row per solve: the strict and slack points (``variant`` ``strict``
/ ``slack``), the k-NN-only points' two side-by-side solves (``knn`` and
``clique_beside_knn``), and one row per roll and k of the constraint counts
(``graph_counts``). A solve's normalised eigenvalues (eigenvalues over their sum) are
``ev1..ev20``, the input's normalised PCA spectrum ``input_ev1..input_ev8``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.results.common.write.figure_files import (
    claim_lines, gap_mark, measured_frame, read_point, save_png, write_figure_files,
)
from harness.results.common.work.mvu_point import N_SPECTRUM

from . import GRAPH_KEY, NAME, TITLE, keys, parse_key

__all__ = ["build", "write", "claims", "derived_columns", "COLUMNS"]

EV = [f"ev{i}" for i in range(1, N_SPECTRUM + 1)]
INPUT_EV = [f"input_ev{i}" for i in range(1, 9)]
COLUMNS = ["key", "data", "variant", "omega", "n_samples", "status", "reason", "solve_status",
           "gap", "violation", "certified", "top2", "count_above_1pct", "lambda1_over_lambda2",
           "unrolled_variance_ratio", "relative_rms_violation", "violation_dimensions",
           "cpu_seconds", "m", "knn_over_clique_cpu", "k", "clique_edges", "knn_edges",
           "edge_ratio", *EV, *INPUT_EV]


def _spectrum(row: dict, normalised, raw=None) -> None:
    ev = list(normalised or [])
    for i, name in enumerate(EV):
        row[name] = float(ev[i]) if i < len(ev) else (0.0 if ev else np.nan)
    if ev:
        row["top2"] = float(sum(ev[:2]))
        row["count_above_1pct"] = int(sum(v > 0.01 for v in ev))
    if raw is not None and len(raw) >= 2 and raw[1] > 0:
        row["lambda1_over_lambda2"] = float(raw[0] / raw[1])


def _point_rows(key: str, record: dict, omega_of) -> list[dict]:
    data, variant, n = parse_key(key)
    base = {"key": key, "data": data, "n_samples": n, "status": record["status"],
            "reason": record.get("reason", "")}
    if variant == "knn":
        rows = []
        solves = record.get("solves") or {}
        for connectivity, label in (("knn", "knn"), ("clique", "clique_beside_knn")):
            solve = solves.get(connectivity) or {}
            info = solve.get("solve") or {}
            row = {**base, "variant": label, "status": solve.get("status", record["status"]),
                   "reason": solve.get("reason", base["reason"]),
                   "solve_status": info.get("status"), "gap": info.get("gap"),
                   "violation": info.get("violation"), "cpu_seconds": solve.get("cpu_seconds"),
                   "m": solve.get("m")}
            row["certified"] = row["status"] == "ok" and row["solve_status"] == "optimal"
            _spectrum(row, solve.get("normalised_eigenvalues"), solve.get("eigenvalues"))
            rows.append(row)
        return rows
    solve = record.get("solve") or {}
    row = {**base, "variant": "slack" if variant.startswith("slack") else "strict",
           "omega": omega_of(variant), "solve_status": solve.get("status"),
           "gap": solve.get("gap"), "violation": solve.get("violation"),
           "unrolled_variance_ratio": record.get("unrolled_variance_ratio"),
           "relative_rms_violation": record.get("relative_rms_violation"),
           "violation_dimensions": record.get("violation_dimensions"),
           "cpu_seconds": (record.get("timing") or {}).get("cpu_seconds")}
    row["certified"] = record["status"] == "ok" and row["solve_status"] == "optimal"
    _spectrum(row, record.get("normalised_eigenvalues"), record.get("eigenvalues"))
    for i, v in enumerate((record.get("input_spectrum") or [])[:len(INPUT_EV)]):
        row[INPUT_EV[i]] = float(v)
    return [row]


def _count_rows(record: dict) -> list[dict]:
    rows = []
    for c in record.get("counts") or []:
        rows.append({"key": GRAPH_KEY, "data": c["data"], "variant": "graph_counts",
                     "n_samples": c["n_samples"], "status": record["status"], "k": c["k"],
                     "clique_edges": c["clique_edges"], "knn_edges": c["knn_edges"],
                     "edge_ratio": c["clique_edges"] / c["knn_edges"]})
    if not rows:
        rows.append({"key": GRAPH_KEY, "variant": "graph_counts", "status": record["status"],
                     "reason": record.get("reason", "")})
    return rows


def _omega(variant: str) -> float:
    return float(variant.removeprefix("slack_w")) if variant.startswith("slack_w") else np.nan


def build(config: dict) -> pd.DataFrame:
    """The frame of every job's record (see the module docstring)."""
    rows = []
    for key in keys(config):
        record = read_point(config, NAME, key)
        rows += _count_rows(record) if key == GRAPH_KEY else _point_rows(key, record, _omega)
    frame = measured_frame(rows, COLUMNS)
    return derived_columns(frame[COLUMNS + [c for c in frame.columns if c not in COLUMNS]])


def derived_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """The derived numbers the claims print: the share beyond two dimensions,
    lambda_1 / lambda_2 over the unrolled variance ratio, a noisy strict point's top-2
    share minus the noise-free one's at its n, a slack or k-NN point's minus the strict
    (clique) one's beside it."""
    frame = frame.copy()
    frame["tail_share"] = 1.0 - frame["top2"]
    frame["ratio_over_truth"] = frame["lambda1_over_lambda2"] / frame["unrolled_variance_ratio"]
    strict = frame[frame["variant"] == "strict"].set_index(["data", "n_samples"])["top2"]
    free = frame[(frame["variant"] == "strict") & (frame["data"] == "noise_free")]
    free = free.set_index("n_samples")["top2"]
    frame["top2_minus_noise_free"] = np.nan
    frame["top2_minus_strict"] = np.nan
    for i, r in frame.iterrows():
        if r["variant"] == "strict" and r["data"] == "noisy" and r["n_samples"] in free.index:
            frame.at[i, "top2_minus_noise_free"] = r["top2"] - free[r["n_samples"]]
        if r["variant"] == "slack" and (r["data"], r["n_samples"]) in strict.index:
            frame.at[i, "top2_minus_strict"] = r["top2"] - strict[(r["data"], r["n_samples"])]
        if r["variant"] == "knn":
            beside = frame[(frame["key"] == r["key"]) & (frame["variant"] == "clique_beside_knn")]
            if len(beside):
                frame.at[i, "top2_minus_strict"] = r["top2"] - beside["top2"].iloc[0]
                frame.at[i, "knn_over_clique_cpu"] = (r["cpu_seconds"]
                                                      / beside["cpu_seconds"].iloc[0])
    return frame


def _panel_points(config: dict) -> list[tuple[str, dict]]:
    """The thesis' panels: Fig. 3.5 (noisy roll, strict, n = n_samples), Fig. 3.14
    (noise-free roll, strict at n_samples; slack at slack_n_samples, fig_3_14_omega)."""
    conf = config["results"][NAME]
    n, ns, w = conf["n_samples"], conf["slack_n_samples"], conf["fig_3_14_omega"]
    out = [("Fig. 3.5: noisy roll, strict", f"noisy/strict/n{n}"),
           ("Fig. 3.14: noise-free, strict", f"noise_free/strict/n{n}"),
           (f"Fig. 3.14: noise-free, slack (omega {w:g}, n = {ns})",
            f"noise_free/slack_w{float(w):g}/n{ns}")]
    return [(title, read_point(config, NAME, key)) for title, key in out]


def _plot(config: dict):
    def plot(frame: pd.DataFrame, _config: dict, path) -> None:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        panels = _panel_points(config)
        fig, axes = plt.subplots(2, len(panels), figsize=(4.2 * len(panels), 7.0))
        for col, (title, record) in enumerate(panels):
            top, bottom = axes[0, col], axes[1, col]
            top.set_title(title, fontsize=9)
            if record.get("embedding"):
                Y = np.asarray(record["embedding"])
                top.scatter(Y[:, 0], Y[:, 1], c=record["roll_parameter"], cmap="jet", s=6)
                top.set_aspect("equal", adjustable="datalim")
            else:
                top.text(0.5, 0.5, gap_mark(record["status"]), ha="center",
                         transform=top.transAxes)
            after = (record.get("normalised_eigenvalues") or [])[:8]
            before = (record.get("input_spectrum") or [])[:8]
            idx = np.arange(1, 9)
            if before:
                bottom.bar(idx[:len(before)] - 0.2, before, width=0.4, label="input (PCA)",
                           color="0.6")
            if after:
                bottom.bar(idx[:len(after)] + 0.2, after, width=0.4, label="MVU", color="C0")
            bottom.set_ylim(0, 1)
            bottom.set_xlim(0.4, 8.6)
            bottom.set_xlabel("eigenvalue")
            bottom.set_ylabel("normalised eigenvalue")
            bottom.legend(fontsize=8)
        fig.tight_layout()
        save_png(fig, path)
        plt.close(fig)
    return plot


def _mark(status: str) -> str:
    """``ok``, or a gap's mark as the tables show it (``n/a`` for unavailable data)."""
    return status if status == "ok" else gap_mark(status)


def _table(frame: pd.DataFrame) -> list[str]:
    pts = frame[frame["variant"] != "graph_counts"]
    md = ["| key | variant | omega | n | status | certified | top-2 | ev3 | ev1/ev2 | "
          "rel. RMS violation | CPU s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda v, f: "" if v is None or pd.isna(v) else format(v, f)  # noqa: E731
    for _, r in pts.iterrows():
        md.append(f"| {r['key']} | {r['variant']} | {fmt(r['omega'], 'g')} | "
                  f"{r['n_samples']} | {_mark(r['status'])} {r['solve_status'] or ''} | "
                  f"{bool(r['certified'])} | {fmt(r['top2'], '.4f')} | {fmt(r['ev3'], '.4f')} | "
                  f"{fmt(r['lambda1_over_lambda2'], '.3g')} | "
                  f"{fmt(r['relative_rms_violation'], '.3g')} | {fmt(r['cpu_seconds'], '.1f')} |")
    counts = frame[(frame["variant"] == "graph_counts") & frame["k"].notna()]
    if len(counts):
        md += ["", "| roll | n | k | clique edges | k-NN edges | ratio |", "|---|---|---|---|---|---|"]
        md += [f"| {r['data']} | {int(r['n_samples'])} | {int(r['k'])} | {int(r['clique_edges'])} "
               f"| {int(r['knn_edges'])} | {r['edge_ratio']:.3g} |" for _, r in counts.iterrows()]
    return md


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries this result decides (:mod:`.register_claims`)."""
    from .register_claims import register_claims

    return register_claims(config, build(config) if frame is None else frame)


def write(config: dict) -> list:
    """Write the figure (the thesis' panels: embeddings coloured by the roll parameter,
    normalised spectra before and after), its CSV, Markdown and sidecar."""
    frame = build(config)
    conf = config["results"][NAME]
    md = [f"# {TITLE}", "", f"![{NAME}]({NAME}.png)", "",
          f"Rolls: noisy {conf['noisy_params']}, noise-free {conf['noise_free_params']}; "
          f"k = {conf['n_neighbors']}; strict at n = {conf['n_samples']} (and "
          f"{conf['slack_n_samples']}), slack at n = {conf['slack_n_samples']} "
          f"({conf['slack_solver']}), omegas {conf['omegas']}; only certified solves "
          f"count.", "", *_table(frame), "", "## Claims", "", *claim_lines(claims(config, frame))]
    gaps = [f"{r['key']} ({r['variant']}): {_mark(r['status'])} {r['reason']}"
            for _, r in frame.iterrows() if r["status"] != "ok"]
    return write_figure_files(config, NAME, keys(config), frame, md, gaps, _plot(config))
