"""The claims-register entries Fig. 2.17's records decide (issue 51), one function per
entry, each implementing the entry's readings as the register writes them (thesis
2.1.8 line 970, 2.1.9 lines 978-1051, 2.2.1 line 1090).

Conventions shared with the figure's own claims (:mod:`.write`):

- Two of our 3-NN test errors differ only beyond ``difference_z`` (2) binomial standard
  errors of their difference on the test digits (:func:`binomial_noise`); inside
  them the comparison is :data:`harness.claims.WITHIN_NOISE`, never a pass or a
  counterexample. A fixed tolerance on such a difference ("at most 0.3 points") is
  compared the same way: a pass or a counterexample only beyond the noise.
- A comparison with a number of the thesis' Section 2.1.6 (its Table 2.1, read from
  ``thesis_table_2_1.csv``) is made only at the thesis' 60000 / 10000 images, within the
  register's tolerance, as the figure's own number claims are.
- McNemar tests need each test digit's prediction, which the records do not keep: where
  a reading names McNemar "or 2 binomial standard errors", the latter is used.
- The ball-tree speed-ups of s2-1-9-lmnn-effective-preprocessing are Fig. 2.13's (PCA
  to r), judged only on its 60000 training digits.
- s2-1-9-speedup-depends-only-on-dim compares the ball-tree speed-ups Fig. 2.17's own
  jobs measure on each reduction's projected data (:func:`speedup_depends_only_on_dim`):
  the same search on the same digits, decided at any size.
"""

from __future__ import annotations

import math

from harness.claims import WITHIN_NOISE, Reading, beyond_noise, make_claim, readings_claim
from harness.reference import reference_value
from harness.results.common.write.balltree_figure import at_least, both, size_gate


def binomial_noise(e1: float, e2: float, n_test: int, z: float) -> float:
    """``z`` binomial standard errors (percentage points) of the difference of two test
    errors ``e1``, ``e2`` (in %) on ``n_test`` test points: ``z sqrt(p1 q1 / n + p2 q2
    / n)``. Inside it a difference is noise of the test sample (the register's
    reading of every comparison of Fig. 2.17's curves)."""
    p1, p2 = e1 / 100.0, e2 / 100.0
    return 100.0 * z * math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / n_test)


__all__ = ["binomial_noise", "speedup_depends_only_on_dim", "register_claims"]

#: the register's tolerances (percentage points) and factors
LITTLE_IMPACT_PP, NO_LOSS_PP, VERY_CLOSE_PP, ENERGY_CLOSE_PP = 0.3, 0.1, 0.2, 0.4
FAST_FACTOR = 5.0
#: Table 2.1's kNN rows "state of the art" is read against (s2-1-9-few-dims-state-of-art)
STATE_OF_ART_ROWS = ("PCA", "PCA-LMNN", "MUL-LMNN")
TABLE_2_1 = "thesis_table_2_1.csv"


class _Curves:
    """Fig. 2.17's series (r -> error %), the baseline and the noise of a comparison."""

    def __init__(self, series: dict, base: float | None, n_test: int, z: float):
        self.rec, self.pca, self.sq = (series["lmnn_rec"], series["pca"],
                                       series["lmnn_sq"])
        self.base, self.n_test, self.z = base, n_test, z

    def noise(self, a: float, b: float) -> float:

        return binomial_noise(a, b, self.n_test, self.z)

    def below(self, a: float, b: float):
        """``a`` below ``b`` beyond the test sample's noise."""
        return beyond_noise(b - a, self.noise(a, b))

    def within(self, a: float, b: float, tolerance: float):
        """``a - b`` at most ``tolerance`` beyond the noise of ``a`` and ``b``."""
        return beyond_noise(tolerance - (a - b), self.noise(a, b))

    @property
    def noise_text(self) -> str:
        return (f" A difference within {self.z:g} binomial standard errors of the "
                f"{self.n_test} test digits is inside the noise.")


