"""LMNN implementations side by side (beside thesis Table 2.1): ours and the peers'.

The declaration: its grid (:class:`~harness.results.common.declare.table_spec.TableSpec`) and
profile side (:class:`~harness.results.common.declare.grid_profile.GridTable`); the profile
section's schema is ``schema.yaml``; a cell's job runs the shared
:mod:`harness.results.common.work.grid` (``WORK``); :mod:`.write` writes the table and the
verdicts; ``README.md`` says what the table shows and its sizes.
"""

from __future__ import annotations

from harness.results.common.declare.grid_profile import GridTable
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "SPEC", "WORK", "check",
           "keys", "params", "inputs", "finish"]

SPEC = TableSpec(
    name="table_2_1_peers",
    task="classification",
    title=(
        "LMNN implementations side by side: kNN and energy test errors in % and fit "
        "CPU seconds of our LMNN rows and the peers, on the same splits in one run"
    ),
    reference_file="thesis_table_2_1.csv",
    measures=(
        ("test_knn_error", "test_knn_error", "kNN test error (%)"),
        ("test_energy_error", "test_energy_error", "energy test error (%)"),
        ("train_knn_loo_error", "train_knn_loo_error", "kNN training error, leave-one-out (%)"),
        ("fit_cpu_seconds", "fit_cpu_seconds", "CPU seconds of one fit"),
        ("fit_cpu_ratio", "fit_cpu_ratio", "CPU time of one fit relative to our LMNN"),
    ),
    thesis_datasets=(),
    tolerance=1.5,
    average=False,
    compared=(),
    decimals=2,
    ratios={"fit_cpu_ratio": ("fit_cpu_seconds", "lmnn")},
    notes=(
        "Every row is fitted on the same seeded stratified splits (run i uses the "
        "profile seed + i whatever the method; 70/30 on digits, the thesis' "
        "fractions elsewhere), with k = 3 target neighbours and one BLAS thread; "
        "errors and CPU seconds are means over the runs. Thesis values are shown "
        "where the thesis has the row; no verdicts: this table compares "
        "implementations, Table 2.1 compares with the thesis.",
        "kNN (tie rule of 2.1.6) and the energy rule (2.12) are ours for every row, "
        "peers included, applied with each row's learned L, so the rows differ only "
        "in how L was learned. A peer that is not installed or fails is a marked "
        "cell ('peer not runnable: ...').",
        "CPU seconds of the process (getrusage, every thread) around fit; "
        "the ratio divides by our LMNN's (harness.methods.lmnn.LMNN, solver='lbfgs') mean "
        "on the same data set in the same run.",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "2.1.6"
KIND = "table"
SIDECAR = True

#: the job code: the grid's cell work (its import closure is each job's sources)
WORK = "harness.results.common.work.grid"

check, keys, params, inputs, finish = GridTable(SPEC).functions()
