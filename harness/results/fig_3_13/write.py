"""The outputs of Fig. 3.13 / section 3.1.6's inequality checks from their jobs'
records: a long CSV (one row per number of each record: key, path, value; and, under
the key ``derived``, the numbers the verdicts take from two records), the jobs table
and the verdicts (:mod:`.register_claims`,
:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import math

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.check_groups import CheckGroupsResult, group_rows
from harness.results.common.write.figure_files import gap_mark
from harness.results.fig_3_13 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.fig_3_13.register_claims import derived, register_claims

__all__ = ["RESULT", "DERIVED", "records", "build", "claims", "write"]

#: the CSV key of the numbers derived from two records
DERIVED = "derived"


def _g(value, digits: int = 4) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{value:.{digits}g}"


def _summary(recs: dict) -> str:
    rows = []
    for key, r in recs.items():
        row = {"job": f"{NAME}/{key}"}
        if r.get("status") != "ok":
            rows.append({**row, "status": gap_mark(r.get("status", "missing"))})
            continue
        n = f"{r['n']} of {r['n_public']}" if r.get("subset") else f"{r['n']}"
        row.update(status="ok", data=r["dataset"] + (" (stand-in)" if r.get("stand_in_for") else ""),
                   n=n, p=str(r["n_features"]), variant=r["variant"])
        if r["variant"] != "pca":
            s, e = r["solve"], r["edges"]
            row.update(k=str(r["k"]), solve=f"{s['status']} (gap {_g(s['gap'], 2)})",
                       edges=str(e["n_edges"]), **{"max growth": _g(e["max_relative_growth"], 3),
                                              "tight": _g(e["fraction_tight"]),
                                              "total slack": _g(e["total_slack_share"], 3)})
        row.update(**{"trace": _g(r["trace"]), "top-3 share": _g(r["top3_share"]),
                      "eig > 1 %": str(r["n_appreciable"]), "CPU s": f"{r['cpu_seconds']:.1f}"})
        rows.append(row)
    order = ["job", "status", "data", "n", "p", "variant", "k", "solve", "trace",
             "top-3 share", "eig > 1 %", "edges", "max growth", "tight", "total slack",
             "CPU s"]
    frame = pd.DataFrame(rows)
    frame = frame[[c for c in order if c in frame.columns]]
    return tabulate(frame.astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False, disable_numparse=True)


def _tables(recs: dict) -> list[str]:
    return ["Every number of the verdicts is in the CSV (key, path, value; numbers taken "
            "from two records under the key `derived`). Top-3 share: the three largest "
            "eigenvalues of the centred kernel (PCA: of the centred images) over the "
            "trace; growth and slack relative to each edge's input distance.", "",
            _summary(recs)]


class _Result(CheckGroupsResult):
    """:class:`CheckGroupsResult` whose frame also holds the numbers derived from two
    records (:func:`.register_claims.derived`)."""

    def build(self, config: dict) -> pd.DataFrame:
        recs = self.records(config)
        extra = pd.DataFrame([{self.column: DERIVED, "status": "ok", "reason": "",
                               "path": path, "value": float(value)}
                              for path, value in derived(recs)])
        return pd.concat([group_rows(recs, self.column), extra], ignore_index=True)


RESULT = _Result(NAME, KIND, SIDECAR, TITLE, keys, register_claims, _tables, column="key")
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
