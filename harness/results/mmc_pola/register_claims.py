"""The claims-register entries of section 2.2.2 on MMC and POLA (thesis lines
1156-1225), each decided under the entry's readings
(``harness/claims_register/chapter_2.yaml``) from the records of this result's jobs
(:mod:`.work`), passed as ``{key: record}``.

Statistical readings: a paired one-sided t-test over the splits or draws (p < 0.05,
:func:`harness.claims.significant`) together with the mean paired difference beyond
two standard errors (:func:`harness.claims.beyond_noise`): both in the claimed direction
pass, both against it fail, anything else is inside the noise. A time ratio is judged
against the harness' timing band (:func:`harness.results.solver_table.register_claims.
timing_ratio_check`). A reading that holds by construction (MMC's objective at ``c M``
is ``sqrt(c)`` times that at ``M``) is shown without a check, never counted.
"""

from __future__ import annotations

from harness.claims import (
    FAILS, HOLDS, WITHIN_NOISE, Reading, about_every, about_most, beyond_noise, make_claim,
    readings_claim, significant, verdict_of,
)
from harness.results.common.write.check_groups import not_run, record_ok
from harness.results.mmc_pola import NAME
from harness.results.solver_table.register_claims import (
    TIMING_BAND, loglog_fit, loglog_slope, timing_ratio_check,
)

__all__ = ["TABLE_SETS", "direction_check", "most_of", "register_claims"]

#: the small Table 2.1 data sets the register's readings name
TABLE_SETS = ("iris", "wine", "balance_scale")
LABEL = {"fig_2_20": "Fig. 2.20's Gaussians", "balance_scale": "bal"}
#: the register's fixed tolerances
ANGLE_DEGREES, SHARE, PROPORTIONAL, AFFINE, LP_TOL = 5.0, 0.01, 1e-3, 1e-9, 1e-4
SLOWER, GREAT_ARI, MAX_PASSES, HOUR = 10.0, 0.1, 1000, 3600.0


def _label(name: str) -> str:
    return LABEL.get(name, name)


def direction_check(summary: dict | None, claimed: str):
    """A paired comparison ``a - b`` judged in the ``claimed`` direction (``"greater"``:
    a above b, ``"less"``: a below): ``True`` when the one-sided t-test is significant
    and the mean difference is beyond two standard errors that way, ``False`` when both
    hold the other way, else :data:`WITHIN_NOISE`."""
    if not summary:
        return WITHIN_NOISE
    sign = 1.0 if claimed == "greater" else -1.0
    other = "less" if claimed == "greater" else "greater"
    test = significant(summary[f"p_{claimed}"], summary[f"p_{other}"])
    size = beyond_noise(sign * summary["mean_difference"], 2.0 * summary["se_difference"])
    if test is True and size is True:
        return True
    if test is False and size is False:
        return False
    return WITHIN_NOISE


def most_of(passed: dict, named) -> tuple[list, str]:
    """One check for a claim about *most* of the data sets ``named``:
    :func:`harness.claims.about_most` while some are not measured; with every one
    measured, the verdict of their checks under "most" as one check (a majority of
    passes ``True``, no majority possible ``False``, else :data:`WITHIN_NOISE`)."""
    if not all(d in passed for d in named):
        return about_most(passed, named)
    verdict = verdict_of(list(passed.values()), "most")
    return [True if verdict == HOLDS else False if verdict == FAILS else WITHIN_NOISE], ""


def _summary_text(s: dict, what: str) -> str:
    return (f"{what} {s['mean_difference']:+.3g} (2 SE {2 * s['se_difference']:.3g}, "
            f"p greater {s['p_greater']:.3g}, p less {s['p_less']:.3g}, n = {s['n']})")


