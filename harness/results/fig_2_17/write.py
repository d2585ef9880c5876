"""The outputs of fig_2_17 from its records: the CSV, the Markdown, the sidecar (and the
figure, for a figure) and the verdicts on the thesis' statements (:func:`claims`).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from harness.claims import (
    WITHIN_NOISE, Reading, beyond_noise, make_claim, readings_claim, verdict_of,
)
from harness.reference import CLAIMS_FILE, thesis_claim
from harness.results.fig_2_17 import work as point
from harness.result_registry import get_result, write_module
from harness.results.fig_2_17.outputs import write_outputs
from harness.results.common.write.figure_files import read_point
from harness.results.fig_2_17 import NAME, SPEEDUPS_FROM, TITLE, _conf, keys
from harness.results.fig_2_17.register_claims import (
    AGREE_CPU, AGREE_WORK, binomial_noise, register_claims,
)

__all__ = ["METHODS", "LABELS", "INPUT_LABELS", "THESIS_IDS", "COLUMNS", "SEARCH_FIELDS",
           "thesis_points", "build", "tree_inputs", "claims", "ball_tree_sizes", "ball_tree_speedups",
           "write"]

METHODS = ("pca", "lmnn_rec", "lmnn_sq")
LABELS = {"baseline": "baseline", "pca": "PCA", "lmnn_rec": "LMNN (rec)",
          "lmnn_sq": "LMNN (sq)"}
INPUT_LABELS = {"deskewed": "deskewed 784 pixels", "pixels": "784 pixels as published"}
THESIS_IDS = {15: "lmnn_rec15_mnist_knn", 25: "lmnn_rec25_mnist_knn"}
#: the columns of the figure's frame and CSV, in order
COLUMNS = ["method", "label", "n_components", "status", "reason", "error_pct",
           "alt_error_pct", "thesis_error_pct", "fit_cpu_seconds", "n_iter", "converged",
           "loss", "n_train", "n_test", "sq_minus_rec_pp", "mean_sq_minus_rec_pp",
           "gap_spearman_rho", "search_seconds", "search_spread", "search_work",
           "alt_search_seconds", "alt_search_work", "speedup", "work_speedup",
           "reduction_cpu_ratio", "reduction_work_ratio", "agree_cpu_limit", "agree_work_limit"]
#: a timed search's record fields -> the frame's columns (:func:`_search_columns`)
SEARCH_FIELDS = {"seconds": "search_seconds", "spread": "search_spread", "work": "search_work"}


def thesis_points(config: dict) -> dict:
    """The thesis' numbers: ``{15: 2.38, 25: 1.76}`` (LMNN (rec) by r) and the baseline
    2.33, read from ``thesis_claims.csv`` (the baseline from the conditions of
    ``lmnn_rec15_mnist_knn``)."""
    rows = {r: thesis_claim(config["reference_dir"], cid) for r, cid in THESIS_IDS.items()}
    found = re.search(r"baseline ([0-9.]+)%", rows[15]["conditions"])
    if found is None:
        raise ValueError(f"{CLAIMS_FILE}: lmnn_rec15_mnist_knn's conditions "
                         f"{rows[15]['conditions']!r} no longer quote 'baseline N%'")
    return {"rec": {r: float(row["value"]) for r, row in rows.items()},
            "baseline": float(found.group(1))}


# ---- aggregation ---------------------------------------------------------------------
def _gap_row(method: str, r, record: dict) -> dict:
    return {"method": method, "label": LABELS[method], "n_components": r,
            "status": record["status"], "reason": record.get("reason", "")}


def _fit_columns(record: dict) -> dict:
    return {c: record.get(c) for c in ("fit_cpu_seconds", "n_iter", "converged", "loss",
                                       "n_train", "n_test")}


def _search_columns(entry: dict | None, prefix: str = "") -> dict:
    """A timed search's record entry (``work.tree_search``, ``work.naive_search``) as
    the frame's ``search_*`` columns (``alt_search_*`` with ``prefix="alt_"``)."""
    if not entry:
        return {}
    out = {prefix + col: entry[field] for field, col in SEARCH_FIELDS.items()}
    return {k: v for k, v in out.items() if k in COLUMNS}


