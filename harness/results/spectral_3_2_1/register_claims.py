"""The claims-register entries of section 3.2.1 (lines 1994-2094) and 3.2.2's LLE remark
(line 2196) that this result decides, under the entries' readings
(``harness/claims_register/chapter_3.yaml``), from ``{job key: record}``.

The Swiss roll is read two ways, as Table 3.2 does: the 3-D roll without noise
(``swiss_roll``, n = 1000) and the roll of section 3.1.5 (``swiss_roll_3_1_5``, n = 800
with five low-variance noise dimensions, Fig. 3.5's); each reading of an entry is
decided once per roll and the claim is "partly holds" where they disagree. The teapot
is the thesis' 360 images (dimension 2: "the global dimensionality (d = 2) of the
underlying circle", 3.1.5); its stand-in is shown, never counted. MVU's numbers count
only from a certified solve.

LLE's M = (I - W)^T (I - W) and the Laplacian D - W are positive semidefinite, and M
maps the constant vector to zero (W's rows sum to one), by construction: those two
entries are shown, not counted.
"""

from __future__ import annotations

from harness.claims import Reading, about_most, beyond_noise, make_claim, readings_claim
from harness.results.common.write.check_groups import record_ok
from harness.results.common.write.certified import certified
from harness.results.solver_table.register_claims import (
    TIMING_BAND, loglog_slope, timing_ratio_check,
)
from harness.results.spectral_3_2_1 import NAME, SCALING

__all__ = ["ROLLS", "speed_numbers", "register_claims"]

#: the two readings of "the Swiss roll": job key -> label
ROLLS = {"swiss_roll": "3-D roll", "swiss_roll_3_1_5": "3.1.5 roll"}
TEAPOT = "teapot"
GAP = 2.0
SHARE = 0.9
ISOMAP_SHARE, SHARE_NOISE = 0.95, 0.01
SAME = 0.1



def _mvu_ok(r) -> bool:
    return record_ok(r) and certified((r.get("mvu") or {}).get("status"))


def _real(records) -> dict:
    return {k: r for k, r in records.items() if record_ok(r) and not r.get("stand_in_for")}


def _shown(records) -> str:
    """The stand-ins' and unmeasured jobs' status, for the evidence."""
    out = [f"{k}: stand-in, not counted (LLE gap {r['lle']['gap_at_dimension']:.3g}, Lap gap "
           f"{r['laplacian']['gap_at_dimension']:.3g}, Isomap top-d share "
           f"{r['isomap']['top_share']:.3g})" for k, r in records.items()
           if record_ok(r) and r.get("stand_in_for")]
    out += [f"{k}: {r.get('status', 'no record')}" for k, r in records.items() if not record_ok(r)]
    return ("; " + "; ".join(out)) if out else ""


def _by_roll(records, claim: str, entry: str, parts) -> dict:
    """``parts``: ``[(name, per_dataset(record) -> (check or None, text))]``; each part
    decided on each roll reading with the teapot (most of the two data sets)."""
    readings = []
    real = _real(records)
    for part, per_dataset in parts:
        for roll, label in ROLLS.items():
            passed, said = {}, []
            for key in (roll, TEAPOT):
                if key not in real:
                    continue
                check, text = per_dataset(real[key])
                said.append(f"{key}: {text}")
                if check is not None:
                    passed["swiss_roll" if key == roll else key] = check
            checks, note = about_most(passed, ["swiss_roll", TEAPOT])
            readings.append(Reading(f"{part}, {label}", checks,
                                    "; ".join(said + ([note] if note else []))
                                    + _shown({k: v for k, v in records.items()
                                              if k not in ROLLS or k == roll})))
    return readings_claim(NAME, claim, readings, register=entry)


def _lle_no_gap(r):
    g = r["lle"]["gap_at_dimension"]
    return g < GAP, f"LLE mu_{r['dimension'] + 1} / mu_{r['dimension']} = {g:.3g} (below {GAP:g} needed)"