def pola_pass_slope(rec: dict):
    """``(slope, noise)`` of log CPU seconds of one POLA pass against log pairs (the
    scaling job's record), or None when its sizes do not span the reading's 10^3 to
    10^6 pairs; the write puts both in the CSV (the audit traces the evidence's).

    With the timed repeats of each size (``repeat_seconds``): the least-squares slope
    over every timed pass and, as its noise, twice its standard error (the spread of
    the repeats, taken round the sizes, is the measured noise). A record without
    repeats falls back to the timing band's worst case on the end points
    (:func:`~harness.results.solver_table.register_claims.loglog_slope`)."""
    n = [s["pairs"] for s in rec["sizes"]]
    if not (len(n) >= 2 and min(n) <= 1e3 and max(n) >= 1e6):
        return None
    if all(len(s.get("repeat_seconds", ())) >= 2 for s in rec["sizes"]):
        x = [s["pairs"] for s in rec["sizes"] for _ in s["repeat_seconds"]]
        y = [t for s in rec["sizes"] for t in s["repeat_seconds"]]
        slope, se = loglog_fit(x, y)
        return slope, 2 * se
    return loglog_slope(n, [s["seconds"] for s in rec["sizes"]])



def _splits(records: dict) -> dict:
    """``{dataset: split record}`` of the measured split jobs."""
    return {k.removeprefix("split_"): r for k, r in records.items()
            if k.startswith("split_") and record_ok(r)}


def _split_gaps(records: dict, named) -> str:
    gone = [f"{_label(d)} ({not_run(NAME, 'split_' + d, records.get('split_' + d))})"
            for d in named if not record_ok(records.get(f"split_{d}"))]
    return ("; not measured: " + ", ".join(gone)) if gone else ""


def _most_sets(records, comparison: str, claimed: str, what: str, named=TABLE_SETS):
    """``about_most`` over ``named`` of :func:`direction_check` on a split
    comparison; the checks and the evidence."""
    splits = _splits(records)
    passed = {d: direction_check(splits[d]["comparisons"][comparison], claimed)
              for d in named if d in splits}
    checks, why = most_of(passed, named)
    text = "; ".join(_summary_text(splits[d]["comparisons"][comparison], f"{_label(d)}: {what}")
                     for d in named if d in splits)
    return checks, (text or "no split measured") + (f"; {why}" if why else "") \
        + _split_gaps(records, named)


def _clustering(records) -> list[dict]:
    mmc, mmc_text = _most_sets(records, "ari_mmc_euclidean", "greater",
                               "ARI of k-means, MMC minus Euclidean")
    pola, pola_text = _most_sets(records, "ari_pola_euclidean", "greater",
                                 "ARI of k-means, POLA minus Euclidean")
    rule = ("(p < 0.05 one-sided and beyond 2 SE over the splits, on most of iris, wine, "
            "bal, for each method)")
    both = make_claim(NAME, "Both POLA and MMC learn well-suited metrics for clustering "
                      "applications (2.2.2)", mmc + pola,
                      f"MMC: {mmc_text}; POLA: {pola_text} {rule}",
                      register="s2-2-2-mmc-pola-clustering")
    kmeans = make_claim(NAME, "The MMC algorithm is a good transformation of the input "
                        "space for k-means clustering (2.2.2)", mmc,
                        f"{mmc_text} (p < 0.05 and beyond 2 SE on at least 2 of 3)",
                        register="s2-2-2-mmc-kmeans")
    lmnn, lmnn_text = _most_sets(records, "knn_lmnn_mmc", "less",
                                 "kNN test error (%), LMNN minus MMC")
    geared = make_claim(NAME, "LMNN is much more directly geared towards kNN-based "
                        "classification (than MMC) (2.2.2)", lmnn,
                        f"{lmnn_text} (LMNN below, p < 0.05 and beyond 2 SE, on more than "
                        f"half of iris, wine, bal; no larger set runs MMC here)",
                        register="s2-2-2-lmnn-more-geared-than-mmc")
    named = ("iris", "wine", "fig_2_20")
    splits = _splits(records)
    passed = {}
    for d in named:
        if d in splits:
            s = splits[d]["comparisons"]["ari_pola_euclidean"]
            sig = direction_check(s, "greater")
            great = beyond_noise(s["mean_difference"] - GREAT_ARI, 2.0 * s["se_difference"])
            passed[d] = (True if sig is True and s["mean_difference"] >= GREAT_ARI else
                         False if sig is False or great is False else WITHIN_NOISE)
    text = "; ".join(_summary_text(splits[d]["comparisons"]["ari_pola_euclidean"],
                                   f"{_label(d)}: ARI, POLA minus Euclidean")
                     for d in named if d in splits)
    great = make_claim(NAME, "Similar to MMC, POLA can greatly improve the performance of "
                       "clustering algorithms (2.2.2)", list(passed.values()),
                       f"{text or 'no split measured'} (on some unimodal set: a gain of at "
                       f"least {GREAT_ARI:g} ARI, p < 0.05 and beyond 2 SE)"
                       + _split_gaps(records, named),
                       register="s2-2-2-pola-improves-clustering")
    return [both, kmeans, geared, great]


