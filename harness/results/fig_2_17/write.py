"""The outputs of fig_2_17 from its records: the CSV, the Markdown, the sidecar (and the
figure, for a figure) and the verdicts on the thesis' statements (:func:`claims`).
"""

from __future__ import annotations

import math
import re

import pandas as pd

from harness.claims import make_claim
from harness.reference import CLAIMS_FILE, thesis_claim
from harness.results.fig_2_17 import work as point
from harness.results import get_result, write_module
from harness.results.fig_2_17.outputs import write_outputs
from harness.results.common.figure_files import read_point
from harness.results.fig_2_17 import NAME, SPEEDUPS_FROM, TITLE, _conf, keys

__all__ = ["METHODS", "LABELS", "INPUT_LABELS", "THESIS_IDS", "COLUMNS",
           "thesis_points", "build", "claims", "ball_tree_sizes", "ball_tree_speedups",
           "write"]

METHODS = ("pca", "lmnn_rec", "lmnn_sq")
LABELS = {"baseline": "baseline", "pca": "PCA", "lmnn_rec": "LMNN (rec)",
          "lmnn_sq": "LMNN (sq)"}
INPUT_LABELS = {"deskewed": "deskewed 784 pixels", "pixels": "784 pixels as published"}
THESIS_IDS = {15: "lmnn_rec15_mnist_knn", 25: "lmnn_rec25_mnist_knn"}
#: the columns of the figure's frame and CSV, in order
COLUMNS = ["method", "label", "n_components", "status", "reason", "error_pct",
           "alt_error_pct", "thesis_error_pct", "fit_cpu_seconds", "n_iter", "converged",
           "loss", "n_train", "n_test", "sq_minus_rec_pp"]


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
                       n_test=record["n_test"])
    rows[0]["thesis_error_pct"] = thesis["baseline"]
    alt = next(p for p in point.PROJECTIONS if p != conf["sq_projection"])
    for method in conf["methods"]:
        sq = read_point(config, NAME, "lmnn_sq") if method == "lmnn_sq" else None
        by_r = {row["n_components"]: row for row in (sq or {}).get("errors_by_dimension", [])}
        for r in conf["dimensions"]:
            record = sq or read_point(config, NAME, f"{method}/r{r}")
            row = _gap_row(method, r, record)
            if record["status"] == "ok":
                row.update(_fit_columns(record))
                if sq is None:
                    row["error_pct"] = record["error_pct"]
                elif r in by_r:
                    row.update(error_pct=by_r[r][conf["sq_projection"]],
                               alt_error_pct=by_r[r][alt])
                else:
                    row.update(status="missing", reason=f"the lmnn_sq record has no r = {r}; "
                               f"rerun `harness job {NAME}/lmnn_sq`")
            if method == "lmnn_rec" and r in thesis["rec"]:
                row["thesis_error_pct"] = thesis["rec"][r]
            rows.append(row)
    rec = {row["n_components"]: row["error_pct"] for row in rows
           if row["method"] == "lmnn_rec" and row["status"] == "ok"}
    for row in rows:
        if row["method"] == "lmnn_sq" and row["status"] == "ok" and row["n_components"] in rec:
            row["sq_minus_rec_pp"] = row["error_pct"] - rec[row["n_components"]]
    return pd.DataFrame(rows).reindex(columns=COLUMNS)


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


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The thesis' numbers (within ``tolerance_pp``, at the thesis' size only) and its
    four statements on the curves, with verdicts (interface :mod:`harness.claims`)."""
    conf = _conf(config)
    frame = build(config) if frame is None else frame
    thesis = thesis_points(config)
    size = _size_text(frame)
    base_row = frame[frame["method"] == "baseline"].iloc[0]
    base = float(base_row["error_pct"]) if base_row["status"] == "ok" else None
    series = {m: _series(frame, m) for m in METHODS}
    rec, tol = series["lmnn_rec"], conf["tolerance_pp"]
    out = []
    ours = [(f"LMNN (rec) r={r}", rec.get(r), value) for r, value in thesis["rec"].items()]
    ours.append((f"baseline ({conf['baseline_input']})", base, thesis["baseline"]))
    text = "; ".join(f"{what} {('%.2f%%' % e) if e is not None else 'not measured'} vs "
                     f"{t:.2f}%" for what, e, t in ours)
    checks = ([abs(e - t) <= tol for _, e, t in ours if e is not None]
              if _at_thesis_size(frame) else [])
    why = "" if _at_thesis_size(frame) else (
        f" Not compared: measured at {size}, not the thesis' 60000 / 10000 images.")
    if base is not None:
        other = next(n for n in point.BASELINE_INPUTS if n != conf["baseline_input"])
        text += f" (baseline on the {INPUT_LABELS[other]}: {base_row['alt_error_pct']:.2f}%)"
    out.append(make_claim(
        NAME, f"3-NN test error of LMNN (rec) 2.38 % at r = 15 and 1.76 % at r = 25, "
              f"baseline 2.33 % (within {tol:g} percentage points; 2.1.9, Fig. 2.17)",
        checks, f"ours vs thesis: {text}.{why}"))
    if base is None:
        reason = f"the baseline is a gap ({base_row['status']}: {base_row['reason']})"
        for claim in _CURVE_CLAIMS:
            out.append(make_claim(NAME, claim, [], reason))
        return out
    note = f" Measured at {size}" + ("." if _at_thesis_size(frame) else
                                     " (the direction of the claim, not the thesis' numbers).")
    out += _curve_claims(conf, series, base, note)
    return out


_CURVE_CLAIMS = (
    "PCA also leads to lower 3-NN errors than the baseline at some r (2.1.9, Fig. 2.17)",
    "PCA and LMNN (sq) need significantly more dimensions than LMNN (rec) to catch up "
    "with the baseline (2.1.9, Fig. 2.17)",
    "PCA and LMNN (sq) never outperform LMNN (rec): LMNN (rec)'s error is at most "
    "theirs at every r (2.1.9, Fig. 2.17)",
    "LMNN (rec) clearly outperforms LMNN (sq), although their results slowly converge: "
    "LMNN (rec)'s error is below LMNN (sq)'s at every r and the gap is smaller at the "
    "largest r than at the smallest (2.1.9, Fig. 2.17)",
)


def _curve_claims(conf: dict, series: dict, base: float, note: str) -> list[dict]:
    rec, pca, sq = series["lmnn_rec"], series["pca"], series["lmnn_sq"]
    margin = conf["catch_up_margin"]
    below = [r for r, e in pca.items() if e < base]
    first = make_claim(NAME, _CURVE_CLAIMS[0], [bool(below)] if pca else [],
                       f"baseline {base:.2f}%; PCA {_fmt_series(pca)}; below the baseline "
                       f"at r = {below or 'none'}.{note}")
    reach = {m: _catch_up(s, base) for m, s in series.items() if s}
    def shown(r):
        return "never (up to the largest r)" if r is None else f"r = {r}"
    catch_checks = []
    if "lmnn_rec" in reach:
        r_rec = math.inf if reach["lmnn_rec"] is None else reach["lmnn_rec"]
        for m in ("pca", "lmnn_sq"):
            if m in reach:
                r_m = math.inf if reach[m] is None else reach[m]
                catch_checks.append(r_rec < math.inf and r_m >= r_rec + margin)
    second = make_claim(
        NAME, _CURVE_CLAIMS[1] + f"; 'significantly' read as at least {margin} more",
        catch_checks, "first r at or below the baseline " f"{base:.2f}%: " + "; ".join(
            f"{LABELS[m]} {shown(r)}" for m, r in reach.items()) + f".{note}")
    pairs = [(m, r) for m in ("pca", "lmnn_sq") for r in series[m] if r in rec]
    beaten = [f"{LABELS[m]} r={r} ({series[m][r]:.2f}% < {rec[r]:.2f}%)"
              for m, r in pairs if series[m][r] < rec[r]]
    third = make_claim(NAME, _CURVE_CLAIMS[2], [rec[r] <= series[m][r] for m, r in pairs],
                       f"LMNN (rec) {_fmt_series(rec)}; PCA {_fmt_series(pca)}; LMNN (sq) "
                       f"{_fmt_series(sq)}; outperformed at: {', '.join(beaten) or 'none'}."
                       f"{note}")
    common = sorted(set(rec) & set(sq))
    gaps = {r: sq[r] - rec[r] for r in common}
    checks = [gaps[r] > 0 for r in common]
    if len(common) >= 2:
        checks.append(gaps[common[-1]] < gaps[common[0]])
    fourth = make_claim(NAME, _CURVE_CLAIMS[3], checks,
                        "LMNN (sq) - LMNN (rec): " + (", ".join(
                            f"r={r}: {g:+.2f}" for r, g in gaps.items()) or "not measured")
                        + f" percentage points.{note}")
    return [first, second, third, fourth]


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
