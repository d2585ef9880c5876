"""The claims-register entries this result decides (``harness/claims_register/
chapter_2.yaml``), each under the entry's readings exactly; the numbers come from
:func:`summary` (one row per measured quantity, the result's CSV).

Noise rules (fixed before any number was seen, see README.md):

* a CPU-time ratio is checked with the 65 % timing band
  (:func:`harness.results.solver_table.register_claims.timing_ratio_check`);
* a log-log slope is the least-squares slope over every repeat of every size
  (:func:`loglog_fit`); a slope whose distance to a tolerance border is within two
  standard errors of the fit is inside the noise (:func:`slope_within`);
* a rank correlation is checked by its one-sided p-values
  (:func:`harness.claims.significant`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from harness.claims import (
    WITHIN_NOISE, Reading, about_every, beyond_noise, make_claim, readings_claim,
    significant, stand_in_claim,
)
from harness.results.lmnn_solver_profile import NAME
from harness.results.solver_table.register_claims import loglog_fit, TIMING_BAND, timing_ratio_check

__all__ = ["TABLE_2_1", "LARGE", "loglog_fit", "slope_within", "rank_check", "summary",
           "register_claims"]

#: Table 2.1's data sets by their harness names (the register's "each Table 2.1 data set")
TABLE_2_1 = ("mnist", "newsgroups", "letter", "isolet", "yale_b", "balance_scale", "wine",
             "iris")
#: the large ones (the register's "mnist, 20news, letters, isolet, yalefaces")
LARGE = ("mnist", "newsgroups", "letter", "isolet", "yale_b")
#: register tolerances
GRAD_RTOL = 1e-8
SAME_MIN_RTOL = 1e-4
STEP_RTOL = 1e-3
SKIP_FIRST = 10  # "after the first 10" iterations


def slope_within(slope: float, se: float, low: float = -math.inf, high: float = math.inf):
    """A slope in ``[low, high]``: ``True`` inside by more than 2 standard errors,
    ``False`` outside by more than 2, else :data:`~harness.claims.WITHIN_NOISE`.

    Examples
    --------
    >>> slope_within(2.0, 0.05, 1.6, 2.4), slope_within(1.0, 0.05, 1.6, 2.4)
    (True, False)
    >>> slope_within(1.62, 0.05, 1.6, 2.4)
    WITHIN_NOISE
    """
    noise = 2.0 * se
    lo, hi = beyond_noise(slope - low, noise), beyond_noise(high - slope, noise)
    if lo is False or hi is False:
        return False
    return True if lo is True and hi is True else WITHIN_NOISE


def rank_check(x, y) -> tuple[float, float, float]:
    """Spearman's rho of ``y`` with ``x`` and its one-sided p-values (greater, less);
    NaN for a constant series (which measures nothing).

    Examples
    --------
    >>> rho, up, down = rank_check([1, 2, 3, 4, 5, 6], [1, 3, 2, 5, 4, 6])
    >>> round(rho, 3), significant(up, down)
    (0.886, True)
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), float("nan"), float("nan")
    rho = float(spearmanr(x, y).statistic)
    p_up = float(spearmanr(x, y, alternative="greater").pvalue)
    p_down = float(spearmanr(x, y, alternative="less").pvalue)
    return rho, p_up, p_down


# ---- the summary frame ---------------------------------------------------------------
def _row(entry, dataset, quantity, value, **more) -> dict:
    return {"entry": entry, "dataset": dataset, "quantity": quantity, "value": value, **more}