def _fmt(series: dict) -> str:
    return ", ".join(f"r={r}: {e:.2f}%" for r, e in sorted(series.items())) or "none"


def _good_local_minima(c: _Curves) -> dict:
    """s2-1-8-rectangular-good-local-minima (line 970): one initialisation per r is
    recorded (no stability reading); LMNN (rec)'s error at most LMNN (sq)'s at most r."""
    common = sorted(set(c.rec) & set(c.sq))
    return readings_claim(
        "fig_2_17", "Rectangular (non-convex) LMNN leads generally to very good local minima: "
                    "LMNN (rec)'s 3-NN error at most LMNN (sq)'s at most r (2.1.8, Fig. 2.17)",
        [Reading("init stability", [], "not measured: one initialisation of the rectangular "
                                       "L per r (no spread over random starts recorded)"),
         Reading("good vs square", [c.below(c.rec[r], c.sq[r]) for r in common],
                 f"LMNN (rec) {_fmt(c.rec)}; LMNN (sq) {_fmt(c.sq)}.{c.noise_text}",
                 "most")],
        register="s2-1-8-rectangular-good-local-minima")


def _drastic_reduction(c: _Curves, r_pca: int = 50) -> dict:
    """s2-1-9-drastic-reduction-little-impact (line 978): PCA to r = 50 at most 0.3
    points above the baseline; no random projection is measured."""
    pca = c.pca.get(r_pca)
    return readings_claim(
        "fig_2_17", "Often the dimensionality can be reduced drastically with very little "
                    "impact on the nearest neighbor accuracy: PCA to r = 50 at most "
                    f"{LITTLE_IMPACT_PP:g} points above the 784-D baseline (2.1.9)",
        [Reading("pca", [c.within(pca, c.base, LITTLE_IMPACT_PP)] if pca is not None else [],
                 (f"PCA r={r_pca}: {pca:.2f}%, baseline {c.base:.2f}%.{c.noise_text}"
                  if pca is not None else f"not measured: PCA r = {r_pca} not in the profile")),
         Reading("random projection", [], "not measured: fig_2_17 measures no random "
                                          "projection")],
        register="s2-1-9-drastic-reduction-little-impact")


def _reduced(c: _Curves) -> list[tuple[str, int, float]]:
    return [(name, r, e) for name, s in (("PCA", c.pca), ("LMNN (rec)", c.rec),
                                         ("LMNN (sq)", c.sq)) for r, e in sorted(s.items())]


def _caption(c: _Curves) -> dict:
    """s2-1-9-fig-2-17-caption (line 1039): at some r a reduced representation's error
    differs from the baseline beyond the noise."""
    cases = _reduced(c)
    checks = [True if abs(e - c.base) > c.noise(e, c.base) else WITHIN_NOISE
              for _, _, e in cases]
    return make_claim(
        "fig_2_17", "Dimensionality reduction has an impact on the 3-NN error: at some r a "
                    "reduced representation's error differs from the 784-D baseline (2.1.9, "
                    "Fig. 2.17)",
        checks, f"baseline {c.base:.2f}%; " + "; ".join(f"{n} r={r}: {e:.2f}%"
                                                        for n, r, e in cases) + "." + c.noise_text,
        register="s2-1-9-fig-2-17-caption")


def _projection_can_hurt(c: _Curves) -> dict:
    """s2-1-9-projection-can-hurt (line 1043): PCA's or LMNN (sq)'s error above the
    baseline at some r; the changed neighbour sets are not recorded."""
    cases = [(n, r, e) for n, r, e in _reduced(c) if n != "LMNN (rec)"]
    return readings_claim(
        "fig_2_17", "By projecting the data onto a lower dimensional space the classification "
                    "result can suffer: PCA's or LMNN (sq)'s 3-NN error above the baseline at "
                    "some r (2.1.9, Fig. 2.17)",
        [Reading("pca hurts at some r", [c.below(c.base, e) for _, _, e in cases],
                 f"baseline {c.base:.2f}%; PCA {_fmt(c.pca)}; LMNN (sq) {_fmt(c.sq)}."
                 + c.noise_text),
         Reading("neighbours change", [], "not measured: the records keep no neighbour "
                                          "sets of the test digits")],
        register="s2-1-9-projection-can-hurt")


