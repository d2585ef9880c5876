"""The outputs of Table 2.1's statistics (thesis 2.1.6) from its jobs' records: one
CSV row per (statistic, thesis column) with the thesis' number, ours and their
difference, the Markdown table (gaps marked with the reason naming ``harness fetch``),
the principal-component counts and the register's verdicts (:mod:`.register_claims`).
"""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness import registry
from harness.jobs import Job, read_job_record
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.reference import reference_value
from harness.results.common.write.figure_files import claim_lines, gap_mark
from harness.results.common.write.tables import Footnotes
from harness.results.table_2_1_statistics import (
    KIND, NAME, REFERENCE, SIDECAR, TITLE, _conf, keys,
)
from harness.results.table_2_1_statistics.register_claims import (
    COLUMNS, QUANTITIES, derived_rows, register_claims,
)

__all__ = ["PCS", "build", "thesis_numbers", "long_table", "claims", "write"]

#: principal-component counts: record field -> (column, what, thesis' count)
PCS = {"pcs_deskewed": ("mnist", "deskewed training images", 164),
       "pcs_raw": ("mnist", "raw training images", 164),
       "pcs_training": ("isolet", "isolet1-4 (training part)", 172),
       "pcs_whole": ("isolet", "all 7797", 172)}


def build(config: dict) -> pd.DataFrame:
    """One row per listed data set: its thesis column, status and reason, and the
    record's counts (class sizes summarised as smallest, largest and the number of
    classes below the largest)."""
    rows = []
    for key in keys(config):
        record = read_job_record(config, Job(NAME, key))
        row = {"dataset": key, "column": registry.dataset_info(key).thesis_name,
               "status": record["status"], "reason": record.get("reason", "")}
        if record["status"] == "ok":
            sizes = list(record["class_sizes"].values())
            row.update({k: record[k] for k in ("n_samples", "n_features", "n_classes",
                                               "n_train", "n_test", "variance_fraction")})
            row.update(class_min=min(sizes), class_max=max(sizes),
                       n_classes_below_max=sum(s < max(sizes) for s in sizes),
                       rule_train=record["rule_split"][0], rule_test=record["rule_split"][1])
            row.update({k: v for k, v in record.items()
                        if k.startswith(("pcs_", "share_at_target_"))})
        rows.append(row)
    return pd.DataFrame(rows)


def thesis_numbers(config: dict) -> dict:
    """The thesis' statistics rows: quantity -> column -> number."""
    return {q: {c: reference_value(config["reference_dir"], REFERENCE, q, "", c)
                for c in COLUMNS} for q in QUANTITIES}


def long_table(frame: pd.DataFrame, thesis: dict) -> pd.DataFrame:
    """One row per (statistic, thesis column): the thesis' number, ours, ours minus the
    thesis', the status of our data set; the principal-component counts after them."""
    rows = frame.set_index("column") if len(frame) else pd.DataFrame()
    out = []
    for quantity, field in QUANTITIES.items():
        for column in COLUMNS:
            r = rows.loc[column] if column in rows.index else None
            ok = r is not None and r["status"] == "ok"
            ours = float(r[field]) if ok else float("nan")
            out.append({"quantity": quantity, "column": column,
                        "dataset": r["dataset"] if r is not None else "",
                        "thesis": thesis[quantity][column], "ours": ours,
                        "difference": ours - thesis[quantity][column],
                        "status": r["status"] if r is not None else "not in the profile",
                        "reason": r["reason"] if r is not None and not ok else ""})
    for field, (column, what, target) in PCS.items():
        r = rows.loc[column] if column in rows.index else None
        ours = float(r[field]) if r is not None and field in r and pd.notna(r[field]) \
            else float("nan")
        share = field.replace("pcs_", "share_at_target_")
        out.append({"quantity": f"principal components for 95 %: {what}", "column": column,
                    "dataset": r["dataset"] if r is not None else "", "thesis": target,
                    "ours": ours, "difference": ours - target,
                    "variance_share_at_thesis_count":
                        float(r[share]) if pd.notna(ours) else float("nan"),
                    "status": r["status"] if r is not None else "not in the profile",
                    "reason": r["reason"] if r is not None and r["status"] != "ok" else ""})
    return pd.DataFrame(out)


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register's entries this result decides."""
    frame = build(config) if frame is None else frame
    return register_claims(frame, thesis_numbers(config))


def _cell(row, notes: Footnotes) -> str:
    if row.status != "ok" or pd.isna(row.ours):
        return gap_mark(row.status) + (notes.mark(row.reason) if row.reason else "")
    return f"{int(row.ours)}"


def _markdown(table: pd.DataFrame, notes: Footnotes) -> str:
    rows = []
    for quantity, part in table.groupby("quantity", sort=False):
        rows.append({"statistic": quantity, **{
            r.column: f"{int(r.thesis)} / {_cell(r, notes)}" for r in part.itertuples()}})
    return tabulate(pd.DataFrame(rows).fillna(""), headers="keys", tablefmt="github",
                    showindex=False)


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/table_2_1_statistics.{csv,md,tex,json}``."""
    frame = build(config)
    thesis = thesis_numbers(config)
    table = long_table(frame, thesis)
    csv = pd.concat([table, pd.DataFrame(derived_rows(frame, thesis))], ignore_index=True)
    notes = Footnotes()
    body = ["Each cell: the thesis' number / ours (our loaders, raw inputs; the split the "
            "harness uses for Table 2.1). Variance fraction "
            f"{_conf(config)['variance_fraction']:g}.", "", _markdown(table, notes), ""]
    body += claim_lines(claims(config, frame))
    body += ["## Gaps", ""] + ([f"- [{i + 1}] {t}" for i, t in enumerate(notes.texts)]
                               or ["- none"])
    out = output_paths(config, NAME, KIND, SIDECAR)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", "", *body]
    tex = table[["quantity", "column", "thesis", "ours"]].to_latex(index=False, na_rep="--")
    paths = [write_csv_atomic(out["csv"], csv), write_text_atomic(out["md"], "\n".join(md) + "\n"),
             write_text_atomic(out["tex"], f"% {TITLE}\n{tex}")]
    paths.append(write_sidecar(out["json"], {"title": TITLE, "markdown": "\n".join(body).strip()}))
    return paths
