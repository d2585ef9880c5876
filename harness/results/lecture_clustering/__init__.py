"""The lecture methods on the thesis' data (2 of 3): our spectral clustering (Ng,
Jordan & Weiss 2002) against scikit-learn's, adjusted Rand index, normalised mutual
information and fit CPU seconds (statwiki STAT 841 F14, lectures 7-8; not a thesis
result: no thesis values; verdicts only on claims of the lecture notes).

The declaration: its grid (:class:`~harness.results.common.declare.table_spec.TableSpec` of the
clustering task, no reference file) and profile side
(:class:`~harness.results.common.declare.grid_profile.GridTable`); the profile section's
schema is ``schema.yaml``; a cell's job runs the shared
:mod:`harness.results.common.work.grid` (``WORK``); :mod:`.write` writes the table;
``README.md`` says what it shows and its sizes. ``GROUP = "lecture"``: the report's
part for the lecture methods.
"""

from __future__ import annotations

from harness.results.common.declare.grid_profile import GridTable
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "GROUP", "SPEC", "WORK",
           "check", "keys", "params", "inputs", "finish"]

SPEC = TableSpec(
    name="lecture_clustering",
    task="clustering",
    title=("Lecture methods: spectral clustering, ours (NJW) and scikit-learn's, adjusted "
           "Rand index, normalised mutual information and fit CPU seconds (not a thesis "
           "result)"),
    reference_file=None,
    measures=(
        ("adjusted_rand_index", "adjusted_rand_index", "adjusted Rand index"),
        ("normalized_mutual_info", "normalized_mutual_info",
         "normalised mutual information"),
        ("fit_cpu_seconds", "fit_cpu_seconds", "CPU seconds of one fit"),
    ),
    thesis_datasets=(),
    average=False,
    decimals=3,
    thesis_values=False,
    notes=(
        "Each clusterer partitions the whole data set into as many clusters as it has "
        "labels and is scored against them (harness/tasks/clustering.py: scikit-learn's "
        "adjusted_rand_score and normalized_mutual_info_score, arithmetic mean); "
        "run i seeds the k-means starts and eigensolver with the profile seed + i, on "
        "the same data; means ± standard deviations over the runs.",
        "Both rows get the same affinity parameters from the profile's methods: "
        "section (the quick and full profiles: a 10-nearest-neighbour graph, one "
        "setting for every data set; a Gaussian of one width cannot serve both the "
        "unit-scale shapes and the 0-16 pixel values of digits). What differs is the "
        "algorithm: ours follows NJW (zero-diagonal affinity, D^-1/2 A D^-1/2, top-k "
        "eigenvectors with unit rows, k-means); scikit-learn's graph counts each "
        "point among its own neighbours and weighs one-sided edges 1/2, and its "
        "spectral embedding divides by D^1/2 instead of renormalising rows.",
        "CPU seconds of the process (getrusage, harness.timelimit.cpu_clock) around "
        "fit_predict (one BLAS thread).",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "lecture (STAT 841 F14, lectures 7-8): spectral clustering"
KIND = "table"
SIDECAR = True
#: the report's part: the lecture methods, not thesis results (harness.report.build)
GROUP = "lecture"

#: the job code: the grid's cell work (its import closure is each job's sources)
WORK = "harness.results.common.work.grid"

check, keys, params, inputs, finish = GridTable(SPEC).functions()