def build(config: dict) -> pd.DataFrame:
    """One row per (method, r) with ``error_pct`` (and, for LMNN (sq), the other
    projection's error in ``alt_error_pct``), the thesis' number where it gives one,
    and one ``baseline`` row (``alt_error_pct``: the other pixel input); a gap is a row
    with its status and reason and no error. ``sq_minus_rec_pp``: LMNN (sq)'s error
    minus LMNN (rec)'s at the same r (percentage points; the last claim's gaps)."""
    conf = _conf(config)
    thesis = thesis_points(config)
    record = read_point(config, NAME, "baseline")
    other = next(n for n in point.BASELINE_INPUTS if n != conf["baseline_input"])
    rows = [_gap_row("baseline", None, record)]
    if record["status"] == "ok":
        rows[0].update(error_pct=record["errors"][conf["baseline_input"]],
                       alt_error_pct=record["errors"][other], n_train=record["n_train"],
                       n_test=record["n_test"], **_search_columns(record.get("naive784")))
    rows[0]["thesis_error_pct"] = thesis["baseline"]
    alt = next(p for p in point.PROJECTIONS if p != conf["sq_projection"])
    for method in conf["methods"]:
        sq = read_point(config, NAME, "lmnn_sq") if method == "lmnn_sq" else None
        by_r = {row["n_components"]: row for row in (sq or {}).get("errors_by_dimension", [])}
        trees_r = {row["n_components"]: row
                   for row in (sq or {}).get("balltree_by_dimension", [])}
        for r in conf["dimensions"]:
            record = sq or read_point(config, NAME, f"{method}/r{r}")
            row = _gap_row(method, r, record)
            if record["status"] == "ok":
                row.update(_fit_columns(record))
                if sq is None:
                    row["error_pct"] = record["error_pct"]
                    row.update(_search_columns(record.get("balltree")))
                elif r in by_r:
                    row.update(error_pct=by_r[r][conf["sq_projection"]],
                               alt_error_pct=by_r[r][alt])
                    tree = trees_r.get(r, {})
                    row.update(_search_columns(tree.get(conf["sq_projection"])),
                               **_search_columns(tree.get(alt), "alt_"))
                else:
                    row.update(status="missing", reason=f"the lmnn_sq record has no r = {r}; "
                               f"rerun `harness job {NAME}/lmnn_sq`")
            if method == "lmnn_rec" and r in thesis["rec"]:
                row["thesis_error_pct"] = thesis["rec"][r]
            rows.append(row)
    rec = {row["n_components"]: row["error_pct"] for row in rows
           if row["method"] == "lmnn_rec" and row["status"] == "ok"}
    gaps = {}
    for row in rows:
        if row["method"] == "lmnn_sq" and row["status"] == "ok" and row["n_components"] in rec:
            row["sq_minus_rec_pp"] = row["error_pct"] - rec[row["n_components"]]
            gaps[row["n_components"]] = row["sq_minus_rec_pp"]
    mean_gap, rho = gap_statistics(gaps)
    naive = rows[0].get("search_seconds"), rows[0].get("search_work")
    for row in rows:
        if row["method"] == "lmnn_sq":
            row.update(mean_sq_minus_rec_pp=mean_gap, gap_spearman_rho=rho)
        if row["method"] != "baseline" and row.get("search_seconds") and naive[0]:
            # Fig. 2.13's speed-up: the naive 784-D search over the ball tree in r dims
            row.update(speedup=naive[0] / row["search_seconds"],
                       work_speedup=naive[1] / row["search_work"])
    _reduction_ratios(rows)
    return pd.DataFrame(rows).reindex(columns=COLUMNS)


def _reduction_ratios(rows: list[dict]) -> None:
    """At each r where PCA, LMNN (rec) and LMNN (sq) all timed their ball tree: max /
    min of the three tree costs (CPU s, coordinate operations) and the limits the
    s2-1-9 entry compares them with, on those rows (the numbers its verdict prints)."""
    for r in rows:  # the limits the verdict's text names, beside every reduction's row
        if r["method"] in METHODS:
            r.update(agree_cpu_limit=AGREE_CPU, agree_work_limit=AGREE_WORK)
    timed = [r for r in rows if r["method"] in METHODS and r["status"] == "ok"
             and r.get("search_seconds") and r.get("search_work")]
    for n in {r["n_components"] for r in timed}:
        at = [r for r in timed if r["n_components"] == n]
        if {r["method"] for r in at} != set(METHODS):
            continue
        cpu = [r["search_seconds"] for r in at]
        work = [float(r["search_work"]) for r in at]
        for r in at:
            r.update(reduction_cpu_ratio=max(cpu) / min(cpu),
                     reduction_work_ratio=max(work) / min(work))