def lle_no_dimension(records) -> dict:
    """s3-2-2-lle-eigenvalues-no-dimension (line 2196)."""
    return _by_roll(records, "LLE's eigenvalues cannot be used to estimate the intrinsic "
                    "dimensionality of the manifold (3.2.2)",
                    "s3-2-2-lle-eigenvalues-no-dimension", [("no gap", _lle_no_gap)])


def _gap(r):
    d = r["dimension"]
    text = (f"gaps at d = {d}: LLE {r['lle']['gap_at_dimension']:.3g}, Lap "
            f"{r['laplacian']['gap_at_dimension']:.3g} (below {GAP:g} needed); top-{d} "
            f"shares Isomap {r['isomap']['top_share']:.3g}")
    if not certified(r["mvu"].get("status")):
        return None, text + f", MVU {r['mvu'].get('status')} (not certified: no check)"
    text += f", MVU {r['mvu']['top_share']:.3g} (at least {SHARE:g} needed)"
    return (r["lle"]["gap_at_dimension"] < GAP and r["laplacian"]["gap_at_dimension"] < GAP
            and r["isomap"]["top_share"] >= SHARE and r["mvu"]["top_share"] >= SHARE), text


def _estimate(r):
    d = r["dimension"]
    text = (f"largest-gap estimates (d = {d}): LLE {r['lle']['estimate']}, Lap "
            f"{r['laplacian']['estimate']}, Isomap {r['isomap']['estimate']}")
    if not certified(r["mvu"].get("status")):
        return None, text + f", MVU {r['mvu'].get('status')} (not certified: no check)"
    text += f", MVU {r['mvu']['estimate']} (LLE and Lap wrong, Isomap and MVU right needed)"
    return (r["lle"]["estimate"] != d and r["laplacian"]["estimate"] != d
            and r["isomap"]["estimate"] == d and r["mvu"]["estimate"] == d), text


def spectra_unreliable(records) -> dict:
    """s3-2-1-lle-lap-spectra-unreliable (line 2094): two readings."""
    return _by_roll(records, "LLE's and Laplacian eigenmaps' spectra do not reliably reveal "
                    "the dimensionality of sampled manifolds, as Isomap's and MVU's do (3.2.1)",
                    "s3-2-1-lle-lap-spectra-unreliable", [("gap", _gap), ("estimate", _estimate)])


def _roll_only(records, claim: str, entry: str, parts) -> dict:
    """Entries about the Swiss roll alone (one data set): each part on each roll."""
    readings = []
    for part, check in parts:
        for roll, label in ROLLS.items():
            r = records.get(roll)
            if not record_ok(r):
                readings.append(Reading(f"{part}, {label}", [], f"{roll}: "
                                        f"{(r or {}).get('status', 'no record')}"))
            elif not _mvu_ok(r):
                readings.append(Reading(f"{part}, {label}", [], f"{roll}: MVU "
                                        f"{r['mvu'].get('status')} (not certified: no check)"))
            else:
                found, text = check(r)
                readings.append(Reading(f"{part}, {label}", [found], f"{roll}: {text}"))
    return readings_claim(NAME, claim, readings, register=entry)


def isomap_dimension(records) -> dict:
    """s3-2-1-isomap-eigenvalues-estimate-dim (line 2013)."""
    def check(r):
        low = min(r["isomap"]["top_two_share"], r["mvu"]["top_two_share"])
        return beyond_noise(low - ISOMAP_SHARE, SHARE_NOISE), (
            f"top-two shares of the positive spectrum: Isomap {r['isomap']['top_two_share']:.4g}, "
            f"MVU {r['mvu']['top_two_share']:.4g} (both at least {ISOMAP_SHARE:g} needed, "
            f"within {SHARE_NOISE:g} undecided)")
    return _roll_only(records, "Isomap's eigenvalues estimate the underlying dimensionality "
                      "in the same way as MVU's (3.2.1)",
                      "s3-2-1-isomap-eigenvalues-estimate-dim", [("Swiss roll", check)])