def _trace_rows(rec: dict) -> list[dict]:
    ds = rec["dataset"]
    it = pd.DataFrame(rec["iterates"])
    steps = it[it["kind"] == "step"]
    rows = [_row("trace", ds, "n_iter", rec["n_iter"]),
            _row("trace", ds, "accepted_steps", len(steps))]
    moved = steps.dropna(subset=["grad_rel_error"])
    t14, t15 = moved["seconds_2_14"].median(), moved["seconds_2_15"].median()
    rows += [_row("s2-1-7-incremental-gradient", ds, "max_grad_rel_error",
                  moved["grad_rel_error"].max()),
             _row("s2-1-7-incremental-gradient", ds, "median_seconds_2_14", t14),
             _row("s2-1-7-incremental-gradient", ds, "median_seconds_2_15", t15),
             _row("s2-1-7-incremental-gradient", ds, "time_ratio_2_15_over_2_14", t15 / t14)]
    later = moved[moved["t"] > SKIP_FIRST]
    change = later["n_changed"] / later["n_active_before"].clip(lower=1)
    rows += [_row("s2-1-7-active-set-changes-little", ds, "iterations", len(later)),
             _row("s2-1-7-active-set-changes-little", ds, "median_change", change.median()),
             _row("s2-1-7-active-set-changes-little", ds, "share_below_5pct",
                  float((change < 0.05).mean()) if len(later) else np.nan),
             _row("s2-1-7-active-set-changes-little", ds, "share_below_1pct",
                  float((change < 0.01).mean()) if len(later) else np.nan)]
    fin = rec["final_check"]
    rows += [_row("s2-1-7-active-set-final-check", ds, "loss_active_set", fin["loss_active_set"]),
             _row("s2-1-7-active-set-final-check", ds, "loss_every_iteration",
                  fin["loss_every_iteration"]),
             _row("s2-1-7-active-set-final-check", ds, "relative_difference",
                  abs(fin["loss_active_set"] - fin["loss_every_iteration"])
                  / abs(fin["loss_every_iteration"])),
             _row("s2-1-7-active-set-final-check", ds, "missed_without_final_check",
                  fin["missed_at_first_stop"]),
             _row("s2-1-7-active-set-final-check", ds, "both_converged",
                  float(fin["converged_active_set"] and fin["converged_every_iteration"]))]
    opt = min([rec["optimum_lbfgs"]] + [r["loss"] for r in rec["step_runs"]])
    rows.append(_row("s2-1-7-step-size-rule", ds, "optimum", opt))
    for r in rec["step_runs"]:
        rows.append(_row("s2-1-7-step-size-rule", ds, "relative_gap", (r["loss"] - opt) / opt,
                         first_step=r["first_step"], n_iter=r["n_iter"],
                         converged=float(r["converged"])))
    rm = rec["random_metrics"]
    for q, (x, y) in (("spearman_along_iterates", (steps["loss"], steps["loo_error"])),
                      ("spearman_across_metrics", (rm["loss"], rm["loo_error"]))):
        rho, p_up, p_down = rank_check(x, y)
        rows.append(_row("s2-1-2-loss-mimics-loo-error", ds, q, rho, p_value=p_up,
                         p_value_less=p_down, points=len(x)))
    em = rec["empty"]
    rows += [_row("s2-1-2-empty-neighbourhood-correct", ds, "points_without_active_triple",
                  em["n_without"]),
             _row("s2-1-2-empty-neighbourhood-correct", ds, "violations", em["violations"])]
    rows += _profile_rows(ds, rec["time_profile"])
    return rows


def _profile_rows(ds: str, prof: dict) -> list[dict]:
    hinge = prof["search_seconds"] + prof["pass_seconds"]
    other = max(prof["total_seconds"] - hinge, 0.0)
    return [_row("s2-1-9-hinge-search-most-time", ds, "total_seconds", prof["total_seconds"]),
            _row("s2-1-9-hinge-search-most-time", ds, "hinge_share", hinge / prof["total_seconds"]),
            _row("s2-1-9-hinge-search-most-time", ds, "hinge_over_other",
                 hinge / other if other > 0 else np.inf),
            _row("s2-1-9-hinge-search-most-time", ds, "profile_n", prof["n"])]


def _slope_rows(entry, ds, quantity, xs, ts) -> list[dict]:
    slope, se = loglog_fit(xs, ts)
    return [_row(entry, ds, f"{quantity}_slope", slope), _row(entry, ds, f"{quantity}_slope_se", se)]


def _scaling_rows(rec: dict) -> list[dict]:
    ds = rec["dataset"]
    t = pd.DataFrame(rec["times"])
    rows = []
    for sweep, x in (("n", "n"), ("k", "k"), ("d", "d")):
        part = t[t["sweep"] == sweep]
        rows += _slope_rows("s2-1-7-full-check-scaling", ds, f"check_{sweep}", part[x],
                            part["seconds_check"])
        if sweep != "k":
            rows += _slope_rows("s2-1-9-hinge-search-o-n2d", ds, f"search_{sweep}", part[x],
                                part["seconds_search"])
    part = t[t["sweep"] == "outer"]
    rows += _slope_rows("s2-1-7-outer-products-quadratic", "generated", "outer_d", part["d"],
                        part["seconds_outer"])
    rows += _profile_rows(f"{ds}_subsample", rec["time_profile"])
    return rows