def _rec_15_slightly_higher(c: _Curves) -> dict:
    """s2-1-9-rec-15-only-slightly-higher (line 1049): LMNN (rec) at r = 15 minus the
    baseline in [0, 0.3] points (each bound beyond the noise), and within 2 binomial
    standard errors of it."""
    rec = c.rec.get(15)
    if rec is None:
        return readings_claim("fig_2_17", _SLIGHT, [Reading("higher but close", [], "not measured"),
                                                    Reading("indistinguishable", [], "not measured")],
                              register="s2-1-9-rec-15-only-slightly-higher")
    noise = c.noise(rec, c.base)
    said = f"LMNN (rec) r=15: {rec:.2f}%, baseline {c.base:.2f}%"
    return readings_claim("fig_2_17", _SLIGHT, [
        Reading("higher but close", [beyond_noise(rec - c.base, noise),
                                     c.within(rec, c.base, LITTLE_IMPACT_PP)],
                f"{said}.{c.noise_text}"),
        Reading("indistinguishable", [abs(rec - c.base) <= noise],
                f"within {c.z:g} binomial standard errors (McNemar needs per-digit "
                "predictions, not recorded)")],
        register="s2-1-9-rec-15-only-slightly-higher")


_SLIGHT = ("With LMNN (rec) to 15 dimensions the classification error is only slightly "
           "higher than the baseline: by 0 to 0.3 points (2.1.9, Fig. 2.17)")


def _effective_preprocessing(c: _Curves, speedups: dict, gate: str, band: float) -> dict:
    """s2-1-9-lmnn-effective-preprocessing (line 1051): some r with the ball tree at
    least 5x faster than the naive 784-D search (Fig. 2.13) and LMNN (rec)'s error at
    most the baseline + 0.1 points; LMNN (rec) below PCA at most r."""
    fast = []
    for r, e in sorted(c.rec.items()):
        error = c.within(e, c.base, NO_LOSS_PP)
        speed = at_least(speedups[r], FAST_FACTOR, band) if r in speedups else None
        fast.append((r, e, speed, error))
    shown = "; ".join(f"r={r}: {e:.2f}%, ball tree "
                      + (f"{speedups[r]:.3g}x" if r in speedups else "not measured")
                      for r, e, _, _ in fast)
    errors_fail = bool(fast) and all(err is False for *_, err in fast)
    if errors_fail:
        checks = [False] * len(fast)
    elif gate or any(s is None for _, _, s, _ in fast):
        checks, shown = [], f"{shown}; {gate or 'a speed-up not measured'}"
    else:
        checks = [both(s, err) for _, _, s, err in fast]
    common = sorted(set(c.rec) & set(c.pca))
    return readings_claim(
        "fig_2_17", "LMNN is a very effective pre-processing for fast kNN search with ball "
                    f"trees: at some r at least {FAST_FACTOR:g}x faster than the naive 784-D "
                    f"search at most {NO_LOSS_PP:g} points above the baseline, and below "
                    "PCA's error at most r (2.1.9, Figs. 2.13 and 2.17)",
        [Reading("fast and accurate", checks,
                 f"baseline {c.base:.2f}%; LMNN (rec) {shown} (Fig. 2.13's speed-ups, after "
                 "PCA)"),
         Reading("better than pca", [c.below(c.rec[r], c.pca[r]) for r in common],
                 f"LMNN (rec) {_fmt(c.rec)}; PCA {_fmt(c.pca)}.{c.noise_text}", "most")],
        register="s2-1-9-lmnn-effective-preprocessing")


