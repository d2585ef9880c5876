"""The outputs of Fig. 2.5 from Table 2.1's records (and table_2_1_peers'): the bar
chart, the CSV (one long frame: ``part`` ``bars``, ``active`` or ``cases``), the
Markdown, the sidecar, and the verdicts (:func:`claims`)."""

from __future__ import annotations

import pandas as pd

from harness import registry
from harness.jobs import Job, read_job_record
from harness.reference import load_reference
from harness.results import table_2_1
from harness.results.common.write.figure_files import (
    claim_lines, write_figure_files,
)
from harness.results.common.declare.grid_profile import column_dataset, grid_cells
from harness.results.common.write.tables import Footnotes, build_table
from harness.results.fig_2_5 import NAME, PEERS, TABLE, TITLE
from harness.results.fig_2_5 import active as active_mod
from harness.results.fig_2_5.outputs import active_table, bars_table, plot
from harness.results.fig_2_5.register_claims import Extras, register_claims
from harness.results.table_2_1.runs import NINE, Runs

__all__ = ["FIGURE_SETS", "BARS", "build", "claims", "write"]

#: what `harness compare` leaves out: the rows of "PCA is (relatively) fast", "LDA is
#: efficient", "NCA more expensive than LMNN" and "PCA reduces the time" hold fit times
#: and their ratios (timing-derived, not
#: reproduced by a rerun; :mod:`harness.runs.compare`)
COMPARE_IGNORE = r"relatively-fast|lda-efficient|more-expensive|reduces-time"

#: Fig. 2.5's five data sets (2.1.6: "the experiments on larger data sets")
FIGURE_SETS = ("mnist", "20news", "letters", "isolet", "yalefaces")
#: the figure's bars: (measure, Table 2.1 row label, legend)
BARS = (("train_knn_loo_error", "PCA", "kNN PCA, training"),
        ("test_knn_error", "PCA", "kNN PCA, test"),
        ("train_knn_loo_error", "LDA", "kNN LDA, training"),
        ("test_knn_error", "LDA", "kNN LDA, test"),
        ("train_knn_loo_error", "LDA (unshrunk)", "kNN LDA (unshrunk), training"),
        ("test_knn_error", "LDA (unshrunk)", "kNN LDA (unshrunk), test"),
        ("train_knn_loo_error", "PCA-LMNN", "kNN PCA-LMNN, training"),
        ("test_knn_error", "PCA-LMNN", "kNN PCA-LMNN, test"),
        ("test_energy_error", "PCA-LMNN", "energy PCA-LMNN, test"))


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def _datasets(config: dict) -> list[str]:
    extra = [d for d in NINE if d not in FIGURE_SETS] if _conf(config)["extra_datasets"] else []
    return list(FIGURE_SETS) + extra


def _bars(config: dict) -> pd.DataFrame:
    """One row per (data set, bar): the thesis' value, our mean, std and runs, status."""
    long = build_table(config, table_2_1.SPEC)
    long = long[long["dataset"] != "average"].drop_duplicates(
        ["measure", "thesis_label", "thesis_dataset"]).set_index(
        ["measure", "thesis_label", "thesis_dataset"], drop=False)
    rows = []
    for d in _datasets(config):
        for measure, label, legend in BARS:
            out = {"part": "bars", "dataset": d, "in_figure": d in FIGURE_SETS,
                   "measure": measure, "row": label, "bar": legend}
            key = (measure, label, d)
            if key not in long.index:
                rows.append({**out, "status": "missing",
                             "reason": f"{label} is not a row of results.{TABLE} here"})
                continue
            r = long.loc[key]
            rows.append({**out, "thesis": r["thesis"], "ours": r["ours"],
                         "ours_std": r["ours_std"], "n_runs": r["n_runs"],
                         "status": r["status"], "reason": r["reason"] or ""})
    return pd.DataFrame(rows)


