"""The register entries Table 2.1 decides from its per-run errors
(harness.results.table_2_1.register_claims): each entry on a synthetic table where it
holds and one where it does not, and the pairing rules of harness.results.table_2_1.runs."""

from __future__ import annotations

import math

import pytest

from harness.claims import WITHIN_NOISE
from harness.results.table_2_1 import register_claims as rc
from harness.results.table_2_1.runs import (
    NINE, Case, Cell, Runs, over_all_but, over_most, over_share, over_some, pair,
)

#: the base table: every data set alike, the thesis' picture (LMNN beats PCA and LDA,
#: energy beats kNN, multiple metrics help, the SVM close)
BASE = {
    "PCA": {"test_knn_error": 10, "train_knn_loo_error": 9, "test_energy_error": 9,
            "fit_cpu_seconds": 0.01},
    "LDA": {"test_knn_error": 20, "train_knn_loo_error": 19, "test_energy_error": 19,
            "fit_cpu_seconds": 0.001},
    "PCA-LMNN": {"test_knn_error": 4, "train_knn_loo_error": 1, "test_energy_error": 2,
                 "fit_cpu_seconds": 1.0, "n_active": 1000},
    "LDA-LMNN": {"test_knn_error": 4.5, "train_knn_loo_error": 1, "test_energy_error": 3,
                 "fit_cpu_seconds": 1.0},
    "MUL-LMNN": {"test_knn_error": 3, "train_knn_loo_error": 0.5, "test_energy_error": 1.5},
    "MM-LMNN": {"test_knn_error": 2, "train_knn_loo_error": 0.5, "test_energy_error": 1,
                "n_active": 500},
    "SVM": {"test_svm_error": 4.5},
}
TWINS = {"LDA": "LDA (unshrunk)", "LDA-LMNN": "LDA-LMNN (unshrunk)", "SVM": "SVM (raw inputs)"}
#: zero-mean run-to-run noise, shifted per cell so that paired differences vary
NOISE = (0.1, -0.1, 0.2, -0.2, 0.05, -0.05, 0.15, -0.15, 0.0, 0.0)


def world(values=None, thesis=None, cells=None, datasets=NINE) -> Runs:
    """A :class:`Runs` of ten runs per cell from :data:`BASE` with ``values`` (``{(data
    set or "*", row, measure): value}``; a row with a twin sets both), the thesis'
    numbers equal to ours but for ``thesis`` (same keys), and cell attributes
    ``cells`` (``{(data set, row): {"status": ...}}``)."""
    values, thesis, cells = values or {}, thesis or {}, cells or {}
    rows = {**BASE, **{twin: BASE[row] for row, twin in TWINS.items()}}
    out, known = {}, {}
    for i, d in enumerate(datasets):
        for j, (row, measures) in enumerate(rows.items()):
            base = next((r for r, t in TWINS.items() if t == row), row)
            runs = {}
            for measure, value in measures.items():
                for key in ((d, base, measure), ("*", base, measure)):
                    if key in values:
                        value = values[key]
                        break
                shift = (i + j + len(runs)) % len(NOISE)
                noise = NOISE[shift:] + NOISE[:shift]
                runs[measure] = {s: max(value + (n if value > 0.3 else 0.0), 0.0)
                                 for s, n in enumerate(noise)}
                t = thesis.get((d, base, measure), thesis.get(("*", base, measure), value))
                known[(measure, row, d)] = t
            attrs = {"n_test": 1000, "n_train": 60000, **cells.get((d, base), {})}
            out[(d, row)] = Cell(runs, **attrs)
    return Runs(out, known)


