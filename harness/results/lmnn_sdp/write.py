"""The outputs of ``lmnn_sdp`` (thesis 2.1.1-2.1.3, 2.1.7) from its jobs' records: the
frame (:func:`build`, one row per measured case with the derived gaps, ratios, slopes
and tests), the figure (CPU time against the triplets; the fixed-step gaps), the
Markdown and the verdicts (:mod:`.register_claims`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats
from tabulate import tabulate

from harness.results.common.write.figure_files import (
    claim_lines, gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.lmnn_sdp import NAME, TITLE, keys, parse_key
from harness.results.lmnn_sdp.register_claims import counted, register_claims
from harness.results.solver_table.register_claims import loglog_slope

__all__ = ["build", "claims", "write"]

#: what `harness compare` leaves out: ratios of solve times and their log-log slope in n (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"^ratio_(reference|lbfgs)$|^slope$"

_COLUMNS = ("what", "dataset", "margin", "solver", "start", "step", "objective", "rel_gap",
            "solver_status", "rel_err_literal", "rel_err_dimensional", "test_diff_predictions", "cvxpy_value",
            "max_slack_gap",
            "n_test", "knn_test_error", "converged", "cpu_seconds", "tail_change", "n_iter",
            "iterations", "n_triplets", "ratio_reference", "ratio_lbfgs", "reference_rel_gap",
            "lbfgs_rel_gap", "slope", "slope_noise", "reading", "mean_diff", "se",
            "p_claimed", "p_other", "n_runs", "objective_spread", "error_spread", "test_point",
            "impostor_free", "impostor_free_wrong")


def _gap(value, optimum):
    return (value - optimum) / abs(optimum) if optimum == optimum and optimum else math.nan


def _solve_rows(ds: str, record: dict) -> list[dict]:
    rows = [{**{k: v for k, v in r.items() if k != "M"}, "dataset": ds}
            for r in record["rows"]]
    optimum = next((r["objective"] for r in rows
                    if r["what"] == "sdp" and r["margin"] == 1.0
                    and counted(r["solver_status"], r["objective"], r["cvxpy_value"],
                                r["max_slack_gap"])), math.nan)
    for r in rows:
        if r["what"] in ("special", "step"):
            r["rel_gap"] = _gap(r["objective"], optimum)
    return rows + _start_spread(ds, rows)


def _start_spread(ds: str, rows: list[dict]) -> list[dict]:
    """L-BFGS over its starts: the objectives' spread relative to the smallest, the kNN
    test errors' spread and one test point (100 / n_test, in %): chapter 4's
    "reliable" entry reads them."""
    fits = [r for r in rows if r["what"] == "special" and r["solver"] == "lbfgs"]
    n_test = next((r["n_test"] for r in rows if r["what"] == "sdp"), None)
    if not fits:
        return []
    objectives = [r["objective"] for r in fits]
    errors = [r["knn_test_error"] for r in fits]
    return [{"what": "start_spread", "dataset": ds, "solver": "lbfgs", "n_runs": len(fits),
             "objective_spread": (max(objectives) - min(objectives)) / abs(min(objectives)),
             "error_spread": max(errors) - min(errors),
             "test_point": 100.0 / n_test if n_test else math.nan}]


def _scaling_rows(ds: str, record: dict) -> list[dict]:
    rows = []
    for r in record["rows"]:
        if not counted(r["generic_status"], 0.0, 0.0, 0.0):
            r = {**r, "generic_objective": math.nan}
        row = {**r, "dataset": ds,
               "ratio_reference": r["generic_cpu"] / r["reference_cpu"],
               "ratio_lbfgs": r["generic_cpu"] / r["lbfgs_cpu"],
               "reference_rel_gap": _gap(r["reference_objective"], r["generic_objective"]),
               "lbfgs_rel_gap": _gap(r["lbfgs_objective"], r["generic_objective"])}
        rows.append(row)
    sizes = list(rows)
    if len(sizes) >= 2:
        n = [r["n_triplets"] for r in sizes]
        for solver in ("generic", "reference", "lbfgs"):
            slope, noise = loglog_slope(n, [r[f"{solver}_cpu"] for r in sizes])
            rows.append({"what": "slope", "dataset": ds, "solver": solver, "slope": slope,
                         "slope_noise": noise})
    return rows


def _paired(ds: str, reading: str, claimed, other) -> dict:
    """Margin 0 minus margin 1 (positive: the claim's direction), its standard error
    and the one-sided paired t-tests."""
    diff = np.asarray(other, float) - np.asarray(claimed, float)
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.nan
    if len(diff) > 1 and np.any(diff != diff[0]):
        p_claimed = float(stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue)
        p_other = float(stats.ttest_1samp(diff, 0.0, alternative="less").pvalue)
    else:
        p_claimed = p_other = math.nan
    return {"what": "margin0_test", "dataset": ds, "reading": reading,
            "mean_diff": float(diff.mean()) if len(diff) else math.nan, "se": se,
            "p_claimed": p_claimed, "p_other": p_other, "n_runs": len(diff)}


def _margin0_rows(ds: str, record: dict) -> list[dict]:
    rows = [{**r, "dataset": ds} for r in record["rows"]]
    ok = [r for r in rows if counted(r["status_m1"], 0.0, 0.0, 0.0)
          and counted(r["status_m0"], 0.0, 0.0, 0.0)]
    if ok:
        rows.append(_paired(ds, "generalisation", [r["err_m1"] for r in ok],
                            [r["err_m0"] for r in ok]))
        rows.append(_paired(ds, "robustness",
                            [r["noisy_err_m1"] - r["err_m1"] for r in ok],
                            [r["noisy_err_m0"] - r["err_m0"] for r in ok]))
    return rows


_BUILDERS = {"solve": _solve_rows, "scaling": _scaling_rows, "margin0": _margin0_rows}


def build(config: dict) -> pd.DataFrame:
    """One row per measured case of every job (``what``: sdp, special, step, scaling,
    slope, margin0, margin0_test; ``gap``: a job without an ok record)."""
    rows = []
    for key in keys(config):
        kind, ds = parse_key(key)
        record = read_point(config, NAME, key)
        if record["status"] != "ok":
            rows.append({"what": "gap", "dataset": ds, "key": key, "status": record["status"],
                         "reason": record.get("reason", "")})
            continue
        rows += _BUILDERS[kind](ds, record)
    frame = pd.DataFrame(rows)
    return frame.reindex(columns=[*frame.columns, *[c for c in _COLUMNS if c not in frame]])


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register's entries this result decides."""
    return register_claims(build(config) if frame is None else frame)


def _table(frame: pd.DataFrame, what: str, columns: list[str]) -> str:
    part = frame[frame["what"] == what]
    if part.empty:
        return "(not measured)"
    return tabulate(part[columns].astype(object).where(part[columns].notna(), ""),
                    headers="keys", tablefmt="github", showindex=False, floatfmt=".6g")


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    scaling = frame[frame["what"] == "scaling"]
    for ds, g in scaling.groupby("dataset"):
        for solver, style in (("generic", "o-"), ("reference", "s--"), ("lbfgs", "^:")):
            axes[0].loglog(g["n_triplets"], g[f"{solver}_cpu"], style, label=f"{ds} {solver}")
    axes[0].set_xlabel("triplet constraints")
    axes[0].set_ylabel("CPU seconds (median)")
    axes[0].legend(fontsize=7)
    steps = frame[frame["what"] == "step"]
    for ds, g in steps.groupby("dataset"):
        axes[1].loglog(g["step"], g["rel_gap"].clip(lower=1e-9), "o-", label=ds)
    axes[1].set_xlabel("fixed step s")
    axes[1].set_ylabel("relative gap to the generic optimum")
    axes[1].legend(fontsize=7)
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/lmnn_sdp.{csv,png,md,json}``; return the paths."""
    frame = build(config)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`; choices: "
          f"harness/results/{NAME}/README.md.", ""]
    md += claim_lines(claims(config, frame))
    md += ["## The SDP at each margin", "", _table(frame, "sdp", [
        "dataset", "margin", "solver_status", "objective", "cpu_seconds", "rel_err_literal",
        "rel_err_dimensional", "test_diff_predictions", "knn_test_error"]), "",
        "## Special-purpose solvers from each start", "", _table(frame, "special", [
            "dataset", "solver", "start", "objective", "rel_gap", "converged", "n_iter",
            "cpu_seconds", "knn_test_error"]), "",
        "## Fixed-step projected sub-gradient", "", _table(frame, "step", [
            "dataset", "step", "iterations", "objective", "rel_gap"]), "",
        "## CPU time against the triplets", "", _table(frame, "scaling", [
            "dataset", "n_triplets", "generic_cpu", "reference_cpu", "lbfgs_cpu",
            "ratio_reference", "ratio_lbfgs", "reference_rel_gap", "lbfgs_rel_gap"]), "",
        _table(frame, "slope", ["dataset", "solver", "slope", "slope_noise"]), "",
        "## Margin 1 against margin 0 (trace fixed)", "", _table(frame, "margin0_test", [
            "dataset", "reading", "mean_diff", "se", "p_claimed", "p_other", "n_runs"]), "",
        f"![{NAME}]({NAME}.png)"]
    gaps = frame[frame["what"] == "gap"]
    notes = [f"{r.key}: {gap_mark(r.status)} {r.reason}" for r in gaps.itertuples()]
    return write_figure_files(config, NAME, keys(config), frame, md, notes, _plot)