def _labels(result: str, config: dict) -> dict:
    """``(thesis data set, row label) -> record`` of a result's real-data cells."""
    tconf = config["results"][result]
    out = {}
    for cell in grid_cells(config, result):
        info = registry.get_dataset(column_dataset(tconf, cell.dataset))
        if info.stand_in_for is None:
            out[(info.thesis_name or cell.dataset, registry.get_method(cell.method).thesis_label)] = (
                cell, read_job_record(config, Job(cell.table, cell.key)))
    return out


def _extras(config: dict) -> Extras:
    extras = Extras()
    for result in (TABLE, PEERS):
        if result not in config["results"]:
            continue
        for (d, label), (cell, record) in _labels(result, config).items():
            if record.get("status") != "ok":
                continue
            iters, valid = {}, {}
            for run in record.get("runs", []):
                info = run.get("info") or {}
                if isinstance(info.get("n_iter"), (int, float)):
                    iters[run["seed"]] = float(info["n_iter"])
                if isinstance(info.get("validation_errors"), dict):
                    valid[run["seed"]] = info["validation_errors"]
            if iters:
                extras.iterations[(result, d, label)] = iters
            if valid:
                extras.validation[(result, d, label)] = valid
            params = registry.get_method(cell.method)().get_params()
            params.update(record.get("params", {}).get("method_params") or {})
            if isinstance(params.get("max_iter"), int):
                extras.max_iter[(result, d, label)] = params["max_iter"]
    return extras


def build(config: dict) -> dict:
    """The figure's frames and claims: ``bars``, ``active`` (rows of
    :func:`harness.results.fig_2_5.active.build`), ``claims`` and ``cases``."""
    conf = _conf(config)
    reference = load_reference(config["reference_dir"], table_2_1.SPEC.reference_file)
    active = active_mod.build(config, TABLE, reference, NINE, conf["thesis_k"])
    runs = Runs.from_config(config, table_2_1.SPEC)
    peers = None
    if PEERS in config["results"]:
        from harness.results import table_2_1_peers
        peers = Runs.from_config(config, table_2_1_peers.SPEC)
    by_set = {r["dataset"]: r for r in active if r["row"] == "PCA-LMNN"}
    found, cases = register_claims(runs, peers, _extras(config), by_set, conf)
    return {"bars": _bars(config), "active": active, "claims": found, "cases": cases}


def claims(config: dict, built: dict | None = None) -> list[dict]:
    """The register entries the figure decides (interface :mod:`harness.claims`)."""
    return (built or build(config))["claims"]


def _frame(built: dict) -> pd.DataFrame:
    active = pd.DataFrame(built["active"]).assign(part="active")
    cases = pd.DataFrame(built["cases"]).assign(part="cases")
    return pd.concat([built["bars"], active, cases], ignore_index=True, sort=False)


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_5.{csv,png,md,json}``; return the paths."""
    built = build(config)
    conf = _conf(config)
    notes = Footnotes()
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`: no jobs of its own; the "
          f"records of results.{TABLE}" + (f" and results.{PEERS}" if PEERS in config["results"]
                                           else "") + ". Cells: thesis / ours (mean ± std "
          "over the runs, runs); the thesis' numbers are its Table 2.1's.", ""]
    md += claim_lines(built["claims"])
    md += ["## Fig. 2.5's bars (errors in %)", "", bars_table(built["bars"], notes), "",
           f"![Fig. 2.5]({NAME}.png)", "",
           "## Active constraints at the end of training (Table 2.1)", "",
           active_table(built["active"], conf["thesis_k"], notes), "",
           "## Choices where the thesis is ambiguous", "",
           "- See this result's README: the data sets (the figure's five, and Table 2.1's "
           "other four beside them), the active-constraint share (mean over the runs of "
           "each run's active / candidate triplets), the validation-split errors of the "
           "metric-against-k entry, the timing band and the timer's granularity."]
    md += ["- The data sets' own notes (their sizes against the thesis') are Table 2.1's."]
    records = [rec for _, rec in _labels(TABLE, config).values()
               if rec.get("status") != "missing"]
    return write_figure_files(config, NAME, [], _frame(built), md, notes.texts,
                              lambda f, c, path: plot(built["bars"], TITLE, path),
                              records=records)
