"""The outputs of Fig. 3.18's checks from their jobs' records: a long CSV (one row per
number of each record: key, path, value), a table of the embeddings (their separation
of the digits, continuity, edge loss and CPU seconds beside the thesis' times) and the
verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.check_groups import CheckGroupsResult
from harness.results.common.write.figure_files import gap_mark
from harness.results.fig_3_18 import COUNT, KIND, NAME, PCA, SIDECAR, TITLE, keys
from harness.results.fig_3_18.register_claims import gains, register_claims

__all__ = ["RESULT", "COMPARE_IGNORE", "THESIS_SECONDS", "records", "derived", "build",
           "claims", "write"]

#: what `harness compare` leaves out: the CPU seconds of each step
COMPARE_IGNORE = r"seconds"
#: the thesis' times (3.1.8, line 1725; 2007 hardware, shown, not compared: the
#: register's entries s3-1-8-fig-3-18-lle-130s, -variational-9s, -cg-170s)
THESIS_SECONDS = {"lle": 130, "variational": 9, "variational_cg": 170}


def derived(value: dict, path: str) -> list:
    """An LLE job's gains of variational MVU over LLE, which the verdicts print."""
    if path or "variational" not in value:
        return []
    return [(f"derived.{k}", v) for k, v in gains(value).items()]


def _fmt(value, spec: str = ".3f") -> str:
    return "" if value is None else format(value, spec)


def _rows(key: str, r: dict) -> list[dict]:
    if r.get("status") != "ok":
        return [{"job": f"{NAME}/{key}", "embedding": gap_mark(r.get("status", "missing"))}]
    if key == COUNT:
        return []
    base = {"job": f"{NAME}/{key}", "n": r["n"]}
    if key == PCA:
        p = r["pca"]
        return [{**base, "embedding": "PCA", "2-means purity": _fmt(p["purity"]),
                 "1-NN accuracy": _fmt(p["one_nn_accuracy"]),
                 f"continuity (l = {r['eval_neighbors']})": _fmt(p["continuity"]),
                 "CPU s (thesis s)": _fmt(p["cpu_seconds"], ".1f")}]
    steps = (("lle", "LLE", "cpu_seconds"), ("variational", "variational MVU", "sdp_cpu_seconds"),
             ("variational_cg", "variational MVU (CG)", "cg_cpu_seconds"))
    rows = []
    for field, label, seconds in steps:
        e = r[field]
        rows.append({**base, "embedding": f"{label}, k = {r['k']}"
                     + (f", m = {r['m']}" if field != "lle" else ""),
                     "2-means purity": _fmt(e["purity"]),
                     "1-NN accuracy": _fmt(e["one_nn_accuracy"]),
                     f"continuity (l = {r['eval_neighbors']})": _fmt(e["continuity"]),
                     "edge loss": _fmt(e["edge_loss"]),
                     "CPU s (thesis s)": f"{e[seconds]:.1f} ({THESIS_SECONDS[field]})"})
    return rows


def _summary(recs: dict) -> list[str]:
    count = recs.get(COUNT) or {}
    head = (f"MNIST's training part: {count['count']} twos and threes "
            f"({count['per_digit']['2']} + {count['per_digit']['3']})."
            if count.get("status") == "ok" else
            f"Count job: {gap_mark(count.get('status', 'missing'))}.")
    rows = [row for key, r in recs.items() for row in _rows(key, r)]
    frame = pd.DataFrame(rows)
    last = [c for c in ("edge loss", "CPU s (thesis s)") if c in frame]
    frame = frame[[c for c in frame if c not in last] + last]
    table = tabulate(frame.astype(object).fillna(""), headers="keys", tablefmt="github",
                     showindex=False) if rows else ""
    lles = [r for k, r in recs.items() if k not in (COUNT, PCA) and r.get("status") == "ok"]
    notes = [
        "Edge loss: the reconstruction loss (3.26) on variational MVU's clique graph of "
        "the same k, at the embedding's best scale, over the sum of the squared input "
        "lengths squared (0 keeps every edge up to scale, 1 is a collapse).",
        "CPU s: LLE is the `lle` plugin's fit (its k-NN searches included); variational "
        "MVU its SDP (given the eigenvectors and the graph); variational MVU (CG) its two "
        "conjugate-gradient stages. The thesis' seconds (in parentheses) are wall times "
        "on 2007 hardware: shown, not compared (the register calls them not comparable)."]
    for r in lles:
        v = r["variational"]
        notes.append(f"Variational MVU's other steps at k = {r['k']}: the LLE eigenvectors "
                     f"{v['basis_cpu_seconds']:.1f} CPU s, the clique graph ({r['n_edges']} "
                     f"edges) {v['graph_cpu_seconds']:.1f} CPU s; the SDP's status (Clarabel) "
                     f"{v['sdp_status']}; CG {r['variational_cg']['cg_iterations']} line searches.")
    return [head, "", table, "", *[f"- {n}" for n in notes], "",
            "Every number of the verdicts is in the CSV (key, path, value)."]


RESULT = CheckGroupsResult(NAME, KIND, SIDECAR, TITLE, keys, register_claims, _summary,
                           column="key", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
