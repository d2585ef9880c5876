"""The claims-register entries Fig. 2.15's records decide (issue 54), one function per
entry, each implementing the entry's readings as the register writes them (thesis
2.1.9, lines 974, 980, 1004-1015).

The numbers the claims read are the *summary* (:func:`summary`): one value per name,
computed once from the three records and written as rows of the result's CSV, so that
every number the evidence shows is in the CSV. The conventions:

- A CPU-time ratio is decided beyond the timing band (``results.fig_2_15.timing_band``,
  0.65: a factor 1.65), inside it :data:`harness.claims.WITHIN_NOISE`
  (:func:`~harness.results.common.write.balltree_figure.at_least`). Counts (balls, levels,
  distance evaluations, visited nodes) are exact for their seeds and use no band.
- A log-log slope of CPU time is the least-squares slope over the sizes of the median
  times; its noise is two standard errors of the slopes of the single repeats
  (interleaved, :func:`slope_with_noise`): a bound on the slope is decided beyond it.
- Readings "over 20 draws" need 20 draws; with fewer they read "not measured" (unless
  a per-draw part fails).
- A property the implementation guarantees (no leaf above 10 inputs, a median split's
  depth, two exact searches returning the same neighbours) is shown and not counted.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import spearmanr

from harness.claims import Reading, beyond_noise, make_claim, readings_claim
from harness.results.common.write.balltree_figure import at_least, both
from harness.results.fig_2_15 import NAME

__all__ = ["DRAWS", "THESIS_BALLS", "BALLS_TOLERANCE", "FASTER", "SAME", "SUBLINEAR",
           "LINEAR", "THRESHOLDS", "slope_with_noise", "in_range", "summary",
           "register_claims"]

#: "mean over 20 draws and split seeds" (s2-1-9-fig-2-15-155-balls)
DRAWS = 20
#: the thesis' "155 balls" and the register's "within 15 %"
THESIS_BALLS, BALLS_TOLERANCE = 155, 0.15
#: "significantly [faster]": a ratio at least 1.25 (s2-1-9-mean-split-faster)
FASTER = 1.25
#: "almost identical": within +-10 % (s2-1-9-mean-split-identical-results)
SAME = 0.10
#: "O(d log(n))": log-log slope against n at most 0.5 (s2-1-9-tree-d-log-n)
SUBLINEAR = 0.5
#: "O(nd)": log-log slope between 0.7 and 1.3 (s2-1-9-brute-force-o-nd)
LINEAR = (0.7, 1.3)
#: "most" (s2-1-9-curse-balls-intersect): above 50 % at the largest r
MOST = 0.5
#: the register's span of n for s2-1-9-tree-d-log-n
TREE_SPAN = (2000, 60000)
#: the thresholds the evidence names, written to the CSV with the summary
THRESHOLDS = {"balls_low": THESIS_BALLS * (1 - BALLS_TOLERANCE),
              "balls_high": THESIS_BALLS * (1 + BALLS_TOLERANCE),
              "faster_ratio": FASTER, "same_low": 1 - SAME, "same_high": 1 + SAME,
              "sublinear_slope": SUBLINEAR, "linear_low": LINEAR[0], "linear_high": LINEAR[1],
              "most": MOST}


def slope_with_noise(xs, per_repeat) -> tuple[float, float]:
    """The least-squares slope of log(median time) against log(x) and its noise, two
    standard errors of the single repeats' slopes (NaN with one repeat).

    Parameters
    ----------
    xs : sequence of float
        The sizes.
    per_repeat : sequence of sequences
        Per size, each repeat's time.

    Examples
    --------
    >>> s, e = slope_with_noise([1, 2, 4], [[1, 1.1], [2, 2.2], [4, 4.4]])
    >>> round(s, 6), round(e, 6)
    (1.0, 0.0)
    """
    lx = np.log(np.asarray(xs, float))
    t = np.asarray(per_repeat, float)  # sizes x repeats
    slope = float(np.polyfit(lx, np.log(np.median(t, axis=1)), 1)[0])
    if t.shape[1] < 2:
        return slope, float("nan")
    slopes = [np.polyfit(lx, np.log(t[:, j]), 1)[0] for j in range(t.shape[1])]
    return slope, float(2 * np.std(slopes, ddof=1) / math.sqrt(len(slopes)))


def in_range(value: float, low: float, high: float, noise: float):
    """Whether ``value`` lies in [``low``, ``high``] beyond ``noise``: ``True`` inside by
    more than it, ``False`` outside by more than it, else :data:`WITHIN_NOISE`.

    Examples
    --------
    >>> in_range(1.0, 0.7, 1.3, 0.1), in_range(1.5, 0.7, 1.3, 0.1), in_range(1.25, 0.7, 1.3, 0.1)
    (True, False, WITHIN_NOISE)
    """
    inside = both(beyond_noise(value - low, noise), beyond_noise(high - value, noise))
    return inside


def _ok(record: dict | None) -> bool:
    return bool(record) and record.get("status") == "ok"


def _gaussian_summary(g: dict) -> dict:
    draws = g["draws"]
    out = {"draws_measured": len(draws)}
    for tree in ("mean", "median", "sklearn"):
        for field in ("n_leaves", "depth", "max_leaf", "distance_evals"):
            values = [d[tree][field] for d in draws]
            out[f"gauss_{tree}_{field}_mean"] = float(np.mean(values))
            out[f"gauss_{tree}_{field}_min"] = float(np.min(values))
            out[f"gauss_{tree}_{field}_max"] = float(np.max(values))
        out[f"gauss_{tree}_exact_draws"] = sum(bool(d[tree]["exact"]) for d in draws)
    for tree in ("mean", "median"):
        for field in ("visited_fraction", "points_pruned_fraction", "sibling_overlap"):
            out[f"gauss_{tree}_{field}_mean"] = float(np.mean([d[tree][field] for d in draws]))
    out.update({f"gauss_{k}": v for k, v in g["figure"]["timings"].items()})
    for row in g["depths"]:
        for k in ("bound", "mean_depth", "median_depth"):
            out[f"gauss_depth_n{row['n']}_{k}"] = row[k]
    return out


def _mnist_summary(m: dict) -> dict:
    out, rows = {}, m["trees"]
    dims = sorted({r["r"] for r in rows})
    for r in dims:
        for split in ("mean", "median"):
            mine = [x for x in rows if x["r"] == r and x["split"] == split]
            for field in ("visited_fraction", "sibling_overlap", "distance_evals",
                          "n_leaves", "depth", "points_pruned_fraction"):
                out[f"mnist_r{r}_{split}_{field}"] = float(np.mean([x[field] for x in mine]))
            out[f"mnist_r{r}_{split}_query_seconds"] = float(
                np.median([x["query_seconds"] for x in mine]))
            out[f"mnist_r{r}_{split}_exact"] = all(x["exact"] for x in mine)
        out[f"mnist_r{r}_evals_ratio"] = (out[f"mnist_r{r}_mean_distance_evals"]
                                          / out[f"mnist_r{r}_median_distance_evals"])
        out[f"mnist_r{r}_cpu_ratio"] = (out[f"mnist_r{r}_mean_query_seconds"]
                                        / out[f"mnist_r{r}_median_query_seconds"])
    for name in ("visited_fraction", "sibling_overlap"):
        ys = [out[f"mnist_r{r}_mean_{name}"] for r in dims]
        out[f"mnist_rho_{name}"] = (float(spearmanr(dims, ys).statistic)
                                    if np.ptp(ys) > 0 else 0.0)
    for b in m["builds"]:
        out.update({f"mnist_r{b['r']}_{k}": v for k, v in b.items() if k != "r"})
    for row in m["depths"]:
        for k in ("bound", "mean_depth", "median_depth"):
            out[f"mnist_depth_n{row['n']}_{k}"] = row[k]
    out["mnist_dimensions"] = dims
    return out


def _scaling_summary(s: dict) -> dict:
    out = {}
    rows = s["rows"]
    for method, sweep, x in (("balltree", "n", "n"), ("brute", "n", "n"), ("brute", "d", "d")):
        mine = sorted((r for r in rows if r["method"] == method and r["sweep"] == sweep),
                      key=lambda r: r[x])
        xs = [r[x] for r in mine]
        slope, noise = slope_with_noise(xs, [r["per_repeat"] for r in mine])
        key = f"{method}_{sweep}"
        out[f"{key}_slope"], out[f"{key}_slope_noise"] = slope, noise
        out[f"{key}_sizes"] = xs
        for r in mine:
            out[f"{key}{r[x]}_seconds"] = r["seconds"]
            out[f"{key}{r[x]}_microseconds"] = r["seconds"] * 1e6
        if method == "balltree":
            for field in ("thesis_tree_distance_evals", "sklearn_distance_evals"):
                ys = [r[field] for r in mine]
                out[f"{field}_slope"] = float(np.polyfit(np.log(xs), np.log(ys), 1)[0])
                for r in mine:
                    out[f"{field}_n{r['n']}"] = r[field]
            out["balltree_exact"] = all(r["exact"] for r in mine)
    return out


def summary(records: dict[str, dict]) -> dict:
    """The numbers the claims read, from the records of ``gaussians``, ``mnist`` and
    ``scaling`` (each may be a gap): a flat dict, name -> value (a list for the grids),
    with :data:`THRESHOLDS`; the measured parts' names start with ``gauss_``,
    ``mnist_`` and ``balltree_`` / ``brute_``."""
    out = dict(THRESHOLDS)
    if _ok(records.get("gaussians")):
        out.update(_gaussian_summary(records["gaussians"]))
    if _ok(records.get("mnist")):
        out.update(_mnist_summary(records["mnist"]))
    if _ok(records.get("scaling")):
        out.update(_scaling_summary(records["scaling"]))
    return out


# ---- entries --------------------------------------------------------------------------
def _leaf_count(s: dict, n_draws: int) -> Reading:
    """The mean leaf count over the draws against 155 +- 15 %."""
    if "gauss_mean_n_leaves_mean" not in s:
        return Reading("leaf count", [], "not measured: the gaussians job has no record")
    mean = s["gauss_mean_n_leaves_mean"]
    text = (f"mean-split tree on the Fig. 2.15 data: {mean:.2f} leaf balls on average over "
            f"{s['draws_measured']} draws (each with its split seed; range "
            f"{s['gauss_mean_n_leaves_min']:.0f} to {s['gauss_mean_n_leaves_max']:.0f}), "
            f"{s['balls_low']:.2f} to {s['balls_high']:.2f} needed; for comparison the "
            f"median split {s['gauss_median_n_leaves_mean']:.2f}, scikit-learn's BallTree "
            f"{s['gauss_sklearn_n_leaves_mean']:.0f} leaves (its leaves hold up to "
            f"{s['gauss_sklearn_max_leaf_max']:.0f} points)")
    if s["draws_measured"] < DRAWS:
        return Reading("leaf count", [], f"{text}; no verdict: the reading is a mean over "
                                         f"{DRAWS} draws, {s['draws_measured']} measured")
    return Reading("leaf count", [s["balls_low"] <= mean <= s["balls_high"]], text)


def _balls(s: dict, n_draws: int) -> list[dict]:
    """s2-1-9-fig-2-15-155-balls (line 1004) and its caption (line 1009)."""
    count = _leaf_count(s, n_draws)
    bound = Reading("leaf size bound", [], (
        f"largest leaf over every draw {s['gauss_mean_max_leaf_max']:.0f} inputs; holds by "
        f"construction (a set above the leaf size is always split), shown and not counted")
        if "gauss_mean_max_leaf_max" in s else "not measured")
    return [readings_claim(NAME, "The entire data set (n = 1000, two Gaussians) is split into "
                                 "155 balls with each containing no more than 10 inputs "
                                 "(2.1.9, Fig. 2.15)", [count, bound],
                           register="s2-1-9-fig-2-15-155-balls"),
            make_claim(NAME, "Fig. 2.15's caption: the final 155 balls, each with at most 10 "
                             "inputs (2.1.9)", count.checks, count.evidence,
                       register="s2-1-9-fig-2-15-caption-155-balls")]


def _median_depth(s: dict) -> dict:
    """s2-1-9-median-depth-log-n (line 1006): no verdict (the median split halves every
    set, so its depth is the bound by construction), the check's outcome and the mean
    split's depths in the evidence."""
    cases, checks = [], []
    for data, label in (("gauss", "two Gaussians"), ("mnist", "MNIST-PCA")):
        sizes = [k[len(f"{data}_depth_n"):-len("_bound")] for k in s
                 if k.startswith(f"{data}_depth_n") and k.endswith("_bound")]
        for n in sorted(sizes, key=int):
            med, mean, bound = (s[f"{data}_depth_n{n}_{x}"] for x in
                                ("median_depth", "mean_depth", "bound"))
            checks.append(med <= bound)
            cases.append(f"{label} n = {n}: median split {med} levels, mean split {mean}, "
                         f"bound ceil(log2(n / 10)) + 1 = {bound}")
    return make_claim(NAME, "Cutting off at the median would guarantee a tree depth of "
                            "log(n) (2.1.9)", [],
                      "no verdict: the median split halves every set, so its depth is the "
                      "bound by construction and our check cannot fail for a correct "
                      "implementation (shown as the harness' check: "
                      f"{sum(checks)} of {len(checks)} trees within it; "
                      + ("; ".join(cases) or "not measured") + ")",
                      register="s2-1-9-median-depth-log-n")