def tree_inputs(frame: pd.DataFrame) -> dict:
    """The ball-tree timings of the frame as the arguments of
    :func:`~harness.results.fig_2_17.register_claims.speedup_depends_only_on_dim`."""
    def entry(row, prefix=""):
        return {"seconds": float(row[prefix + "search_seconds"]),
                "spread": float(row.get(prefix + "search_spread", 0.0) or 0.0),
                "work": float(row[prefix + "search_work"])}

    ok = frame[(frame["status"] == "ok") & frame["search_seconds"].notna()]
    trees, alt, naive = {}, {}, None
    for _, row in ok.iterrows():
        if row["method"] == "baseline":
            naive = entry(row)
            continue
        r = int(row["n_components"])
        trees.setdefault(row["method"], {})[r] = entry(row)
        if row["method"] == "lmnn_sq" and pd.notna(row["alt_search_seconds"]):
            alt[r] = {"seconds": float(row["alt_search_seconds"]), "spread": 0.0,
                      "work": float(row["alt_search_work"])}
    return {"trees": trees, "naive": naive, "alt": alt, "sizes": _size_text(frame)}


def gap_statistics(gaps: dict[int, float]) -> tuple[float, float]:
    """The mean of LMNN (sq) - LMNN (rec) over the r both measured (NaN without one)
    and Spearman's rho of that gap with r (NaN below three r): the numbers of 'clearly
    outperforms' (on average) and 'slowly converge'."""
    from scipy.stats import spearmanr

    rs = sorted(gaps)
    mean = float(np.mean([gaps[r] for r in rs])) if rs else math.nan
    rho = (float(spearmanr(rs, [gaps[r] for r in rs]).statistic) if len(rs) >= 3
           else math.nan)
    return mean, rho


def _series(frame: pd.DataFrame, method: str) -> dict[int, float]:
    part = frame[(frame["method"] == method) & (frame["status"] == "ok")]
    return {int(r): float(e) for r, e in zip(part["n_components"], part["error_pct"])}


def _catch_up(series: dict[int, float], baseline: float) -> int | None:
    """The smallest r whose error is at most the baseline's (None: none is)."""
    return next((r for r in sorted(series) if series[r] <= baseline), None)


def _fmt_series(series: dict[int, float]) -> str:
    return ", ".join(f"r={r}: {e:.2f}%" for r, e in sorted(series.items())) or "none"


def _size_text(frame: pd.DataFrame) -> str:
    ok = frame[frame["status"] == "ok"]
    if ok.empty or "n_train" not in ok:
        return "nothing measured"
    sizes = {(int(a), int(b)) for a, b in zip(ok["n_train"], ok["n_test"]) if pd.notna(a)}
    return "; ".join(f"n_train = {a}, n_test = {b}" for a, b in sorted(sizes))


def _at_thesis_size(frame: pd.DataFrame) -> bool:
    ok = frame[frame["status"] == "ok"]
    return (not ok.empty and "n_train" in ok and (ok["n_train"] == 60000).all()
            and (ok["n_test"] == 10000).all())


