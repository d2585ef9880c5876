"""The outputs of the mu sweep from its records: the long CSV (one row per (data set,
mu), per data set, per mu = 0 fit), the table in Markdown and LaTeX, the sidecar, and
the verdicts (:func:`claims`, :mod:`.register_claims`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness import registry
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.results.common.write.figure_files import claim_lines, gap_mark, point_line, read_point
from harness.results.lmnn_mu_sweep import (
    COLLAPSE, HALF, KIND, MIDDLE, NAME, TITLE, WIDE, _conf, keys, mu_key,
)
from harness.results.lmnn_mu_sweep.register_claims import COLLAPSED, register_claims
from harness.results.lmnn_mu_sweep.stats import friedman, gap_to, paired_p, spread

__all__ = ["MEASURES", "run_matrix", "build", "claims", "write"]

#: the measures swept: short name -> the classification task's measure
MEASURES = {"knn": "test_knn_error", "energy": "test_energy_error"}


def _thesis_name(dataset: str) -> str:
    return registry.dataset_info(dataset).thesis_name or dataset


def run_matrix(records: dict[float, dict], measure: str) -> tuple[np.ndarray, list[int]]:
    """The runs x mu matrix of ``measure`` (the seeds every mu's record has), and the
    seeds; ``records``: mu -> an ``ok`` record with ``runs``."""
    by_mu = {mu: {r["seed"]: r["measures"].get(measure, math.nan) for r in rec["runs"]}
             for mu, rec in records.items()}
    seeds = sorted(set.intersection(*(set(v) for v in by_mu.values())))
    mus = sorted(by_mu)
    return np.array([[by_mu[mu][s] for mu in mus] for s in seeds], dtype=float), seeds


def _cell_rows(dataset: str, records: dict[float, dict], level: float) -> list[dict]:
    """One row per mu of an all-``ok`` data set, then its data set row."""
    mus = sorted(records)
    first = records[mus[0]]["runs"][0]["info"]
    base = {"dataset": dataset, "thesis_name": _thesis_name(dataset), "status": "ok",
            "reason": "", "n_train": first["n_train"], "n_test": first["n_test"]}
    rows, summary = [], {"row": "dataset", **base, "n_mu": len(mus)}
    for short, measure in MEASURES.items():
        errors, seeds = run_matrix(records, measure)
        n = len(seeds)
        summary["n_runs"] = n
        half = errors[:, mus.index(HALF)]
        for j, mu in enumerate(mus):
            col = errors[:, j]
            se = float(col.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
            rows.append({"row": "cell", **base, "mu": mu, "n_runs": n,
                         "measure": short, "mean": float(col.mean()), "se": se,
                         "p_vs_half": paired_p(col, half) if mu != HALF else math.nan})
        for grid_name, grid in (("middle", MIDDLE), ("wide", WIDE), ("all", mus)):
            s = spread(errors, mus, grid)
            summary.update({f"{short}_range_{grid_name}": s["range"],
                            f"{short}_range_{grid_name}_se": s["se"],
                            f"{short}_range_{grid_name}_mu_high": s["mu_high"],
                            f"{short}_range_{grid_name}_mu_low": s["mu_low"]})
        g = gap_to(errors, mus, WIDE, HALF)
        summary.update({f"{short}_gap_half": g["gap"], f"{short}_gap_half_se": g["se"],
                        f"{short}_gap_half_mu_best": g["mu_best"]})
        stat, p = friedman(errors)
        summary.update({f"{short}_friedman_stat": stat, f"{short}_friedman_p": p,
                        f"{short}_friedman_significant": bool(p < level) if p == p else None})
    return rows + [summary]


def _gap_row(dataset: str, record: dict) -> dict:
    return {"row": "dataset", "dataset": dataset, "thesis_name": _thesis_name(dataset),
            "status": record["status"], "reason": record.get("reason", "")}


def _collapse_row(config: dict, dataset: str) -> dict:
    record = read_point(config, NAME, f"{COLLAPSE}/{dataset}")
    row = {"row": "collapse", "dataset": dataset, "thesis_name": _thesis_name(dataset),
           "status": record["status"], "reason": record.get("reason", "")}
    if record["status"] == "ok":
        row.update({k: record[k] for k in ("norm_initial", "norm_final",
                                            "norm_final_mu_half", "n_iter", "converged")})
        row["norm_ratio"] = record["norm_final"] / record["norm_initial"]
        row["threshold"] = COLLAPSED
    return row


def build(config: dict) -> pd.DataFrame:
    """The long frame: ``row`` ``cell`` (a data set, mu and measure: mean, SE, paired
    p against mu = 0.5), ``dataset`` (its spreads, gaps and Friedman test, or its gap
    status) and ``collapse`` (a mu = 0 fit)."""
    conf = _conf(config)
    rows = []
    for dataset in conf["datasets"]:
        records = {mu: read_point(config, NAME, f"{dataset}/{mu_key(mu)}")
                   for mu in sorted(conf["mu_grid"])}
        bad = [(mu, r) for mu, r in records.items() if r["status"] != "ok" or not r.get("runs")]
        if bad:
            mu, record = bad[0]
            rows.append({**_gap_row(dataset, record),
                         "reason": f"mu = {mu:g}: {record.get('reason', '') or record['status']}"})
            continue
        rows += _cell_rows(dataset, records, conf["level"])
    rows += [_collapse_row(config, d) for d in conf["collapse_datasets"]]
    needed = ("row", "dataset", "thesis_name", "status", "reason", "mu", "measure", "mean",
              "se", "p_vs_half", "n_runs", "n_train", "n_test", "norm_ratio")
    frame = pd.DataFrame(rows)
    return frame.reindex(columns=[*frame.columns, *[c for c in needed if c not in frame]])


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries the sweep decides (:mod:`.register_claims`)."""
    frame = build(config) if frame is None else frame
    swept = [_thesis_name(d) for d in _conf(config)["datasets"]]
    return register_claims(frame, swept)


def _fmt(mean, se) -> str:
    return f"{mean:.2f} ± {se:.2f}" if se == se else f"{mean:.2f}"


def _p(p) -> str:
    return "" if p != p else f"{p:.3g}"


def _sweep_table(frame: pd.DataFrame) -> pd.DataFrame:
    cells = frame[frame["row"] == "cell"]
    rows = []
    for (dataset, mu), part in cells.groupby(["thesis_name", "mu"], sort=False):
        by = {r.measure: r for r in part.itertuples()}
        rows.append({"data set": dataset, "mu": f"{mu:g}",
                     "kNN test error (%)": _fmt(by["knn"].mean, by["knn"].se),
                     "p vs 0.5 (kNN)": _p(by["knn"].p_vs_half),
                     "energy test error (%)": _fmt(by["energy"].mean, by["energy"].se),
                     "p vs 0.5 (energy)": _p(by["energy"].p_vs_half)})
    return pd.DataFrame(rows)


def _dataset_table(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for r in frame[frame["row"] == "dataset"].itertuples():
        if r.status != "ok":
            rows.append({"data set": r.thesis_name, "runs": gap_mark(r.status),
                         "kNN range {0.25, 0.5, 0.75}": r.reason})
            continue
        rows.append({
            "data set": r.thesis_name,
            "runs": f"{r.n_runs:.0f} ({r.n_train:.0f}/{r.n_test:.0f})",
            "kNN range {0.25, 0.5, 0.75}": _fmt(r.knn_range_middle, r.knn_range_middle_se),
            "kNN range {0.1, ..., 0.9}": _fmt(r.knn_range_wide, r.knn_range_wide_se),
            "energy range {0.1, ..., 0.9}": _fmt(r.energy_range_wide,
                                                 r.energy_range_wide_se),
            "kNN: 0.5 above best": f"{_fmt(r.knn_gap_half, r.knn_gap_half_se)} "
                                   f"(best {r.knn_gap_half_mu_best:g})",
            "Friedman p (kNN)": _p(r.knn_friedman_p),
            "Friedman p (energy)": _p(r.energy_friedman_p)})
    return pd.DataFrame(rows)


def _collapse_lines(frame: pd.DataFrame) -> list[str]:
    lines = []
    for r in frame[frame["row"] == "collapse"].itertuples():
        if r.status != "ok":
            lines.append(f"- {r.dataset}: {gap_mark(r.status)} ({r.reason})")
            continue
        lines.append(f"- {r.dataset}: ||M||_F {r.norm_initial:.4g} at the start, "
                     f"{r.norm_final:.3g} at the end with mu = 0 (ratio {r.norm_ratio:.3g}; "
                     f"{r.n_iter:.0f} iterations), {r.norm_final_mu_half:.4g} with mu = 0.5")
    return lines or ["- none run"]


def _table_md(table: pd.DataFrame) -> str:
    if table.empty:
        return "(nothing measured)"
    return tabulate(table.fillna(""), headers="keys", tablefmt="github", showindex=False)


def write(config: dict) -> list:
    """``tables/lmnn_mu_sweep.{csv,md,tex,json}``; returns the paths."""
    conf = _conf(config)
    frame = build(config)
    out = output_paths(config, NAME, KIND, sidecar=True)
    sweep, per_dataset = _sweep_table(frame), _dataset_table(frame)
    body = claim_lines(claims(config, frame))
    body += ["## Test errors against mu (mean ± SE over the runs)", "", _table_md(sweep), "",
             "PCA-LMNN, k = 3, random stratified splits paired over mu (run r on seed "
             "seed + r for every mu); p: two-sided paired t-test against mu = 0.5 over the "
             f"runs (level {conf['level']:g}, no multiplicity correction).", "",
             "## Per data set: range over each grid, mu = 0.5 against the best, Friedman",
             "", _table_md(per_dataset), "",
             "Range: highest minus lowest mean over the grid, ± the SE of the paired "
             "difference of those two mu; Friedman: across every mu swept, the runs as "
             "blocks.", "", "## mu = 0: the pull term alone (2.5)", ""]
    body += _collapse_lines(frame)
    body += ["", "## Choices", "",
             "See `harness/results/lmnn_mu_sweep/README.md` (choices fixed before the "
             "numbers were seen).", "", "## Jobs", ""]
    body += [f"- `{point_line(r)}`" for r in (read_point(config, NAME, k) for k in keys(config))
             if r["status"] != "missing"]
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", ""] + body
    tex = [f"% {TITLE}", tabulate(sweep.fillna(""), headers="keys", tablefmt="latex_booktabs",
                                  showindex=False) if not sweep.empty else "% nothing measured"]
    paths = [write_csv_atomic(out["csv"], frame),
             write_text_atomic(out["md"], "\n".join(md) + "\n"),
             write_text_atomic(out["tex"], "\n".join(tex) + "\n")]
    return paths + [write_sidecar(out["json"], {"title": TITLE,
                                                "markdown": "\n".join(body).strip()})]
