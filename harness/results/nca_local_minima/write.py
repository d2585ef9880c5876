"""The outputs of ``nca_local_minima`` from its jobs' records: the CSV (spread rows per
data set, split, r and method; NCA against PCA per data set and r; the side checks'
numbers), the Markdown table and the verdicts (:mod:`.register_claims`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import ttest_rel
from tabulate import tabulate

from harness.jobs import Job, read_job_record
from harness.outputs import output_paths
from harness.records import write_text_atomic
from harness.results.common.write.figure_files import gap_mark
from harness.results.nca_local_minima import KIND, NAME, TITLE, _conf, keys
from harness.results.nca_local_minima.register_claims import factor_check, register_claims

__all__ = ["records", "spread_rows", "dimred_rows", "side_rows", "build", "claims", "write"]


def records(config: dict) -> dict:
    """Data set -> its job's record."""
    return {key: read_job_record(config, Job(NAME, key)) for key in keys(config)}


def _se_diff(p_max: float, p_min: float, n: int) -> float:
    """Binomial SE (points) of the difference of two error rates given in %."""
    a, b = p_max / 100, p_min / 100
    return 100 * math.sqrt((a * (1 - a) + b * (1 - b)) / n)


def spread_rows(recs: dict) -> pd.DataFrame:
    """One row per data set, split, r and method: the spread over the starts."""
    rows = []
    for name, rec in recs.items():
        if rec.get("status") != "ok":
            continue
        fits = pd.DataFrame(rec["fits"])
        for (split, r, method), g in fits.groupby(["split", "r", "method"]):
            obj, err = g["objective"], g["test_error"]
            rows.append({
                "kind": "spread", "dataset": name, "d": rec["n_features"], "split": split,
                "r": r, "method": method, "n_starts": len(g), "n_test": rec["n_test"],
                "obj_min": obj.min(), "obj_max": obj.max(), "obj_mean": obj.mean(),
                "obj_rel_spread": (obj.max() - obj.min()) / abs(obj.mean()),
                "err_min": err.min(), "err_max": err.max(), "err_mean": err.mean(),
                "err_range": err.max() - err.min(),
                "err_se_diff": _se_diff(err.max(), err.min(), rec["n_test"]),
                "err_two_se": 2 * _se_diff(err.max(), err.min(), rec["n_test"]),
                "n_converged": int(g["converged"].sum()),
                "grad_norm_max": g["grad_norm"].max(),
                "fit_cpu_seconds": g["fit_cpu_seconds"].sum()})
    return pd.DataFrame(rows)


def dimred_rows(recs: dict) -> pd.DataFrame:
    """Per data set and rectangular r in 2..10: NCA (mean over starts per split) against
    PCA, paired over the splits."""
    rows = []
    for name, rec in recs.items():
        if rec.get("status") != "ok":
            continue
        fits = pd.DataFrame(rec["fits"])
        nca = fits[fits["method"] == "nca"].groupby(["r", "split"])["test_error"].mean()
        pca = pd.DataFrame(rec["pca"]).set_index(["r", "split"])["test_error"]
        for r in sorted(set(fits["r"])):
            if not (2 <= r <= 10 and r < rec["n_features"]):
                continue
            a, b = nca.loc[r].sort_index(), pca.loc[r].sort_index()
            diff = (b - a).to_numpy()
            n = len(diff)
            se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
            if n > 1 and np.ptp(diff) > 0:
                p_less = float(ttest_rel(a, b, alternative="less").pvalue)
                p_greater = float(ttest_rel(a, b, alternative="greater").pvalue)
            else:
                p_less = p_greater = math.nan
            rows.append({"kind": "dimred", "dataset": name, "d": rec["n_features"], "r": r,
                         "n_splits": n, "nca_error": a.mean(), "pca_error": b.mean(),
                         "mean_diff": float(diff.mean()), "se_diff": se, "p_less": p_less,
                         "p_greater": p_greater})
    return pd.DataFrame(rows)