def _multimodal(records) -> list[dict]:
    rec = records.get("multimodal")
    if not record_ok(rec):
        text = not_run(NAME, "multimodal", rec)
        return [readings_claim(NAME, "MMC does not work if the input data is sampled from "
                               "multimodal distributions (2.2.2)",
                               [Reading("knn worse", [], text), Reading("collapse", [], text)],
                               register="s2-2-2-mmc-multimodal-fails"),
                readings_claim(NAME, "MMC cannot be applied to multi-modal data (2.2.2)",
                               [Reading("worse than euclidean", [], text),
                                Reading("worse than lmnn", [], text)],
                               register="s2-2-2-mmc-cannot-multimodal"),
                make_claim(NAME, "POLA can generally not be applied to multimodal data "
                           "(2.2.2)", [], text, register="s2-2-2-pola-multimodal")]
    configs = rec["configurations"]
    worse, worse_text, lmnn, lmnn_text, collapse, col_text, pola, pola_text = ([] for _ in range(8))
    for name, c in configs.items():
        comp = c["comparisons"]
        w = direction_check(comp["knn_mmc_euclidean"], "greater")
        worse.append(w)
        worse_text.append(_summary_text(comp["knn_mmc_euclidean"],
                                        f"{name}: kNN test error (%), MMC minus Euclidean"))
        lmnn.append(direction_check(comp["knn_mmc_lmnn"], "greater"))
        lmnn_text.append(_summary_text(comp["knn_mmc_lmnn"],
                                       f"{name}: kNN test error (%), MMC minus LMNN"))
        improved = direction_check(comp["knn_mmc_euclidean"], "less")
        collapse.append(c["collapse_change"] < -c["collapse_drop"] and improved is not True)
        col_text.append(f"{name}: within/between squared-distance ratio, MMC "
                        f"{c['collapse_ratio_mmc']:.3g} against Euclidean "
                        f"{c['collapse_ratio_euclidean']:.3g} (change "
                        f"{c['collapse_change']:+.3g}; a fall of more than "
                        f"{c['collapse_drop']:g} with no significant kNN gain needed)")
        better = direction_check(comp["knn_pola_euclidean"], "less")
        pola.append(False if better is True else True)
        pola_text.append(_summary_text(comp["knn_pola_euclidean"],
                                       f"{name}: kNN test error (%), POLA minus Euclidean"))
    fails = readings_claim(
        NAME, "MMC does not work if the input data is sampled from multimodal "
              "distributions, as it collapses similarly labeled inputs (2.2.2)",
        [Reading("knn worse", worse, "; ".join(worse_text) + " (MMC above, p < 0.05 and "
                 "beyond 2 SE, in every configuration)"),
         Reading("collapse", collapse, "; ".join(col_text))],
        register="s2-2-2-mmc-multimodal-fails")
    cannot = readings_claim(
        NAME, "MMC cannot be applied to multi-modal data (2.2.2)",
        [Reading("worse than euclidean", worse, "; ".join(worse_text)),
         Reading("worse than lmnn", lmnn, "; ".join(lmnn_text) + " (MMC above LMNN, p < "
                 "0.05 and beyond 2 SE)")],
        register="s2-2-2-mmc-cannot-multimodal")
    pola_claim = make_claim(
        NAME, "POLA can generally not be applied to multimodal data (2.2.2)", pola,
        "; ".join(pola_text) + " (a configuration passes unless POLA is better than "
        "Euclidean by p < 0.05 and beyond 2 SE; most configurations needed)",
        register="s2-2-2-pola-multimodal")
    return [fails, cannot, pola_claim]


