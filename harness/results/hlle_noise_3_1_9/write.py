"""The outputs of the section 3.1.9 noise check from its jobs' records: a long CSV (one
row per number of each record: sample, path, value; each sample's drops by the derive
hook, the paired means and standard errors as the rows of ``paired``), the samples'
table and the verdicts (:mod:`.register_claims`,
:mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.check_groups import CheckGroupsResult
from harness.results.common.write.figure_files import gap_mark
from harness.results.hlle_noise_3_1_9 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.hlle_noise_3_1_9.register_claims import (
    EFFECT, drops, paired, register_claims)

__all__ = ["RESULT", "PAIRED", "records", "derived", "paired_rows", "build", "claims", "write"]

#: the CSV's key of the paired statistics' rows
PAIRED = "paired"


def derived(value: dict, path: str) -> list:
    """A sample's drops (noise-free minus noisy mean of the three metrics), which the
    verdicts pair."""
    if path or "fits" not in value:
        return []
    return [(f"drop.{k}", v) for k, v in drops(value).items()]


def paired_rows(recs: dict) -> pd.DataFrame:
    """The paired statistics over the samples (none until every sample is measured)."""
    stats = paired(recs)
    rows = [{"sample": PAIRED, "status": "ok", "reason": "", "path": "effect_size",
             "value": EFFECT}]
    if stats is not None:
        rows += [{"sample": PAIRED, "status": "ok", "reason": "", "path": f"{s}.{k}",
                  "value": float(v)} for s, st in stats.items() for k, v in st.items()]
    return pd.DataFrame(rows)


def _summary(recs: dict) -> str:
    rows = []
    for key, r in recs.items():
        if r.get("status") != "ok":
            rows.append({"job": f"{NAME}/{key}", "status": gap_mark(r.get("status", "missing"))})
            continue
        f, d = r["fits"], drops(r)
        rows.append({"job": f"{NAME}/{key}", "status": "ok",
                     "hLLE noise-free": f"{f['hlle']['clean']['mean']:.4f}",
                     "hLLE noisy": f"{f['hlle']['noisy']['mean']:.4f}",
                     "hLLE drop": f"{d['hlle_drop']:.4f}",
                     "Isomap noise-free": f"{f['isomap']['clean']['mean']:.4f}",
                     "Isomap noisy": f"{f['isomap']['noisy']['mean']:.4f}",
                     "Isomap drop": f"{d['isomap_drop']:.4f}",
                     "hLLE - Isomap drop": f"{d['hlle_minus_isomap']:.4f}",
                     "CPU s": f"{r['group_cpu_seconds']:.1f}"})
    stats = paired(recs)
    if stats is not None:
        rows.append({"job": f"mean (twice its standard error), {stats['hlle_drop']['samples']} "
                     "samples", "status": "",
                     **{col: f"{stats[s]['mean']:.4f} ({stats[s]['two_se']:.4f})"
                        for col, s in (("hLLE drop", "hlle_drop"), ("Isomap drop", "isomap_drop"),
                                       ("hLLE - Isomap drop", "hlle_minus_isomap"))}})
    return tabulate(pd.DataFrame(rows).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def _tables(recs: dict) -> list[str]:
    return ["Each method's mean of the three Table 3.2 metrics (local continuity, trust, "
            "intersection) per sample on the noise-free and the noisy Swiss roll, and its "
            "drop (noise-free minus noisy). Every number of the verdicts is in the CSV "
            "(sample, path, value; the paired statistics under `paired`).", "",
            _summary(recs)]


class _Result(CheckGroupsResult):
    """The check-groups outputs with the paired statistics' rows in the CSV."""

    def build(self, config: dict) -> pd.DataFrame:
        return pd.concat([super().build(config), paired_rows(self.records(config))],
                         ignore_index=True)


RESULT = _Result(NAME, KIND, SIDECAR, TITLE, keys, register_claims, _tables,
                 column="sample", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