def _classes_rows(rec: dict) -> list[dict]:
    ds = rec["dataset"]
    t = pd.DataFrame(rec["rows"])
    rows = []
    for col, entry in (("lmnn_seconds_per_iter", "s2-1-1-lmnn-no-class-dependence"),
                       ("lmnn_seconds", "s2-1-1-lmnn-no-class-dependence"),
                       ("ovr_seconds", "s2-1-1-svm-time-linear-in-classes"),
                       ("ovo_seconds", "s2-1-1-svm-time-linear-in-classes")):
        rows += _slope_rows(entry, ds, col, t["n_classes"], t[col])
    slope = [r for r in rows if r["quantity"] == "lmnn_seconds_slope"][0]
    se = [r for r in rows if r["quantity"] == "lmnn_seconds_slope_se"][0]
    rows += [{**slope, "entry": "s2-2-3-scales-many-classes"},
             {**se, "entry": "s2-2-3-scales-many-classes"}]
    return rows


def summary(records: dict[str, dict]) -> pd.DataFrame:
    """One row per measured quantity (``entry``, ``dataset``, ``quantity``,
    ``value``) from the records by job key; a job that did not run gives a row with
    its status."""
    rows = []
    for key, rec in records.items():
        if rec.get("status") != "ok":
            rows.append({"entry": "gap", "dataset": key, "quantity": rec.get("status", "missing"),
                         "value": np.nan, "reason": rec.get("reason", "")})
            continue
        job = rec["params"]["job"] if "params" in rec else rec["kind"]
        rows += {"trace": _trace_rows, "scaling": _scaling_rows,
                 "classes": _classes_rows}[job](rec)
    cols = ["entry", "dataset", "quantity", "value", "first_step", "n_iter", "converged",
            "p_value", "p_value_less", "points", "reason"]
    frame = pd.DataFrame(rows)
    return frame.reindex(columns=[*cols, *[c for c in frame.columns if c not in cols]])


# ---- the claims ------------------------------------------------------------------------
def _values(frame, entry, quantity) -> dict[str, float]:
    part = frame[(frame["entry"] == entry) & (frame["quantity"] == quantity)]
    return dict(zip(part["dataset"], part["value"].astype(float)))


def _fmt(values: dict, spec=".3g", unit="") -> str:
    return ", ".join(f"{d} {format(v, spec)}{unit}" for d, v in values.items()) or "none measured"


def _incremental(frame) -> list[dict]:
    e = "s2-1-7-incremental-gradient"
    err, ratio = _values(frame, e, "max_grad_rel_error"), _values(frame, e, "time_ratio_2_15_over_2_14")
    exact = Reading("exact", [v < GRAD_RTOL for v in err.values()],
                    f"largest relative Frobenius difference of (2.15), accumulated over "
                    f"every accepted iterate, from (2.14): {_fmt(err)} (below {GRAD_RTOL:g} "
                    f"needed)")
    efficient = Reading("efficient", [timing_ratio_check(v, 0.0, 1.0) for v in ratio.values()],
                        f"median CPU time of (2.15) over (2.14) per iterate: {_fmt(ratio)} "
                        f"(below 1 beyond the {100 * TIMING_BAND:g} % timing band needed)")
    fast = make_claim(
        NAME, "The incremental gradient (2.15) is very fast: at most 1/10 of the CPU time "
              "of recomputing (2.14) per iteration (2.1.7)",
        [timing_ratio_check(v, 0.0, 0.1) for v in ratio.values()],
        f"median CPU time of (2.15) over (2.14) per accepted iterate: {_fmt(ratio)} "
        f"(at most 0.1 beyond the {100 * TIMING_BAND:g} % timing band needed)",
        register="s2-1-7-incremental-very-fast")
    return [readings_claim(NAME, "The gradient at iteration t + 1 follows from G_t by "
                           "(2.15), equal to (2.14) and cheaper (2.1.7)", [exact, efficient],
                           register=e), fast]