def _build_cases(s: dict) -> list[tuple[str, str]]:
    cases = [(f"MNIST-PCA r = {r}", f"mnist_r{r}") for r in s.get("mnist_dimensions", [])
             if f"mnist_r{r}_build_ratio" in s]
    if "gauss_build_ratio" in s:
        cases.append(("the Fig. 2.15 data (draw 0)", "gauss"))
    return cases


def _mean_faster(s: dict, band: float) -> dict:
    """s2-1-9-mean-split-faster (line 1006): median-split over mean-split CPU time at
    least 1.25 beyond the band, for the whole build and for the split value alone."""
    readings = []
    for name, field, what in (("tree build", "build_ratio", "build"),
                              ("split value only", "value_ratio", "split value")):
        checks, said = [], []
        for label, prefix in _build_cases(s):
            ratio = s[f"{prefix}_{field}"]
            checks.append(at_least(ratio, s["faster_ratio"], band))
            said.append(f"{label}: median / mean {what} CPU time {ratio:.3f}")
        readings.append(Reading(name, checks, "; ".join(said) + (
            f" (at least {s['faster_ratio']:.2f} beyond the {100 * band:g} % timing band "
            f"needed)" if said else "not measured")))
    return readings_claim(NAME, "In practice the mean [split] is significantly faster to "
                                "compute [than the median] (2.1.9)", readings,
                          register="s2-1-9-mean-split-faster")


