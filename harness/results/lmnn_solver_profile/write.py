"""The outputs of the LMNN solver profile from its jobs' records: the CSV (one row per
measured quantity, :func:`.register_claims.summary`), a figure (the active-set change
and the two gradients' times along the iterates, the scaling sweeps) and the Markdown
with the verdicts (:func:`claims`)."""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import (
    claim_lines, gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.lmnn_solver_profile import NAME, TITLE, keys
from harness.results.lmnn_solver_profile.register_claims import register_claims, summary

__all__ = ["build", "claims", "write"]

#: what `harness compare` leaves out: the hinge search's share of the fit time and the slopes
#: of times against n and k (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^hinge_share$|^hinge_over_other$|_slope(_se)?$"


def _records(config: dict) -> dict[str, dict]:
    return {key: read_point(config, NAME, key) for key in keys(config)}


def build(config: dict) -> pd.DataFrame:
    """The summary frame of this profile's records."""
    return summary(_records(config))


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries this result decides."""
    return register_claims(build(config) if frame is None else frame)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = _records(config)
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for key, rec in records.items():
        if rec["status"] != "ok" or rec.get("kind") != "trace":
            continue
        it = pd.DataFrame(rec["iterates"]).dropna(subset=["n_changed"])
        axes[0].semilogy(it["t"], (it["n_changed"] / it["n_active_before"].clip(lower=1))
                         .clip(lower=1e-4), ".", ms=2, label=rec["dataset"])
        axes[1].semilogy(it["t"], it["seconds_2_15"] / it["seconds_2_14"], ".", ms=2,
                         label=rec["dataset"])
    axes[0].set(title="|N_t sym. diff. N_t+1| / |N_t| (floor 1e-4)", xlabel="step t")
    axes[1].set(title="CPU time (2.15) / (2.14)", xlabel="step t")
    rec = records.get("scaling", {})
    if rec.get("status") == "ok":
        t = pd.DataFrame(rec["times"])
        for sweep, col in (("n", "seconds_check"), ("n", "seconds_search")):
            part = t[t["sweep"] == sweep].groupby("n")[col].median()
            axes[2].loglog(part.index, part.values, "o-", label=f"{col[8:]} vs n")
        axes[2].set(title=f"{rec['dataset']}: full check / search vs n", xlabel="n",
                    ylabel="CPU s")
    for ax in axes:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/lmnn_solver_profile.{csv,png,md,json}``."""
    frame = build(config)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", ""]
    md += claim_lines(claims(config, frame))
    shown = frame[frame["entry"] != "gap"][["entry", "dataset", "quantity", "value"]]
    md += ["## Measured quantities", "",
           tabulate(shown.astype(object).fillna(""), headers="keys", tablefmt="github",
                    showindex=False, floatfmt=".4g") if len(shown) else "(none measured)",
           "", "![profile](lmnn_solver_profile.png)", ""]
    gaps = [f"{r.dataset}: {gap_mark(r.quantity)} {r.reason}"
            for r in frame[frame["entry"] == "gap"].itertuples()]
    return write_figure_files(config, NAME, keys(config), frame, md, gaps, _plot)