CASES = {  # entry -> (values where it holds, values where it does not)
    "s2-1-1-knn-often-competitive": ({("*", "PCA", "test_knn_error"): 5},
                                     {("*", "SVM", "test_svm_error"): 1}),
    "s2-1-1-metric-learning-greatly-improves-knn": ({}, {("*", "PCA-LMNN", "test_knn_error"): 9}),
    "s2-1-1-linear-transform-significant-improvement": (
        {}, {("*", "PCA-LMNN", "test_knn_error"): 11}),
    "s2-1-1-local-objective-beats-global": ({}, {("*", "LDA", "test_knn_error"): 2}),
    "s2-1-4-energy-generally-beats-knn": ({}, {("*", "PCA-LMNN", "test_energy_error"): 5}),
    "s2-1-5-lmnn-clearly-outperforms-lda": ({}, {("*", "LDA", "test_knn_error"): 1}),
    "s2-1-6-overtraining-smallest": (
        {("iris", "PCA-LMNN", "test_knn_error"): 10},
        {("iris", "PCA-LMNN", "train_knn_loo_error"): 3.5}),
    "s2-1-6-lda-generally-outperformed": ({}, {("*", "LDA", "test_knn_error"): 1,
                                               ("*", "LDA-LMNN", "test_knn_error"): 1,
                                               ("*", "LDA-LMNN", "test_energy_error"): 1}),
    "s2-1-6-olivetti-lmnn-improves": ({}, {("olivetti", "PCA-LMNN", m): 12 for m in (
        "test_knn_error", "test_energy_error", "train_knn_loo_error")}),
    "s2-1-6-yale-lmnn-beats-pca": ({}, {("yalefaces", "PCA-LMNN", "test_knn_error"): 12}),
    "s2-1-6-yale-lmnn-beats-svm": ({("yalefaces", "SVM", "test_svm_error"): 8},
                                   {("yalefaces", "SVM", "test_svm_error"): 1}),
    "s2-1-6-isolet-energy-3-7": ({("isolet", "PCA-LMNN", "test_energy_error"): 3.7}, {}),
    "s2-1-6-letters-energy-clearly-beats-knn": (
        {}, {("letters", row, "test_energy_error"): 4.2 for row in ("PCA-LMNN", "LDA-LMNN")}),
    "s2-1-6-20news-best-13-6": (
        {("20news", row, m): 14 for row in ("PCA-LMNN", "LDA-LMNN", "MUL-LMNN", "MM-LMNN")
         for m in ("test_knn_error", "test_energy_error")}
        | {("20news", "PCA-LMNN", "test_energy_error"): 13.6}, {}),
    "s2-1-6-20news-improves-significantly": ({}, {("20news", "PCA", "test_knn_error"): 0.5}),
    "s2-1-6-20news-comparable-to-svm": ({("20news", "SVM", "test_svm_error"): 1.5}, {}),
    "s2-1-6-mnist-energy-1-4": ({("mnist", "PCA-LMNN", "test_energy_error"): 1.4}, {}),
    "s2-1-6-mnist-cut-one-third": ({}, {("mnist", "PCA-LMNN", "test_energy_error"): 9}),
    "s2-1-6-mnist-svm-1-2": ({("mnist", "SVM", "test_svm_error"): 1.2,
                              ("mnist", "PCA-LMNN", "test_energy_error"): 1.4}, {}),
    "s2-1-6-mnist-multiple-metrics-improve": ({}, {("mnist", "MM-LMNN", "test_knn_error"): 5,
                                                   ("mnist", "MM-LMNN", "test_energy_error"): 5}),
    "s2-1-8-mul-lmnn-can-significantly-improve": (
        {}, {("*", "MUL-LMNN", "test_knn_error"): 5, ("*", "MUL-LMNN", "test_energy_error"): 3}),
    "s2-1-8-mul-lmnn-prone-to-overfit": ({("bal", "MUL-LMNN", "test_knn_error"): 6}, {}),
    "s2-1-8-mm-20news-yalefaces-overfit": (
        {(d, "MM-LMNN", "test_knn_error"): 8 for d in ("20news", "yalefaces")}, {}),
    "s2-1-8-mm-mnist-1-18": ({("mnist", "MM-LMNN", "test_knn_error"): 1.18}, {}),
    "s2-2-1-lda-much-faster-than-lmnn": ({}, {("*", "LDA", "fit_cpu_seconds"): 1.0,
                                              ("*", "LDA", "test_knn_error"): 1}),
    "s2-2-1-lda-effective-preprocessing": ({("*", "LDA-LMNN", "test_knn_error"): 3},
                                           {("*", "LDA-LMNN", "test_knn_error"): 25}),
    "s2-2-3-knn-improves-significantly": ({}, {("*", "PCA-LMNN", "test_knn_error"): 11}),
    "s2-2-3-energy-almost-always-better": (
        {}, {("*", row, "test_energy_error"): 30 for row in BASE if row != "SVM"}),
    "s2-2-3-solver-large-scale": ({}, {("mnist", "PCA-LMNN", "fit_cpu_seconds"): 100000}),
    "s2-2-3-mm-improved-performance": ({}, {("*", "MM-LMNN", "test_knn_error"): 5}),
    "s4-lmnn-knn-competitive-with-svm": ({}, {("*", "SVM", "test_svm_error"): 0.1,
                                              **{("*", row, m): 3 for row in ("MUL-LMNN", "MM-LMNN")
                                                 for m in ("test_knn_error", "test_energy_error")}}),
    "s4-multiple-metrics-improve-further": ({}, {("*", "MM-LMNN", "test_knn_error"): 5}),
    "s4-mm-lmnn-mnist-1-2-percent": ({("mnist", "MM-LMNN", "test_knn_error"): 1.2,
                                      ("mnist", "MM-LMNN", "test_energy_error"): 1.2},
                                     {("mnist", "MM-LMNN", "test_energy_error"): 2}),
    "s4-lmnn-universally-applicable": ({}, {("*", "PCA-LMNN", "test_knn_error"): 15}),
    "s4-energy-outperforms-knn-most-cases": (
        {}, {("*", row, "test_energy_error"): 30 for row in BASE if row != "SVM"}),
}
#: entries decided by the thesis' numbers as well as ours: (holds, does not hold) thesis
THESIS_CASES = {
    "s2-1-6-fig-2-5-caption": ({}, {("mnist", "PCA", "test_knn_error"): 25}),
    "s2-1-6-table-2-1-active-one-metric": ({}, {("*", "PCA-LMNN", "n_active"): 100000}),
    "s2-1-6-table-2-1-active-multi-metric": ({}, {("*", "MM-LMNN", "n_active"): 100000}),
}