def _identical(s: dict, band: float, build_dims) -> dict:
    """s2-1-9-mean-split-identical-results (line 1011): 3-NN distance evaluations of the
    mean-split tree within +-10 % of the median-split tree's and CPU time within the
    band; the neighbours (both searches exact) shown, not counted."""
    checks, said, exact = [], [], []
    for r in build_dims:
        if f"mnist_r{r}_evals_ratio" not in s:
            continue
        ev, cpu = s[f"mnist_r{r}_evals_ratio"], s[f"mnist_r{r}_cpu_ratio"]
        f = 1 + band
        checks.append(both(s["same_low"] <= ev <= s["same_high"], 1 / f <= cpu <= f))
        said.append(f"r = {r}: mean / median split distance evaluations per query {ev:.3f}, "
                    f"query CPU time {cpu:.3f}")
        exact.append(s[f"mnist_r{r}_mean_exact"] and s[f"mnist_r{r}_median_exact"])
    cost = Reading("query cost", checks, "; ".join(said) + (
        f" (evaluations within {s['same_low']:.2f} to {s['same_high']:.2f}, CPU time within "
        f"the {100 * band:g} % band needed)" if said else "not measured"))
    same = Reading("neighbours", [], (
        f"both trees' neighbours at the brute-force distances in {sum(exact)} of {len(exact)} "
        f"dimensions; follows from both searches being exact, shown and not counted")
        if exact else "not measured")
    return readings_claim(NAME, "The mean split leads to almost identical results [to the "
                                "median split] (2.1.9)", [cost, same],
                          register="s2-1-9-mean-split-identical-results")


