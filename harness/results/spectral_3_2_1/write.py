"""The outputs of section 3.2.1's comparison from its jobs' records: a long CSV (one
row per number of each record: key, path, value), a summary table per data set and the
verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.check_groups import CheckGroupsResult
from harness.results.common.write.figure_files import gap_mark
from harness.results.spectral_3_2_1 import KIND, NAME, SCALING, SIDECAR, TITLE, keys
from harness.results.spectral_3_2_1.register_claims import register_claims, speed_numbers

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]

#: what `harness compare` leaves out: the CPU seconds of each method and what derives
#: from them (ratios, slopes)
COMPARE_IGNORE = r"seconds|slope|ratio"


def derived(value: dict, path: str) -> list:
    """The scaling record's numbers the speed verdicts derive (:func:`speed_numbers`)."""
    if path or "eigensolves" not in value:
        return []
    return [(f"derived.{k}", v) for k, v in speed_numbers(value).items()]


def _summary(recs: dict) -> str:
    rows = []
    for key, r in recs.items():
        if key == SCALING:
            continue
        if r.get("status") != "ok":
            rows.append({"data": key, "status": gap_mark(r.get("status", "missing"))})
            continue
        mvu = r["mvu"]
        rows.append({
            "data": key + (" (stand-in)" if r.get("stand_in_for") else ""), "status": "ok",
            "n, k, d": f"{r['n']}, {r['k']}, {r['dimension']}",
            "LLE gap / est.": f"{r['lle']['gap_at_dimension']:.3g} / {r['lle']['estimate']}",
            "Lap gap / est.": f"{r['laplacian']['gap_at_dimension']:.3g} / {r['laplacian']['estimate']}",
            "Isomap top-d / est.": f"{r['isomap']['top_share']:.3g} / {r['isomap']['estimate']}",
            "MVU top-d / est.": (f"{mvu['top_share']:.3g} / {mvu['estimate']} ({mvu['status']})"
                                 if "top_share" in mvu else str(mvu.get("status"))),
            "Isomap vs MVU (rot., sim.)": (f"{mvu['procrustes_rotation']:.3g}, "
                                           f"{mvu['procrustes_similarity']:.3g}"
                                           if "procrustes_rotation" in mvu else "")})
    return tabulate(pd.DataFrame(rows).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def _timing(recs: dict) -> str:
    r = recs.get(SCALING) or {}
    if r.get("status") != "ok":
        return f"Scaling job: {gap_mark(r.get('status', 'missing'))}."
    sizes = sorted({x["n"] for rows in r["fits"].values() for x in rows})
    table = []
    for method, fits in r["fits"].items():
        found = {x["n"]: (f"{x['seconds']:.3g}" if x["status"] == "ok" else x["status"])
                 for x in fits}
        table.append({"fit CPU s": method, **{str(n): found.get(n, "") for n in sizes}})
    for key, what in (("lle_sparse_seconds", "LLE sparse eigensolve"),
                      ("isomap_dense_seconds", "Isomap dense eigensolve")):
        table.append({"fit CPU s": what, **{str(s["n"]): f"{s[key]:.3g}"
                                            for s in r["eigensolves"]}})
    return tabulate(pd.DataFrame(table).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value). gap: the bottom "
        "spectrum's mu_{d+1} / mu_d; est.: the position of the spectrum's largest gap; "
        "top-d: the top d eigenvalues' share of the positive spectrum.", "", _summary(recs),
        "", _timing(recs)],
    column="key", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