def _thesis_mnist(config: dict, measure: str, row: str) -> float | None:
    return reference_value(config["reference_dir"], TABLE_2_1, measure, row, "mnist")


def _rec_25_close(config: dict, c: _Curves, at_size: bool, why: str) -> dict:
    """s2-1-9-rec-25-close-to-2-1-6 (line 1051): LMNN (rec) at r = 25 within 0.2 points
    of the thesis' PCA-LMNN kNN error and 0.4 of its energy error on MNIST (at the
    thesis' size); our own PCA-LMNN numbers are Table 2.1's, not read here."""
    rec = c.rec.get(25)
    knn = _thesis_mnist(config, "test_knn_error", "PCA-LMNN")
    energy = _thesis_mnist(config, "test_energy_error", "PCA-LMNN")
    measured = rec is not None and at_size
    said = (f"LMNN (rec) r=25: {rec:.2f}%" if rec is not None else "LMNN (rec) r=25 not "
            "measured") + f"; the thesis' PCA-LMNN on MNIST: kNN {knn:.2f}%, energy {energy:.2f}%"
    energy_check = abs(rec - energy) <= ENERGY_CLOSE_PP if measured else None
    ours = ("our PCA-LMNN MNIST errors are Table 2.1's (results.table_2_1), whose records "
            "fig_2_17 does not read")
    return readings_claim(
        "fig_2_17", "LMNN with a rectangular matrix obtains results very close to those of "
                    "Section 2.1.6 with only 25 dimensions: within 0.2 points of PCA-LMNN's "
                    "kNN error (0.4 of its energy error) on MNIST (2.1.9, Fig. 2.17)",
        [Reading("vs thesis knn", [abs(rec - knn) <= VERY_CLOSE_PP] if measured else [],
                 said + ("" if measured else why)),
         Reading("vs our knn", [], f"not measured: {ours}"),
         # its thesis half alone decides only by failing (the other half is not read)
         Reading("vs energy", [False] if energy_check is False else [],
                 "the thesis' half: " + {None: "not compared (as above)",
                                         True: "within 0.4 points",
                                         False: "beyond 0.4 points"}[energy_check]
                 + f"; {ours}")],
        register="s2-1-9-rec-25-close-to-2-1-6")


def _few_dims_state_of_art(config: dict, c: _Curves, at_size: bool, why: str) -> dict:
    """s2-1-9-few-dims-state-of-art (line 1051): some r <= 25 with LMNN (rec)'s error at
    most the lowest kNN test error of PCA, PCA-LMNN, MUL-LMNN on MNIST in the thesis'
    Table 2.1 + 0.2 points (at the thesis' size)."""
    rows = {row: _thesis_mnist(config, "test_knn_error", row) for row in STATE_OF_ART_ROWS}
    best = min(v for v in rows.values() if v is not None)
    low = {r: e for r, e in c.rec.items() if r <= 25}
    return make_claim(
        "fig_2_17", "Only very few dimensions can be necessary for state of the art nearest "
                    "neighbor results: at some r <= 25 LMNN (rec)'s 3-NN error is at most the "
                    "lowest kNN error of PCA, PCA-LMNN, MUL-LMNN on MNIST in Table 2.1 + 0.2 "
                    "points (2.1.9)",
        [e <= best + VERY_CLOSE_PP for e in low.values()] if at_size else [],
        f"LMNN (rec) {_fmt(low)}; the thesis' Table 2.1 MNIST kNN: "
        + ", ".join(f"{k} {v:.2f}%" for k, v in rows.items()) + ("" if at_size else why),
        register="s2-1-9-few-dims-state-of-art")


