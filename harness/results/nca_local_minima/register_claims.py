"""The claims-register entries decided by ``nca_local_minima`` (thesis 2.2.2, lines
1237-1263; 2.1.3, line 667; 2.1.1, line 559), each under its register readings exactly
(``harness/claims_register/chapter_2.yaml``); the choices are in the README.

Inputs: ``spreads`` (one row per data set, split, r and method: the spread over the
starts, :func:`harness.results.nca_local_minima.write.spread_rows`), ``dimred`` (one
row per data set and r: NCA against PCA over the splits) and ``records`` (data set ->
job record, for the side checks of the first split).
"""

from __future__ import annotations

import math

import pandas as pd

from harness.claims import (WITHIN_NOISE, Reading, about_every, beyond_noise, make_claim,
                            readings_claim, significant)
from harness.results.nca_local_minima import NAME

__all__ = ["THESIS_SETS", "LMNN_SETS", "OBJECTIVE_SPREAD", "LMNN_SPREAD", "DESCENT_SPREAD",
           "HEAVY_POINTS", "heavy_check", "differ_check", "register_claims"]

#: the data sets the NCA readings name
THESIS_SETS = ("iris", "wine", "balance_scale")
#: the data sets the rectangular-LMNN readings name (MNIST is not run by this result)
LMNN_SETS = ("iris", "wine", "balance_scale", "mnist")
OBJECTIVE_SPREAD = 0.05   # s2-2-2-nca-depends-on-init: above 5 %
LMNN_SPREAD = 0.05        # s2-2-2-nonconvex-lmnn-no-local-minima: at most 5 %
DESCENT_SPREAD = 0.01     # s2-1-3-l-descent-local-minima: above 1 %
HEAVY_POINTS = 2.0        # 'heavily' = at least 2 percentage points
MIDPOINT_TOL = 1e-9
L1_TOL = 1e-9
L1_SAME_C = 0.01
SIZE_FACTOR = 2.0
FACTOR_TOL = 1e-8


def heavy_check(err_range: float, se_diff: float):
    """'Heavily depends': a range of at least :data:`HEAVY_POINTS` points beyond 2
    standard errors passes; below 2 points fails; else inside the noise.

    Examples
    --------
    >>> heavy_check(5.0, 1.0), heavy_check(1.0, 0.1), heavy_check(3.0, 2.0)
    (True, False, WITHIN_NOISE)
    """
    if err_range < HEAVY_POINTS:
        return False
    return True if err_range > 2 * se_diff else WITHIN_NOISE


def differ_check(err_range: float, se_diff: float):
    """Test errors that differ: beyond 2 standard errors passes, equal errors fail, a
    range inside 2 standard errors is inside the noise.

    Examples
    --------
    >>> differ_check(5.0, 1.0), differ_check(0.0, 1.0), differ_check(1.0, 1.0)
    (True, False, WITHIN_NOISE)
    """
    if err_range <= 0:
        return False
    return True if err_range > 2 * se_diff else WITHIN_NOISE


def _cases(rows: pd.DataFrame) -> str:
    return ", ".join(f"{r.dataset} r={r.r} split {r.split}: objective spread "
                     f"{100 * r.obj_rel_spread:.3g} %, test error {r.err_min:.3g}-{r.err_max:.3g} "
                     f"% (2 SE {r.err_two_se:.3g})" for r in rows.itertuples())


def _rows(spreads: pd.DataFrame, method: str, sets, which: str) -> pd.DataFrame:
    if spreads.empty:
        return spreads
    part = spreads[(spreads["method"] == method) & spreads["dataset"].isin(sets)]
    if which == "square":
        return part[part["r"] == part["d"]]
    if which == "rectangular":
        return part[part["r"] < part["d"]]
    if which == "nca_reading":  # r = d and the r = 2 variant
        return part[(part["r"] == part["d"]) | (part["r"] == 2)]
    return part


def _shown(spreads: pd.DataFrame, method: str, exclude, which: str, why: str) -> str:
    extra = _rows(spreads, method, set(spreads.get("dataset", [])) - set(exclude), which) \
        if not spreads.empty else spreads
    return f"; shown, not counted ({why}): {_cases(extra)}" if len(extra) else ""


