"""The claims-register entries of the out-of-sample SDP (thesis 3.1.10, lines
1867-1887), decided under the entries' readings from the one job's record.

Only points whose solve is certified (the recomputed duality gap below the native
solver's ``tol_gap``) count; the rest are named. The cost's slope is judged against
3 + 0.5 (the registered tolerance) beyond the timing band's effect on a least-squares
slope over the k range (:func:`harness.results.solver_table.register_claims.loglog_slope`).
"""

from __future__ import annotations

from harness.claims import Reading, beyond_noise, make_claim, readings_claim
from harness.results.oos_sdp_3_1_10 import KEY, NAME
from harness.results.solver_table.register_claims import loglog_slope

__all__ = ["TIGHT", "timing_slope", "register_claims"]

#: "s ~ |y_t|^2": (s - |y_t|^2) <= 1e-3 s, plus the solver tolerance 1e-6 (relative)
TIGHT, SOLVER_TOL = 1e-3, 1e-6
UNIQUE = 1e-4
NEAR_ZERO = 0.01
CUBIC, SLOPE_TOL = 3.0, 0.5


def _record(records):
    r = records.get(KEY)
    if r is None or r.get("status") != "ok":
        status = "no record" if r is None else f"{r.get('status')}: {r.get('reason', '')}"
        return None, f"job {NAME}/{KEY} not measured ({status[:200]})"
    return r, ""


def _where(r) -> str:
    return (f"{r['n_test']} test points inserted into MVU's r = {r['r']} embedding of "
            f"{r['n_train']} training points (3.1.5's roll)")


def timing_slope(r: dict) -> tuple[float, float]:
    """The log-log slope of the per-point CPU seconds against k and its timing noise."""
    return loglog_slope([t["k"] for t in r["cost"]], [t["cpu_seconds"] for t in r["cost"]])


def tight(records) -> dict:
    """s3-1-10-minimised-s-tight (line 1867)."""
    entry = "s3-1-10-minimised-s-tight"
    claim = "Minimising s gives s ~ |y_t|^2 in the out-of-sample SDP (3.1.10)"
    r, why = _record(records)
    if r is None:
        return make_claim(NAME, claim, [], why, register=entry)
    checks = [g <= TIGHT + SOLVER_TOL for row in r["tight"] for g in row["gaps"]]
    return make_claim(NAME, claim, checks, f"{_where(r)}: (s - |y_t|^2) / s over the "
                      "certified points, " + ", ".join(
                          f"k = {row['k']}: {sum(g > TIGHT + SOLVER_TOL for g in row['gaps'])} "
                          f"of {row['certified']} above {TIGHT:g} (largest {row['max_gap']:.3g})"
                          for row in r["tight"]) + " (every point at most 1e-3 needed)",
                      register=entry)


def unique(records) -> dict:
    """s3-1-10-unique-solution (line 1887)."""
    entry = "s3-1-10-unique-solution"
    claim = "For k >= 2r + 1 the out-of-sample SDP has a unique solution (3.1.10)"
    r, why = _record(records)
    if r is None:
        return make_claim(NAME, claim, [], why, register=entry)
    rows = [u for u in r["unique"] if u["max_relative_deviation"] is not None]
    return make_claim(NAME, claim, [u["max_relative_deviation"] <= UNIQUE for u in rows],
                      f"{_where(r)}: the native solver's y_t against {r['second_solver']}'s on "
                      "the SDP, largest |difference| / |y_t| over the points both certify: "
                      + ", ".join(f"k = {u['k']}: {u['max_relative_deviation']:.3g} ("
                                  f"{u['both_certified']} points)" for u in rows)
                      + f" (at most {UNIQUE:g} needed)", register=entry)


def small_k(records) -> dict:
    """s3-1-10-gap-near-zero-small-k (line 1887): two readings, each at k = r and r + 1."""
    entry = "s3-1-10-gap-near-zero-small-k"
    claim = ("Even for k ~ r, s - |y_t|^2 is usually near zero in the out-of-sample SDP "
             "(3.1.10)")
    r, why = _record(records)
    if r is None:
        return readings_claim(NAME, claim, [Reading("majority", [], why),
                                            Reading("usually = 90 %", [], why)], register=entry)
    shares = {row["k"]: sum(g < NEAR_ZERO for g in row["gaps"]) / max(row["certified"], 1)
              for row in r["small"]}
    text = (f"{_where(r)}: share of certified points with (s - |y_t|^2) / s below "
            f"{NEAR_ZERO:g}: " + ", ".join(f"k = {k}: {v:.3g}" for k, v in shares.items()))
    return readings_claim(NAME, claim, [
        Reading("majority", [v > 0.5 for v in shares.values()], text + " (above 0.5 at each k "
                "needed)", "every"),
        Reading("usually = 90 %", [v >= 0.9 for v in shares.values()], text + " (at least 0.9 "
                "at each k needed)", "every")], register=entry)


def complexity(records) -> dict:
    """s3-1-10-complexity-scaling (line 1887)."""
    entry = "s3-1-10-complexity-scaling"
    claim = "The out-of-sample SDP's cost scales as O(r^3 + (k + r)^3) (3.1.10)"
    r, why = _record(records)
    if r is None:
        return make_claim(NAME, claim, [], why, register=entry)
    slope, noise = timing_slope(r)
    t = r["cost"]
    return make_claim(NAME, claim, [beyond_noise(CUBIC + SLOPE_TOL - slope, noise)],
                      f"CPU seconds per point of the SDP by {r['second_solver']} through cvxpy "
                      f"(compilation included), medians over {t[0]['points']} points: " + ", ".join(
                          f"k = {x['k']}: {x['cpu_seconds']:.3g} s (solver {x['solver_seconds']:.2g} s)"
                          for x in t) + f"; log-log slope {slope:.3g} in k = {t[0]['k']}.."
                      f"{t[-1]['k']} (at most {CUBIC:g} + {SLOPE_TOL:g} beyond the timing band's "
                      f"{noise:.3g} needed)", register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [tight(records), unique(records), small_k(records), complexity(records)]
