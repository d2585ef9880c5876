"""The claims-register entries of MVU's neighbourhood graph (thesis 3.1.4 line 1478,
3.1.12 line 1970), decided under the entries' readings
(``harness/claims_register/chapter_3.yaml``) from this result's records, passed as
``{key: record}``.

Choices where a reading leaves room: "linear in n at fixed k" is a log-log slope of the
counts against n within [0.9, 1.1] at each k (the register's test fixes only the slope
in k, [1.5, 2.1], at each n); "disconnected on most" is more than half of the five named
data sets (:func:`harness.claims.about_most`); a stand-in's graph is shown, never
counted; "degenerate" needs a connected real graph with k < 3 and a certified MVU solve.
For s3-1-8-constraints-o-kn (line 1636, "O(kn) constraints", against line 1478's
O(nk^2)) a ratio is "bounded" as k grows when its log-log slope in k is at most
``BOUNDED_SLOPE`` = 0.1, the tolerance the 3.1.4 entry's "linear in n" reading allows
(``N_SLOPE``, fixed with that entry in f344dce); the constraints are the clique
graph's edges plus the centring constraint, at the reading's n = 1000. That entry's
counts (slope in k 1.26-1.29) were in the kept run before this criterion was written;
it reuses the earlier tolerance rather than choosing a new one.
"""

from __future__ import annotations

from harness.claims import Reading, about_most, beyond_noise, make_claim, readings_claim
from harness.results.common.write.check_groups import not_run
from harness.results.common.write.certified import certified
from harness.results.mvu_graph_3_1_12 import COUNTS, NAME, PREFIX
from harness.results.solver_table.register_claims import loglog_slope

__all__ = ["NAMED", "count_slopes", "order_ratios", "register_claims"]

#: the data sets "rarely connected" names (its register reading)
NAMED = ("swiss_roll", "teapot", "frey", "olivetti", "mnist_fives")
K_SLOPE = (1.5, 2.1)
N_SLOPE = (0.9, 1.1)
ONE_DIMENSIONAL, SHARE_TOL = 0.9, 0.01
#: s3-1-8-constraints-o-kn: the reading's n, and the largest log-log slope in k of a
#: "bounded" ratio (N_SLOPE's tolerance around 1)
ORDER_N, BOUNDED_SLOPE = 1000, N_SLOPE[1] - 1



def count_slopes(rows: list[dict]):
    """``(ns, ks, slope in k per n, slope in n per k, largest edges / bound)`` of the
    counts' rows (least-squares log-log slopes; the counts are exact, no noise)."""
    ns, ks = sorted({x["n"] for x in rows}), sorted({x["k"] for x in rows})
    edges = {(x["n"], x["k"]): x["edges"] for x in rows}
    k_slopes = {n: loglog_slope(ks, [edges[n, k] for k in ks])[0] for n in ns} if len(ks) > 1 else {}
    n_slopes = {k: loglog_slope(ns, [edges[n, k] for n in ns])[0] for k in ks} if len(ns) > 1 else {}
    return ns, ks, k_slopes, n_slopes, max(x["edges"] / x["bound"] for x in rows)


def constraint_count(records) -> dict:
    """s3-1-4-constraint-count-nk2 (line 1478)."""
    entry = "s3-1-4-constraint-count-nk2"
    claim = "MVU's SDP has O(n k^2) distance constraints on O(n^2) matrix elements (3.1.4)"
    r = records.get(COUNTS)
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], not_run(NAME, COUNTS, r), register=entry)
    rows = r["counts"]
    ns, ks, k_slopes, n_slopes, largest = count_slopes(rows)
    bound = [x["edges"] <= x["bound"] for x in rows]
    checks = (bound + [K_SLOPE[0] <= s <= K_SLOPE[1] for s in k_slopes.values()]
              + [N_SLOPE[0] <= s <= N_SLOPE[1] for s in n_slopes.values()])
    evidence = (
        f"clique-graph edges on Swiss rolls, n in {ns}, k in {ks}: {sum(bound)} of "
        f"{len(bound)} at most n k (k + 1) / 2 (largest share of the bound "
        f"{largest:.3g}); log-log slope in k at each n "
        + ", ".join(f"{n}: {s:.3g}" for n, s in k_slopes.items())
        + f" (in [{K_SLOPE[0]:g}, {K_SLOPE[1]:g}] needed); in n at each k "
        + ", ".join(f"{k}: {s:.3g}" for k, s in n_slopes.items())
        + f" (in [{N_SLOPE[0]:g}, {N_SLOPE[1]:g}] needed), on n^2 matrix elements")
    return make_claim(NAME, claim, checks, evidence, register=entry)


def order_ratios(rows: list[dict]) -> dict:
    """At the reading's n: ``{power: (ks, constraints, ratios, slope)}`` of the
    constraints (edges + centring) over k^power n, with the ratios' log-log slope in k;
    empty when fewer than two k were counted at that n."""
    rows = sorted((x for x in rows if x["n"] == ORDER_N), key=lambda x: x["k"])
    if len(rows) < 2:
        return {}
    ks = [x["k"] for x in rows]
    constraints = [x["edges"] + 1 for x in rows]
    out = {}
    for power in (1, 2):
        ratios = [c / (k ** power * ORDER_N) for c, k in zip(constraints, ks)]
        out[power] = (ks, constraints, ratios, loglog_slope(ks, ratios)[0])
    return out