def _changes(frame) -> dict:
    e = "s2-1-7-active-set-changes-little"
    readings = []
    for name, q, pct in (("five percent", "share_below_5pct", 5), ("one percent", "share_below_1pct", 1)):
        share = _values(frame, e, q)
        checks, why = about_every([v > 0.5 for v in share.values()], TABLE_2_1, share)
        readings.append(Reading(
            name, checks,
            f"share of accepted iterations after the first {SKIP_FIRST} whose active set "
            f"changed by less than {pct} % of |N_t| (symmetric difference): {_fmt(share)} "
            f"(above 0.5, i.e. most iterations, needed on every data set)"
            + (f"; {why}" if why else ""), quantifier="every"))
    return readings_claim(NAME, "With a small step size the active set N_t changes very "
                          "little between consecutive iterations (2.1.7)", readings, register=e)


def _slope_text(frame, entry, ds, q, what, lo, hi) -> tuple[object, str]:
    s = _values(frame, entry, f"{q}_slope").get(ds, np.nan)
    se = _values(frame, entry, f"{q}_slope_se").get(ds, np.nan)
    if s != s:
        return None, f"{what}: not measured"
    return slope_within(s, se, lo, hi), (f"{what}: log-log slope {s:.3g} (standard error "
                                         f"{se:.2g}; [{lo:g}, {hi:g}] needed)")


def _checks(*pairs) -> tuple[list, str]:
    return [c for c, _ in pairs if c is not None], "; ".join(t for _, t in pairs)


def _full_check(frame, ds) -> dict:
    e = "s2-1-7-full-check-scaling"
    n_checks, n_text = _checks(_slope_text(frame, e, ds, "check_n", "full-check CPU time against n", 1.6, 2.4))
    kd_checks, kd_text = _checks(_slope_text(frame, e, ds, "check_k", "against k", 0.6, 1.4),
                                 _slope_text(frame, e, ds, "check_d", "against d", 0.6, 1.4))
    where = f" ({ds} subsamples, the exact full check of the reference solver)"
    return readings_claim(NAME, "A full check of all triples scales O(k n^2 d) (2.1.7)",
                          [Reading("in n", n_checks, n_text + where),
                           Reading("in k and d", kd_checks, kd_text + where)], register=e)


def _search(frame, ds) -> dict:
    e = "s2-1-9-hinge-search-o-n2d"
    checks, text = _checks(
        _slope_text(frame, e, ds, "search_n", "blocked impostor search CPU time against n", 1.6, 2.4),
        _slope_text(frame, e, ds, "search_d", "against d", 0.6, 1.4))
    return make_claim(NAME, "The hinge-loss (impostor) search scales O(n^2 d) (2.1.9)", checks,
                      text + f" ({ds} subsamples, median of the repeats per size)", register=e)


def _outer(frame) -> dict:
    e = "s2-1-7-outer-products-quadratic"
    checks, text = _checks(_slope_text(frame, e, "generated", "outer_d",
                                       "CPU time to sum a fixed number of outer products "
                                       "against d >= 64", 1.6, 2.4))
    return make_claim(NAME, "Computing the outer products C_ij scales quadratically in the "
                      "input dimension (2.1.7)", checks, text + " (Gaussian vectors)", register=e)


def _final_check(frame) -> dict:
    e = "s2-1-7-active-set-final-check"
    rel = _values(frame, e, "relative_difference")
    both = _values(frame, e, "both_converged")
    missed = _values(frame, e, "missed_without_final_check")
    cut = [d for d in rel if both.get(d) != 1.0]
    same = Reading("same minimum", [v <= SAME_MIN_RTOL for d, v in rel.items() if d not in cut],
                   f"final loss over all triples, active set (full check every 10 steps and "
                   f"at the end) against a full check every step, relative difference: "
                   f"{_fmt(rel)} (at most {SAME_MIN_RTOL:g} needed)"
                   + (f"; no check on {', '.join(cut)}: a run stopped at max_iter before its "
                      f"stop test" if cut else ""))
    needed = Reading("check needed", [v > 0 for v in missed.values() if v == v],
                     f"active triples missing from the cached set where the run would stop "
                     f"without the final check: {_fmt(missed, '.0f')} (more than 0 in some run "
                     f"needed)", quantifier="some")
    return readings_claim(NAME, "A final full check ensures the active-set solver converges "
                          "to the correct minimum (2.1.7)", [same, needed], register=e)


