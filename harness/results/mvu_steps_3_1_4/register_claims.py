"""The claims-register entries of MVU's cost (thesis 3.1.4 line 1518, 3.1.12 line
1966), decided under the entries' readings (``harness/claims_register/chapter_3.yaml``)
from this result's records and the solver table's native records, passed as
``{key: record}`` (the solver table's as ``solver_table/n<N>``).

Choices where a reading leaves room:

* The SDP step's CPU time is the solver table's native record at that n (the
  process's CPU seconds of the solve job, which includes building the problem: at most
  the k-NN step's time more); only a certified solve counts. The k-NN and
  eigendecomposition steps are the median of 3 runs; the SDP's is one run, and the
  register's "ratio above 2" is far outside the timing band. "Each n of the solver
  table" is its native sizes up to the interior point's range (``max_step_n``).
* Growth in k: the log-log slope of the SDP's CPU seconds against the number of
  constraints over the connected, certified k of the sweep, judged against 1 with the
  slope's timing noise (:func:`harness.results.solver_table.register_claims.loglog_slope`,
  the 65 % band): above 1 beyond the noise holds, below it fails, within it is
  undecided. Only at the register's n of 1000-2000.
* Budget: "does not finish within 1 hour on most data sets of size n > 1000" needs
  solves at k >= 6 beyond 1000 points on several data sets; this result solves the
  Swiss roll only, so the reading counts it as one of the named data sets
  (:data:`NAMED_LARGE`) and is decided only if the roll alone settles "most" (it
  cannot: one of three): shown, not measured until the others are run.
"""

from __future__ import annotations

from harness.claims import Reading, about_most, beyond_noise, make_claim, readings_claim
from harness.results.common.write.check_groups import not_run, record_ok
from harness.results.common.write.certified import certified
from harness.results.mvu_steps_3_1_4 import K_SWEEP, NAME, STEPS
from harness.results.solver_table.register_claims import loglog_slope

__all__ = ["STEP_RATIO", "SWEEP_N", "NAMED_LARGE", "BUDGET_K", "sdp_seconds",
           "sweep_slope", "register_claims"]

STEP_RATIO = 2.0           # the SDP's CPU time above 2x each other step's
SWEEP_N = (1000, 2000)     # the register's n of the growth reading
NAMED_LARGE = ("swiss_roll", "frey", "mnist_fives")  # the thesis' sets of n > 1000
BUDGET_K = 6




def sdp_seconds(record) -> float | None:
    """A solver-table native record's CPU seconds when its solve is certified."""
    if not record_ok(record) or not certified(record.get("solver_status")):
        return None
    return float(record["timing"]["cpu_seconds"])


def sdp_most_expensive(records) -> dict:
    """s3-1-4-sdp-step-most-expensive (line 1518)."""
    entry = "s3-1-4-sdp-step-most-expensive"
    claim = ("The SDP is the most computationally intensive of MVU's three steps (3.1.4)")
    r = records.get(STEPS)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, STEPS, r), register=entry)
    checks, said, left = [], [], []
    for row in r["steps"]:
        sdp = sdp_seconds(records.get(f"solver_table/n{row['n']}"))
        if sdp is None:
            left.append(str(row["n"]))
            continue
        checks.append(sdp > STEP_RATIO * max(row["knn_cpu_seconds"], row["eig_cpu_seconds"]))
        said.append(f"n = {row['n']}: SDP {sdp:.3g}, k-NN graph {row['knn_cpu_seconds']:.3g}, "
                    f"eigendecomposition {row['eig_cpu_seconds']:.3g}")
    text = ("CPU seconds on the solver table's problem (k = "
            f"{r['steps'][0]['k'] if r['steps'] else '?'}; steps the median of {r['repeats']} "
            "runs, the SDP the solver table's native record): " + ("; ".join(said) or "none")
            + f" (the SDP above {STEP_RATIO:g} x each other step at every n needed)"
            + (f"; no certified solver-table record at n = {', '.join(left)}: not counted"
               if left else ""))
    return make_claim(NAME, claim, checks if not left else ([] if all(checks) else checks),
                      text, register=entry)


def sweep_slope(record) -> tuple[list, float, float] | None:
    """``(rows counted, slope, noise)`` of the SDP's CPU seconds against the
    constraints over the connected, certified k; None with fewer than two."""
    rows = [x for x in record["sweep"] if "status" in x and certified(x["status"])]
    if len(rows) < 2:
        return None
    slope, noise = loglog_slope([x["constraints"] for x in rows],
                                [x["sdp_cpu_seconds"] for x in rows])
    return rows, slope, noise


def k_intractable(records) -> dict:
    """s3-1-12-k-above-5-intractable (line 1966): two readings."""
    entry = "s3-1-12-k-above-5-intractable"
    claim = ("For k above 5 the SDP soon becomes intractable on most data sets of size "
             "n > 1000 (3.1.12)")
    r = records.get(K_SWEEP)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, K_SWEEP, r), register=entry)
    sweep = r["sweep"]
    said = "; ".join(
        f"k = {x['k']}: {x['constraints']} constraints, "
        + (f"{x['components']} components (not solved)" if x["components"] > 1 else
           f"{x['status']} in {x['sdp_cpu_seconds']:.3g} CPU-s") for x in sweep)
    fit = sweep_slope(r)
    in_range = SWEEP_N[0] <= r["n"] <= SWEEP_N[1]
    if fit is None or not in_range:
        growth = Reading("growth", [], f"n = {r['n']}: {said}; " + (
            "fewer than two certified solves" if fit is None
            else f"n outside the register's {SWEEP_N[0]}-{SWEEP_N[1]}"))
    else:
        _, slope, noise = fit
        growth = Reading("growth", [beyond_noise(slope - 1, noise)],
                         f"n = {r['n']}: {said}; log-log slope of CPU seconds in the "
                         f"constraints {slope:.3g} (above 1 beyond the timing noise "
                         f"{noise:.3g} needed)")
    large = [x for x in sweep if x["k"] >= BUDGET_K and x["components"] == 1]
    if r["n"] > 1000 and large:
        over = any(x["status"] in ("timeout", "memory") for x in large)
        checks, why = about_most({"swiss_roll": over}, NAMED_LARGE)
        budget = Reading("budget", checks, f"swiss_roll n = {r['n']}, k >= {BUDGET_K}: "
                         + ", ".join(f"k = {x['k']} {x['status']}" for x in large)
                         + f" within {r['solver_time_limit']:g} s" + (f"; {why}" if why else ""))
    else:
        budget = Reading("budget", [], f"no solve at k >= {BUDGET_K} beyond n = 1000 (the "
                         f"sweep's n is {r['n']}); the other data sets of n > 1000 "
                         f"({', '.join(NAMED_LARGE[1:])}) are not run by this result")
    return readings_claim(NAME, claim, [growth, budget], register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [sdp_most_expensive(records), k_intractable(records)]