def _curse(s: dict) -> dict:
    """s2-1-9-curse-balls-intersect (line 1015): the fraction of nodes a 3-NN query
    visits and of sibling balls that intersect rise with r (Spearman > 0) and are above
    50 % at the largest r."""
    dims = s.get("mnist_dimensions", [])
    readings = []
    for name, field, what in (("pruning falls", "visited_fraction",
                               "fraction of nodes a 3-NN query visits"),
                              ("overlap", "sibling_overlap",
                               "fraction of sibling balls that intersect")):
        if not dims:
            readings.append(Reading(name, [], "not measured: the mnist job has no record"))
            continue
        ys = [s[f"mnist_r{r}_mean_{field}"] for r in dims]
        rho = s[f"mnist_rho_{field}"]
        readings.append(Reading(name, [rho > 0, ys[-1] > s["most"]], (
            f"{what} (mean-split tree, mean over split seeds) at r = "
            + ", ".join(str(r) for r in dims) + ": " + ", ".join(f"{y:.3f}" for y in ys)
            + f"; Spearman {rho:.3f} (above 0 and above {s['most']:.2f} at r = {dims[-1]} "
              f"needed)" + _context(s, field))))
    return readings_claim(NAME, "The curse of dimensionality makes most balls intersect "
                                "each other and prevents efficient pruning (2.1.9)", readings,
                          register="s2-1-9-curse-balls-intersect")


def _context(s: dict, field: str) -> str:
    """The same fraction on the 2-D Fig. 2.15 data, for scale."""
    key = f"gauss_mean_{field}_mean"
    return (f"; on the 2-D Fig. 2.15 data {s[key]:.3f} (mean over the draws)"
            if key in s else "")