#: the register entries of the thesis' three numbers (2.1.9, line 1049), by what
NUMBER_ENTRIES = {15: "s2-1-9-lmnn-rec-15-error-2-38", 25: "s2-1-9-rec-25-error-1-76",
                  "baseline": "s2-1-9-baseline-2-33"}


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The thesis' three numbers (within ``tolerance_pp``, at the thesis' size only) and
    its statements on the curves, each deciding its claims-register entry (2.1.9,
    line 1049-1051; interface :mod:`harness.claims`)."""
    conf = _conf(config)
    frame = build(config) if frame is None else frame
    thesis = thesis_points(config)
    size = _size_text(frame)
    base_row = frame[frame["method"] == "baseline"].iloc[0]
    base = float(base_row["error_pct"]) if base_row["status"] == "ok" else None
    series = {m: _series(frame, m) for m in METHODS}
    rec, tol = series["lmnn_rec"], conf["tolerance_pp"]
    at_size = _at_thesis_size(frame)
    why = "" if at_size else (
        f" Not compared: measured at {size}, not the thesis' 60000 / 10000 images.")
    out = []
    points = [(15, "LMNN (rec) r=15", rec.get(15), thesis["rec"][15]),
              (25, "LMNN (rec) r=25", rec.get(25), thesis["rec"][25]),
              ("baseline", f"baseline ({conf['baseline_input']})", base,
               thesis["baseline"])]
    for key, what, ours, value in points:
        text = f"{what} {('%.2f%%' % ours) if ours is not None else 'not measured'}"
        if key == "baseline" and base is not None:
            other = next(n for n in point.BASELINE_INPUTS if n != conf["baseline_input"])
            text += f" (on the {INPUT_LABELS[other]}: {base_row['alt_error_pct']:.2f}%)"
        out.append(make_claim(
            NAME, f"3-NN test error of {what} is {value:.2f} % (within {tol:g} percentage "
                  f"points; 2.1.9, Fig. 2.17)",
            [abs(ours - value) <= tol] if ours is not None and at_size else [],
            f"ours {text} vs the thesis' {value:.2f}%.{why}",
            register=NUMBER_ENTRIES[key]))
    if base is None:
        reason = f"the baseline is a gap ({base_row['status']}: {base_row['reason']})"
        for text, entry in _CURVE_CLAIMS:
            out.append(make_claim(NAME, text, [], reason, register=entry))
        return out + register_claims(config, conf, series, None, None, at_size, reason,
                                     {}, [], tree_inputs(frame))
    n_test = int(frame.loc[frame["status"] == "ok", "n_test"].dropna().min())
    note = f" Measured at {size}" + ("." if at_size else
                                     " (the direction of the claim, not the thesis' numbers).")
    out += _curve_claims(conf, series, base, n_test, note)
    return out + register_claims(config, conf, series, base, n_test, at_size, why,
                                 ball_tree_speedups(config), ball_tree_sizes(config),
                                 tree_inputs(frame))


_CURVE_CLAIMS = (
    ("PCA also leads to lower 3-NN errors than the baseline at some r (2.1.9, Fig. 2.17)",
     "s2-1-9-pca-also-below-baseline"),
    ("PCA and LMNN (sq) need significantly more dimensions than LMNN (rec) to catch up "
     "with the baseline (2.1.9, Fig. 2.17)", "s2-1-9-pca-sq-need-more-dims"),
    ("PCA and LMNN (sq) never outperform LMNN (rec): at no r is their error below LMNN "
     "(rec)'s beyond the test sample's noise (2.1.9, Fig. 2.17)",
     "s2-1-9-never-outperform-rec"),
    ("LMNN (rec) clearly outperforms LMNN (sq) (2.1.9, Fig. 2.17)",
     "s2-1-9-rec-clearly-outperforms-sq"),
    ("Although their results slowly converge: the gap LMNN (sq) - LMNN (rec) shrinks as r "
     "grows (2.1.9, Fig. 2.17)", "s2-1-9-rec-sq-slowly-converge"),
)


def _curve_claims(conf: dict, series: dict, base: float, n_test: int,
                  note: str) -> list[dict]:
    """The five statements of 2.1.9 on Fig. 2.17's curves, each on its register entry's
    readings; every comparison of two errors is decided beyond ``difference_z``
    binomial standard errors of the test sample (:func:`binomial_noise`), inside them
    it is :data:`harness.claims.WITHIN_NOISE`."""
    rec, pca, sq = series["lmnn_rec"], series["pca"], series["lmnn_sq"]
    z = conf["difference_z"]
    noise_text = (f" A difference within {z:g} binomial standard errors of the "
                  f"{n_test} test digits is inside the noise.")

    def below(a: float, b: float):
        """``a`` below ``b`` beyond the test sample's noise."""
        return beyond_noise(b - a, binomial_noise(a, b, n_test, z))

    (pca_text, pca_id), (more_text, more_id), (never_text, never_id), \
        (clear_text, clear_id), (conv_text, conv_id) = _CURVE_CLAIMS
    pca_below = [below(e, base) for e in pca.values()]
    sq_below = [below(e, base) for e in sq.values()]
    first = readings_claim(NAME, pca_text, [
        Reading("pca some r", pca_below, f"PCA {_fmt_series(pca)}", "some"),
        Reading("pca and sq", [_as_check(verdict_of(pca_below, "some")),
                               _as_check(verdict_of(sq_below, "some"))]
                if pca_below and sq_below else [],
                f"LMNN (sq) {_fmt_series(sq)}", "every")], register=pca_id)
    first["evidence"] = f"baseline {base:.2f}%; {first['evidence']}.{noise_text}{note}"

    reach = {m: _catch_up(s, base) for m, s in series.items() if s}

    def shown(r):
        return "never (up to the largest r)" if r is None else f"r = {r}"

    def catch_checks(margin):
        checks = []
        if "lmnn_rec" in reach:
            r_rec = math.inf if reach["lmnn_rec"] is None else reach["lmnn_rec"]
            for m in ("pca", "lmnn_sq"):
                if m in reach:
                    r_m = math.inf if reach[m] is None else reach[m]
                    checks.append(r_rec < math.inf and r_m >= r_rec + margin)
        return checks

    reached = ("first r at or below the baseline " f"{base:.2f}%: " + "; ".join(
        f"{LABELS[m]} {shown(r)}" for m, r in reach.items()))
    margin = conf["catch_up_margin"]
    second = readings_claim(NAME, more_text, [
        Reading("one grid step", catch_checks(margin), f"at least {margin} more"),
        Reading("two grid steps", catch_checks(2 * margin), f"at least {2 * margin} more")],
        register=more_id)
    second["evidence"] = f"{reached}; {second['evidence']}.{note}"

    pairs = [(m, r) for m in ("pca", "lmnn_sq") for r in series[m] if r in rec]
    # "never outperforms": LMNN (rec) below the other beyond the noise passes, the
    # other below LMNN (rec) beyond it is a counterexample, in between undecided
    checks = [below(rec[r], series[m][r]) for m, r in pairs]
    beaten = [f"{LABELS[m]} r={r} ({series[m][r]:.2f}% < {rec[r]:.2f}%)"
              for (m, r), c in zip(pairs, checks) if c is False]
    third = make_claim(NAME, never_text, checks,
                       f"LMNN (rec) {_fmt_series(rec)}; PCA {_fmt_series(pca)}; LMNN (sq) "
                       f"{_fmt_series(sq)}; outperformed beyond the noise at: "
                       f"{', '.join(beaten) or 'none'}.{noise_text}{note}", register=never_id)

    common = sorted(set(rec) & set(sq))
    gaps = {r: sq[r] - rec[r] for r in common}
    gap_text = ("LMNN (sq) - LMNN (rec): " + (", ".join(
        f"r={r}: {g:+.2f}" for r, g in gaps.items()) or "not measured") + " percentage points")
    mean_gap, rho = gap_statistics(gaps)
    fourth = readings_claim(NAME, clear_text, [
        Reading("clearly", [below(rec[r], sq[r]) for r in common], "at every r"),
        Reading("on average", [mean_gap > conf["tolerance_pp"]] if gaps else [],
                f"mean gap {mean_gap:+.2f} points, needs > {conf['tolerance_pp']:g}")],
        register=clear_id)
    fourth["evidence"] = f"{gap_text}; {fourth['evidence']}.{noise_text}{note}"

    trend = []
    if len(common) >= 3:
        trend = [rho < 0, gaps[common[-1]] < gaps[common[0]]]
        gap_text += f"; Spearman rho of the gap with r {rho:+.2f}"
    fifth = make_claim(NAME, conv_text, trend, f"{gap_text}.{note}", register=conv_id)
    return [first, second, third, fourth, fifth]


