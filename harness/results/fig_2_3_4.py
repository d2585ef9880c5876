"""Figs. 2.3 and 2.4 (thesis 2.1.5, "Convergence"): LMNN on the half-square.

The thesis samples training sets uniformly from ``X = [0, 10] x [0, 10]``, labels the
upper half 1 and the lower half 0, and minimises the LMNN loss (2.8) from ``M = I``.
Fig. 2.3 (n = 1000): "LMNN mainly rescaled the horizontal dimension by a factor 1.4 and
the vertical direction by a factor of 2.2 (in addition to slight skewing) [...] The
vertical direction is stretched significantly more than the horizontal direction."
Fig. 2.4: the probability ``p = |(X_u n A_0) u (X_l n A_1)| / |X|`` that a uniform test
point is misclassified by the 1-NN rule, "averaged over 100 independent runs per
training set size": it decreases with n "for both metrics", and "the LMNN metric
reduces the probability of misclassifying a test point significantly below that of the
1-NN rule under the Euclidean metric."

Jobs (:mod:`harness.results._half_square_point`): ``fig_2_3_4/scaling`` (Fig. 2.3)
and ``fig_2_3_4/n<N>`` (Fig. 2.4: every run of one training-set size).

Choices where the thesis is ambiguous (parameters of ``results.fig_2_3_4``):
``n_neighbors`` (LMNN's target neighbours; the thesis does not say; 1, the rule the
figures evaluate); the scaling factors read as the column norms of L (``sqrt(M_xx)``,
``sqrt(M_yy)``: how much a horizontal and a vertical unit vector are stretched;
rotation-invariant, unlike L's entries), with the singular values and the skew angle
beside them; p by the midpoint rule on a ``grid_size`` x ``grid_size`` grid; a
training set with k or fewer points in a class is redrawn (LMNN needs k target
neighbours per point); "significantly below" tested per size by a one-sided
Wilcoxon signed-rank test over the paired runs at level ``alpha``; "decreases with n"
by a one-sided Spearman test of the per-run p against n at level ``alpha``;
"stretched significantly more" as vertical > horizontal on Fig. 2.3's set and a
one-sided sign test over the runs of that size at level ``alpha``; "factors
1.4 and 2.2" as within ``factor_tolerance`` (relative) of them.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import yaml
from scipy import stats

from harness import registry
from harness.claims import make_claim
from harness.errors import ConfigError
from harness.results import _half_square_point as point
from harness.results.common.figure_files import gap_mark, read_point, write_figure_files
from harness.results.common.profile import parse_int_key
from harness.results._half_square_md import markdown
from harness.results._half_square_plot import plot

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "THESIS_FACTORS", "check",
           "keys", "params", "work", "sources", "build", "one_sided_wilcoxon",
           "decrease_test", "claims", "write"]

NAME = "fig_2_3_4"
TITLE = ("Figs. 2.3 and 2.4: LMNN on the half-square, axis scaling and the 1-NN "
         "misclassification probability against n (thesis 2.1.5)")
THESIS_SECTION = "2.1.5"
KIND = "figure"
SIDECAR = True
SCHEMA = yaml.safe_load("""
    type: object
    additionalProperties: false
    description: >-
      Figs. 2.3 and 2.4 (thesis 2.1.5): LMNN from M = I on uniform points of the
      half-square; the axis scaling at n = 1000 (job scaling) and the probability p
      that 1-NN misclassifies a uniform test point, Euclidean vs LMNN, per training
      size (jobs n<N>)
    properties:
      dataset: {type: string, default: half_square, description: registered dataset plugin}
      side: {type: number, exclusiveMinimum: 0, default: 10.0,
             description: "side of the square (thesis: [0, 10]^2; LMNN's margin is 1)"}
      scaling_n_samples: {type: integer, minimum: 2, default: 1000,
                          description: training points of Fig. 2.3 (thesis 1000)}
      sizes:
        type: array
        items: {type: integer, minimum: 2}
        minItems: 1
        uniqueItems: true
        default: [10, 20, 50, 100, 200, 500, 1000]
        description: training-set sizes of Fig. 2.4, one job each
      runs: {type: integer, minimum: 1, default: 100,
             description: independent training sets per size (thesis 100)}
      n_neighbors: {type: integer, minimum: 1, default: 1,
                    description: LMNN's target neighbours k (the thesis does not say)}
      solver: {enum: [lbfgs, reference], default: lbfgs,
               description: LMNN solver (methods/lmnn.py; reference = thesis 2.1.7)}
      max_iter: {type: integer, minimum: 1, default: 1000}
      grid_size: {type: integer, minimum: 2, default: 500,
                  description: "p on the cell centres of a grid_size^2 grid (even)"}
      alpha: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 1, default: 0.05,
              description: level of the one-sided tests (aggregation only)}
      factor_tolerance: {type: number, exclusiveMinimum: 0, default: 0.25,
                         description: "relative tolerance around the thesis' factors 1.4
                           and 2.2 (aggregation only)"}
      time_limit_seconds: {$ref: "#/$defs/fig_time_limit"}
""")
THESIS_FACTORS = {"horizontal": 1.4, "vertical": 2.2}
THESIS_RUNS, THESIS_N = 100, 1000
work, sources = point.work, point.sources


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Profile checks beyond the schema: a classification data set, an even grid, and
    every size large enough for k + 1 points in each class."""
    conf = _conf(config)
    where = f"results.{NAME}"
    valid = registry.datasets("classification")
    if conf["dataset"] not in valid:
        raise ConfigError(f"{where}.dataset: unknown classification dataset "
                          f"{conf['dataset']!r}; valid: {', '.join(valid)}")
    if conf["grid_size"] % 2:
        raise ConfigError(f"{where}.grid_size = {conf['grid_size']} must be even (an odd "
                          f"grid puts a row of centres on the class boundary)")
    smallest = 2 * (conf["n_neighbors"] + 1)
    for what, n in [("scaling_n_samples", conf["scaling_n_samples"])] + [
            ("sizes", n) for n in conf["sizes"]]:
        if n < smallest:
            raise ConfigError(f"{where}.{what}: n = {n} is below 2 (k + 1) = {smallest}: "
                              f"no training set has k + 1 points in each class; use more "
                              f"points or a smaller n_neighbors")


def keys(config: dict) -> list[str]:
    """``scaling`` and ``n<N>`` for every size."""
    return ["scaling"] + [f"n{n}" for n in _conf(config)["sizes"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``scaling`` or ``n<N>`` (any N >= 2)."""
    conf = _conf(config)
    if key == "scaling":
        kind, n, runs = "scaling", conf["scaling_n_samples"], 1
    else:
        kind, n, runs = "sizes", parse_int_key(NAME, key, "n", 100), conf["runs"]
    return {"figure": NAME, "point": f"{NAME}/{key}", "kind": kind, "n_samples": n,
            "runs": runs, "dataset": conf["dataset"], "side": float(conf["side"]),
            "n_neighbors": conf["n_neighbors"], "solver": conf["solver"],
            "max_iter": conf["max_iter"], "grid_size": conf["grid_size"],
            "seed": config["seed"], "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"])}


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
               horizontal=float(np.mean(horizontal)), vertical=float(np.mean(vertical)),
               horizontal_min=float(np.min(horizontal)), horizontal_max=float(np.max(horizontal)),
               vertical_min=float(np.min(vertical)), vertical_max=float(np.max(vertical)),
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
            runs, larger = int(across["runs"].iloc[0]), int(across["vertical_larger_runs"].iloc[0])
            sign = float(scale["sign_test_pvalue"])
            checks_1.append(sign < alpha)
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
        checks_1, factors + extra + "."))
    out.append(make_claim(
        NAME, "LMNN rescales the horizontal dimension by a factor 1.4 and the vertical by "
              f"2.2, n = {THESIS_N} (2.1.5, Fig. 2.3; checked within {tol:.0%} of each)",
        checks_2, factors + "."))
    trend_rows = frame[frame["panel"] == "trend"].set_index("metric")
    trends = {m: (float(trend_rows.loc[m, "spearman_rho"]),
                  float(trend_rows.loc[m, "spearman_pvalue"])) for m in ("euclidean", "lmnn")}
    means = "; ".join(
        f"{m}: " + ", ".join(f"n = {r.n}: {getattr(r, f'mean_p_{m}'):.4f}"
                             for r in ok.itertuples()) +
        (f" (Spearman rho {trends[m][0]:+.2f}, one-sided p = {trends[m][1]:.1e})"
         if not math.isnan(trends[m][0]) else "") for m in trends)
    out.append(make_claim(
        NAME, "The probability p that 1-NN misclassifies a uniform test point decreases "
              "with the number of training points for both metrics (2.1.5, Fig. 2.4; "
              f"one-sided Spearman test of the runs' p against n at level {alpha:g})",
        [t[1] < alpha for t in trends.values() if not math.isnan(t[1])],
        f"mean p {means}{size_note}{_gaps(sizes)}." if len(ok) else
        f"no size measured{_gaps(sizes)}."))
    tests = ", ".join(f"n = {r.n}: {r.mean_p_lmnn:.4f} vs {r.mean_p_euclidean:.4f} "
                      f"(Wilcoxon p = {r.wilcoxon_pvalue:.1e})" for r in ok.itertuples())
    out.append(make_claim(
        NAME, "LMNN's metric makes p significantly smaller than the Euclidean metric's "
              "(2.1.5, Fig. 2.4; one-sided Wilcoxon signed-rank test over the paired runs "
              f"of each size at level {alpha:g})",
        [r.wilcoxon_pvalue < alpha for r in ok.itertuples()],
        (f"mean p LMNN vs Euclidean: {tests}{size_note}{_gaps(sizes)}." if len(ok)
         else f"no size measured{_gaps(sizes)}.")))
    return out


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_3_4.{csv,png,md,json}``; return the
    paths."""
    frame = build(config)
    md, gap_notes = markdown(config, frame, claims(config, frame), TITLE, THESIS_RUNS)
    scaling = read_point(config, NAME, "scaling")
    return write_figure_files(config, NAME, keys(config), frame, md, gap_notes,
                              lambda f, c, path: plot(f, c, path, scaling))