def _exact(records) -> list[dict]:
    rec = records.get("exact")
    ids = ("s2-2-2-mmc-sqrt-essential", "s2-2-2-mmc-not-scale-invariant",
           "s2-2-2-mmc-bound-positive-factor", "s2-2-2-mmc-diagonal-lp")
    if not record_ok(rec):
        text = not_run(NAME, "exact", rec)
        names = (("no sqrt is lda-like", "with sqrt differs"), ("input dimensions", "scale of M"),
                 None, ("objective affine", "lp solves it"))
        out = []
        for rid, n in zip(ids, names):
            out.append(make_claim(NAME, f"(2.2.2, {rid})", [], text, register=rid) if n is None
                       else readings_claim(NAME, f"(2.2.2, {rid})",
                                           [Reading(x, [], text) for x in n], register=rid))
        return out
    cases = rec["cases"]
    gaps = "; ".join(f"{_label(d)}: certified relative gap of the solve with the square "
                     f"root {c['sqrt']['relative_gap']:.2g}" for d, c in cases.items())
    lda_like = [c["nosqrt"]["angle_to_lda_pairwise"] <= ANGLE_DEGREES and c["nosqrt"]["rank"] == 1
                for c in cases.values()]
    lda_text = "; ".join(
        f"{_label(d)}: without the root rank {c['nosqrt']['rank']}, leading direction "
        f"{c['nosqrt']['angle_to_lda_pairwise']:.3g} degrees from LDA's (pairwise form)"
        for d, c in cases.items())
    differs = [c["sqrt"]["rank"] > 1 or c["sqrt"]["angle_to_lda_pairwise"] > ANGLE_DEGREES
               for c in cases.values()]
    diff_text = "; ".join(
        f"{_label(d)}: with the root rank {c['sqrt']['rank']}, leading direction "
        f"{c['sqrt']['angle_to_lda_pairwise']:.3g} degrees from LDA's" for d, c in cases.items())
    sqrt = readings_claim(
        NAME, "The square root in the objective is essential for MMC to lead to different "
              "results than LDA (2.2.2)",
        [Reading("no sqrt is lda-like", lda_like, f"{lda_text} (within {ANGLE_DEGREES:g} "
                 f"degrees and rank 1 needed on each)"),
         Reading("with sqrt differs", differs, f"{diff_text} (rank above 1 or more than "
                 f"{ANGLE_DEGREES:g} degrees needed on at least one; {gaps})", "some")],
        register=ids[0])
    rescale = rec["rescale"]
    shares = {d: r["max_differing_share"] for d, r in rescale.items()}
    scale_text = "; ".join(
        f"{d}: kNN predictions that change when input dimension {r['dimension']} is "
        f"multiplied by {r['factor']:g} before MMC, at most {100 * r['max_differing_share']:.3g} "
        f"% of test points over {r['splits']} splits" for d, r in rescale.items())
    m = rec["scale_of_M"]
    scale = readings_claim(
        NAME, "MMC's optimization is not scale-invariant (2.2.2)",
        [Reading("input dimensions", [s > SHARE for s in shares.values()],
                 f"{scale_text} (more than {100 * SHARE:g} % needed on some; the certified "
                 f"solve of the problem as printed)"),
         Reading("scale of M", [],
                 f"objective at {m['c']:g} M over at M: {m['ratio']:.6g} = sqrt({m['c']:g}); "
                 f"holds by construction (the objective is homogeneous of degree 1/2), shown "
                 f"and not counted")],
        register=ids[1])
    bound_checks, bound_text = [], []
    for d in ("iris", "wine"):
        if d in cases:
            for c, diff in cases[d]["bounds"].items():
                bound_checks.append(diff < PROPORTIONAL)
                bound_text.append(f"{d}, c = {c}: ||M_c / c - M_1|| / ||M_1|| = {diff:.2g}")
    kept, why = about_every(bound_checks, ["iris", "wine"],
                            [d for d in ("iris", "wine") if d in cases])
    bound = make_claim(NAME, "Any other bound would change the resulting matrix M only by a "
                       "positive factor (2.2.2)", kept,
                       "; ".join(bound_text) + f" (below {PROPORTIONAL:g} needed; each bound "
                       f"solved from its own random start, certified gaps "
                       + ", ".join(f"{cases[d]['bound_gap_max']:.2g}" for d in ("iris", "wine")
                                   if d in cases) + ")" + (f"; {why}" if why else ""),
                       register=ids[2])
    diag = rec["diagonal"]
    # the convex optimum is certified only to its gap: a pass needs the shortfall plus
    # the gap within the tolerance, a failure the shortfall alone beyond it
    lp_checks = [True if r["relative_shortfall"] + r["gap"] <= LP_TOL else
                 False if r["relative_shortfall"] > LP_TOL else WITHIN_NOISE
                 for r in diag["lp"].values()]
    lp_text = "; ".join(
        f"{d}: true objective at the LP's optimum {r['lp_value']:.6g} against the convex "
        f"optimum {r['optimum']:.6g} (shortfall {r['relative_shortfall']:.3g}, certified gap "
        f"{r['gap']:.2g})" for d, r in diag["lp"].items())
    lp = readings_claim(
        NAME, "Forcing M to be diagonal makes the optimization problem a linear program "
              "(2.2.2)",
        [Reading("objective affine", [diag["affine_deviation"] <= AFFINE],
                 f"iris: |f((m1 + m2) / 2) - (f(m1) + f(m2)) / 2| / f((m1 + m2) / 2) = "
                 f"{diag['affine_deviation']:.3g} for random non-negative m1, m2 (at most "
                 f"{AFFINE:g} needed)"),
         Reading("lp solves it", lp_checks, f"{lp_text} (relative {LP_TOL:g} needed)")],
        register=ids[3])
    return [sqrt, scale, bound, lp]