def same_solution(records) -> dict:
    """s3-2-1-mvu-isomap-same-solution (line 1994): rotation, and rotation and scale."""
    def part(key, what):
        def check(r):
            v = r["mvu"][key]
            return v < SAME, (f"relative Procrustes residual ({what}) of Isomap's 2-D embedding "
                              f"against MVU's {v:.3g} (below {SAME:g} needed)")
        return check
    return _roll_only(records, "Isomap and MVU seek the same solution, up to a global "
                      "rotation (3.2.1)", "s3-2-1-mvu-isomap-same-solution",
                      [("rotation", part("procrustes_rotation", "rotation")),
                       ("rotation and scale", part("procrustes_similarity", "rotation and scale"))])


# ---- speed (the scaling job) ----------------------------------------------------------
#: the register's budget of "finish within budget" (1 hour)
REGISTER_BUDGET = 3600.0
LABELS = {"lle": "LLE", "laplacian_eigenmaps": "Lap", "isomap": "Isomap", "mvu": "MVU"}


def _slope(rows: list[dict]):
    """``(slope, noise, sizes)`` of the finished fits' CPU seconds against n, or None
    with fewer than two sizes."""
    done = [r for r in rows if r.get("status") == "ok"]
    if len(done) < 2:
        return None
    slope, noise = loglog_slope([r["n"] for r in done], [r["seconds"] for r in done])
    return slope, noise, [r["n"] for r in done]


def speed_numbers(r: dict) -> dict:
    """The numbers the speed verdicts derive from the scaling record (so that the CSV
    holds every number of their evidence): the eigensolve ratios and slopes, each
    method's fit slope and its noise, the timing band's factor."""
    solves = r["eigensolves"]
    n = [s["n"] for s in solves]
    out = {f"eigensolve_ratio.n{s['n']}": s["isomap_dense_seconds"] / s["lle_sparse_seconds"]
           for s in solves}
    for key, what in (("lle_sparse_seconds", "lle"), ("isomap_dense_seconds", "isomap")):
        slope, noise = loglog_slope(n, [s[key] for s in solves])
        out[f"eigensolve_slope.{what}"], out[f"eigensolve_slope_noise.{what}"] = slope, noise
    for method, rows in r["fits"].items():
        found = _slope(rows)
        if found:
            out[f"fit_slope.{method}"], out[f"fit_slope_noise.{method}"] = found[0], found[1]
    out["eigensolve_slope_noise.both"] = (out["eigensolve_slope_noise.lle"]
                                          + out["eigensolve_slope_noise.isomap"])
    out["timing_band_factor"] = 1 + TIMING_BAND
    out["register_budget_seconds"] = REGISTER_BUDGET
    return out


def sparse_efficient(records) -> dict:
    """s3-2-1-lle-sparse-efficient (line 2054): two readings."""
    entry = "s3-2-1-lle-sparse-efficient"
    claim = ("LLE's sparse M makes its eigenvector computation much more efficient than "
             "Isomap's dense one (3.2.1)")
    r = records.get(SCALING)
    if not record_ok(r):
        gone = f"job {NAME}/{SCALING}: {(r or {}).get('status', 'no record')}"
        return readings_claim(NAME, claim, [Reading("faster", [], gone),
                                            Reading("scales better", [], gone)], register=entry)
    solves = r["eigensolves"]
    ratios = [(s["n"], s["isomap_dense_seconds"] / s["lle_sparse_seconds"]) for s in solves]
    faster = Reading("faster", [timing_ratio_check(v, 5.0) for _, v in ratios],
                     "Isomap's dense / LLE's sparse eigensolve CPU seconds: " + ", ".join(
                         f"n = {n}: {v:.3g}" for n, v in ratios)
                     + f" (at least 5 beyond the timing band, a factor {1 + TIMING_BAND:g}, needed)")
    n = [s["n"] for s in solves]
    lle = loglog_slope(n, [s["lle_sparse_seconds"] for s in solves])
    iso = loglog_slope(n, [s["isomap_dense_seconds"] for s in solves])
    better = Reading("scales better", [beyond_noise(iso[0] - lle[0], iso[1] + lle[1])],
                     f"log-log slopes in n = {n[0]}..{n[-1]}: LLE's sparse {lle[0]:.3g}, "
                     f"Isomap's dense {iso[0]:.3g} (a difference beyond "
                     f"{iso[1] + lle[1]:.3g}, the timing band's effect on both, needed)")
    return readings_claim(NAME, claim, [faster, better], register=entry)


