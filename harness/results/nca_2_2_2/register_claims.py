"""The claims-register entries of section 2.2.2's NCA speed (thesis lines 1253-1261),
decided under the entries' readings (``harness/claims_register/chapter_2.yaml``) from
``{group: record}``.

The gradient's registered tolerance *is* its range of slopes ([1.6, 2.4]; at most 2.4
in d for the matrix form): a least-squares log-log slope over the sizes, each time the
median of the repeats, is judged against the range as registered. The time ratios are
judged against the harness' timing band (a ratio inside a factor 1 + band of its bound
is undecided).
"""

from __future__ import annotations

from harness.claims import Reading, about_some, make_claim, readings_claim
from harness.results.common.write.check_groups import not_run
from harness.results.nca_2_2_2 import NAME
from harness.results.solver_table.register_claims import (
    TIMING_BAND, loglog_slope, timing_ratio_check,
)

__all__ = ["SLOPE", "gradient_slopes", "register_claims"]

#: the registered range of the gradient's log-log slopes
SLOPE = (1.6, 2.4)
#: the data sets "some data set with d >= 13" names
DIAGONAL_NAMED = ("wine", "isolet")



def gradient_slopes(record: dict) -> dict:
    """``{(form, axis): slope}``: the log-log slopes of the gradient's CPU seconds in n
    (at fixed d) and in d (at fixed n), as written and in matrix form."""
    out = {}
    for axis in ("n", "d"):
        rows = [c for c in record["cases"] if c["axis"] == axis]
        for form in ("as_written", "matrix_form"):
            out[form, axis] = loglog_slope([c[axis] for c in rows],
                                           [c[f"{form}_seconds"] for c in rows])[0]
    return out


def gradient(records) -> dict:
    """s2-2-2-nca-gradient-o-n2d2 (line 1261): two readings."""
    entry = "s2-2-2-nca-gradient-o-n2d2"
    claim = "NCA's gradient computation scales as O(n^2 d^2) (2.2.2)"
    r = records.get("gradient")
    if r is None or r.get("status") != "ok":
        gone = not_run(NAME, "gradient", r)
        return readings_claim(NAME, claim, [Reading("naive formula", [], gone),
                                            Reading("efficient implementation", [], gone)],
                              register=entry)
    s = gradient_slopes(r)
    lo, hi = SLOPE
    n_sizes = [c["n"] for c in r["cases"] if c["axis"] == "n"]
    d_sizes = [c["d"] for c in r["cases"] if c["axis"] == "d"]
    where = (f"n = {n_sizes[0]}..{n_sizes[-1]} at d = {r['cases'][0]['d']}, d = "
             f"{d_sizes[0]}..{d_sizes[-1]} at n = {r['cases'][-1]['n']}, medians of "
             f"{r['repeats']}; the two forms agree to "
             f"{max(c['max_relative_difference'] for c in r['cases']):.2g}")
    naive = Reading("naive formula",
                    [lo <= s["as_written", "n"] <= hi, lo <= s["as_written", "d"] <= hi],
                    f"as written, log-log slopes {s['as_written', 'n']:.3g} in n and "
                    f"{s['as_written', 'd']:.3g} in d (both in [{lo:g}, {hi:g}] needed); {where}")
    matrix = Reading("efficient implementation",
                     [lo <= s["matrix_form", "n"] <= hi, s["matrix_form", "d"] <= hi],
                     f"matrix form, slopes {s['matrix_form', 'n']:.3g} in n (in [{lo:g}, "
                     f"{hi:g}] needed) and {s['matrix_form', 'd']:.3g} in d (at most {hi:g} "
                     f"needed)")
    return readings_claim(NAME, claim, [naive, matrix], register=entry)


def diagonal(records) -> dict:
    """s2-2-2-nca-diagonal-faster (line 1253)."""
    entry = "s2-2-2-nca-diagonal-faster"
    claim = "Restricting NCA's A to a diagonal speeds up the optimisation significantly (2.2.2)"
    r = records.get("diagonal")
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], not_run(NAME, "diagonal", r), register=entry)
    passed = {c["dataset"]: timing_ratio_check(c["full"]["seconds"] / c["diagonal"]["seconds"], 2.0)
              for c in r["cases"]}
    checks, note = about_some(passed, DIAGONAL_NAMED)
    said = "; ".join(
        f"{c['dataset']} (n = {c['n']}, d = {c['d']}): full {c['full']['seconds']:.3g} s "
        f"({c['full']['iterations']} iterations), diagonal {c['diagonal']['seconds']:.3g} s "
        f"({c['diagonal']['iterations']}), ratio {c['full']['seconds'] / c['diagonal']['seconds']:.3g}"
        for c in r["cases"])
    gone = "".join(f"; {d}: not measured ({why[:100]})" for d, why in r["unavailable"].items())
    return make_claim(NAME, claim, checks, f"{said} (full / diagonal at least 2 beyond the "
                      f"timing band, a factor {1 + TIMING_BAND:g}, on some data set needed)"
                      + gone + (f"; {note}" if note else ""), register=entry)


def rectangular(records) -> dict:
    """s2-2-2-nca-rectangular-speeds-knn (line 1253)."""
    entry = "s2-2-2-nca-rectangular-speeds-knn"
    claim = "A rectangular NCA projection speeds up the post-projection kNN classification (2.2.2)"
    r = records.get("rectangular")
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], not_run(NAME, "rectangular", r), register=entry)
    ratio = r["projected_seconds"] / r["input_seconds"]
    return make_claim(NAME, claim, [timing_ratio_check(ratio, 0.0, 0.5)],
                      f"MNIST subsample ({r['n_train']} training, {r['n_test']} test images, "
                      f"d = {r['d']}): {r['k']}-NN queries {r['projected_seconds']:.3g} s in the "
                      f"NCA r = {r['r']} projection against {r['input_seconds']:.3g} s in the "
                      f"input space, ratio {ratio:.3g} (below 0.5 beyond the timing band "
                      f"needed)", register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{group: record}``."""
    return [gradient(records), diagonal(records), rectangular(records)]