def _pca_improves_knn(c: _Curves) -> dict:
    """s2-2-1-pca-improves-knn (line 1090): Table 2.1's data sets are not read here;
    PCA below the baseline at some r of Fig. 2.17."""
    return readings_claim(
        "fig_2_17", "PCA is commonly used to improve kNN classification: PCA's 3-NN error "
                    "below the raw input's (2.2.1; Fig. 2.17's MNIST)",
        [Reading("table 2.1 sets", [], "not measured: the raw-input and PCA kNN errors of "
                                       "Table 2.1's data sets are results.table_2_1's"),
         Reading("mnist fig 2.17", [c.below(e, c.base) for e in c.pca.values()],
                 f"baseline {c.base:.2f}%; PCA {_fmt(c.pca)}.{c.noise_text}", "some")],
        register="s2-2-1-pca-improves-knn")


#: s2-1-9-speedup-depends-only-on-dim's readings: the speed-ups agree when max / min is
#: below these (CPU time: the timing band 1 + 0.65; coordinate operations: exact counts)
AGREE_CPU, AGREE_WORK = 1.65, 1.25
#: the three reductions of Fig. 2.17 the entry compares, with their labels
REDUCTIONS = {"pca": "PCA", "lmnn_rec": "LMNN (rec)", "lmnn_sq": "LMNN (sq)"}
SPEEDUP_ENTRY = "s2-1-9-speedup-depends-only-on-dim"


def _ratio_check(costs: list[tuple[float, float]], limit: float):
    """Whether the costs ``(value, spread)`` agree: max / min below ``limit``, beyond
    the noise of the two extremes' timing rounds (log(1 + the larger of their spreads);
    0 for exact counts). Inside it :data:`WITHIN_NOISE`."""
    values = [v for v, _ in costs]
    if min(values) <= 0:
        return WITHIN_NOISE
    hi, lo = costs[values.index(max(values))], costs[values.index(min(values))]
    noise = math.log1p(max(hi[1], lo[1]))
    return beyond_noise(math.log(limit) - math.log(hi[0] / lo[0]), noise)


def speedup_depends_only_on_dim(trees: dict, naive: dict | None, alt: dict,
                                sizes: str) -> dict:
    """s2-1-9-speedup-depends-only-on-dim (line 1047): at each r, the ball-tree speed-ups
    of PCA, LMNN (rec) and LMNN (sq) agree -- max / min below 1.65 in CPU time (beyond
    the timing rounds' spread) and below 1.25 in counted coordinate operations -- at more
    than half of the r values.

    ``trees``: method -> r -> ``{"seconds", "spread", "work"}`` of the ball-tree query on
    that reduction's r-D data (LMNN (sq): the figure's projection); ``naive``: the naive
    784-D search's ``{"seconds", "work"}`` (or None). The speed-up is Fig. 2.13's, naive
    784-D over ball tree r-D; the baseline is the same for the three reductions, so max /
    min of their speed-ups is max / min of their tree costs (decided without it).
    ``alt``: LMNN (sq)'s other projection by r, shown, never counted; an r missing a
    reduction is shown, not counted."""
    rs = sorted({r for m in REDUCTIONS for r in trees.get(m, {})})
    counted = [r for r in rs if all(r in trees.get(m, {}) for m in REDUCTIONS)]
    cpu, work, parts = [], [], []
    for r in rs:
        have = {m: trees[m][r] for m in REDUCTIONS if r in trees.get(m, {})}
        shown = []
        for m, t in have.items():
            speed = (f", {naive['seconds'] / t['seconds']:.3g}x / "
                     f"{naive['work'] / t['work']:.3g}x" if naive else "")
            shown.append(f"{REDUCTIONS[m]} {t['seconds']:.3g} s (spread {t['spread']:.2f}), "
                         f"{t['work']:.4g} ops{speed}")
        text = f"r={r}: " + "; ".join(shown)
        if r in counted:
            c = [(t["seconds"], t["spread"]) for t in have.values()]
            w = [(float(t["work"]), 0.0) for t in have.values()]
            cpu.append(_ratio_check(c, AGREE_CPU))
            work.append(_ratio_check(w, AGREE_WORK))
            text += (f"; max / min {max(v for v, _ in c) / min(v for v, _ in c):.3g} (CPU), "
                     f"{max(v for v, _ in w) / min(v for v, _ in w):.3g} (ops)")
        else:
            text += " (not counted: " + ", ".join(REDUCTIONS[m] for m in REDUCTIONS
                                                 if m not in have) + " not measured)"
        if r in alt:
            text += (f"; LMNN (sq)'s other projection {alt[r]['seconds']:.3g} s, "
                     f"{alt[r]['work']:.4g} ops (shown, not counted)")
        parts.append(text)
    base = (f"naive 784-D search {naive['seconds']:.3g} s, {naive['work']:.4g} ops; "
            if naive else "naive 784-D search not measured (the ratios need only the trees); ")
    evidence = (f"{base}ball-tree 3-NN query per reduction, CPU s and coordinate operations"
                + (", speed-up in CPU time / ops" if naive else "") + ": "
                + (" | ".join(parts) or "no ball-tree timing in the records")
                + f". Measured at {sizes}.")
    claim = readings_claim(
        "fig_2_17", "The ball-tree speed-up mostly only depends on the dimensionality, "
                    "independent of the method of reduction: at most r the speed-ups of PCA, "
                    f"LMNN (rec) and LMNN (sq) agree (max / min below {AGREE_CPU:g} in CPU "
                    f"time, {AGREE_WORK:g} in coordinate operations) (2.1.9, Fig. 2.17)",
        [Reading("cpu time", cpu, f"{sum(c is True for c in cpu)} of {len(cpu)} r agree "
                                  f"beyond the timing rounds' spread"),
         Reading("coordinate operations", work,
                 f"{sum(c is True for c in work)} of {len(work)} r agree")],
        register=SPEEDUP_ENTRY)
    claim["evidence"] = f"{claim['evidence']}. {evidence}"
    return claim


