"""The outputs of Figs. 3.25-3.27 (thesis 3.1.11) from Fig. 3.24's records: per data set
the max- and min-trace 2-D embeddings and their normalised spectra (the figure), the
spectrum and embedding quantities (CSV, Markdown) and the verdicts of the register
entries (:mod:`.register_claims`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness import registry
from harness.results.common.write.figure_files import (
    claim_lines, dataset_notes, gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.fig_3_25_27 import NAME, SOURCE, TITLE
from harness.results.fig_3_25_27.register_claims import MUCH_LOAD, register_claims
from harness.results.fig_3_25_27.spectra import embedding_quantities, spectrum_quantities

__all__ = ["VARIANTS", "point_rows", "build", "claims", "write"]

#: `harness compare`'s tolerance: its numbers come from certified SDP solves, which a
#: rerun reproduces to the certificate's accuracy, not bit for bit (as Table 3.2's)
COMPARE_TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}

VARIANTS = ("max_trace", "min_trace")
_PREFIX = {"max_trace": "max", "min_trace": "min"}


def _records(config: dict, dataset: str) -> dict[str, dict]:
    return {v: read_point(config, SOURCE, f"{dataset}/{v}") for v in VARIANTS}


def point_rows(dataset: str, records: dict[str, dict], thesis_dataset: str,
               stand_in: bool) -> dict:
    """One data set's row from its two records (``max_trace``, ``min_trace``): both
    points' quantities (:mod:`.spectra`), prefixed ``max_`` / ``min_``, or the gap."""
    row = {"dataset": dataset, "thesis_dataset": thesis_dataset, "stand_in": stand_in,
           "status": "ok", "reason": ""}
    bad = [(v, r) for v, r in records.items() if r["status"] != "ok"]
    if bad:
        row.update(status=bad[0][1]["status"], reason=bad[0][1].get("reason", ""))
        return row
    stale = [v for v, r in records.items() if "spectrum" not in r]
    if stale:
        row.update(status="missing", reason=(
            f"the {SOURCE} record(s) {', '.join(stale)} of {dataset} predate the spectrum "
            f"and coordinates these figures read: rerun `harness job {SOURCE}/{dataset}/"
            f"{stale[0]}`"))
        return row
    first = records["min_trace"]
    r = int(first["params"]["method_params"]["n_components"])
    row.update(n_samples=first["n_samples"], n_components=r,
               eval_neighbors=first["params"]["eval_neighbors"],
               certified=all((rec.get("solve") or {}).get("status") == "optimal"
                             for rec in records.values()))
    for i, value in enumerate(first["input_spectrum"][:3], 1):
        row[f"input_spectrum_{i}"] = value
    for v, rec in records.items():
        p = _PREFIX[v]
        quantities = {**spectrum_quantities(rec, r), **embedding_quantities(rec)}
        row.update({f"{p}_{k}": value for k, value in quantities.items()})
        for i, value in enumerate(rec["spectrum"][:3], 1):
            row[f"{p}_spectrum_{i}"] = value
        row[f"{p}_violation"] = (rec.get("solve") or {}).get("violation", np.nan)
        row[f"{p}_solve_status"] = (rec.get("solve") or {}).get("status")
        row[f"{p}_kept_dimensions"] = rec["kept_dimensions"]
    # the ratios the verdicts print (so that the CSV holds them)
    row["load_ratio"] = row["min_share_1"] / row["max_share_1"]
    row["mean_distance_ratio_2d"] = row["min_mean_distance_2d"] / row["max_mean_distance_2d"]
    row["min_gap_12"] = (row["min_share_1"] / row["min_share_2"] if row["min_share_2"] > 0
                         else np.inf)
    return row


def build(config: dict) -> pd.DataFrame:
    """One row per data set of Fig. 3.24's profile section (:func:`point_rows`)."""
    rows = []
    for dataset in config["results"][SOURCE]["datasets"]:
        records = _records(config, dataset)
        point = next((r["params"] for r in records.values() if "params" in r), {})
        cls = registry.get_dataset(dataset)
        thesis = point.get("thesis_dataset") or cls.stand_in_for or cls.thesis_name or dataset
        rows.append(point_rows(dataset, records, thesis, cls.stand_in_for is not None))
    frame = pd.DataFrame(rows)
    if "certified" not in frame:
        frame["certified"] = False
    frame["certified"] = frame["certified"].fillna(False).astype(bool)
    frame["much_load_threshold"] = MUCH_LOAD  # the register's "much higher" load ratio
    return frame


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries' claims (:func:`.register_claims.register_claims`)."""
    return register_claims(build(config) if frame is None else frame)