def sparse_scale_better(records) -> dict:
    """s3-2-1-sparse-scale-better (line 2094): two readings."""
    entry = "s3-2-1-sparse-scale-better"
    claim = ("LLE and Laplacian eigenmaps construct sparse matrices and are easier to scale "
             "to large data sets than Isomap and MVU (3.2.1)")
    r = records.get(SCALING)
    if not record_ok(r):
        gone = f"job {NAME}/{SCALING}: {(r or {}).get('status', 'no record')}"
        return readings_claim(NAME, claim, [Reading("slope", [], gone),
                                            Reading("largest n", [], gone)], register=entry)
    slopes = {m: _slope(rows) for m, rows in r["fits"].items()}
    text = "; ".join(f"{LABELS[m]} {v[0]:.3g} over n = {v[2][0]}..{v[2][-1]}"
                     for m, v in slopes.items() if v)
    checks = [beyond_noise(slopes[big][0] - slopes[small][0], slopes[big][1] + slopes[small][1])
              for small in ("lle", "laplacian_eigenmaps") for big in ("isomap", "mvu")
              if slopes[small] and slopes[big]]
    slope = Reading("slope", checks, f"log-log slopes of fit CPU seconds against n: {text} "
                    f"(each method over the sizes it ran; LLE's and Lap's below Isomap's "
                    f"and MVU's beyond the timing band's effect on both needed)")
    stopped = r["stopped_at"]
    largest = max(x["n"] for rows in r["fits"].values() for x in rows)
    said = (f"budget {r['budget_seconds']:g} CPU-s per fit; stopped: "
            + (", ".join(f"{LABELS[m]} at n = {n}" for m, n in stopped.items()) or "none")
            + f"; largest n tried {largest}")
    if r["budget_seconds"] < REGISTER_BUDGET:
        budget = Reading("largest n", [], said + f" (the register's budget is "
                         f"{REGISTER_BUDGET:g} s: no verdict at this profile's)")
    elif not ({"isomap", "mvu"} & set(stopped)):
        budget = Reading("largest n", [], said + " (Isomap and MVU finished at every n: the "
                         "sizes did not reach where they stop)")
    else:
        budget = Reading("largest n", [not ({"lle", "laplacian_eigenmaps"} & set(stopped))],
                         said + " (LLE and Lap finishing where Isomap or MVU stops needed)")
    return readings_claim(NAME, claim, [slope, budget], register=entry)


def _by_construction(records, entry: str, claim: str, what) -> dict:
    shown = "; ".join(f"{k}{' (stand-in)' if r.get('stand_in_for') else ''}: {what(r)}"
                      for k, r in records.items() if record_ok(r))
    return make_claim(NAME, claim, [], (shown or "no job measured") + "; true by construction "
                      "(shown, not counted)", register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}`` (the scaling
    job's record decides the speed entries, the data sets' the others)."""
    timed, records = records, {k: r for k, r in records.items() if k != SCALING}
    return [
        _by_construction(
            records, "s3-2-1-lle-m-bottom-constant-psd",
            "LLE's bottom eigenvector is the constant vector with eigenvalue zero (3.2.1)",
            lambda r: (f"smallest eigenvalue of M {r['lle']['min_over_max']:.2g} of the largest, "
                       f"its eigenvector off the constant by {r['lle']['constant_deviation']:.2g}")),
        _by_construction(
            records, "s3-2-1-laplacian-psd", "The graph Laplacian L is positive semidefinite (3.2.1)",
            lambda r: f"smallest eigenvalue of L {r['laplacian']['min_over_max']:.2g} of the largest"),
        lle_no_dimension(records), spectra_unreliable(records), isomap_dimension(records),
        same_solution(records), sparse_efficient(timed), sparse_scale_better(timed)]