def _timing(records) -> dict:
    rec = records.get("timing")
    if not record_ok(rec):
        return make_claim(NAME, "MMC is significantly slower than PCA, RCA and LDA (2.2.2)",
                          [], not_run(NAME, "timing", rec), register="s2-2-2-mmc-slower")
    sets = rec["datasets"]
    checks = [timing_ratio_check(s["ratio"], SLOWER) for s in sets.values()]
    text = "; ".join(f"{_label(d)}: MMC {s['mmc_seconds']:.3g} s, PCA {s['pca_seconds']:.3g} s, "
                     f"RCA {s['rca_seconds']:.3g} s, LDA {s['lda_seconds']:.3g} s, ratio "
                     f"{s['ratio']:.3g}" for d, s in sets.items())
    kept, why = about_every(checks, TABLE_SETS, sets)
    return make_claim(NAME, "The lack of a closed form solution makes MMC significantly "
                      "slower than the methods of 2.2.1 (2.2.2)", kept,
                      f"CPU seconds per fit, median of {rec['repeats']}: {text} (at least "
                      f"{SLOWER:g} beyond the timing band of {100 * TIMING_BAND:.0f} %)"
                      + (f"; {why}" if why else ""), register="s2-2-2-mmc-slower")


def _feasibility(records) -> list[dict]:
    rec = records.get("feasibility")
    if not record_ok(rec):
        text = not_run(NAME, "feasibility", rec)
        return [make_claim(NAME, "The number of POLA's passes can be bounded (2.2.2)", [],
                           text, register="s2-2-2-pola-iterations-bounded"),
                make_claim(NAME, "Maintaining POLA's margin is not always possible (2.2.2)",
                           [], text, register="s2-2-2-pola-margin-not-always")]
    sets = rec["datasets"]
    bounded, bounded_text, margin, margin_text = [], [], [], []
    for d, s in sets.items():
        state = "converged" if s["converged"] else "not converged"
        pola = (f"batch POLA {s['passes']} passes, {state}"
                f" (largest hinge loss of the last pass {s['last_pass_max_loss']:.3g})")
        margin_text.append(f"{d} ({s['n_pairs']} pairs): SDP {s['status']}; {pola}")
        infeasible = s["status"] in ("infeasible", "infeasible_inaccurate")
        stuck = (not s["converged"]) and s["passes"] >= MAX_PASSES
        margin.append(infeasible or stuck)
        if s["feasible"] and (d == "separable" or d == "iris"):
            bounded.append(s["converged"] and s["passes"] <= MAX_PASSES)
            bounded_text.append(f"{d}: {pola}")
    return [make_claim(NAME, "The number of iterations of batch POLA over the data set can "
                       "be bounded above (2.2.2)", bounded,
                       ("; ".join(bounded_text) or "no separable set measured")
                       + f" (at most {MAX_PASSES} passes to no hinge loss above beta = "
                       f"{rec['beta']:g} on the separable sets; iris only if separable)",
                       register="s2-2-2-pola-iterations-bounded"),
            make_claim(NAME, "Maintaining the margin between similarly and differently "
                       "labeled pairs is not always possible (2.2.2)", margin,
                       "; ".join(margin_text) + " (an infeasible SDP, or POLA's hinge loss "
                       f"above beta after {MAX_PASSES} passes, on some set)",
                       register="s2-2-2-pola-margin-not-always")]


