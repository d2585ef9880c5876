"""The outputs of Table 2.1: the thesis / ours / delta table
(CSV, Markdown, LaTeX, sidecar), its report section and the verdicts on the thesis'
statements about it.
"""

from __future__ import annotations

from harness.claims import ALMOST_ALL_EXCEPTIONS
from harness.results.common.write.table_claims import Check, TableClaim, compare_pairs
from harness.results.common.write.row_claims import RowReading
from harness.results.common.write.table_result import TableResult
from harness.results.table_2_1 import LDA_ROWS, SPEC, SVM_ROWS

__all__ = ["KNN", "LARGE", "TOL_2_1", "DRASTIC_MARGIN", "DRASTIC_FACTOR", "SVM_ROWS",
           "LDA_ROWS", "LDA_VS_PCA", "write", "claims", "section"]

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


#: the two readings of "drastically worse" (2.1.6), fixed from the text: the error rises
#: by more than the table's tolerance (a difference the table can tell), or at least
#: doubles. The thesis' own numbers meet both on every case (kNN test %: MNIST LDA 6.16
#: vs PCA 2.12, LDA-LMNN 6.17 vs PCA-LMNN 1.72; olivetti 10.01 vs 2.8, 40.72 vs 3.28).
#: (It was checked as plain "worse" before, which "drastically" is not.)
DRASTIC_MARGIN, DRASTIC_FACTOR = TOL_2_1, 2.0


#: LDA's rows against PCA's, per reading of LDA (:data:`LDA_ROWS`: Ledoit-Wolf shrinkage,
#: unshrunk), each check tagged with its reading
LDA_VS_PCA = {lda: [(("test_knn_error", lda), ("test_knn_error", "PCA")),
                    (("test_knn_error", lda_lmnn), ("test_knn_error", "PCA-LMNN"))]
              for lda, lda_lmnn in zip(LDA_ROWS["LDA"], LDA_ROWS["LDA-LMNN"])}
LDA_READINGS = ("with Ledoit-Wolf shrinkage and unshrunk (eq. 2.27): the thesis does not "
                "say how it regularised LDA")


def _by_reading(values, datasets, reverse=False, **kwargs):
    """:func:`compare_pairs` of :data:`LDA_VS_PCA` (``reverse``: PCA's row first), each
    check tagged with its LDA reading."""
    return [c for reading, pairs in LDA_VS_PCA.items()
            for c in compare_pairs(values, datasets,
                                   [(b, a) if reverse else (a, b) for a, b in pairs],
                                   reading=reading, **kwargs)]


def _lda_helps(values, datasets):
    return _by_reading(values, datasets)


def _lda_drastically_worse(values, datasets):
    by_margin = _by_reading(values, datasets, reverse=True, margin=-DRASTIC_MARGIN)
    doubled = _by_reading(values, datasets, reverse=True, factor=1 / DRASTIC_FACTOR)
    # each reading of 'drastically' is a reading of its own (its tag), beside LDA's two
    return [c._replace(reading=f"{c.reading}, {label}")
            for checks, label in ((by_margin, f"over {DRASTIC_MARGIN:g} points worse"),
                                  (doubled, f"at least {DRASTIC_FACTOR:g}x the error"))
            for c in checks]


def _energy_close_to_svm(values, datasets):
    checks = []
    for d in datasets:
        energy = values.get("test_energy_error", "PCA-LMNN", d)
        for row in SVM_ROWS:
            svm = values.get("test_svm_error", row, d)
            if energy is not None and svm is not None:
                checks.append(Check((d,), abs(energy - svm) <= TOL_2_1,
                                    f"{d} energy {values.fmt(energy)} vs {row} "
                                    f"{values.fmt(svm)}", reading=row))
    return checks


def _mul_lmnn_no_worse(values, datasets):
    return compare_pairs(values, datasets, [((m, "MUL-LMNN"), (m, "PCA-LMNN"))
                                     for m in ("test_knn_error", "test_energy_error")],
                  margin=TOL_2_1)


def _mm_lmnn_beats_svm(values, datasets):
    # each SVM row is a reading of the thesis' SVM (it gives no scaling)
    return [c for row in SVM_ROWS
            for c in compare_pairs(values, datasets, [(("test_knn_error", "MM-LMNN"),
                                                       ("test_svm_error", row))], reading=row)]


