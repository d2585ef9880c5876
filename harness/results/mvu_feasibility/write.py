"""The outputs of :mod:`harness.results.mvu_feasibility` from its jobs' records: one
row per (instance, backend) in ``tables/mvu_feasibility.{csv,md,tex}`` with the
verdicts (:func:`claims`)."""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.jobs import Job, read_job_record
from harness.outputs import output_paths
from harness.records import write_csv_atomic, write_text_atomic
from harness.results.common.write.figure_files import claim_lines, gap_mark
from harness.results.mvu_feasibility import KIND, NAME, TITLE, _conf, keys
from harness.results.mvu_feasibility.register_claims import register_claims

__all__ = ["TRACKS", "build", "claims", "write"]

TRACKS = 1e-3  # an optimum within this (relative) of its trace bound follows the bound
CERTIFIED = 1e-9  # K0's relative edge residual, the ray's edge change and sum


def _tracks(sweep: list[dict]) -> bool:
    return all(s["value_over_k0"] is not None and s["status"].startswith("optimal")
               and s["value_over_k0"] >= (1 - TRACKS) * s["bound"] for s in sweep)


def _values(sweep: list[dict]) -> str:
    return ", ".join("-" if s["value_over_k0"] is None else f"{s['value_over_k0']:.4g}"
                     for s in sweep)


def _rows(key: str, record: dict, conf: dict) -> list[dict]:
    kind = key.split("/")[0]
    base = {"part": kind, "key": key, "status": "ok", "reason": ""}
    if kind == "disconnected":
        sweep, control = record["sweep"], record["control"]
        return [{**base, "data": key.split("/")[1], "backend": key.split("/")[2],
                 "n": record["n"], "m": record["m"], "k": conf["disconnected"]["n_neighbors"],
                 "n_components": record["n_components"],
                 "solver_status": record["solve"]["status"],
                 "solver_value": record["solve"]["value"],
                 "sweep_tracks": _tracks(sweep), "sweep_text": _values(sweep),
                 "bounds_text": ", ".join(f"{s['bound']:g}" for s in sweep),
                 "k0_violation": record["k0_violation"],
                 "ray_edge_change": record["ray_edge_change"], "ray_sum": record["ray_sum"],
                 "ray_trace": record["ray_trace"],
                 "ray_certified": (record["n_components"] >= 2
                                   and record["k0_violation"] <= CERTIFIED
                                   and record["ray_edge_change"] <= CERTIFIED
                                   and abs(record["ray_sum"]) <= CERTIFIED
                                   and record["ray_trace"] > 0),
                 "control_status": control["status"],
                 "control_components": control["n_components"],
                 "control_value_over_k0": control["value_over_k0"]}]
    if kind == "strict_noisy":
        draw = int(key.split("/")[1][4:])
        return [{**base, "draw": draw, "backend": b, "solver_status": s["status"],
                 **{k: record.get(k) for k in ("n", "m", "triangles", "broken_triangles",
                                               "farkas_by", "farkas_delta", "farkas_margin",
                                               "farkas_certified", "graph_connected")}}
                for b, s in record["solves"].items()]
    return [{**base, "backend": record["backend"], "n": record["n"], "m": record["m"],
             "draw": r["draw"], "variant": r["variant"], "solver_status": r["status"],
             "zero_violation": r["zero_violation"], "violation": r.get("violation"),
             "least_eigenvalue": r.get("least_eigenvalue")} for r in record["rows"]]


def build(config: dict) -> pd.DataFrame:
    """One row per (instance, backend); a job without an ``ok`` record one row with its
    status."""
    conf, rows = _conf(config), []
    for key in keys(config):
        record = read_job_record(config, Job(NAME, key))
        if record["status"] != "ok":
            rows.append({"part": key.split("/")[0], "key": key, "status": record["status"],
                         "reason": record.get("reason", "")})
            continue
        rows += _rows(key, record, conf)
    return pd.DataFrame(rows)


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The four register entries on MVU's feasibility, decided on this run."""
    return register_claims(build(config) if frame is None else frame)


_COLUMNS = {
    "disconnected": ["data", "backend", "n", "n_components", "solver_status", "sweep_text",
                     "ray_certified", "control_status", "control_value_over_k0"],
    "strict_noisy": ["draw", "backend", "broken_triangles", "triangles", "solver_status",
                     "farkas_margin", "farkas_certified"],
    "relaxed": ["draw", "variant", "backend", "solver_status", "zero_violation", "violation",
                "least_eigenvalue"],
}


def write(config: dict) -> list:
    """Write ``results/<profile>/tables/mvu_feasibility.{csv,md,tex}``."""
    frame = build(config)
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`.", ""]
    md += claim_lines(claims(config, frame))
    for part, columns in _COLUMNS.items():
        rows = frame[frame["part"] == part] if len(frame) else frame
        ok = rows[rows["status"] == "ok"] if len(rows) else rows
        md += [f"## {part.replace('_', ' ')}", ""]
        if len(ok):
            md += [tabulate(ok[columns], headers="keys", tablefmt="github", showindex=False,
                            floatfmt=".4g"), ""]
        md += [f"- `{r.key}`: {gap_mark(r.status)} ({r.reason})"
               for r in rows[rows["status"] != "ok"].itertuples()] if len(rows) else []
        md += [""]
    md += ["The sweep column: the optimum divided by trace(K0) under trace(K) <= T trace(K0) "
           "for each T of the profile; an unbounded problem's optimum follows T."]
    out = output_paths(config, NAME, KIND)
    body = "\n".join(md) + "\n"
    return [write_csv_atomic(out["csv"], frame), write_text_atomic(out["md"], body),
            write_text_atomic(out["tex"], f"% {TITLE}\n% see {NAME}.md\n")]