def _nca_depends(spreads: pd.DataFrame) -> dict:
    rows = _rows(spreads, "nca", THESIS_SETS, "nca_reading")
    measured = set(rows["dataset"]) if len(rows) else set()
    extra = _shown(spreads, "nca", THESIS_SETS, "nca_reading", "not a data set of the reading")
    obj, why1 = about_every([r > OBJECTIVE_SPREAD for r in rows.get("obj_rel_spread", [])],
                            THESIS_SETS, measured)
    err, why2 = about_every([heavy_check(r.err_range, r.err_se_diff) for r in rows.itertuples()],
                            THESIS_SETS, measured)
    text = _cases(rows) or "no run measured"
    return readings_claim(NAME, "NCA does suffer from these local minima and the output "
                          "heavily depends on the initial starting point (2.2.2)", [
        Reading("objective spread", obj, f"NCA (2.33) from the same random starts, "
                f"(max - min) / mean above 5 % needed at r = d and r = 2: {text}"
                f"{'; ' + why1 if why1 else ''}{extra}"),
        Reading("test error spread", err, f"kNN test error range at least 2 points and "
                f"beyond 2 SE needed: {text}{'; ' + why2 if why2 else ''}")],
        register="s2-2-2-nca-depends-on-init")


def _lmnn_stable(spreads: pd.DataFrame) -> dict:
    lm = _rows(spreads, "lmnn", LMNN_SETS, "rectangular")
    nca = _rows(spreads, "nca", LMNN_SETS, "rectangular")
    both = lm.merge(nca, on=["dataset", "split", "r"], suffixes=("_lmnn", "_nca")) \
        if len(lm) and len(nca) else pd.DataFrame()
    measured = set(lm["dataset"]) if len(lm) else set()
    stable, why1 = about_every([r <= LMNN_SPREAD for r in lm.get("obj_rel_spread", [])],
                               LMNN_SETS, measured)
    less, why2 = about_every([r.err_range_lmnn < r.err_range_nca for r in both.itertuples()],
                             LMNN_SETS, set(both["dataset"]) if len(both) else set())
    extra = _shown(spreads, "lmnn", LMNN_SETS, "rectangular",
                   "digits is a stand-in for the reading's MNIST subsample")
    pairs = ", ".join(f"{r.dataset} r={r.r} split {r.split}: LMNN {r.err_range_lmnn:.3g} vs "
                      f"NCA {r.err_range_nca:.3g} points" for r in both.itertuples())
    return readings_claim(NAME, "In contrast to the non-convex version of LMNN (which does "
                          "not suffer from local minima) (2.2.2)", [
        Reading("lmnn stable", stable, f"rectangular LMNN (r < d) from the same random "
                f"starts, objective (2.8) (max - min) / mean at most 5 % needed: "
                f"{_cases(lm) or 'no run measured'}{'; ' + why1 if why1 else ''}{extra}"),
        Reading("lmnn less than nca", less, f"test-error range over the starts, LMNN "
                f"strictly below NCA needed: {pairs or 'no run measured'}"
                f"{'; ' + why2 if why2 else ''}")],
        register="s2-2-2-nonconvex-lmnn-no-local-minima")


def _descent(spreads: pd.DataFrame) -> dict:
    square = _rows(spreads, "lmnn", set(spreads.get("dataset", [])), "square") \
        if len(spreads) else spreads
    rect = _rows(spreads, "lmnn", set(spreads.get("dataset", [])), "rectangular") \
        if len(spreads) else spreads
    shown = f"; rectangular runs shown, not counted (the reading is full rank): {_cases(rect)}" \
        if len(rect) else ""
    return readings_claim(NAME, "Gradient descent methods could get stuck in local minima "
                          "and results might not be reproducible (2.1.3)", [
        Reading("different final objectives",
                [r > DESCENT_SPREAD for r in square.get("obj_rel_spread", [])],
                f"full-rank LMNN in L, (2.8) (max - min) / mean above 1 % on some data set "
                f"needed: {_cases(square) or 'no run measured'}{shown}"),
        Reading("different test errors",
                [differ_check(r.err_range, r.err_se_diff) for r in square.itertuples()],
                "test-error range beyond 2 binomial SE on some data set needed (same runs)")],
        register="s2-1-3-l-descent-local-minima")


def _ok(records: dict) -> dict:
    return {n: r for n, r in records.items() if r.get("status") == "ok"}