def side_rows(recs: dict) -> pd.DataFrame:
    """The side checks' numbers (first split) shown in the verdicts' evidence."""
    rows = []
    for name, rec in recs.items():
        if rec.get("status") != "ok":
            continue
        def add(measure, value):
            rows.append({"kind": "side", "dataset": name, "measure": measure, "value": value})
        add("midpoint_max_violation_rel", rec["midpoint"]["max_violation_rel"])
        add("midpoint_n_violations", rec["midpoint"]["n_violations"])
        if rec.get("l1"):
            devs = rec["l1"]["random_rel_dev"]
            add("l1_random_max_rel_dev", max(devs))
            add("l1_random_n_within", sum(d <= 1e-9 for d in devs))
            ratios = [abs(o["c_l1"] / o["c_f"] - 1) for o in rec["l1"]["optimiser"]]
            if ratios:
                add("l1_optimiser_max_rel_c", max(ratios))
                add("l1_optimiser_n_agree", sum(x <= 0.01 for x in ratios))
        square = [p for p in rec["perplexity"] if p["square"]]
        add("perplexity_n_decreasing", sum(p["decreasing"] for p in square))
        add("perplexity_floor_steps", sum(p["floor_steps"] for p in square))
        if rec.get("learned_perplexity") is not None:
            add("learned_perplexity", rec["learned_perplexity"])
        items = rec["factorisation"]
        add("factor_worst_residual", max(max(f["res_l1"], f["res_l2"], f["orth"]) for f in items))
        add("factor_n_pass", sum(factor_check(f) is True for f in items))
        add("factor_n_identical_lists", sum(bool(f["same_neighbours"]) for f in items))
        add("side_cpu_seconds", rec.get("side_cpu_seconds", math.nan))
    return pd.DataFrame(rows)


def build(config: dict) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict]:
    """``(spreads, dimred, side, records)``."""
    recs = records(config)
    return spread_rows(recs), dimred_rows(recs), side_rows(recs), recs


def claims(config: dict) -> list[dict]:
    """The register entries this result decides."""
    spreads, dimred, _, recs = build(config)
    return register_claims(spreads, dimred, recs, tuple(_conf(config)["l1_datasets"]))


def _markdown(config, spreads, dimred, recs) -> str:
    conf = _conf(config)
    md = [f"# {TITLE}", "",
          f"Same {conf['n_starts']} random starts for both methods per data set, split and "
          f"r; objective = each method's own, recomputed from the final matrix (NCA: "
          f"f(A) of (2.33), maximised; LMNN: (2.8), minimised); relative spread = (max - "
          f"min) / mean; kNN test error in %.", ""]
    if len(spreads):
        shown = spreads.assign(**{
            "objective min-max": [f"{a:.4g}-{b:.4g}" for a, b in
                                  zip(spreads.obj_min, spreads.obj_max)],
            "rel. spread (%)": [f"{100 * v:.3g}" for v in spreads.obj_rel_spread],
            "test error min-max (%)": [f"{a:.2f}-{b:.2f}" for a, b in
                                       zip(spreads.err_min, spreads.err_max)],
            "2 SE (points)": [f"{v:.2f}" for v in spreads.err_two_se],
            "converged": [f"{c}/{n}" for c, n in zip(spreads.n_converged, spreads.n_starts)]})
        cols = ["dataset", "d", "r", "split", "method", "objective min-max", "rel. spread (%)",
                "test error min-max (%)", "2 SE (points)", "converged"]
        md += [tabulate(shown[cols], headers="keys", tablefmt="github", showindex=False), ""]
    if len(dimred):
        md += ["NCA (mean over starts) against PCA at the same r, paired over the splits:", "",
               tabulate(dimred[["dataset", "r", "n_splits", "nca_error", "pca_error",
                                "p_less"]].round(4), headers="keys", tablefmt="github",
                        showindex=False), ""]
    gaps = [f"{n}: {gap_mark(r.get('status', 'missing'))} ({r.get('reason', '')})"
            for n, r in recs.items() if r.get("status") != "ok"]
    if gaps:
        md += ["Not measured: " + "; ".join(gaps), ""]
    return "\n".join(md) + "\n"


def write(config: dict) -> list:
    """Write ``tables/nca_local_minima.{csv,md,tex}``."""
    spreads, dimred, side, recs = build(config)
    out = output_paths(config, NAME, KIND)
    frame = pd.concat([f for f in (spreads, dimred, side) if len(f)], ignore_index=True) \
        if len(spreads) or len(dimred) or len(side) else pd.DataFrame({"kind": []})
    return [write_text_atomic(out["csv"], frame.to_csv(index=False)),
            write_text_atomic(out["md"], _markdown(config, spreads, dimred, recs)),
            write_text_atomic(out["tex"], f"% {TITLE}\n% see {NAME}.md\n")]
