"""Table 2.1 (thesis 2.1.6, 2.1.8): kNN, energy and SVM error rates of LMNN and its peers.

The declaration: its grid (:class:`~harness.results.common.declare.table_spec.TableSpec`) and
profile side (:class:`~harness.results.common.declare.grid_profile.GridTable`); the profile
section's schema is ``schema.yaml``; a cell's job runs the shared
:mod:`harness.results.common.work.grid` (``WORK``); :mod:`.write` writes the table and the
verdicts; ``README.md`` says what the table shows and its sizes.
"""

from __future__ import annotations

from harness.results.common.declare.grid_profile import GridTable
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "CLAIMS_PER_CELL",
           "SVM_ROWS", "LDA_ROWS", "SPEC", "WORK", "check", "keys", "params", "inputs", "finish"]

#: Table 2.1's SVM rows (harness.methods.svm, harness.methods.svm_raw): the thesis gives no feature
#: scaling, so both readings are run, given its SVM numbers, and checked by its claims
SVM_ROWS = ("SVM", "SVM (raw inputs)")

#: Table 2.1's LDA rows, each with its readings (harness.methods.lda_knn / lda_lmnn and their
#: ``_unshrunk`` siblings): the thesis does not say how it regularised LDA (Ledoit-Wolf
#: shrinkage, or the within-class covariance as eq. 2.27 prints it), so both are run,
#: given its numbers, and checked by its claims
LDA_ROWS = {"LDA": ("LDA", "LDA (unshrunk)"),
            "LDA-LMNN": ("LDA-LMNN", "LDA-LMNN (unshrunk)")}


def _reading_aliases(readings: dict, measures) -> dict:
    """``reference_aliases`` giving each further reading of a thesis row (``readings``:
    thesis row -> its rows, the thesis' own first) that row's numbers of ``measures``."""
    return {(measure, row): (measure, thesis_row) for thesis_row, rows in readings.items()
            for row in rows[1:] for measure in measures}


SPEC = TableSpec(
    name="table_2_1",
    task="classification",
    title=(
        "Table 2.1: kNN (leave-one-out training, test), energy and SVM error rates "
        "in %, CPU time and active constraints of LMNN (thesis 2.1.6, 2.1.8)"
    ),
    reference_file="thesis_table_2_1.csv",
    shape_quantities=("n_inputs", "dimension"),
    measures=(
        ("train_knn_loo_error", "train_knn_loo_error", "kNN training error, leave-one-out (%)"),
        ("test_knn_error", "test_knn_error", "kNN test error (%)"),
        ("test_energy_error", "test_energy_error", "energy test error (%)"),
        ("train_svm_loo_error", "train_svm_loo_error", "SVM training error, leave-one-out (%)"),
        ("test_svm_error", "test_svm_error", "SVM test error (%)"),
        ("fit_cpu_seconds", "fit_cpu_seconds", "CPU seconds of one fit"),
        ("n_active", "n_active", "active constraints at the end of training"),
    ),
    thesis_datasets=("mnist", "20news", "letters", "isolet", "yalefaces", "iris", "bal",
                     "wine", "olivetti"),
    tolerance=1.5,
    average=False,
    compared=("train_knn_loo_error", "test_knn_error", "test_energy_error",
              "train_svm_loo_error", "test_svm_error"),
    decimals=2,
    measure_decimals={"n_active": 0},
    spread_counts=True,
    reference_aliases={
        ("fit_cpu_seconds", "PCA-LMNN"): ("cpu_seconds_one_metric", ""),
        ("fit_cpu_seconds", "MM-LMNN"): ("cpu_seconds_multiple_metrics", ""),
        ("n_active", "PCA-LMNN"): ("active_constraints_one_metric", ""),
        ("n_active", "MM-LMNN"): ("active_constraints_multiple_metrics", ""),
        # the thesis gives no scaling for its SVMs, nor how it regularised LDA: every
        # reading gets the thesis row's numbers
        **_reading_aliases({"SVM": SVM_ROWS}, ("train_svm_loo_error", "test_svm_error")),
        **_reading_aliases(LDA_ROWS, ("train_knn_loo_error", "test_knn_error",
                                      "test_energy_error")),
    },
    notes=(
        "Errors in percent, averaged over the runs (random stratified splits with "
        "the thesis' training fraction n_training / n_inputs of Table 2.1, about "
        "70/30); tolerance 1.5 percentage points for 'reproduced'. The thesis "
        "reports 100 runs on iris, wine and bal; a profile with fewer says so in "
        "its cells list.",
        "k (target neighbours and kNN): 'The number of target neighbors (k) was set "
        "by cross validation' (2.1.6), values not printed. With n_neighbors = "
        "validation (the quick profile) every kNN row chooses its own k per run "
        "among n_neighbors_candidates by its kNN error on a 30% validation split of "
        "the training part, then refits on the whole training part; the choices are "
        "listed per cell below. mu = 0.5 as in the thesis.",
        "The thesis' validation split (% validation row: early stopping on 30% of "
        "the training data for iris, 20news, yalefaces, olivetti) is not used for "
        "early stopping: the final fit trains on the whole training part.",
        "Ties in kNN are broken by shrinking k down to 1 (2.1.6). CPU seconds are "
        "ours on this machine (1 BLAS thread) beside the thesis' 2007 numbers; "
        "they are not compared. The thesis' CPU time and active-constraint rows "
        "are shown beside PCA-LMNN (1 metric) and MM-LMNN (multiple metrics).",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "2.1.6, 2.1.8"
KIND = "table"
SIDECAR = True
#: its claims are the grid table's, checked cell by cell: a job not run is a cell "not
#: measured", named in the evidence (:mod:`harness.result_claims`)
CLAIMS_PER_CELL = True

#: the job code: the grid's cell work (its import closure is each job's sources)
WORK = "harness.results.common.work.grid"

check, keys, params, inputs, finish = GridTable(SPEC).functions()
