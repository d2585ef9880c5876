"""The lecture methods on the thesis' data (1 of 3): supervised PCA and kernel
supervised PCA against PCA, LDA and LMNN, kNN test error on the same splits (statwiki
STAT 841 F14; not a thesis result: no thesis values, no verdicts).

The declaration: its grid (:class:`~harness.results.common.declare.table_spec.TableSpec`, no
thesis values) and profile side (:class:`~harness.results.common.declare.grid_profile.GridTable`);
the profile section's schema is ``schema.yaml``; a cell's job runs the shared
:mod:`harness.results.common.work.grid` (``WORK``); :mod:`.write` writes the table;
``README.md`` says what it shows and its sizes. ``GROUP = "lecture"`` puts it in the
report's part for the lecture methods (:mod:`harness.report.build`).
"""

from __future__ import annotations

from harness.results.common.declare.grid_profile import GridTable
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "GROUP", "SPEC", "WORK",
           "check", "keys", "params", "inputs", "finish"]

SPEC = TableSpec(
    name="lecture_spca",
    task="classification",
    title=("Lecture methods on the thesis' data: kNN test error in % of PCA, LDA, SPCA, "
           "kernel SPCA and LMNN on the same splits (not a thesis result)"),
    # only the protocol: Table 2.1's training fractions, the splits of table_2_1_peers
    reference_file="thesis_table_2_1.csv",
    measures=(
        ("test_knn_error", "test_knn_error", "kNN test error (%)"),
        ("fit_cpu_seconds", "fit_cpu_seconds", "CPU seconds of one fit"),
    ),
    thesis_datasets=(),
    average=False,
    decimals=2,
    thesis_values=False,
    notes=(
        "Every row is fitted on the same seeded stratified splits (run i uses the "
        "profile seed + i whatever the method; the thesis' Table 2.1 training "
        "fractions on iris, wine and balance scale, 70/30 on digits: the splits of "
        "table_2_1_peers), with k = 3 and one BLAS thread; errors and CPU seconds are "
        "means ± standard deviations over the runs.",
        "kNN (tie rule of 2.1.6) is ours for every row, applied after each row's "
        "learned map (PCA, LDA, SPCA and LMNN linear, kernel SPCA a kernel map), so "
        "the rows differ only in the map; each keeps its plugin's default dimension "
        "(the plugins' notes below).",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "lecture (STAT 841 F14): supervised PCA; thesis 2.1.6 for LMNN"
KIND = "table"
SIDECAR = True
#: the report's part: the lecture methods, not thesis results (harness.report.build)
GROUP = "lecture"

#: the job code: the grid's cell work (its import closure is each job's sources)
WORK = "harness.results.common.work.grid"

check, keys, params, inputs, finish = GridTable(SPEC).functions()
