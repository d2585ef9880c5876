"""The outputs of fig_2_3_4 from its records: the CSV, the Markdown, the sidecar (and the
figure, for a figure) and the verdicts on the thesis' statements (:func:`claims`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from harness.claims import make_claim, significant
from harness.results.common.write.figure_files import gap_mark, read_point, write_figure_files
from harness.results.fig_2_3_4.markdown import markdown
from harness.results.fig_2_3_4.plot import plot
from harness.results.fig_2_3_4 import NAME, TITLE, _conf, keys
from harness.results.fig_2_3_4.register_claims import LEVEL, register_claims

__all__ = ["THESIS_FACTORS", "one_sided_wilcoxon", "decrease_test", "decrease_checks",
           "significant", "build", "claims", "write"]

THESIS_FACTORS = {"horizontal": 1.4, "vertical": 2.2}
THESIS_RUNS, THESIS_N = 100, 1000


# ---- statistics ----------------------------------------------------------------------
def one_sided_wilcoxon(lmnn, euclidean) -> float:
    """p-value of the Wilcoxon signed-rank test that LMNN's p is below the Euclidean
    one over paired runs (zero differences dropped; 1 if every difference is 0)."""
    d = np.asarray(lmnn, dtype=float) - np.asarray(euclidean, dtype=float)
    if not np.any(d != 0):
        return 1.0
    return float(stats.wilcoxon(d, alternative="less", zero_method="wilcox").pvalue)


def decrease_test(sizes, values) -> tuple[float, float]:
    """Spearman's rho of the per-run p against n and its one-sided p-value (rho < 0);
    NaNs with fewer than two distinct sizes."""
    sizes, values = np.asarray(sizes, dtype=float), np.asarray(values, dtype=float)
    if len(np.unique(sizes)) < 2:
        return math.nan, math.nan
    result = stats.spearmanr(sizes, values, alternative="less")
    return float(result.statistic), float(result.pvalue)


def _se(values) -> float:
    values = np.asarray(values, dtype=float)
    return float(values.std(ddof=1) / np.sqrt(values.size)) if values.size > 1 else math.nan


# ---- aggregation ---------------------------------------------------------------------
def _scaling_row(config: dict) -> dict:
    record = read_point(config, NAME, "scaling")
    row = {"panel": "fig_2_3", "n": _conf(config)["scaling_n_samples"],
           "status": record["status"], "reason": record.get("reason", ""),
           "thesis_horizontal": THESIS_FACTORS["horizontal"],
           "thesis_vertical": THESIS_FACTORS["vertical"]}
    if record["status"] == "ok":
        s = record["scaling"]
        row.update(horizontal=s["horizontal"], vertical=s["vertical"],
                   angle_degrees=s["angle_degrees"], sv1=s["singular_values"][0],
                   sv2=s["singular_values"][1], sv1_direction=s["singular_directions_degrees"][0],
                   sv2_direction=s["singular_directions_degrees"][1],
                   mean_p_euclidean=record["p_euclidean"], mean_p_lmnn=record["p_lmnn"],
                   loss=record["loss"], converged=record["converged"])
    return row


def _size_row(config: dict, n: int) -> dict:
    record = read_point(config, NAME, f"n{n}")
    row = {"panel": "fig_2_4", "n": n, "status": record["status"],
           "reason": record.get("reason", "")}
    if record["status"] != "ok":
        return row
    pe, pl = np.asarray(record["p_euclidean"]), np.asarray(record["p_lmnn"])
    horizontal = [s["horizontal"] for s in record["scaling"]]
    vertical = [s["vertical"] for s in record["scaling"]]
    row.update(runs=pe.size, mean_p_euclidean=pe.mean(), se_p_euclidean=_se(pe),
               mean_p_lmnn=pl.mean(), se_p_lmnn=_se(pl), mean_difference=(pl - pe).mean(),
               se_difference=_se(pl - pe), lmnn_better_runs=int(np.sum(pl < pe)),
               lmnn_worse_runs=int(np.sum(pl > pe)),
               wilcoxon_pvalue=one_sided_wilcoxon(pl, pe),
               wilcoxon_pvalue_worse=one_sided_wilcoxon(pe, pl),
               horizontal=float(np.mean(horizontal)), vertical=float(np.mean(vertical)),
               horizontal_min=float(np.min(horizontal)), horizontal_max=float(np.max(horizontal)),
               vertical_min=float(np.min(vertical)), vertical_max=float(np.max(vertical)),
               skew_deviation_median=float(np.median([abs(s["angle_degrees"] - 90.0)
                                                      for s in record["scaling"]])),
               vertical_larger_runs=int(sum(s["vertical"] > s["horizontal"]
                                            for s in record["scaling"])),
               redraws=int(sum(record["draws"]) - pe.size),
               unconverged=int(sum(not c for c in record["converged"])))
    return row


def build(config: dict) -> pd.DataFrame:
    """One row for Fig. 2.3 (``panel = fig_2_3``: the axis factors and p of the one
    training set) and one per size for Fig. 2.4 (``fig_2_4``: mean and standard error
    of p under both metrics over the runs, the paired test, the axis factors' mean,
    minimum and maximum over the runs, and ``sign_test_pvalue`` on the size of Fig.
    2.3: the one-sided sign test of 'vertical larger' over its runs) and one per metric
    (``trend``: Spearman's rho of the runs' p against n and its one-sided p-value), so
    that every statistic the text shows is in the CSV."""
    scale = _scaling_row(config)
    sizes = [_size_row(config, n) for n in _conf(config)["sizes"]]
    across = [r for r in sizes if r["status"] == "ok" and r["n"] == scale["n"]]
    if across:
        runs, larger = int(across[0]["runs"]), int(across[0]["vertical_larger_runs"])
        scale["sign_test_pvalue"] = float(stats.binom.sf(larger - 1, runs, 0.5))
        # the same test the other way: the horizontal factor larger in more runs
        scale["sign_test_pvalue_other"] = float(stats.binom.sf(runs - larger - 1, runs, 0.5))
    trends = []
    for metric in ("euclidean", "lmnn"):
        rho, pvalue = decrease_test(*_per_run(config, f"p_{metric}"))
        trends.append({"panel": "trend", "metric": metric,
                       "status": "ok" if not math.isnan(rho) else "not measured",
                       "reason": "" if not math.isnan(rho) else "fewer than two sizes measured",
                       "spearman_rho": rho, "spearman_pvalue": pvalue})
    frame = pd.DataFrame([scale] + sizes + trends)
    frame["n"] = frame["n"].astype("Int64")  # the trend rows have none
    return frame


def _per_run(config: dict, metric: str) -> tuple[list, list]:
    sizes, values = [], []
    for n in _conf(config)["sizes"]:
        record = read_point(config, NAME, f"n{n}")
        if record["status"] == "ok":
            sizes += [n] * len(record[metric])
            values += list(record[metric])
    return sizes, values


def _gaps(frame: pd.DataFrame) -> str:
    gaps = frame[frame["status"] != "ok"]
    return ("; not measured: " + ", ".join(f"n = {r.n} ({gap_mark(r.status)})"
                                           for r in gaps.itertuples())) if len(gaps) else ""


def decrease_checks(frame: pd.DataFrame, alpha: float) -> tuple[list, str]:
    """The checks that p falls with n for both metrics (one-sided Spearman test of the
    runs' p against n at level ``alpha`` per metric) and the numbers behind them."""
    sizes = frame[frame["panel"] == "fig_2_4"]
    ok = sizes[sizes["status"] == "ok"]
    size_note = (f"; {int(ok['runs'].min())} runs per size (thesis {THESIS_RUNS})"
                 if len(ok) else "")
    trend_rows = frame[frame["panel"] == "trend"].set_index("metric")
    trends = {m: (float(trend_rows.loc[m, "spearman_rho"]),
                  float(trend_rows.loc[m, "spearman_pvalue"])) for m in ("euclidean", "lmnn")}
    means = "; ".join(
        f"{m}: " + ", ".join(f"n = {r.n}: {getattr(r, f'mean_p_{m}'):.4f}"
                             for r in ok.itertuples()) +
        (f" (Spearman rho {trends[m][0]:+.2f}, one-sided p = {trends[m][1]:.1e})"
         if not math.isnan(trends[m][0]) else "") for m in trends)
    # Spearman's one-sided p-values of the two directions add to 1
    checks = [significant(t[1], 1.0 - t[1], alpha) for t in trends.values()
              if not math.isnan(t[1])]
    return checks, (f"mean p {means}{size_note}{_gaps(sizes)}." if len(ok) else
                     f"no size measured{_gaps(sizes)}.")


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The thesis' four statements with verdicts (interface :mod:`harness.claims`)."""
    conf = _conf(config)
    frame = build(config) if frame is None else frame
    alpha, tol = conf["alpha"], conf["factor_tolerance"]
    scale = frame[frame["panel"] == "fig_2_3"].iloc[0]
    sizes = frame[frame["panel"] == "fig_2_4"]
    ok = sizes[sizes["status"] == "ok"]
    size_note = (f"; {int(ok['runs'].min())} runs per size (thesis {THESIS_RUNS})"
                 if len(ok) else "")
    out = []
    if scale["status"] == "ok":
        h, v = scale["horizontal"], scale["vertical"]
        across = ok[ok["n"] == scale["n"]]
        extra = (f"; over the {int(across['runs'].iloc[0])} runs of n = {scale['n']}: mean "
                 f"{across['horizontal'].iloc[0]:.2f} / {across['vertical'].iloc[0]:.2f}, "
                 f"vertical larger in {int(across['vertical_larger_runs'].iloc[0])}"
                 if len(across) else "")
        factors = (f"horizontal x{h:.2f}, vertical x{v:.2f} (column norms of L, n = "
                   f"{scale['n']}); thesis x1.4, x2.2; singular values {scale['sv1']:.2f}, "
                   f"{scale['sv2']:.2f} along {scale['sv1_direction']:.0f} and "
                   f"{scale['sv2_direction']:.0f} degrees; images of the axes at "
                   f"{scale['angle_degrees']:.1f} degrees")
        checks_1 = [v > h]
        checks_2 = [abs(h / 1.4 - 1) <= tol, abs(v / 2.2 - 1) <= tol]
        if len(across):
            sign = float(scale["sign_test_pvalue"])
            checks_1.append(significant(sign, float(scale["sign_test_pvalue_other"]), alpha))
            extra += f" (one-sided sign test p = {sign:.1e})"
    else:
        factors = f"Fig. 2.3's job not measured ({gap_mark(scale['status'])})"
        checks_1, checks_2, extra = [], [], ""
    out.append(make_claim(
        NAME, "LMNN stretches the vertical (discriminative) direction of the half-square "
              "significantly more than the horizontal one (2.1.5, Fig. 2.3; checked: the "
              "vertical factor above the horizontal on Fig. 2.3's training set, and in "
              f"significantly more than half the runs of that size, sign test at level "
              f"{alpha:g})",
        checks_1, factors + extra + ".",
        register="s2-1-5-vertical-stretched-more"))
    out.append(make_claim(
        NAME, "LMNN rescales the horizontal dimension by a factor 1.4 and the vertical by "
              f"2.2, n = {THESIS_N} (2.1.5, Fig. 2.3; checked within {tol:.0%} of each)",
        checks_2, factors + ".",
        register="s2-1-5-scaling-factors"))
    checks, evidence = decrease_checks(frame, alpha)
    out.append(make_claim(
        NAME, "The probability p that 1-NN misclassifies a uniform test point decreases "
              "with the number of training points for both metrics (2.1.5, Fig. 2.4; "
              f"one-sided Spearman test of the runs' p against n at level {alpha:g})",
        checks, evidence, register="s2-1-5-p-decreases-for-both-metrics"))
    tests = ", ".join(f"n = {r.n}: {r.mean_p_lmnn:.4f} vs {r.mean_p_euclidean:.4f} "
                      f"(Wilcoxon p = {r.wilcoxon_pvalue:.1e})" for r in ok.itertuples())
    out.append(make_claim(
        NAME, "LMNN's metric makes p significantly smaller than the Euclidean metric's "
              "(2.1.5, Fig. 2.4; one-sided Wilcoxon signed-rank test over the paired runs "
              f"of each size at level {alpha:g})",
        [significant(r.wilcoxon_pvalue, r.wilcoxon_pvalue_worse, alpha)
         for r in ok.itertuples()],
        (f"mean p LMNN vs Euclidean: {tests}{size_note}{_gaps(sizes)}." if len(ok)
         else f"no size measured{_gaps(sizes)}."),
        register="s2-1-5-lmnn-p-significantly-smaller"))
    return out + register_claims(frame, decrease_checks(frame, LEVEL))


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_3_4.{csv,png,md,json}``; return the
    paths."""
    frame = build(config)
    md, gap_notes = markdown(config, frame, claims(config, frame), TITLE, THESIS_RUNS)
    scaling = read_point(config, NAME, "scaling")
    return write_figure_files(config, NAME, keys(config), frame, md, gap_notes,
                              lambda f, c, path: plot(f, c, path, scaling))
