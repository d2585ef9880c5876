"""The outputs of the section 3.1.8 CG checks from their jobs' records: a long CSV (one
row per number of each record: key, path, value; the cross-network numbers the
verdicts derive under key ``summary``), the networks table and the verdicts
(:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_summary
from harness.results.sensor_cg_3_1_8 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.sensor_cg_3_1_8.register_claims import (
    derived, register_claims, summary,
)

__all__ = ["RESULT", "SUMMARY", "records", "build", "claims", "write"]

#: the CSV's key of the cross-network numbers
SUMMARY = "summary"


def _row(r: dict) -> dict:
    g = r["graph"]
    row = {"n": r["n_samples"],
           "graph": f"r = {g['radius']:.3g}, mean degree {g['mean_degree']:.3g}"
                    + (" (stand-in)" if r.get("stand_in_for") else ""),
           "SDP": f"m = {r['sdp']['m']} {r['sdp']['status']}",
           "loss true / SDP": f"{r['loss_true_positions']:.3g} / {r['sdp_estimate']['loss']:.3g}",
           "one-step": f"{r['one_step']['loss']:.3g} ({r['one_step']['line_searches']})",
           "two-step": f"{r['two_step']['loss']:.3g} ({r['first_stage']['line_searches']} + "
                       f"{r['two_step']['line_searches']})",
           "worst nodes before -> after": f"{r['patches']['rms_before']:.3g} -> "
                                          f"{r['patches']['rms_after']:.3g}"}
    if r.get("restarts"):
        row["best random"] = f"{min(x['loss'] for x in r['restarts']):.3g} (of {len(r['restarts'])})"
    if "large" in r:
        row["largest m"] = (f"m = {r['large']['sdp']['m']} {r['large']['sdp']['status']}: "
                            f"{r['large']['loss']:.3g}")
    return row


def _summary(recs: dict) -> str:
    return jobs_summary(NAME, recs, lambda key, r: _row(r))


def _tables(recs: dict) -> list[str]:
    return ["Every number of the verdicts is in the CSV (key, path, value). Losses (3.26) "
            "in the network's units; in parentheses the CG's line searches (the two-step: "
            "in m dimensions + in 2-D); the worst nodes' RMS similarity-aligned error before "
            "and after the two-step's 2-D step.", "", _summary(recs)]


class _Result(CheckGroupsResult):
    """The check-groups outputs with the cross-network numbers as CSV rows."""

    def build(self, config: dict) -> pd.DataFrame:
        frame = super().build(config)
        extra = [{self.column: SUMMARY, "status": "ok", "reason": "", "path": path,
                  "value": float(value)}
                 for path, value in summary(self.records(config)).items()]
        return pd.concat([frame, pd.DataFrame(extra)], ignore_index=True) if extra else frame


RESULT = _Result(NAME, KIND, SIDECAR, TITLE, keys, register_claims, _tables, column="key",
                 derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