def _step_size(frame) -> dict:
    e = "s2-1-7-step-size-rule"
    part = frame[(frame["entry"] == e) & (frame["quantity"] == "relative_gap")]
    gaps = [f"{r.dataset} alpha_0 {r.first_step:g}: {r.value:.3g}"
            + ("" if r.converged == 1.0 else f" (stopped at max_iter, {r.n_iter:.0f} steps)")
            for r in part.itertuples()]
    # a run cut off by max_iter above the tolerance decides nothing (the rule's
    # convergence is not bounded in steps); one that stopped by itself above it fails
    checks = [True if r.value <= STEP_RTOL else False
              for r in part.itertuples() if r.value <= STEP_RTOL or r.converged == 1.0]
    # "on each small data set": a data set with an undecided run is not measured
    decided = {d for d, g in part.groupby("dataset")
               if ((g["value"] <= STEP_RTOL) | (g["converged"] == 1.0)).all()}
    checks, why = about_every(checks, list(dict.fromkeys(part["dataset"])), decided)
    conv = Reading("converges", checks,
                   f"relative gap of the final loss to the best loss found (any run, and "
                   f"L-BFGS at tol 1e-9): {'; '.join(gaps) or 'none measured'} (at most "
                   f"{STEP_RTOL:g} needed)" + (f"; {why}" if why else ""))
    comp = Reading("competitive", [], "not measured: the fixed-step runs of the grid are "
                   "not built (the reference solver's growth and halving factors are fixed in its code)")
    return readings_claim(NAME, "Start with a very small step size, grow it slightly after a decrease, "
                          "halve it after an increase: a good way to set the step size (2.1.7)",
                          [conv, comp], register=e)


def _hinge_share(frame) -> dict:
    e = "s2-1-9-hinge-search-most-time"
    ratio = _values(frame, e, "hinge_over_other")
    share = _values(frame, e, "hinge_share")
    real = {d: v for d, v in ratio.items() if d in TABLE_2_1}
    stand = {d: share[d] for d in share if d not in TABLE_2_1}
    shown = (f"; shown, not counted: {_fmt(stand)} (a subsample is not the data set)"
             if stand else "")
    checks, why = about_every([timing_ratio_check(v, 1.0) for v in real.values()],
                              TABLE_2_1, real)
    largest = Reading("largest share", checks,
                      f"share of LMNN (L-BFGS) training CPU time in the impostor search, the "
                      f"hinge pass and its gradient: {_fmt({d: share[d] for d in real})} (above "
                      f"0.5, i.e. more than the rest, beyond the {100 * TIMING_BAND:g} % "
                      f"timing band needed){shown}" + (f"; {why}" if why else ""))
    big = {d: v for d, v in real.items() if d in LARGE}
    checks, why = about_every([timing_ratio_check(v, 1.0) for v in big.values()], LARGE, big)
    large = Reading("large sets only", checks,
                    f"as above on {', '.join(LARGE)}: {_fmt({d: share[d] for d in big})}{shown}"
                    + (f"; {why}" if why else ""))
    return readings_claim(NAME, "The hinge-loss search and gradient update is the most time "
                          "consuming part of LMNN training (2.1.9)", [largest, large], register=e)


def _mimics(frame) -> dict:
    e = "s2-1-2-loss-mimics-loo-error"
    readings = []
    for name, q in (("along iterates", "spearman_along_iterates"),
                    ("across metrics", "spearman_across_metrics")):
        part = frame[(frame["entry"] == e) & (frame["quantity"] == q)]
        checks = [significant(p, q) for p, q in zip(part["p_value"], part["p_value_less"])]
        readings.append(Reading(name, checks, f"Spearman rho of the loss (2.13) with the "
                                f"leave-one-out kNN error: {_fmt(dict(zip(part['dataset'], part['value'])))}"
                                f" (positive with one-sided p < 0.05 needed; p: "
                                f"{_fmt(dict(zip(part['dataset'], part['p_value'])), '.2g')})"))
    return readings_claim(NAME, "The LMNN loss mimics the leave-one-out classification "
                          "error (2.1.2)", readings, register=e)


