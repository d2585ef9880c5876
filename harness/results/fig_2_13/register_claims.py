"""The claims-register entries Fig. 2.13's records decide (issue 51), one function per
entry (or per shape of entries), each implementing the entry's readings as the register
writes them (``harness/claims_register/*.yaml``; thesis 2.1.8 line 968, 2.1.9 lines
976-1041, the summary line 2206, the lecture notes' kd-tree line).

The quantities are columns of :func:`harness.results.fig_2_13.write.build`'s frame:
``speedup`` (over the naive search in d = 784, CPU time) and ``speedup_work`` (the same
in coordinate operations) per r-D search, ``balltree_gain`` / ``balltree_gain_work``
(the ball tree over the naive r-D search), and the 784-D naive search's coordinates per
distance (``naive784_*``).

Conventions shared with the figure's own claims (:mod:`.write`):

- A comparison in CPU time is decided beyond the profile's timing band
  (``results.fig_2_13.timing_band``: 0.65, a factor 1.65 between repeats); a difference
  inside it is :data:`harness.claims.WITHIN_NOISE`. "At least T" passes at T (1 +
  band) and fails below T / (1 + band) (:func:`~harness.results.common.write.balltree_figure.at_least`).
  Coordinate operations are exact counts and use no band.
- A reading whose test names "CPU time and coordinate operations" needs both: each case
  is :func:`~harness.results.common.write.balltree_figure.both` of its two checks.
- How large a speed-up is (a threshold, or which of two searches is faster) is judged
  only on the thesis' 60000 training digits
  (:func:`~harness.results.common.write.balltree_figure.size_gate`); a trend in r is decided
  at any size. A reading mixing the two is decided below that size only by a
  counterexample of its trend part.
- The thesis' speed-ups after LMNN (rec) are read on our PCA reduction, as the
  figure's own claims do: the thesis says the speed-up "mostly only depends on the
  dimensionality, independent of the method of reduction" (2.1.9).
"""

from __future__ import annotations

import pandas as pd

from harness.claims import Reading, make_claim, readings_claim
from harness.results.common.write import balltree_figure as common
from harness.results.fig_2_13 import NAME

__all__ = ["register_claims"]

#: 'significantly', 'very high', 'great', 'orders of magnitude': the register's factors
SIGNIFICANT, GREAT, VERY_HIGH, ONE_ORDER, TWO_ORDERS = 2.0, 5.0, 10.0, 10.0, 100.0
#: 'only if the input is of reasonably low dimensionality': at most this gain at the
#: largest r (register s2-1-9-ball-trees-great-way-low-dim)
NO_REAL_GAIN = 1.5
#: the summary's use case (line 2206) and Fig. 2.17's smallest LMNN (rec) dimension
R_SUMMARY = 15
#: MNIST's input dimension, the d of the register's "5 % of d" and "10 % of the dimensions"
D_MNIST = 784