def _scaling(records) -> dict:
    rec = records.get("scaling")
    if not record_ok(rec):
        text = not_run(NAME, "scaling", rec)
        return readings_claim(NAME, "POLA is a very fast online algorithm and can be applied "
                              "to very large data sets (2.2.2)",
                              [Reading("linear in pairs", [], text),
                               Reading("large set feasible", [], text)],
                              register="s2-2-2-pola-fast-large")
    sizes = rec["sizes"]
    text = ", ".join(f"{s['pairs']} pairs {s['seconds']:.3g} s" for s in sizes)
    if "repeat_seconds" in sizes[0]:
        text += f" (medians of {len(sizes[0]['repeat_seconds'])} passes each)"
    fitted = pola_pass_slope(rec)
    if fitted is not None:
        slope, noise = fitted
        lo, hi = beyond_noise(slope - 0.8, noise), beyond_noise(1.2 - slope, noise)
        check = (False if False in (lo, hi) else True if (lo, hi) == (True, True)
                 else WITHIN_NOISE)
        how = ("2 SE over every timed pass" if "repeat_seconds" in sizes[0]
               else "timing band on the end points")
        linear = Reading("linear in pairs", [check],
                         f"one pass, MNIST after PCA to {rec['components']}: {text}; log-log "
                         f"slope {slope:.3g} (noise {noise:.2g}: {how}; 0.8 to 1.2 needed)")
    else:
        linear = Reading("linear in pairs", [],
                         f"one pass, MNIST after PCA to {rec['components']}: {text}; no "
                         f"verdict: the reading spans 1000 to 10^6 pairs")
    large = rec.get("large")
    if large:
        big = Reading("large set feasible",
                      [timing_ratio_check(HOUR / max(large["seconds"], 1e-9), 1.0)],
                      f"one pass over {large['pairs']} pairs at d = {large['components']}: "
                      f"{large['seconds']:.4g} CPU s (below {HOUR:g} s needed)")
    else:
        big = Reading("large set feasible", [], "not run in this profile (large_pairs null): "
                      "the reading needs one pass over 10^6 pairs at d = 164")
    return readings_claim(NAME, "POLA is a very fast online algorithm and can be applied to "
                          "very large data sets (2.2.2)", [linear, big],
                          register="s2-2-2-pola-fast-large")


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [*_clustering(records), *_multimodal(records), *_exact(records),
            _timing(records), *_feasibility(records), _scaling(records)]