def _empty(frame) -> dict:
    e = "s2-1-2-empty-neighbourhood-correct"
    viol = _values(frame, e, "violations")
    free = _values(frame, e, "points_without_active_triple")
    claim = make_claim(
        NAME, "A point whose local neighbourhoods hold nothing but its target neighbours is "
              "classified correctly by kNN (2.1.2)", [v == 0 for v in viol.values()],
        f"points without an active triple after LMNN: {_fmt(free, '.0f')}; of them "
        f"misclassified by leave-one-out kNN: {_fmt(viol, '.0f')}; not counted: it follows "
        f"from the definitions (every other-class point lies at least d_ij + 1 > d_ij "
        f"away, so the k targets are nearer than it), a check of our code only",
        register=e)
    return {**claim, "counted": False}


def _classes(frame) -> list[dict]:
    e1, e2, e3 = ("s2-1-1-lmnn-no-class-dependence", "s2-1-1-svm-time-linear-in-classes",
                  "s2-2-3-scales-many-classes")
    datasets = sorted(set(frame.loc[frame["entry"] == e1, "dataset"]))
    ds = datasets[0] if datasets else None

    def flat(q, what):
        s = _values(frame, e1, f"{q}_slope").get(ds, np.nan)
        se = _values(frame, e1, f"{q}_slope_se").get(ds, np.nan)
        if s != s:
            return Reading(what, [], "not measured")
        return Reading(what, [beyond_noise(0.3 - abs(s), 2 * se)],
                       f"{ds} class subsets at fixed n: log-log slope of LMNN {q.replace('_', ' ')} "
                       f"against C {s:.3g} (standard error {se:.2g}; |slope| < 0.3 beyond 2 "
                       f"standard errors needed)")

    def linear(q, what):
        s = _values(frame, e2, f"{q}_slope").get(ds, np.nan)
        se = _values(frame, e2, f"{q}_slope_se").get(ds, np.nan)
        if s != s:
            return Reading(what, [], "not measured")
        return Reading(what, [beyond_noise(s - 0.8, 2 * se)],
                       f"{ds} class subsets at fixed n: log-log slope of the {what} SVM's "
                       f"(RBF) fit CPU time against C {s:.3g} (standard error {se:.2g}; >= 0.8 "
                       f"beyond 2 standard errors needed)")

    out = [readings_claim(NAME, "LMNN has no explicit dependence on the number of classes "
                          "(2.1.1)", [flat("lmnn_seconds_per_iter", "per-iteration time flat"),
                                      flat("lmnn_seconds", "total time flat")], register=e1),
           readings_claim(NAME, "Multi-class SVM training time scales at least linearly in the "
                          "number of classes (2.1.1)", [linear("ovr_seconds", "one-vs-rest"),
                                                        linear("ovo_seconds", "one-vs-one")],
                          register=e2)]
    s = _values(frame, e3, "lmnn_seconds_slope").get(ds, np.nan)
    se = _values(frame, e3, "lmnn_seconds_slope_se").get(ds, np.nan)
    text = (f"log-log slope of LMNN fit CPU time against C on {ds} class subsets at fixed n: "
            f"{s:.3g} (standard error {se:.2g}; at most 1 beyond 2 standard errors needed)")
    statement = "LMNN scales naturally to a large number of classes (2.2.3)"
    if s != s:
        out.append(make_claim(NAME, statement, [], "not measured", register=e3))
    elif ds != "letter":
        out.append(stand_in_claim(NAME, statement, [ds], text + " (the reading names letters)",
                                  register=e3))
    else:
        out.append(make_claim(NAME, statement, [beyond_noise(1.0 - s, 2 * se)], text,
                              register=e3))
    return out


def register_claims(frame: pd.DataFrame) -> list[dict]:
    """Every register entry of this result, decided from the :func:`summary` frame."""
    scaling = sorted(set(frame.loc[frame["entry"] == "s2-1-7-full-check-scaling", "dataset"]))
    ds = scaling[0] if scaling else "mnist"
    return [*_incremental(frame), _changes(frame), _full_check(frame, ds), _final_check(frame),
            _step_size(frame), _outer(frame), _hinge_share(frame), _search(frame, ds),
            _mimics(frame), _empty(frame), *_classes(frame)]