# ---- outputs -------------------------------------------------------------------------
def _plot(frame: pd.DataFrame, config: dict, path, records: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = frame[frame["status"] == "ok"]
    n_ev = config["results"][NAME]["n_eigenvalues_plotted"]
    rows = max(1, len(shown))
    fig, axes = plt.subplots(rows, 3, figsize=(11, 3.2 * rows), squeeze=False)
    for ax_row, row in zip(axes, shown.itertuples()):
        recs = records[row.dataset]
        label = row.dataset + (f" (stand-in for {row.thesis_dataset})" if row.stand_in else "")
        for ax, v in zip(ax_row[:2], VARIANTS):
            Y = np.asarray(recs[v]["embedding_2d"], float)
            ax.scatter(Y[:, 0], Y[:, 1], c=np.arange(len(Y)), s=4, cmap="viridis")
            ax.set_title(f"{label}: {v.replace('_', ' ')}", fontsize=8)
            ax.set_aspect("equal", adjustable="datalim")
            ax.tick_params(labelsize=6)
        for j, v in enumerate(VARIANTS):
            s = np.asarray(recs[v]["spectrum"][:n_ev], float)
            ax_row[2].bar(np.arange(1, len(s) + 1) + (j - 0.5) * 0.4, s, 0.4,
                          label=v.replace("_", " "))
        ax_row[2].set_title(f"{label}: normalised eigenvalues", fontsize=8)
        ax_row[2].legend(fontsize=7)
        ax_row[2].tick_params(labelsize=6)
    if shown.empty:
        axes[0][0].text(0.5, 0.5, "no data set measured", ha="center")
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}; colour: the point's index "
                 f"(the teapot's rotation)", fontsize=9)
    save_png(fig, path)
    plt.close(fig)


_SHOWN = (("share_1", "λ1/trace", ".3f"), ("share_top3", "top-3 share", ".3f"),
          ("mass95_count", "dims for 95 %", "d"), ("share1pct_count", "eigenvalues > 1 %", "d"),
          ("participation_ratio", "participation ratio", ".2f"),
          ("loss_r", "variance outside top r", ".4f"),
          ("local_trust_2d", "2-D trust", ".3f"),
          ("neighborhood_intersection_2d", "2-D intersection", ".3f"),
          ("mean_distance_2d", "2-D mean distance", ".2f"))


def _table(frame: pd.DataFrame) -> str:
    grid = {}
    for row in frame.itertuples():
        if row.status != "ok":
            grid[row.dataset] = {"status": gap_mark(row.status)}
            continue
        cells = {"n, r": f"{int(row.n_samples)}, {int(row.n_components)}"}
        for key, label, fmt in _SHOWN:
            lo, hi = getattr(row, f"min_{key}"), getattr(row, f"max_{key}")
            cells[label] = (f"{int(lo)} / {int(hi)}" if fmt == "d"
                            else f"{lo:{fmt}} / {hi:{fmt}}")
        cells["certified"] = "yes" if row.certified else "no (not counted)"
        grid[row.dataset + (" (stand-in)" if row.stand_in else "")] = cells
    return tabulate(pd.DataFrame.from_dict(grid, orient="index").fillna(""),
                    headers="keys", tablefmt="github")


def write(config: dict):
    """``figures/fig_3_25_27.{csv,png,md,json}`` from Fig. 3.24's records."""
    frame = build(config)
    records = {d: _records(config, d) for d in frame["dataset"]}
    md = [f"# {TITLE}", "", f"![{NAME}]({NAME}.png)", "",
          "Each cell: minimum trace / maximum trace. Read from Fig. 3.24's records "
          f"(results.{SOURCE}; no solve of its own).", "", _table(frame), ""]
    md += [f"- {line}" for line in dataset_notes(frame["dataset"])] + [""]
    md += claim_lines(register_claims(frame))
    gaps = [f"{r.dataset}: {gap_mark(r.status)} {r.reason}" for r in frame.itertuples()
            if r.status != "ok"]
    flat = [rec for recs in records.values() for rec in recs.values()]
    return write_figure_files(config, NAME, [], frame, md, gaps,
                              lambda f, c, p: _plot(f, c, p, records), records=flat)
