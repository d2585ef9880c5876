"""The outputs of ``mm_lmnn_properties`` from its jobs' records: the CSV (per-run rows
and the summary rows every verdict reads), Fig. 2.11 regenerated (PNG), the Markdown and
the verdicts (:mod:`.register_claims`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import ttest_rel
from tabulate import tabulate

from harness.results.common.write.figure_files import (claim_lines, gap_mark, read_point,
                                                 save_png, write_figure_files)
from harness.results.mm_lmnn_properties import NAME, TITLE, _conf, keys
from harness.results.mm_lmnn_properties.register_claims import CONVEX_TOL, register_claims

__all__ = ["pair_row", "speed_row", "convex_row", "fig_row", "build", "claims", "write"]

#: comparisons against the claimed variant: (claimed, other)
COMPARISONS = {"kmeans": ("labels", "kmeans"), "spectral": ("labels", "spectral"),
               "independent": ("labels", "independent")}


def pair_row(runs: pd.DataFrame, claimed: str, other: str) -> dict:
    """Paired over the runs: means, ``mean_diff`` = other - claimed (positive: the
    claimed variant's error lower), its SE and the one-sided paired t-tests."""
    a = runs[runs["variant"] == claimed].set_index("run")["test_error"]
    b = runs[runs["variant"] == other].set_index("run")["test_error"]
    a, b = a.align(b, join="inner")
    diff = (b - a).to_numpy()
    n = len(diff)
    se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    if n > 1 and np.ptp(diff) > 0:
        p_claimed = float(ttest_rel(b, a, alternative="greater").pvalue)
        p_other = float(ttest_rel(b, a, alternative="less").pvalue)
    else:
        p_claimed = p_other = math.nan
    return {"n_runs": n, "mean_claimed": float(a.mean()), "mean_other": float(b.mean()),
            "mean_diff": float(diff.mean()) if n else math.nan, "se_diff": se,
            "two_se": 2 * se, "p_claimed": p_claimed, "p_other": p_other}


def speed_row(reps: pd.DataFrame) -> dict:
    """Medians over the repeats and the ratios single / identity."""
    s, i = (reps[reps["start"] == k] for k in ("single", "identity"))
    t_s, t_i = float(s["cpu_seconds"].median()), float(i["cpu_seconds"].median())
    it_s, it_i = float(s["n_iter"].mean()), float(i["n_iter"].mean())
    return {"repeats": len(s), "time_single": t_s, "time_identity": t_i,
            "time_ratio": t_s / t_i if t_i > 0 else math.nan, "iter_single": it_s,
            "iter_identity": it_i, "iter_ratio": it_s / it_i if it_i > 0 else math.nan}


def convex_row(starts: pd.DataFrame) -> dict:
    """Spread of the final objectives; starts above the best by more than
    :data:`CONVEX_TOL` relative, and how many of them are not a minimum."""
    low, high = float(starts["loss"].min()), float(starts["loss"].max())
    higher = starts[starts["loss"] > low * (1 + CONVEX_TOL)]
    return {"n_starts": len(starts), "loss_min": low, "loss_max": high,
            "rel_spread": (high - low) / abs(low) if low else math.nan,
            "n_higher": len(higher), "n_higher_descent": int(higher["descent"].sum()),
            "n_converged": int(starts["converged"].sum())}


def _angle_diff(a: float, b: float) -> float:
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def fig_row(record: dict, conf: dict) -> dict:
    """The largest difference of first principal directions and eigenvalue ratios
    between two of the per-class metrics."""
    m = record["metrics"]
    pairs = [(a, b) for i, a in enumerate(m) for b in m[i + 1:]]
    return {"n_points": record["n_points"],
            "digits": " ".join(str(x["digit"]) for x in m),
            "max_angle_diff": max(_angle_diff(a["direction_degrees"], b["direction_degrees"])
                                  for a, b in pairs),
            "max_ratio_factor": max(max(a["eigen_ratio"], b["eigen_ratio"])
                                    / min(a["eigen_ratio"], b["eigen_ratio"])
                                    for a, b in pairs),
            "angle_threshold": conf["angle_degrees"],
            "ratio_threshold": conf["eigen_ratio_factor"]}


def build(config: dict) -> pd.DataFrame:
    """Per-run / per-start rows and the summary rows (``kind``), every status."""
    rows = []
    for key in keys(config):
        rec = read_point(config, NAME, key)
        part, _, name = key.partition("-")
        base = {"key": key, "dataset": name or "mnist", "status": rec["status"],
                "thesis_name": rec.get("thesis_name", name)}
        if rec["status"] != "ok":
            rows.append({**base, "kind": "gap", "reason": rec.get("reason", "")})
            continue
        if part == "partitions":
            runs = pd.DataFrame(rec["runs"])
            rows += [{**base, "kind": "run", **r} for r in rec["runs"]]
            for comparison, (a, b) in COMPARISONS.items():
                rows.append({**base, "kind": "pair", "comparison": comparison,
                             **pair_row(runs, a, b)})
        elif part == "speed":
            rows += [{**base, "kind": "speed_repeat", **r} for r in rec["repeats"]]
            rows.append({**base, "kind": "speed", **speed_row(pd.DataFrame(rec["repeats"]))})
        elif part == "convex":
            rows += [{**base, "kind": "start", **{k: v for k, v in r.items()
                                                   if k != "segment_losses"}}
                     for r in rec["starts"]]
            rows.append({**base, "kind": "convex", **convex_row(pd.DataFrame(rec["starts"]))})
        else:
            rows += [{**base, "kind": "fig_metric", "digit": m["digit"],
                      "direction_degrees": m["direction_degrees"],
                      "eigen_ratio": m["eigen_ratio"]} for m in rec["metrics"]]
            rows.append({**base, "kind": "fig_2_11",
                         **fig_row(rec, _conf(config)["fig_2_11"])})
    return pd.DataFrame(rows) if rows else pd.DataFrame({"kind": []})


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries this result decides."""
    return register_claims(build(config) if frame is None else frame)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 5.5))
    rec = read_point(config, NAME, "fig_2_11") if "fig_2_11" in keys(config) else \
        {"status": "missing"}
    if rec["status"] != "ok":
        ax.text(0.5, 0.5, gap_mark(rec["status"]), ha="center", va="center",
                transform=ax.transAxes)
    else:
        Z, y = np.asarray(rec["points"]), np.asarray(rec["labels"])
        spread = float(np.ptp(Z, axis=0).mean())
        radii = [1.0 / math.sqrt(max(min(m["eigenvalues"]), 1e-300)) for m in rec["metrics"]]
        scale = 0.25 * spread / max(radii)  # one scale for every ellipse
        t = np.linspace(0, 2 * math.pi, 200)
        circle = np.stack([np.cos(t), np.sin(t)])
        for i, m in enumerate(rec["metrics"]):
            colour = f"C{i}"
            ax.scatter(*Z[y == m["digit"]].T, s=4, alpha=0.3, color=colour,
                       label=f"digit {m['digit']}")
            L, c = np.asarray(m["L"]), np.asarray(m["center"])
            ellipse = np.linalg.solve(L, circle) * scale  # {x : ||L x|| = 1}, scaled
            ax.plot(c[0] + ellipse[0], c[1] + ellipse[1], color=colour, linewidth=2)
            w, V = np.linalg.eigh(np.asarray(m["M"]))
            # the first principal direction under the map: the longest axis of the
            # unit ellipse (smallest eigenvalue of M)
            v = V[:, 0] * scale / math.sqrt(max(w[0], 1e-300))
            ax.plot([c[0] - v[0], c[0] + v[0]], [c[1] - v[1], c[1] + v[1]], color="black",
                    linewidth=1)
        ax.legend(fontsize=8, markerscale=3)
        ax.set_xlabel("principal component 1")
        ax.set_ylabel("principal component 2")
        ax.set_aspect("equal")
    ax.set_title(f"Fig. 2.11: MM-LMNN's per-class metrics (unit circles, common scale)\n"
                 f"profile {config['profile']}", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def _tables(frame: pd.DataFrame) -> list[str]:
    md = []
    for kind, cols, title in (
            ("pair", ["dataset", "comparison", "n_runs", "mean_claimed", "mean_other",
                      "mean_diff", "two_se", "p_claimed"],
             "kNN test error (%): label partition (MM-LMNN) against the other variant"),
            ("speed", ["dataset", "repeats", "time_single", "time_identity", "time_ratio",
                       "iter_single", "iter_identity", "iter_ratio"],
             "Start from the single metric against the identity (CPU s, medians)"),
            ("convex", ["dataset", "n_starts", "loss_min", "loss_max", "rel_spread",
                        "n_higher", "n_higher_descent", "n_converged"],
             "Fixed label partition from the identity and random PSD starts"),
            ("fig_2_11", ["n_points", "digits", "max_angle_diff", "max_ratio_factor"],
             "Fig. 2.11: largest differences between the per-class metrics")):
        part = frame[frame["kind"] == kind] if "kind" in frame else frame.iloc[0:0]
        if len(part):
            md += [f"## {title}", "", tabulate(part[cols], headers="keys", tablefmt="github",
                                               showindex=False, floatfmt=".4g"), ""]
    return md


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/mm_lmnn_properties.{csv,png,md,json}``."""
    frame = build(config)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", ""]
    md += claim_lines(claims(config, frame))
    md += _tables(frame)
    md += ["![Fig. 2.11](mm_lmnn_properties.png)", ""]
    gaps = [f"{r.key}: {gap_mark(r.status)} ({r.reason})"
            for r in frame[frame["kind"] == "gap"].itertuples()] if "kind" in frame else []
    return write_figure_files(config, NAME, keys(config), frame, md, gaps, _plot)