ENTRIES = ("s2-1-8-rectangular-good-local-minima", "s2-1-9-drastic-reduction-little-impact",
           "s2-1-9-fig-2-17-caption", "s2-1-9-projection-can-hurt",
           "s2-1-9-rec-15-only-slightly-higher", "s2-1-9-lmnn-effective-preprocessing",
           "s2-1-9-rec-25-close-to-2-1-6", "s2-1-9-few-dims-state-of-art",
           "s2-2-1-pca-improves-knn")


def register_claims(config: dict, conf: dict, series: dict, base: float | None,
                    n_test: int | None, at_size: bool, why: str, speedups: dict,
                    speedup_sizes: list, trees: dict | None = None) -> list[dict]:
    """The register entries Fig. 2.17 decides beyond its own claims; without a baseline
    each is "not measured" with ``why`` (but the ball-tree entry, which needs none).
    ``speedups``: Fig. 2.13's ball-tree speed-ups by r, measured at ``speedup_sizes``
    (training, test digits). ``trees``: the keyword arguments of
    :func:`speedup_depends_only_on_dim` (its entry is left out without them)."""
    tree_claim = [speedup_depends_only_on_dim(**trees)] if trees is not None else []
    if base is None:
        return [make_claim("fig_2_17", f"(register entry {entry})", [], why, register=entry)
                for entry in ENTRIES] + tree_claim
    c = _Curves(series, base, n_test, conf["difference_z"])
    gate = size_gate([a for a, _ in speedup_sizes]) if speedup_sizes else \
        "Fig. 2.13's speed-ups not measured"
    band = config["results"].get("fig_2_13", {}).get("timing_band", math.nan)
    return [_good_local_minima(c), _drastic_reduction(c), _caption(c),
            _projection_can_hurt(c), _rec_15_slightly_higher(c),
            _effective_preprocessing(c, speedups, gate, band),
            _rec_25_close(config, c, at_size, why), _few_dims_state_of_art(config, c, at_size, why),
            _pca_improves_knn(c)] + tree_claim
