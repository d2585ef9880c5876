"""Table 2.1's active constraints against all candidate triplets (thesis 2.1.3, 2.1.7;
Table 2.1's "# active constraints" rows; issue 54 item 4).

A triplet ``(i, j, l)`` of (2.11) is a candidate when ``j`` is one of ``i``'s ``k``
target neighbours and ``l`` is labelled differently from ``i``: a run with ``n``
training points of class sizes ``n_c`` and ``k`` target neighbours has
``k * sum_i (n - n_class(i)) = k (n^2 - sum_c n_c^2)`` of them. The records keep
each run's count of active triplets (strictly positive hinge, i.e. positive slack, at
the end of training), its seed and its k; the class sizes of its training part come
from the same seeded split (:func:`harness.tasks.classification.dataset_split` on the
data set's labels, cheap for every data set of Table 2.1), checked against the
record's ``n_train``. The thesis prints neither its k nor its class sizes: its share
is an *estimate* with ``thesis_k`` and balanced classes, ``k n (n - n / c)``, shown
beside ours and never used in a verdict.
"""

from __future__ import annotations

import math

import numpy as np

from harness import registry
from harness.jobs import Job, read_job_record
from harness.results.common.declare.grid_profile import column_dataset, grid_cells
from harness.tasks.classification import dataset_split

__all__ = ["ROWS", "candidates", "thesis_candidates", "run_shares", "build"]

#: the rows whose counts Table 2.1 prints: one metric (PCA-LMNN) and multiple (MM-LMNN)
ROWS = {"PCA-LMNN": "active_constraints_one_metric", "MM-LMNN": "active_constraints_multiple_metrics"}


def candidates(y_train, k: int) -> int:
    """The candidate triplets of one run: ``k`` target neighbours of every training
    point times the training points labelled differently from it.

    Examples
    --------
    >>> candidates([0, 0, 1, 1, 1], 1)  # 2 x 3 + 3 x 2
    12
    """
    _, sizes = np.unique(np.asarray(y_train), return_counts=True)
    n = int(sizes.sum())
    return int(k) * (n * n - int((sizes.astype(np.int64) ** 2).sum()))


def thesis_candidates(n_train: float, n_classes: float, k: int) -> float:
    """The thesis' candidate triplets estimated with balanced classes and ``k``.

    Examples
    --------
    >>> thesis_candidates(90, 3, 3)
    16200.0
    """
    return float(k) * n_train * (n_train - n_train / n_classes)


def _k(record: dict, run: dict) -> int | None:
    k = (run.get("info") or {}).get("n_neighbors")
    if k is None:
        k = (record.get("params", {}).get("method_params") or {}).get("n_neighbors")
    return int(k) if isinstance(k, (int, float)) and not isinstance(k, bool) else None


def run_shares(record: dict, dataset) -> list[dict]:
    """Per run of a record: seed, k, training size, active count, candidate triplets
    and the share (active / candidates).

    Raises
    ------
    ValueError
        The split rebuilt from the seed does not have the record's training size (the
        split protocol changed since the record was made).
    """
    rows = []
    fraction = float(record["params"]["train_fraction"])
    for run in record.get("runs", []):
        active = (run.get("measures") or {}).get("n_active")
        k = _k(record, run)
        if active is None or k is None:
            continue
        train, _, _ = dataset_split(dataset, fraction, int(run["seed"]))
        n_train = (run.get("info") or {}).get("n_train")
        if n_train is not None and int(n_train) != len(train):
            raise ValueError(f"{record.get('job')}: seed {run['seed']} gives {len(train)} "
                             f"training points, the record says {n_train}")
        cand = candidates(np.asarray(dataset.y)[train], k)
        rows.append({"seed": int(run["seed"]), "k": k, "n_train": len(train),
                     "active": float(active), "candidates": cand,
                     "share": float(active) / cand if cand else math.nan})
    return rows


def _thesis(reference, quantity: str, dataset: str) -> float:
    hit = reference[(reference["quantity"] == quantity) & (reference["dataset"] == dataset)]
    return float(hit["value"].iloc[0]) if len(hit) and hit["value"].notna().iloc[0] else math.nan


def build(config: dict, table: str, reference, thesis_datasets, thesis_k: int) -> list[dict]:
    """One row per (thesis data set, row of :data:`ROWS`): the thesis' count and its
    estimated share, our mean count, mean candidate triplets, mean and largest share
    over the runs, the mean k; a data set not measured has status and reason."""
    tconf = config["results"][table]
    by_column = {}
    for cell in grid_cells(config, table):
        info = registry.get_dataset(column_dataset(tconf, cell.dataset))
        if info.stand_in_for is None:
            by_column.setdefault(info.thesis_name or cell.dataset, {})[
                registry.get_method(cell.method).thesis_label] = cell
    loaded, rows = {}, []
    for d in thesis_datasets:
        n_train, n_classes = (_thesis(reference, q, d) for q in ("n_training", "n_classes"))
        for label, quantity in ROWS.items():
            thesis = _thesis(reference, quantity, d)
            t_cand = thesis_candidates(n_train, n_classes, thesis_k)
            row = {"dataset": d, "row": label, "thesis_active": thesis,
                   "thesis_candidates_estimate": t_cand,
                   "thesis_share_estimate": thesis / t_cand if t_cand else math.nan,
                   "status": "ok", "reason": ""}
            cell = by_column.get(d, {}).get(label)
            if cell is None:
                rows.append({**row, "status": "unavailable",
                             "reason": f"{d} {label} is not in results.{table} of this profile"})
                continue
            record = read_job_record(config, Job(cell.table, cell.key))
            if record.get("status") != "ok":
                rows.append({**row, "status": record.get("status", "missing"),
                             "reason": f"{cell.table}/{cell.key}: {record.get('reason', '')}"})
                continue
            name = column_dataset(tconf, cell.dataset)
            if name not in loaded:
                loaded[name] = registry.get_dataset(name)().load(
                    **record["params"].get("dataset_params", {}))
            runs = run_shares(record, loaded[name])
            if not runs:
                rows.append({**row, "status": "incomplete",
                             "reason": f"{cell.table}/{cell.key} records no active count"})
                continue
            shares = np.array([r["share"] for r in runs])
            rows.append({**row, "profile_dataset": cell.dataset, "n_runs": len(runs),
                         "k_mean": float(np.mean([r["k"] for r in runs])),
                         "n_train": float(np.mean([r["n_train"] for r in runs])),
                         "active_mean": float(np.mean([r["active"] for r in runs])),
                         "candidates_mean": float(np.mean([r["candidates"] for r in runs])),
                         "fraction_mean": float(shares.mean()),
                         "fraction_max": float(shares.max())})
    return rows