def constraints_order(records) -> dict:
    """s3-1-8-constraints-o-kn (line 1636): two readings, O(kn) as stated and O(nk^2)
    as 3.1.4 says."""
    entry = "s3-1-8-constraints-o-kn"
    claim = "The original SDP of 3.1.4 has O(kn) constraints (3.1.8)"
    r = records.get(COUNTS)
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], not_run(NAME, COUNTS, r), register=entry)
    orders = order_ratios(r["counts"])
    if not orders:
        return make_claim(NAME, claim, [], f"the counts hold fewer than two k at n = "
                          f"{ORDER_N}", register=entry)
    readings = []
    for name, power in (("as stated O(kn)", 1), ("O(nk^2) as in 3.1.4", 2)):
        ks, constraints, ratios, slope = orders[power]
        counted = ("" if readings else
                   f"clique-graph constraints (edges + centring) on the Swiss roll, n = "
                   f"{ORDER_N}: " + ", ".join(f"k = {k}: {c}" for k, c in zip(ks, constraints))
                   + "; ")
        readings.append(Reading(name, [slope <= BOUNDED_SLOPE], (
            counted + f"constraints / (k^{power} n) from {ratios[0]:.3g} to {ratios[-1]:.3g}"
            f", log-log slope in k {slope:.3g} (at most {BOUNDED_SLOPE:.3g} for bounded)")))
    return readings_claim(NAME, claim, readings, register=entry)


def _graphs(records) -> dict:
    """``{dataset: record}`` of the measured k < 3 jobs."""
    return {key[len(PREFIX):]: r for key, r in records.items()
            if key.startswith(PREFIX) and r.get("status") == "ok"}


def _components_text(graphs: dict) -> str:
    return "; ".join(
        f"{d}{' (stand-in, not counted)' if r.get('stand_in_for') else ''} (n = "
        f"{r['n_samples']}): " + ", ".join(f"k = {g['k']}: {g['components']} components"
                                           for g in r["graphs"])
        for d, r in graphs.items())


def _unmeasured(records, named) -> str:
    gone = [f"{d} ({(records.get(PREFIX + d) or {}).get('status', 'no record')})"
            for d in named if (records.get(PREFIX + d) or {}).get("status") != "ok"]
    return ("; not measured: " + ", ".join(gone)) if gone else ""


def rarely_connected(records) -> dict:
    """s3-1-12-k-below-3-rarely-connected (line 1970): two readings."""
    entry = "s3-1-12-k-below-3-rarely-connected"
    claim = "Graphs with k below 3 are rarely connected (3.1.12)"
    graphs = {d: r for d, r in _graphs(records).items() if d in NAMED and not r.get("stand_in_for")}
    shown = _graphs(records)
    readings = []
    for name, ks in (("k = 2", (2,)), ("k = 1 and 2", (1, 2))):
        passed = {}
        for d, r in graphs.items():
            found = {g["k"]: g["components"] for g in r["graphs"]}
            if all(k in found for k in ks):
                passed[d] = all(found[k] > 1 for k in ks)
        checks, note = about_most(passed, NAMED)
        text = (_components_text(shown) + f"; disconnected ({name}) on "
                f"{sum(passed.values())} of {len(passed)} measured, most of {len(NAMED)} "
                f"needed" + _unmeasured(records, NAMED) + (f"; {note}" if note else ""))
        readings.append(Reading(name, checks, text))
    return readings_claim(NAME, claim, readings, register=entry)


def degenerate(records) -> dict:
    """s3-1-12-k-below-3-degenerate (line 1970)."""
    entry = "s3-1-12-k-below-3-degenerate"
    claim = ("Values of k lower than 3 tend to lead to degenerate (one dimensional) MVU "
             "embeddings (3.1.12)")
    cases, said = [], []
    for d, r in _graphs(records).items():
        for g in r["graphs"]:
            mvu = g.get("mvu")
            if mvu is None:
                continue
            label = f"{d} k = {g['k']}"
            if not certified(mvu.get("status")):
                said.append(f"{label}: MVU {mvu.get('status')} (not certified, not counted)")
                continue
            share = mvu["top_share"]
            said.append(f"{label}: largest eigenvalue {share:.3g} of the trace"
                        + (" (stand-in, not counted)" if r.get("stand_in_for") else ""))
            if not r.get("stand_in_for"):
                cases.append(beyond_noise(share - ONE_DIMENSIONAL, SHARE_TOL))
    if not cases:
        return make_claim(NAME, claim, [], "no connected real-data graph with k < 3 to "
                          "embed: " + (_components_text(_graphs(records)) or "no job measured")
                          + ("; " + "; ".join(said) if said else ""), register=entry)
    return make_claim(NAME, claim, cases, "; ".join(said) + f" (at least {ONE_DIMENSIONAL:g} "
                      f"on most connected cases needed, within {SHARE_TOL:g} undecided)",
                      register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [constraint_count(records), constraints_order(records), rarely_connected(records),
            degenerate(records)]