def _as_check(verdict: str):
    """A part's verdict as a check of the whole: holds a pass, does not hold a
    counterexample, undecided inside the noise."""
    return {"holds": True, "does not hold": False}.get(verdict, WITHIN_NOISE)


def ball_tree_sizes(config: dict) -> list[tuple[int, int]]:
    """The (training, test) digits at which Fig. 2.13's records measured the speed-ups
    of :func:`ball_tree_speedups` (read from its records; empty without them)."""
    if SPEEDUPS_FROM not in config["results"]:
        return []
    frame = write_module(get_result(SPEEDUPS_FROM)).build(config)
    tree = frame[(frame["method"] == "balltree") & (frame["status"] == "ok")]
    if tree.empty or "n_train" not in tree:
        return []
    return sorted({(int(a), int(b)) for a, b in zip(tree["n_train"], tree["n_test"])
                   if pd.notna(a) and pd.notna(b)})


def ball_tree_speedups(config: dict) -> dict[int, float]:
    """Fig. 2.13's ball-tree 3-NN speed-ups over the naive 784-D search, by r (the labels
    on top of the thesis' Fig. 2.17: "It mostly only depends on the dimensionality,
    independent of the method of reduction"); empty without Fig. 2.13 or its records.
    The module is looked up by name, not imported, so that editing Fig. 2.13 does not
    rerun this figure's LMNN fits."""
    if SPEEDUPS_FROM not in config["results"]:
        return {}
    frame = write_module(get_result(SPEEDUPS_FROM)).build(config)
    tree = frame[(frame["method"] == "balltree") & (frame["status"] == "ok")]
    return {int(r): float(s) for r, s in zip(tree["r"], tree["speedup"])}


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_17.{csv,png,md,json}``; return the paths."""
    frame = build(config)
    return write_outputs(config, TITLE, frame, claims(config, frame), keys(config),
                         thesis_points(config), ball_tree_speedups(config),
                         ball_tree_sizes(config))
