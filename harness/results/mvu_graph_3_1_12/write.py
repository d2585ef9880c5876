"""The outputs of the section 3.1.4 / 3.1.12 graph checks from their jobs' records: a
long CSV (one row per number of each record: key, path, value), the jobs table and the
verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_summary
from harness.results.mvu_graph_3_1_12 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.mvu_graph_3_1_12.register_claims import (
    count_slopes, order_ratios, register_claims)

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]


def derived(value: dict, path: str) -> list:
    """The counts' slopes and largest share of the bound, which the verdict prints."""
    if path or "counts" not in value:
        return []
    _, _, k_slopes, n_slopes, largest = count_slopes(value["counts"])
    return ([(f"slope_in_k.n{n}", s) for n, s in k_slopes.items()]
            + [(f"slope_in_n.k{k}", s) for k, s in n_slopes.items()]
            + [("largest_share_of_bound", largest)]
            + [(f"order_k{power}.{name}", v)
               for power, (ks, constraints, ratios, slope) in order_ratios(value["counts"]).items()
               for name, v in ([(f"constraints.k{k}", c) for k, c in zip(ks, constraints)]
                               + [("ratio_first", ratios[0]), ("ratio_last", ratios[-1]),
                                  ("slope_in_k", slope)])])


def _describe(key: str, r: dict) -> dict:
    if "counts" in r:
        return {"n": ", ".join(str(n) for n in sorted({x["n"] for x in r["counts"]})),
                "graph": f"{len(r['counts'])} (n, k) clique graphs counted"}
    return {"n": r["n_samples"], "graph": ", ".join(
        f"k = {g['k']}: {g['components']} components"
        + (f", MVU {g['mvu']['status']}" if "mvu" in g else "") for g in r["graphs"])}


def _summary(recs: dict) -> str:
    return jobs_summary(NAME, recs, _describe)


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value).", "", _summary(recs)],
    column="key", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
