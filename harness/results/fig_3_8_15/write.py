"""The outputs of Figs. 3.8 and 3.15 (thesis 3.1.5, 3.1.7) from their records: the
CSV (one row per job), the figure (the thesis' panels), the Markdown, the sidecar and
the verdicts (:func:`claims`, the register entries of :mod:`.register_claims`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.common.write.certified import certified
from harness.results.common.write.figure_files import gap_mark, read_point, save_png, write_figure_files
from harness.results.common.write.tables import Footnotes
from harness.results.fig_3_8_15 import NAME, TITLE, TREFOIL, _conf, keys, params
from harness.results.fig_3_8_15.register_claims import register_claims, spectrum_beyond_two

__all__ = ["build", "claims", "write"]

#: `harness compare`'s tolerance: its numbers come from certified SDP solves, which a
#: rerun reproduces to the certificate's accuracy, not bit for bit (as Table 3.2's)
COMPARE_TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}

#: record fields copied into the frame (NaN where a job has none)
FIELDS = ("count", "k", "k_cross", "median_cos", "procrustes", "top_two", "max_tail",
          "radius_cv", "circular_corr", "spearman", "spearman_ceiling")


def _row(config: dict, key: str) -> dict:
    record = read_point(config, NAME, key)
    point = params(config, key)
    part, kind = key.split("/")[:2]
    solve = record.get("solve") or {}
    shares = record.get("normalised_eigenvalues") or []
    row = {"key": key, "part": part, "kind": kind, "method": point["job"],
           "teeth": point.get("n_teeth", math.nan),
           "n_samples": record.get("n_samples", math.nan),
           "status": record["status"], "reason": record.get("reason", ""),
           "solve_status": solve.get("status") if point["job"] == "mvu" else None,
           "gap": solve.get("gap", math.nan), "violation": solve.get("violation", math.nan),
           "fit_seconds": record.get("fit_seconds", math.nan),
           "local_continuity": (record.get("measures") or {}).get("local_continuity", math.nan),
           "local_trust": (record.get("measures") or {}).get("local_trust", math.nan)}
    row.update({f: record.get(f, math.nan) for f in FIELDS})
    row.update({f"ev{i + 1}": shares[i] if i < len(shares) else math.nan for i in range(10)})
    row.update(spectrum_beyond_two(shares[:10]))
    row["certified"] = record["status"] == "ok" and certified(row["solve_status"])
    return row


def build(config: dict) -> pd.DataFrame:
    """One row per job: kind, tooth count, status, certified solve, the eigenvalue
    count above the threshold, the leading ten normalised eigenvalues and the
    figure's measures."""
    return pd.DataFrame([_row(config, key) for key in keys(config)])


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries' claims (:func:`.register_claims.register_claims`)."""
    return register_claims(build(config) if frame is None else frame)


# ---- outputs ---------------------------------------------------------------------
def _spectrum(ax, shares, title):
    shares = [s for s in shares if s == s][:10]
    ax.bar(np.arange(1, len(shares) + 1), shares, color="steelblue")
    ax.set_title(title, fontsize=7)
    ax.set_ylim(0, 1)
    ax.tick_params(labelsize=6)


def _scatter(ax, Y, c, title):
    Y = np.asarray(Y)
    if Y.shape[1] >= 3:
        ax.scatter(Y[:, 0], Y[:, 1], c=Y[:, 2], s=3, cmap="viridis")
    else:
        ax.scatter(Y[:, 0], Y[:, 1], c=c, s=3, cmap="hsv")
    ax.set_title(title, fontsize=7)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_aspect("equal", "datalim")