def _not_convex(records: dict) -> dict:
    ok = _ok(records)
    checks = [r["midpoint"]["max_violation_rel"] > MIDPOINT_TOL for r in ok.values()]
    text = ", ".join(f"{n}: largest violation {r['midpoint']['max_violation_rel']:.3g} "
                     f"relative, {r['midpoint']['n_violations']} of {r['midpoint']['pairs']} "
                     f"pairs" for n, r in ok.items())
    return make_claim(NAME, "One downside of the loss function as stated in (2.8) is that "
                      "it is not convex (2.1.3)", checks,
                      f"midpoint search eps((L1+L2)/2) > (eps(L1)+eps(L2))/2 beyond 1e-9 "
                      f"relative on some data set: {text or 'no data set measured'}",
                      register="s2-1-3-loss-in-l-not-convex")


def _l1(records: dict, named) -> dict:
    ok = {n: r for n, r in _ok(records).items() if r.get("l1")}
    measured = set(ok)
    affine, why1 = about_every(
        [d <= L1_TOL for r in ok.values() for d in r["l1"]["random_rel_dev"]], named, measured)
    same, why2 = about_every(
        [abs(o["c_l1"] / o["c_f"] - 1) <= L1_SAME_C for r in ok.values()
         for o in r["l1"]["optimiser"]], named, measured)
    text1 = ", ".join(f"{n}: {sum(d <= L1_TOL for d in r['l1']['random_rel_dev'])} of "
                      f"{len(r['l1']['random_rel_dev'])} A within 1e-9, largest deviation "
                      f"{max(r['l1']['random_rel_dev']):.3g}" for n, r in ok.items())
    text2 = ", ".join(f"{n}: {sum(abs(o['c_l1'] / o['c_f'] - 1) <= L1_SAME_C for o in r['l1']['optimiser'])} "
                      f"of {len(r['l1']['optimiser'])} final NCA matrices agree, largest "
                      f"|c_L1 / c_f - 1| {max(abs(o['c_l1'] / o['c_f'] - 1) for o in r['l1']['optimiser']):.3g}"
                      for n, r in ok.items() if r["l1"]["optimiser"])
    return readings_claim(NAME, "Maximizing (2.33) is also equivalent to minimizing the "
                          "L_1 distance to the perfect probability distribution (2.2.2)", [
        Reading("affine relation", affine, f"sum_i ||p_i. - q_i.||_1 against 2 (n - f(A)), "
                f"relative 1e-9 at every random A needed: {text1 or 'not measured'}"
                f"{'; ' + why1 if why1 else ''}"),
        Reading("same optimiser", same, f"argmax_c f(c A0) and argmin_c L1(c A0) within 1 % "
                f"needed: {text2 or 'not measured'}{'; ' + why2 if why2 else ''}")],
        register="s2-2-2-nca-l1-equivalence")


def _size(records: dict, named) -> dict:
    ok = _ok(records)
    curves = {n: [p for p in r["perplexity"] if p["square"]] for n, r in ok.items()
              if n in named[:2]}
    checks = [p["decreasing"] for ps in curves.values() for p in ps]
    text1 = ", ".join(f"{n}: {sum(p['decreasing'] for p in ps)} of {len(ps)} strictly "
                      f"decreasing ({sum(p['floor_steps'] for p in ps)} floor steps left out)"
                      for n, ps in curves.items())
    learned = {n: r["learned_perplexity"] for n, r in ok.items()
               if n in named and r.get("learned_perplexity") is not None}
    checks2 = []
    if len(learned) >= 2:
        checks2 = [max(learned.values()) / min(learned.values()) >= SIZE_FACTOR]
    text2 = ", ".join(f"{n}: {v:.3g}" for n, v in learned.items())
    if 0 < len(learned) < len(named) and checks2 == [False]:
        checks2 = []  # an unmeasured data set could still make the factor
    return readings_claim(NAME, "NCA not only learns the Mahalanobis distance matrix, but "
                          "also indirectly learns the size of the neighborhoods (2.2.2)", [
        Reading("scale sets size", checks, f"mean perplexity of p_i. over c in [0.1, 10] "
                f"under A -> c A, strictly decreasing needed (iris, wine): "
                f"{text1 or 'not measured'}"),
        Reading("learned size varies", checks2, f"median over starts of the mean "
                f"perplexity under NCA's learned square A: {text2 or 'not measured'} "
                f"(a factor of at least 2 between some two needed)")],
        register="s2-2-2-nca-learns-neighbourhood-size")


def dimred_check(p_less: float, p_greater: float, diff: float, se: float):
    """NCA below PCA: significant one-sided paired t-test and the mean difference
    (PCA - NCA) beyond 2 SE; the reverse both ways a counterexample; else the noise.

    Examples
    --------
    >>> dimred_check(0.01, 0.99, 3.0, 0.5), dimred_check(0.99, 0.01, -3.0, 0.5)
    (True, False)
    >>> dimred_check(0.2, 0.8, 1.0, 0.5)
    WITHIN_NOISE
    """
    sig, far = significant(p_less, p_greater), beyond_noise(diff, 2 * se)
    if sig is True and far is True:
        return True
    if sig is False and far is False:
        return False
    return WITHIN_NOISE