def _wide(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """r x method of ``column`` over the measured dimensions (sorted by r)."""
    ok = frame[frame["status"] == "ok"]
    if ok.empty:
        return pd.DataFrame()
    return ok.pivot(index="r", columns="method", values=column).sort_index()


def _gain(frame: pd.DataFrame, column: str) -> pd.Series:
    """The ball tree's gain over the naive r-D search by r (``balltree_gain`` or
    ``balltree_gain_work``), measured dimensions only."""
    ok = frame[(frame["status"] == "ok") & (frame["method"] == "balltree")]
    return ok.set_index("r")[column].dropna().sort_index()


def _x(value: float) -> str:
    return "nan" if value != value else f"{value:.3g}x"


def _listing(series: pd.Series) -> str:
    return ", ".join(f"r = {r}: {_x(v)}" for r, v in series.items()) or "none measured"


def _gated(checks: list, evidence: str, gate: str) -> tuple[list, str]:
    """Checks about how large a speed-up is: none below the thesis' size (the
    evidence still shows the numbers, and says why)."""
    return ([], f"{evidence}; {gate}") if gate else (checks, evidence)


def _trend_then_gate(trend: list, size: list, evidence: str, gate: str) -> tuple[list, str]:
    """A reading with a trend part (decided at any size) and a size part (only at the
    thesis' size): below it, only a counterexample of the trend decides."""
    if not gate:
        return trend + size, evidence
    if any(c is False for c in trend):
        return trend, f"{evidence}; the trend fails (the size part: {gate})"
    return [], f"{evidence}; {gate}"


def _nn_search_sped_up(frame, band, gate) -> dict:
    """s2-1-8-nn-search-sped-up-low-dim (line 968): at the smallest r, the r-D search
    (naive or ball tree) at least 2x faster than the naive 784-D search."""
    cpu, work = _wide(frame, "speedup"), _wide(frame, "speedup_work")
    readings = []
    for name, wide, width in (("cpu time", cpu, band), ("coordinate operations", work, 0.0)):
        if wide.empty or wide.iloc[0][["naive", "balltree"]].isna().all():
            readings.append(Reading(name, [], "not measured"))
            continue
        r, row = wide.index[0], wide.iloc[0]
        checks = [common.at_least(row[m], SIGNIFICANT, width) for m in ("naive", "balltree")
                  if row[m] == row[m]]
        readings.append(Reading(name, *_gated(
            checks, f"r = {r}: naive {_x(row['naive'])}, ball tree {_x(row['balltree'])} "
                    f"over the naive 784-D search (needs >= {SIGNIFICANT:g}x"
                    + (f" beyond the {100 * width:g} % band)" if width else ")"), gate)))
    return readings_claim(
        NAME, "The nearest neighbor search can be sped up significantly when the training "
              "data is mapped into a low dimensional subspace: at the smallest r the r-D "
              "search (naive or ball tree) is at least 2x faster than the naive search in "
              "d = 784 (2.1.8, Fig. 2.13; ours after PCA)",
        readings, register="s2-1-8-nn-search-sped-up-low-dim")


def _naive_few_dimensions(frame) -> dict:
    """s2-1-9-naive-few-dimensions (line 976): the naive 784-D search's coordinates per
    distance. The job records their sum, not their distribution: Markov's inequality
    bounds the median by twice the mean and the fraction stopped before d / 10 by 1 -
    mean / (d / 10) from below. A bound that meets the reading decides it; one that
    does not decides nothing (the distribution is not recorded)."""
    ok = frame[frame["status"] == "ok"].drop_duplicates("r")
    ok = ok[ok["naive784_mean_coordinates"].notna()]
    if ok.empty:
        return readings_claim(
            NAME, _FEW_TEXT, [Reading("median coordinates", [], _NO_COUNT),
                              Reading("fraction stopping early", [], _NO_COUNT)],
            register="s2-1-9-naive-few-dimensions")
    first = ok.iloc[0]
    where = (f"{int(first['n_test'])} test digits against {int(first['n_train'])} training "
             f"digits; the job records the summed coordinates only")
    median = [True for v in ok["naive784_median_bound"] if v <= 0.05 * D_MNIST]
    early = [True for v in ok["naive784_early_fraction_bound"] if v > 0.5]
    said = ", ".join(f"r-job {r.r}: mean {r.naive784_mean_coordinates:.4g}"
                     for r in ok.itertuples())
    return readings_claim(NAME, _FEW_TEXT, [
        Reading("median coordinates", median,
                f"mean coordinates per distance ({said}); median at most twice the mean: "
                f"{first['naive784_median_bound']:.4g}, needs <= 5 % of d = 784"
                + ("" if median else " (the bound does not decide it)") + f"; {where}"),
        Reading("fraction stopping early", early,
                f"fraction stopped before 10 % of d at least "
                f"{first['naive784_early_fraction_bound']:.4g}, needs > 0.5"
                + ("" if early else " (the bound does not decide it)"))],
        register="s2-1-9-naive-few-dimensions")


_FEW_TEXT = ("If the most load-bearing dimensions are considered first, the distance "
             "computation very often only involves very few dimensions: in the naive "
             "3-NN search of PCA-rotated MNIST (d = 784) the median number of coordinates "
             "per distance is at most 5 % of d, and more than half of the distance "
             "computations stop before 10 % of the dimensions (2.1.9)")
_NO_COUNT = "not measured: no record counts the naive 784-D search's coordinates"


def _gain_trends(frame, band, said: list):
    """Per measure (CPU time beyond the timing band, coordinate operations exactly):
    ``(name, gain by r, width, Spearman rho, the falls-with-r check)`` of the ball
    tree's gain over the naive r-D search; a measure with fewer than two r is named in
    ``said`` and skipped."""
    for name, column, width in (("CPU time", "balltree_gain", band),
                                ("coordinate operations", "balltree_gain_work", 0.0)):
        gain = _gain(frame, column)
        if len(gain) < 2:
            said.append(f"{name}: fewer than two dimensions measured")
            continue
        rho, fall = common.falls(gain.index, gain.values, width)
        said.append(f"{name}: Spearman {rho:.2f}; {_listing(gain)}")
        yield name, gain, width, fall


def _trees_best_low_dim(frame, band) -> dict:
    """s2-1-9-trees-best-low-dim (line 980): the ball tree's gain over the naive r-D
    search falls with r (Spearman < 0) and is largest at the smallest r, in CPU time
    (beyond the band) and in coordinate operations."""
    checks, said = [], []
    for _, gain, width, fall in _gain_trends(frame, band, said):
        largest = [common.clearly_below(v, gain.iloc[0], width) for v in gain.iloc[1:]]
        checks += [fall, *largest]
    return make_claim(
        NAME, "Tree-based nearest neighbor structures work best if the dimensionality is "
              "very low: the ball tree's speed-up over the naive r-D search falls with r "
              "(Spearman < 0) and is largest at the smallest r, in CPU time (beyond the "
              f"{100 * band:g} % timing band) and in coordinate operations (2.1.9, Fig. 2.13)",
        checks, "; ".join(said), register="s2-1-9-trees-best-low-dim")


def _relative_speedup(frame, band, gate) -> dict:
    """s2-1-9-fig-2-13-relative-speedup (line 982): at every r both the naive r-D
    search and the ball tree faster than the naive 784-D search, in CPU time (beyond
    the band) and in coordinate operations."""
    cpu, work = _wide(frame, "speedup"), _wide(frame, "speedup_work")
    checks, said = [], []
    for r in cpu.index:
        for m in ("naive", "balltree"):
            w = work.loc[r, m] if r in work.index else float("nan")
            checks.append(common.both(common.clearly_below(1.0, cpu.loc[r, m], band),
                                      True if w != w else bool(w > 1.0)))
            said.append(f"r = {r} {m}: {_x(cpu.loc[r, m])} CPU, {_x(w)} coordinate ops")
    return make_claim(
        NAME, "Fig. 2.13's relative speed-up: at every r both the naive r-D search and the "
              "ball tree are faster than the naive search in d = 784, in CPU time (beyond "
              f"the {100 * band:g} % timing band) and in coordinate operations (2.1.9; "
              "ours after PCA)",
        *_gated(checks, "; ".join(said) or "not measured", gate),
        register="s2-1-9-fig-2-13-relative-speedup")


def _gain_checks(frame, band, check) -> tuple[list, str]:
    """Per measured r, ``check(cpu_gain, width)`` and ``check(work_gain, 0)`` joined by
    :func:`~harness.results.common.write.balltree_figure.both` (a count absent from an older
    record leaves the CPU check alone)."""
    cpu, work = _gain(frame, "balltree_gain"), _gain(frame, "balltree_gain_work")
    checks = [common.both(check(v, band), *([check(work[r], 0.0)] if r in work.index else []))
              for r, v in cpu.items()]
    said = ", ".join(f"r = {r}: {_x(v)} CPU, {_x(work.get(r, float('nan')))} coordinate ops"
                     for r, v in cpu.items())
    return checks, "ball tree over the naive r-D search: " + (said or "none measured")


def _pruning_significant(frame, band, gate) -> dict:
    """s2-1-9-pruning-significant-speedup (line 993): at some r the ball tree at least
    2x faster than the naive r-D search (beyond the band), CPU time and coordinate
    operations."""
    checks, said = _gain_checks(frame, band,
                                lambda v, w: common.at_least(v, SIGNIFICANT, w))
    return make_claim(
        NAME, "Pruning can enable a significant speed-up: at some r the ball tree is at "
              f"least {SIGNIFICANT:g}x faster than the naive search in the same r dims, in CPU "
              f"time (beyond the {100 * band:g} % timing band) and in coordinate operations "
              "(2.1.9, Fig. 2.13)",
        *_gated(checks, said, gate), register="s2-1-9-pruning-significant-speedup")


def _exact(frame, exactness: tuple[list, list]) -> dict:
    """s2-1-9-ball-trees-exact (line 1015): the figure's exactness check, which cannot
    fail for a correct exact search (issue 51 defect 5: shown, never counted), so it
    decides nothing: "not measured", the check's outcome in the evidence."""
    checks, _ = exactness
    return make_claim(
        NAME, "Ball trees recover the exact k-nearest neighbours (2.1.9)", [],
        "no verdict: a ball tree is an exact search by construction, so our check of its "
        "neighbours' distances against an exhaustive float64 search in the same r dims "
        "cannot fail for a correct implementation and is not evidence for the thesis' "
        f"sentence (shown as the harness' check: {sum(checks)} of {len(checks)} searches "
        "agree with their reference)",
        register="s2-1-9-ball-trees-exact")


def _great_mostly_low_dim(frame, band, gate) -> dict:
    """s2-1-9-great-speedups-mostly-low-dim (line 1015): the gain over the naive r-D
    search falls with r (Spearman < 0) and 'great' gains (>= 5x) occur only at the
    lower half of the r values; CPU time and coordinate operations."""
    trend, size, said = [], [], []
    for _, gain, width, fall in _gain_trends(frame, band, said):
        trend.append(fall)
        # the upper half of the r values (of an odd number, the middle one is the lower's)
        size += [_not_great(v, width) for v in gain.iloc[(len(gain) + 1) // 2:]]
    return make_claim(
        NAME, "Ball trees lead to great speed-ups mostly with low dimensional data: the "
              "ball tree's speed-up over the naive r-D search falls with r (Spearman < 0) "
              f"and reaches {GREAT:g}x only at the lower half of the r values, in CPU time "
              f"(beyond the {100 * band:g} % timing band) and in coordinate operations "
              "(2.1.9, Fig. 2.13)",
        *_trend_then_gate(trend, size, "; ".join(said), gate),
        register="s2-1-9-great-speedups-mostly-low-dim")


def _not_great(value: float, band: float):
    """A gain of the upper half of r that must not be 'great': below 5x beyond the
    band passes, at or above 5x beyond it fails."""
    return common.clearly_below(value, GREAT, band) if band else bool(value < GREAT)


def _great_way_low_dim(frame, band, gate) -> dict:
    """s2-1-9-ball-trees-great-way-low-dim (line 1034): at the smallest r the ball tree
    at least 10x faster than the naive 784-D search; at the largest r at most 1.5x
    faster than the naive r-D search (CPU time)."""
    cpu, gain = _wide(frame, "speedup"), _gain(frame, "balltree_gain")
    high = ([common.at_least(cpu["balltree"].iloc[0], VERY_HIGH, band)]
            if not cpu.empty else [])
    low = [common.at_most(gain.iloc[-1], NO_REAL_GAIN, band)] if len(gain) else []
    return readings_claim(
        NAME, "Ball trees are a great way to yield very high speed-ups over the naive "
              "search, but only if the input is of reasonably low dimensionality: at the "
              f"smallest r at least {VERY_HIGH:g}x over the naive 784-D search, at the "
              f"largest r at most {NO_REAL_GAIN:g}x over the naive r-D search (CPU time, "
              f"beyond the {100 * band:g} % timing band; 2.1.9, Fig. 2.13)",
        [Reading("very high at low r", *_gated(
            high, f"ball tree over naive 784-D at r = {cpu.index[0]}: "
                  f"{_x(cpu['balltree'].iloc[0])}" if not cpu.empty else "not measured",
            gate)),
         Reading("only low r", *_gated(
             low, f"ball tree over naive r-D at r = {gain.index[-1]}: {_x(gain.iloc[-1])}"
             if len(gain) else "not measured", gate))],
        register="s2-1-9-ball-trees-great-way-low-dim")


def _falls_and_halves(series: pd.Series, band: float) -> tuple[list, str]:
    """Spearman < 0 with r and the value at the largest r below half of that at the
    smallest (beyond ``band``)."""
    if len(series) < 2:
        return [], "fewer than two dimensions measured"
    rho, fall = common.falls(series.index, series.values, band)
    return ([fall, common.halves(series.iloc[0], series.iloc[-1], band)],
            f"Spearman {rho:.2f}; {_listing(series)}")


def _diminishes_fast(frame, band) -> dict:
    """s2-1-9-speedup-diminishes-fast (line 1034): the ball tree's speed-up falls with r
    and halves within Fig. 2.13's range, over the naive r-D search (CPU time and
    coordinate operations) and over the naive 784-D search (CPU time)."""
    cpu, cpu_said = _falls_and_halves(_gain(frame, "balltree_gain"), band)
    work, work_said = _falls_and_halves(_gain(frame, "balltree_gain_work"), 0.0)
    over784 = _wide(frame, "speedup")
    tree784 = over784["balltree"].dropna() if not over784.empty else pd.Series(dtype=float)
    far, far_said = _falls_and_halves(tree784, band)
    return readings_claim(
        NAME, "As the input dimensionality increases, the ball tree's speed-up diminishes "
              "fast: it falls with r (Spearman < 0) and halves within Fig. 2.13's range, "
              "over the naive r-D search (CPU time and coordinate operations) and over the "
              f"naive 784-D search (CPU time; beyond the {100 * band:g} % timing band) "
              "(2.1.9)",
        [Reading("over same-r naive", cpu + work,
                 f"CPU time: {cpu_said}; coordinate operations: {work_said}"),
         Reading("over 784-D naive", far, f"CPU time: {far_said}")],
        register="s2-1-9-speedup-diminishes-fast")


def _extra_benefit_reduces(frame, band) -> dict:
    """s2-1-9-extra-benefit-reduces-1041 (line 1041): the ball tree's speed-up over the
    no-tree r-D search falls with r and ends below half its value at the smallest r, in
    CPU time (beyond the band) and in coordinate operations."""
    cpu = _falls_and_halves(_gain(frame, "balltree_gain"), band)
    work = _falls_and_halves(_gain(frame, "balltree_gain_work"), 0.0)
    return readings_claim(
        NAME, "As the dimensionality increases, the extra benefit from ball trees reduces "
              "drastically: their speed-up over the no-tree r-D search falls with r "
              "(Spearman < 0) to below half its value at the smallest r, read in CPU time "
              f"(beyond the {100 * band:g} % timing band) and in coordinate operations "
              "(2.1.9, Fig. 2.13)",
        [Reading("cpu time", *cpu), Reading("coordinate operations", *work)],
        register="s2-1-9-extra-benefit-reduces-1041")


def _at_r(wide: pd.DataFrame, r: int, method: str) -> float:
    return float(wide.loc[r, method]) if (not wide.empty and r in wide.index) else float("nan")


def _orders_of_magnitude(frame, band, gate) -> dict:
    """s4-lmnn-speeds-up-knn-orders-of-magnitude (line 2206): at r = 15 the ball tree
    at least 100x / 10x over the naive 784-D search (CPU time beyond the band, also in
    coordinate operations), and the naive r-D search at least 10x."""
    cpu, work = _wide(frame, "speedup"), _wide(frame, "speedup_work")
    tree, tree_w = _at_r(cpu, R_SUMMARY, "balltree"), _at_r(work, R_SUMMARY, "balltree")
    naive = _at_r(cpu, R_SUMMARY, "naive")
    said = (f"r = {R_SUMMARY}: ball tree {_x(tree)} CPU, {_x(tree_w)} coordinate ops; naive "
            f"r-D {_x(naive)} CPU, over the naive 784-D search (ours after PCA, the "
            f"thesis' after LMNN (rec))")

    def with_trees(factor):
        if tree != tree:
            return []
        return [common.both(common.at_least(tree, factor, band),
                            *([common.at_least(tree_w, factor, 0.0)] if tree_w == tree_w
                              else []))]

    alone = [common.at_least(naive, ONE_ORDER, band)] if naive == naive else []
    return readings_claim(
        NAME, "LMNN can map the input into a lower dimensional space and thus speed up "
              "k-NN search by orders of magnitude: at r = 15 the ball tree is at least "
              f"{TWO_ORDERS:g}x (or {ONE_ORDER:g}x) faster than the naive search in d = 784, "
              f"and the reduction alone {ONE_ORDER:g}x (CPU time beyond the "
              f"{100 * band:g} % timing band; summary, Figs. 2.13 and 2.17)",
        [Reading("two orders with trees", *_gated(with_trees(TWO_ORDERS), said, gate)),
         Reading("one order with trees", *_gated(with_trees(ONE_ORDER), said, gate)),
         Reading("reduction alone", *_gated(alone, said, gate))],
        register="s4-lmnn-speeds-up-knn-orders-of-magnitude")


def _magnify(frame, band, gate) -> dict:
    """s4-tree-structures-magnify-speedup (line 2206): the ball tree's speed-up over the
    naive r-D search above 1.65 (the timing band) at every r (also in coordinate
    operations: above 1), and at the smallest r and r = 15."""
    def exceeds(v, width):
        return common.clearly_below(1.0, v, width) if width else bool(v > 1.0)

    checks, said = _gain_checks(frame, band, exceeds)
    cpu = _gain(frame, "balltree_gain")
    low = [c for (r, _), c in zip(cpu.items(), checks)
           if r == (cpu.index[0] if len(cpu) else None) or r == R_SUMMARY]
    return readings_claim(
        NAME, "The speed-up is further magnified with tree-based data structures: the ball "
              f"tree's r-D speed-up over the naive 784-D search exceeds the naive r-D "
              f"search's by more than the {100 * band:g} % timing band (in coordinate "
              "operations: exceeds it), at every r and at the low r (summary, Fig. 2.13)",
        [Reading("every r", *_gated(checks, said, gate)),
         Reading("low r only", *_gated(low, said, gate))],
        register="s4-tree-structures-magnify-speedup")


def _lmnn_makes_trees_efficient(frame, band, gate) -> dict:
    """s2-1-9-lmnn-makes-ball-trees-efficient (line 989): after reduction to r = 15 the
    ball tree at least 2x faster than the naive 784-D search (CPU time)."""
    tree = _at_r(_wide(frame, "speedup"), R_SUMMARY, "balltree")
    checks = [common.at_least(tree, SIGNIFICANT, band)] if tree == tree else []
    return make_claim(
        NAME, "Reducing the dimensionality makes ball trees efficient: after reduction to "
              f"r = 15 the ball tree is at least {SIGNIFICANT:g}x faster than the naive "
              f"search in d = 784 (CPU time, beyond the {100 * band:g} % timing band; 2.1.9)",
        *_gated(checks, f"r = {R_SUMMARY}: {_x(tree)} (ours after PCA, the thesis' after "
                        "LMNN (rec))", gate),
        register="s2-1-9-lmnn-makes-ball-trees-efficient")


def _kd_tree_lecture(frame, band, gate) -> dict:
    """lec-kd-tree-faster-knn: the tree faster than the search without it, above the
    1.65 timing band; read on Fig. 2.13's plotted ball-tree speed-up (over the naive
    784-D search) at the smallest r. Its Swiss-roll reading is not this result's."""
    cpu = _wide(frame, "speedup")
    tree = float(cpu["balltree"].iloc[0]) if not cpu.empty else float("nan")
    checks = [common.clearly_below(1.0, tree, band)] if tree == tree else []
    return readings_claim(
        NAME, "Faster k-NN methods exploit a data structure (kd-tree, ball tree): the ball "
              "tree faster than the search without it beyond the timing band (lecture)",
        [Reading("low dimensional data", [], "not measured: the Swiss-roll kNN graph is not "
                                             "timed by fig_2_13"),
         Reading("mnist after reduction", *_gated(
             checks, (f"r = {cpu.index[0]}: ball tree {_x(tree)} over the naive 784-D "
                      "search (Fig. 2.13's speed-up)") if tree == tree else "not measured",
             gate))],
        register="lec-kd-tree-faster-knn")


def register_claims(conf: dict, frame: pd.DataFrame, exactness: tuple[list, list]
                    ) -> list[dict]:
    """The register entries Fig. 2.13 decides, beyond its own claims; ``exactness`` is
    :func:`harness.results.fig_2_13.write.exactness_checks` of the frame."""
    band = conf["timing_band"]
    ok = frame[frame["status"] == "ok"]
    gate = common.size_gate(ok["n_train"]) if len(ok) else "no dimension measured"
    return [
        _nn_search_sped_up(frame, band, gate),
        _naive_few_dimensions(frame),
        _trees_best_low_dim(frame, band),
        _relative_speedup(frame, band, gate),
        _pruning_significant(frame, band, gate),
        _exact(frame, exactness),
        _great_mostly_low_dim(frame, band, gate),
        _great_way_low_dim(frame, band, gate),
        _diminishes_fast(frame, band),
        _extra_benefit_reduces(frame, band),
        _orders_of_magnitude(frame, band, gate),
        _magnify(frame, band, gate),
        _lmnn_makes_trees_efficient(frame, band, gate),
        _kd_tree_lecture(frame, band, gate),
    ]