@pytest.mark.parametrize("entry", sorted(CASES))
def test_entry_holds_and_fails(entry):
    good, bad = CASES[entry]
    assert rc.ENTRIES[entry](world(good))["verdict"] == "holds"
    assert rc.ENTRIES[entry](world(bad))["verdict"] == "does not hold"


@pytest.mark.parametrize("entry", sorted(THESIS_CASES))
def test_entry_against_the_thesis_numbers(entry):
    good, bad = THESIS_CASES[entry]
    assert rc.ENTRIES[entry](world(thesis=good))["verdict"] == "holds"
    assert rc.ENTRIES[entry](world(thesis=bad))["verdict"] == "does not hold"


def test_scales_to_60000_fails_on_a_time_out_and_waits_for_the_full_set():
    decide = rc.ENTRIES["s2-1-7-scales-to-60000"]
    assert decide(world())["verdict"] == "holds"
    timeout = world(cells={("mnist", "PCA-LMNN"): {"status": "timeout"}})
    assert decide(timeout)["verdict"] == "does not hold"
    sub = world(cells={("mnist", "PCA-LMNN"): {"n_train": 10000}})
    assert decide(sub)["verdict"] == "not measured"


def test_every_entry_is_decided_once_and_linked():
    claims = rc.claims_from(world())
    assert [c["register"] for c in claims] == list(rc.ENTRIES)
    assert set(CASES) | set(THESIS_CASES) | {"s2-1-7-scales-to-60000"} == set(rc.ENTRIES)


def test_a_profile_with_three_data_sets_leaves_counts_over_nine_open():
    small = world(datasets=("iris", "bal", "wine"))
    claim = rc.ENTRIES["s2-2-3-knn-improves-significantly"](small)
    assert claim["verdict"] == "not measured"
    assert "mnist (not in this profile)" in claim["evidence"]


def test_mnist_one_third_raw_baseline_is_not_measured_and_says_why():
    claim = rc.ENTRIES["s2-1-6-mnist-cut-one-third"](world())
    assert "raw 784-dimensional images is not a row of the table" in claim["evidence"]
    close = world({("mnist", "PCA-LMNN", "test_energy_error"): 6.6})  # 2/3 of 10, in the SE
    assert rc.ENTRIES["s2-1-6-mnist-cut-one-third"](close)["verdict"] == "undecided (within noise)"


def test_single_run_tests_need_mcnemar_and_are_not_measured():
    one = Runs({("mnist", "A"): Cell({"m": {0: 1.0}}, 10000),
                ("mnist", "B"): Cell({"m": {0: 2.0}}, 10000)})
    p = pair(one, "mnist", ("A", "m"), ("B", "m"))
    assert p.single and math.isnan(p.p_less) and p.se > 0
    assert rc.sig_below(p)[0] is None
    assert rc.below_2se(p)[0] is True  # 1 point against a binomial SE of ~0.17


def test_pair_uses_the_shared_seeds_and_a_one_sided_test():
    runs = Runs({("d", "A"): Cell({"m": {0: 1.0, 1: 2.0, 2: 1.5, 9: 50.0}}),
                 ("d", "B"): Cell({"m": {0: 3.0, 1: 3.5, 2: 3.6}})})
    p = pair(runs, "d", ("A", "m"), ("B", "m"))
    assert p.n == 3 and p.p_less < 0.05 < p.p_greater
    assert rc.sig_below(p)[0] is True and rc.sig_above(p)[0] is False


def test_count_rules():
    case = lambda d, c: Case(d, c, d)  # noqa: E731
    named = ("a", "b", "c", "d", "e")
    assert over_most([case(d, True) for d in "abc"], named)[0] == [True]
    assert over_most([case(d, False) for d in "abc"], named)[0] == [False]
    assert over_most([case("a", True), case("b", True), case("c", WITHIN_NOISE)], named)[0] == []
    assert over_most([case("a", True), case("b", True), case("c", WITHIN_NOISE)],
                     named, ties_against=True)[0] == []
    assert over_most([case(d, True) for d in "ab"] + [case(d, WITHIN_NOISE) for d in "cde"],
                     named)[0] == [WITHIN_NOISE]
    assert over_some([case("a", False)], named)[0] == []
    assert over_some([case(d, False) for d in named], named)[0] == [False] * 5
    assert over_all_but([case(d, True) for d in "abcd"], named)[0] == [True]
    assert over_all_but([case(d, False) for d in "ab"], named)[0] == [False]
    assert over_share([case(d, True) for d in "abcd"], 5, 0.8)[0] == [True]
    assert over_share([case(d, False) for d in "ab"], 5, 0.8)[0] == [False]