def _dimred(dimred: pd.DataFrame) -> dict:
    rows = dimred[dimred["n_splits"] >= 2] if len(dimred) else dimred
    checks = [dimred_check(r.p_less, r.p_greater, r.mean_diff, r.se_diff)
              for r in rows.itertuples()]
    text = ", ".join(f"{r.dataset} r={r.r}: NCA {r.nca_error:.3g} %, PCA {r.pca_error:.3g} % "
                     f"over {r.n_splits} splits (p = {r.p_less:.3g}, difference "
                     f"{r.mean_diff:.3g} ± {r.se_diff:.3g})" for r in rows.itertuples())
    one = len(dimred) - len(rows)
    return make_claim(NAME, "NCA can also be used for supervised dimensionality reduction "
                      "(2.2.2)", checks, f"kNN test error after rectangular NCA to r dims "
                      f"below PCA's, paired over the splits (p < 0.05, beyond 2 SE) on some "
                      f"data set needed: {text or 'not measured'}"
                      + (f"; {one} case(s) with one split not measured" if one else ""),
                      register="s2-2-2-nca-dimensionality-reduction")


def factor_check(item: dict):
    """Both factors reproduce M, their quotient is orthogonal, the neighbour lists agree
    (up to ties). An orthogonality error above :data:`FACTOR_TOL` but inside the float64
    round-off of the eigen square root (``orth_roundoff``, d u cond(M)) is inside the
    noise.

    Examples
    --------
    >>> ok = {"res_l1": 0, "res_l2": 0, "orth": 1e-12, "orth_roundoff": 1e-13,
    ...       "same_neighbours_up_to_ties": True}
    >>> factor_check(ok), factor_check({**ok, "orth": 1e-4, "orth_roundoff": 1e-3})
    (True, WITHIN_NOISE)
    >>> factor_check({**ok, "orth": 1e-4})
    False
    """
    if not (item["res_l1"] < FACTOR_TOL and item["res_l2"] < FACTOR_TOL
            and item.get("same_neighbours_up_to_ties", item.get("same_neighbours"))):
        return False
    if item["orth"] < FACTOR_TOL:
        return True
    return WITHIN_NOISE if item["orth"] <= item.get("orth_roundoff", 0.0) else False


def _factors(records: dict) -> dict:
    items = [(n, f) for n, r in _ok(records).items() for f in r["factorisation"]]
    checks = [factor_check(f) for _, f in items]
    worst = max((max(f["res_l1"], f["res_l2"], f["orth"]) for _, f in items), default=math.nan)
    bad = [f"{n} {f['source']}" for (n, f), c in zip(items, checks) if c is False]
    noisy = [f"{n} {f['source']} (orthogonality {f['orth']:.3g}, round-off "
             f"{f['orth_roundoff']:.3g}, cond(M) {f['cond']:.3g})"
             for (n, f), c in zip(items, checks) if c is WITHIN_NOISE]
    strict = sum(bool(f.get("same_neighbours")) for _, f in items)
    return make_claim(NAME, "Which one of the two matrices is learned is entirely a matter "
                      "of convenience as one defines the other uniquely (up to rotation) "
                      "(2.1.1)", checks,
                      f"{len(items)} matrices M (learned by LMNN and NCA, square, and random "
                      f"PSD): {sum(c is True for c in checks)} pass (largest relative residual "
                      f"{worst:.3g}, below 1e-8 needed; the same 3-NN lists up to tied "
                      f"distances needed, {strict} of {len(items)} identical as index lists)"
                      + (f"; inside the float64 round-off: {', '.join(noisy)}" if noisy else "")
                      + (f"; failing: {', '.join(bad)}" if bad else ""),
                      register="s2-1-1-m-and-l-define-each-other")


def register_claims(spreads: pd.DataFrame, dimred: pd.DataFrame, records: dict,
                    l1_named=("iris", "wine")) -> list[dict]:
    """The eight entries' claims."""
    return [_nca_depends(spreads), _lmnn_stable(spreads), _descent(spreads),
            _not_convex(records), _l1(records, list(l1_named)),
            _size(records, ["iris", "wine", "balance_scale"]), _dimred(dimred),
            _factors(records)]
