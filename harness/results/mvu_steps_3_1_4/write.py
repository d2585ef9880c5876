"""The outputs of the MVU cost checks from their jobs' records and the solver table's
native records: a long CSV (one row per number: key, path, value), the jobs table and
the verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.check_groups import CheckGroupsResult
from harness.results.common.write.figure_files import gap_mark, read_point
from harness.results.mvu_steps_3_1_4 import (
    K_SWEEP, KIND, NAME, SIDECAR, SOLVER_TABLE, TITLE, keys, step_sizes,
)
from harness.results.mvu_steps_3_1_4.register_claims import register_claims, sweep_slope

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]


def solver_records(config: dict) -> dict:
    """The solver table's native equality records at the steps' sizes, reduced to what
    the verdicts read (status, certified status, CPU seconds)."""
    if SOLVER_TABLE not in config["results"]:
        return {}
    out = {}
    for n in step_sizes(config):
        r = read_point(config, SOLVER_TABLE, f"equality/native/n{n}")
        out[f"solver_table/n{n}"] = (
            {"status": "ok", "reason": "", "solver_status": r.get("solver_status"),
             "timing": {"cpu_seconds": (r.get("timing") or {}).get("cpu_seconds")}}
            if r.get("status") == "ok" else
            {"status": r.get("status", "missing"),
             "reason": f"{SOLVER_TABLE}/equality/native/n{n}: {r.get('reason', '')}"})
    return out


def derived(value: dict, path: str) -> list:
    """The sweep's log-log slope and its noise, which the verdict prints."""
    if path or "sweep" not in value:
        return []
    fit = sweep_slope(value)
    return [] if fit is None else [("slope_in_constraints", fit[1]), ("slope_noise", fit[2])]


def _summary(recs: dict) -> str:
    rows = []
    for key, r in recs.items():
        if r.get("status") != "ok":
            rows.append({"job": key, "status": gap_mark(r.get("status", "missing"))})
        elif key == K_SWEEP:
            rows.append({"job": f"{NAME}/{key}", "status": "ok",
                         "what": f"n = {r['n']}, k = " + ", ".join(str(x["k"]) for x in r["sweep"])})
        elif "steps" in r:
            rows.append({"job": f"{NAME}/{key}", "status": "ok",
                         "what": "n = " + ", ".join(str(x["n"]) for x in r["steps"])})
        else:
            rows.append({"job": key, "status": "ok", "what": f"native {r['solver_status']}"})
    return tabulate(pd.DataFrame(rows).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value).", "", _summary(recs)],
    column="key", derive=derived, extra=solver_records)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