CLAIMS: tuple[TableClaim, ...] = (
    TableClaim("Except on the smallest data set (iris, where over-training "
               "appears), the metric learned by LMNN improves kNN classification over the "
               "Euclidean metric, both in training and testing: PCA-LMNN's kNN errors are "
               "below PCA's (2.1.6)", _lmnn_beats_euclidean,
               tuple(d for d in SPEC.thesis_datasets if d != "iris"), coverage="all",
               register="s2-1-6-lmnn-improves-knn-except-smallest", quantifier="every"),
    TableClaim("The energy classifier outperforms kNN under both the Euclidean "
               "and the learned metric on all of the large data sets (mnist, 20news, "
               "letters, isolet, yalefaces): PCA-LMNN's energy test error is below the kNN "
               "test errors of PCA and PCA-LMNN (2.1.6)", _energy_beats_knn, LARGE,
               coverage="all", register="s2-1-6-energy-beats-knn-large"),
    # the cases the text names in brackets are what it speaks about: each must be measured
    TableClaim("Pre-processing with LDA helps in some cases (wine, yalefaces): kNN "
               "test error of LDA below PCA's and of LDA-LMNN below PCA-LMNN's, each LDA "
               f"row read two ways, both checked ({LDA_READINGS}) (2.1.6)",
               _lda_helps, ("wine", "yalefaces"), coverage="all",
               register="s2-1-6-lda-helps-some", quantifier="every"),
    TableClaim("Pre-processing with LDA can lead to drastically worse results "
               "(olivetti, MNIST): kNN test error of LDA vs PCA and of LDA-LMNN vs "
               "PCA-LMNN; 'drastically worse' read two ways, both checked: over "
               f"{DRASTIC_MARGIN:g} points worse (the table's tolerance) and at least "
               f"{DRASTIC_FACTOR:g}x the error; each LDA row read two ways, both checked "
               f"({LDA_READINGS}) (2.1.6)", _lda_drastically_worse,
               ("olivetti", "mnist"), coverage="all",
               register="s2-1-6-lda-drastically-worse", quantifier="every"),
    TableClaim("The energy classifier's results are very close to the "
               "multi-class SVM's on almost all data sets; we read 'very close' as PCA-LMNN's "
               f"energy test error within {TOL_2_1:g} points (the table's tolerance) of the "
               f"SVM test error and 'almost all' as all but at most {ALMOST_ALL_EXCEPTIONS} "
               "of the table's data sets, each SVM row a reading of the thesis' SVM "
               "(standardised and raw inputs: the thesis gives no scaling) (2.1.6)",
               _energy_close_to_svm, coverage="almost all",
               register="s2-1-6-energy-close-to-svm"),
    TableClaim("Applying LMNN several times (MUL-LMNN) improves the results or "
               "leaves them almost identical on every data set: its kNN and energy test "
               f"errors are at most {TOL_2_1:g} points above PCA-LMNN's (2.1.8)",
               _mul_lmnn_no_worse, coverage="all",
               register="s2-1-8-mul-lmnn-improve-or-identical-all"),
    TableClaim("On MNIST, LMNN with one metric per class (MM-LMNN) reaches a kNN "
               "test error slightly lower than multi-class SVMs (1.18 %; 2.1.8): below the "
               "SVM's test error, each SVM row (standardised and raw inputs) a reading of the "
               "thesis' SVM",
               _mm_lmnn_beats_svm, ("mnist",), register="s2-1-8-mm-mnist-below-svm"),
)


#: the register's entries of Table 2.1's rows (2.1.6, lines 802-825), by id prefix
ROWS = {"s2-1-6-table-2-1-train-knn-": "train_knn_loo_error",
        "s2-1-6-table-2-1-test-knn-": "test_knn_error",
        "s2-1-6-table-2-1-test-energy-": "test_energy_error",
        "s2-1-6-table-2-1-train-svm": "train_svm_loo_error",
        "s2-1-6-table-2-1-test-svm": "test_svm_error"}
#: their readings: within 2 standard errors of our mean over the runs, and within the
#: table's tolerance (1.5 points absolute or 25 % relative)
ROW_READINGS = (RowReading("within noise", standard_errors=2.0),
                RowReading("table tolerance", absolute=TOL_2_1, relative=0.25))

write, _table_claims, section = TableResult(SPEC, CLAIMS, ROWS, ROW_READINGS).functions()


def claims(config: dict) -> list[dict]:
    """The table's claims (:data:`CLAIMS`, its rows' entries) and the register entries it
    decides from its per-run errors (:mod:`.register_claims`; among them "on MNIST,
    energy-based LMNN cuts the baseline kNN error by over one third", 2.1.6)."""
    from harness.results.table_2_1 import register_claims

    return _table_claims(config) + register_claims.claims(config)