def _plot_factory(config: dict):
    conf = _conf(config)

    def plot(frame, _config, path):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        teeth = conf["teeth"]
        fig, axes = plt.subplots(len(teeth) + 1, 5, figsize=(11, 2.1 * (len(teeth) + 1)))
        axes = np.atleast_2d(axes)
        tref = read_point(config, NAME, f"{TREFOIL}/mvu")
        row = axes[0]
        for ax in row:
            ax.axis("off")
        if tref["status"] == "ok":
            for ax in row[:2]:
                ax.axis("on")
            _scatter(row[0], tref["embedding"], tref["parameter"],
                     "Fig. 3.8: trefoil, MVU (k = 4), colour = knot parameter")
            _spectrum(row[1], tref["normalised_eigenvalues"], "MVU normalised eigenvalues")
        for r, t in zip(axes[1:], teeth):
            mvu = read_point(config, NAME, f"comb/mvu/t{t}")
            iso = read_point(config, NAME, f"comb/isomap/t{t}")
            for ax in r:
                ax.axis("off")
            if mvu["status"] == "ok":
                X = np.asarray(mvu["input"])
                for ax in r[:3]:
                    ax.axis("on")
                _scatter(r[0], X, mvu["labels"], f"comb T = {t}: input")
                mark = "" if certified((mvu.get("solve") or {}).get("status")) else " (not certified)"
                _scatter(r[1], mvu["embedding"], None, f"MVU k = 3, dims 1-2 (colour 3){mark}")
                _spectrum(r[2], mvu["normalised_eigenvalues"],
                          f"MVU eigenvalues: {mvu['count']} above 1 %")
            if iso["status"] == "ok":
                for ax in r[3:]:
                    ax.axis("on")
                _scatter(r[3], iso["embedding"], None, "Isomap k = 5, dims 1-2 (colour 3)")
                _spectrum(r[4], iso["normalised_eigenvalues"],
                          f"Isomap eigenvalues: {iso['count']} above 1 %")
        fig.suptitle(f"{TITLE}\nprofile {config['profile']}", fontsize=8)
        fig.tight_layout()
        save_png(fig, path)
        plt.close(fig)
    return plot


def _fmt(value, spec=".3f") -> str:
    return "" if value is None or value != value else format(value, spec)


def _table(frame: pd.DataFrame, notes: Footnotes) -> str:
    rows = []
    for r in frame.itertuples():
        if r.status != "ok":
            rows.append([r.key, gap_mark(r.status) + notes.mark(r.reason)] + [""] * 6)
            continue
        flag = "" if r.certified else " †"
        rows.append([r.key, f"{_fmt(r.k, '.0f')}", f"{_fmt(r.count, '.0f')}{flag}",
                     ", ".join(_fmt(getattr(r, f"ev{i}"), ".3f") for i in range(1, 5)),
                     _fmt(r.median_cos), _fmt(r.procrustes, ".1e"),
                     _fmt(r.solve_status, "s") if r.method == "mvu" else "–",
                     _fmt(r.gap, ".1e")])
    return tabulate(rows, headers=["job", "k", "dims > 1 %", "top 4 normalised eigenvalues",
                                   "median tooth cos", "Procrustes", "solve", "gap"],
                    tablefmt="github")


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_3_8_15.{csv,png,md,json}``."""
    frame = build(config)
    notes = Footnotes()
    tref = frame[frame["part"] == TREFOIL].iloc[0]
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`: solver "
          f"`{_conf(config)['solver']}`; † a solve not certified optimal (not counted).", "",
          "## Jobs", "", _table(frame, notes), ""]
    if tref.status == "ok":
        md += [f"Trefoil (n = {int(tref.n_samples)}, k = {int(tref.k)}): top two normalised "
               f"eigenvalues {tref.top_two:.4f}, largest of the rest {tref.max_tail:.2e}; "
               f"continuity {tref.local_continuity:.4f}, trust {tref.local_trust:.4f}; "
               f"Spearman {tref.spearman:.4f} (ceiling {tref.spearman_ceiling:.4f}); radius CV {tref.radius_cv:.4f}, circular "
               f"correlation {tref.circular_corr:.4f}.", ""]
    md += ["![Figs. 3.8 and 3.15](fig_3_8_15.png)", "",
           "Choices where the thesis is ambiguous: see harness/results/fig_3_8_15/README.md."]
    return write_figure_files(config, NAME, keys(config), frame, md, notes.texts,
                              _plot_factory(config))