def _tree_log_n(s: dict) -> dict:
    """s2-1-9-tree-d-log-n (line 980): ball-tree 3-NN query time and distance
    evaluations against n increase with a log-log slope at most 0.5 (n spanning the
    register's 2000 to 60000)."""
    if "balltree_n_slope" not in s:
        return make_claim(NAME, "Given a fixed intrinsic dimensionality a tree reduces the "
                                "test time complexity in practice to O(d log(n)) (2.1.9)",
                          [], "not measured: the scaling job has no record",
                          register="s2-1-9-tree-d-log-n")
    sizes = s["balltree_n_sizes"]
    gate = (min(sizes) > TREE_SPAN[0] or max(sizes) < TREE_SPAN[1])
    slope, noise = s["balltree_n_slope"], s["balltree_n_slope_noise"]
    cpu_check = both(beyond_noise(slope, noise), beyond_noise(s["sublinear_slope"] - slope, noise))
    cpu = Reading("logarithmic in n", [cpu_check], (
        "scikit-learn BallTree 3-NN query CPU time at n = "
        + ", ".join(str(n) for n in sizes) + ": "
        + ", ".join(f"{s[f'balltree_n{n}_microseconds']:.2f}" for n in sizes)
        + f" microseconds per query, log-log slope {slope:.3f} (noise {noise:.3f}, two "
          f"standard errors over the repeats; above 0 and at most "
          f"{s['sublinear_slope']:.1f} beyond it needed)"))
    ev = s["thesis_tree_distance_evals_slope"]
    ops = Reading("counted operations", [ev > 0 and ev <= s["sublinear_slope"]], (
        "the thesis' mean-split tree's distance evaluations per query at the same n: "
        + ", ".join(f"{s[f'thesis_tree_distance_evals_n{n}']:.1f}" for n in sizes)
        + f", slope {ev:.3f} (scikit-learn's: slope "
          f"{s['sklearn_distance_evals_slope']:.3f}; above 0 and at most "
          f"{s['sublinear_slope']:.1f} needed)"))
    if gate:
        why = (f"; no verdict: the register's test spans n = {TREE_SPAN[0]} to "
               f"{TREE_SPAN[1]}, measured {min(sizes)} to {max(sizes)}")
        cpu, ops = (Reading(r.name, [], r.evidence + why) for r in (cpu, ops))
    return readings_claim(NAME, "Given a fixed intrinsic dimensionality a tree reduces the "
                                "nearest neighbor test time complexity in practice to "
                                "O(d log(n)) (2.1.9)", [cpu, ops],
                          register="s2-1-9-tree-d-log-n")


def _brute(s: dict) -> dict:
    """s2-1-9-brute-force-o-nd (line 974): brute-force query CPU time against n (d =
    784) and against d (the largest n), each log-log slope in [0.7, 1.3] beyond its
    noise."""
    checks, said = [], []
    for sweep, what in (("n", "n (d = 784)"), ("d", "d (n = {n})")):
        key = f"brute_{sweep}"
        if f"{key}_slope" not in s:
            continue
        slope, noise = s[f"{key}_slope"], s[f"{key}_slope_noise"]
        checks.append(in_range(slope, s["linear_low"], s["linear_high"], noise))
        xs = s[f"{key}_sizes"]
        said.append(f"against {what.format(n=max(s.get('brute_n_sizes', [0])))} = "
                    + ", ".join(str(x) for x in xs) + ": "
                    + ", ".join(f"{s[f'{key}{x}_microseconds']:.1f}" for x in xs)
                    + f" microseconds per query, slope {slope:.3f} (noise {noise:.3f})")
    return make_claim(NAME, "Brute-force k-NN search has a test time complexity of O(nd) "
                            "(2.1.9)", checks,
                      ("scikit-learn's brute force: " + "; ".join(said)
                       + f" (each slope in {s['linear_low']:.1f} to {s['linear_high']:.1f} "
                         f"beyond its noise, two standard errors over the repeats, needed)")
                      if said else "not measured: the scaling job has no record",
                      register="s2-1-9-brute-force-o-nd")


def register_claims(s: dict, conf: dict) -> list[dict]:
    """The eight entries' claims from the :func:`summary` ``s`` and the profile section
    ``conf`` (its ``timing_band``, ``n_draws``, ``build_dimensions``)."""
    band = conf["timing_band"]
    return [*_balls(s, conf["n_draws"]), _median_depth(s), _mean_faster(s, band),
            _identical(s, band, conf["build_dimensions"]), _curse(s), _tree_log_n(s),
            _brute(s)]
