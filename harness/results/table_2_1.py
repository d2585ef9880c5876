"""Table 2.1 (thesis 2.1.6, 2.1.8): kNN, energy and SVM error rates of LMNN and its peers.

One job per cell (data set x method) runs the classification task
(:mod:`harness.tasks.classification`) on seeded random splits: the learned metric's
kNN (leave-one-out training, test) and energy errors, the SVM's, CPU time and active
constraints. The table shows thesis / ours / delta per cell and the thesis' claims of
2.1.6 and 2.1.8 with verdicts.
"""

from __future__ import annotations

from harness.results.common import grid
from harness.results.common.table_claims import Check, compare_pairs, TableClaim
from harness.results.common.table_result import TableResult
from harness.results.common.table_spec import TableSpec

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "SPEC", "CLAIMS"]

SPEC = TableSpec(
    name="table_2_1",
    task="classification",
    title=(
        "Table 2.1: kNN (leave-one-out training, test), energy and SVM error rates "
        "in %, CPU time and active constraints of LMNN (thesis 2.1.6, 2.1.8)"
    ),
    reference_file="thesis_table_2_1.csv",
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
SCHEMA = {"$ref": "#/$defs/classification_table"}

# ---- Table 2.1 (2.1.6, 2.1.8) ----------------------------------------------------------
KNN = ("train_knn_loo_error", "test_knn_error")
LARGE = ("mnist", "20news", "letters", "isolet", "yalefaces")
TOL_2_1 = SPEC.tolerance


def _lmnn_beats_euclidean(values, datasets):
    return compare_pairs(values, datasets, [((m, "PCA-LMNN"), (m, "PCA")) for m in KNN])


def _energy_beats_knn(values, datasets):
    energy = ("test_energy_error", "PCA-LMNN")
    return compare_pairs(values, datasets, [(energy, ("test_knn_error", "PCA")),
                                     (energy, ("test_knn_error", "PCA-LMNN"))])


def _lda_helps_or_hurts(values, datasets):
    pairs = [(("test_knn_error", "LDA"), ("test_knn_error", "PCA")),
             (("test_knn_error", "LDA-LMNN"), ("test_knn_error", "PCA-LMNN"))]
    helps = compare_pairs(values, [d for d in datasets if d in ("wine", "yalefaces")], pairs)
    hurts = compare_pairs(values, [d for d in datasets if d in ("olivetti", "mnist")],
                   [(b, a) for a, b in pairs])
    return helps + hurts


def _energy_close_to_svm(values, datasets):
    checks = []
    for d in datasets:
        energy = values.get("test_energy_error", "PCA-LMNN", d)
        svm = values.get("test_svm_error", "SVM", d)
        if energy is not None and svm is not None:
            checks.append(Check((d,), abs(energy - svm) <= TOL_2_1,
                                f"{d} energy {values.fmt(energy)} vs SVM {values.fmt(svm)}"))
    return checks


def _mul_lmnn_no_worse(values, datasets):
    return compare_pairs(values, datasets, [((m, "MUL-LMNN"), (m, "PCA-LMNN"))
                                     for m in ("test_knn_error", "test_energy_error")],
                  margin=TOL_2_1)


def _mm_lmnn_beats_svm(values, datasets):
    return compare_pairs(values, datasets, [(("test_knn_error", "MM-LMNN"),
                                      ("test_svm_error", "SVM"))])


def _energy_cuts_mnist_by_a_third(values, datasets):
    return compare_pairs(values, datasets, [(("test_energy_error", "PCA-LMNN"),
                                      ("test_knn_error", "PCA"))], factor=2 / 3)



CLAIMS: tuple[TableClaim, ...] = (
    TableClaim("Except on the smallest data set (iris, where over-training "
               "appears), the metric learned by LMNN improves kNN classification over the "
               "Euclidean metric, both in training and testing: PCA-LMNN's kNN errors are "
               "below PCA's (2.1.6)", _lmnn_beats_euclidean,
               tuple(d for d in SPEC.thesis_datasets if d != "iris")),
    TableClaim("The energy classifier outperforms kNN under both the Euclidean "
               "and the learned metric on all of the large data sets (mnist, 20news, "
               "letters, isolet, yalefaces): PCA-LMNN's energy test error is below the kNN "
               "test errors of PCA and PCA-LMNN (2.1.6)", _energy_beats_knn, LARGE),
    TableClaim("Pre-processing with LDA helps in some cases (wine, yalefaces) "
               "but can lead to drastically worse results (olivetti, MNIST): kNN test error "
               "of LDA vs PCA and of LDA-LMNN vs PCA-LMNN (2.1.6)", _lda_helps_or_hurts,
               ("wine", "yalefaces", "olivetti", "mnist")),
    TableClaim("The energy classifier's results are very close to the "
               "multi-class SVM's on almost all data sets; we read 'very close' as PCA-LMNN's "
               f"energy test error within {TOL_2_1:g} points (the table's tolerance) of the "
               "SVM test error (2.1.6)", _energy_close_to_svm),
    TableClaim("On MNIST, energy-based LMNN classification cuts the baseline "
               "kNN test error by over one third: PCA-LMNN's energy test error is below 2/3 "
               "of PCA's kNN test error (2.1.6)", _energy_cuts_mnist_by_a_third, ("mnist",)),
    TableClaim("Applying LMNN several times (MUL-LMNN) improves the results or "
               "leaves them almost identical on every data set: its kNN and energy test "
               f"errors are at most {TOL_2_1:g} points above PCA-LMNN's (2.1.8)",
               _mul_lmnn_no_worse),
    TableClaim("On MNIST, LMNN with one metric per class (MM-LMNN) reaches a kNN "
               "test error slightly lower than multi-class SVMs (1.18 %; 2.1.8)",
               _mm_lmnn_beats_svm, ("mnist",)),
)


check, keys, params, write, inputs, claims, section = TableResult(SPEC, CLAIMS).functions()
work, finish, sources = grid.work, grid.finish, grid.sources
