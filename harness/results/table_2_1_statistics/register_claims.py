"""The claims-register entries of Table 2.1's statistics rows and the data set
descriptions of 2.1.6 (``harness/claims_register/chapter_2.yaml``, lines 754-840),
each decided under the entry's readings from one frame row per thesis column
(:func:`harness.results.table_2_1_statistics.write.build`) and the thesis' numbers
(``results/reference/thesis_table_2_1.csv``).

Counts are exact: a check passes on equality (or within the entry's tolerance). A
claim about every one of the nine columns passes its checks through
:func:`harness.claims.about_every`: a failing column decides, passes decide nothing
while a column's data is not on this machine. Arithmetic on the thesis' own table
(train + test = inputs, 70 % of inputs, 45 x 38) needs no data and is always checked.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.claims import Reading, about_every, make_claim, readings_claim
from harness.results.table_2_1_statistics import NAME

__all__ = ["COLUMNS", "QUANTITIES", "PCA_200", "PREDEFINED", "within", "derived_rows",
           "register_claims"]

#: Table 2.1's columns, in its order (thesis names)
COLUMNS = ("mnist", "20news", "letters", "isolet", "yalefaces", "iris", "bal", "wine",
           "olivetti")
#: the table's statistics rows: reference quantity -> frame column
QUANTITIES = {"dimension": "n_features", "n_inputs": "n_samples", "n_training": "n_train",
              "n_testing": "n_test", "n_classes": "n_classes"}
#: columns whose table dimension is their dimension after PCA to 200
PCA_200 = ("20news", "yalefaces", "olivetti")
#: columns with a pre-defined split (not 70/30)
PREDEFINED = {"mnist": (60000, 10000), "isolet": (6238, 1559)}
#: Yale B: subjects, training and test images per subject (line 764)
YALE_SUBJECTS, YALE_TRAIN, YALE_TEST = 38, 45, 19


def within(value, target, slack=0) -> bool:
    """``|value - target| <= slack``."""
    return abs(float(value) - float(target)) <= slack


def _ok(frame: pd.DataFrame) -> pd.DataFrame:
    """The measured rows, indexed by thesis column."""
    if "status" not in frame:
        return frame.iloc[0:0]
    return frame[frame["status"] == "ok"].set_index("column")


def _missing(frame: pd.DataFrame, names) -> str:
    """``"; not measured: 20news (unavailable, run `harness fetch newsgroups`)"``: the
    columns of ``names`` without a measured row, each with its record's status and the
    command that brings its data (the record's reason names it in full)."""
    rows = frame.set_index("column") if "column" in frame else pd.DataFrame()
    gone = []
    for name in names:
        if name in rows.index and rows.loc[name, "status"] == "ok":
            continue
        if name in rows.index:
            gone.append(f"{name} ({rows.loc[name, 'status']}, run `harness fetch "
                        f"{rows.loc[name, 'dataset']}`)")
        else:
            gone.append(f"{name} (not in the profile)")
    return f"; not measured: {', '.join(gone)}" if gone else ""


def _n(value) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{int(value)}"


def _every(checks: dict, evidence: str, frame, name: str, named=COLUMNS) -> Reading:
    """A reading about every one of ``named`` from per-column checks."""
    kept, why = about_every(list(checks.values()), named, checks)
    return Reading(name, kept, evidence + _missing(frame, named) + (f"; {why}" if why else ""))


def _table_row(frame, thesis, quantity: str, check=None) -> tuple[dict, str]:
    """A statistics row: per measured column, ours against the thesis' (``check(name,
    ours, theirs)``, equality by default); the checks by column and the evidence."""
    ok, column = _ok(frame), QUANTITIES[quantity]
    check = check or (lambda name, ours, theirs: int(ours) == int(theirs))
    checks, parts = {}, []
    for name in COLUMNS:
        if name in ok.index:
            ours, theirs = ok.loc[name, column], thesis[quantity][name]
            checks[name] = bool(check(name, ours, theirs))
            parts.append(f"{name} {_n(ours)} vs {_n(theirs)}")
    return checks, f"ours vs the thesis' {quantity}: " + ", ".join(parts)


def dimensions(frame, thesis) -> dict:
    """s2-1-6-table-2-1-dimensions (line 790)."""
    ok = _ok(frame)

    def check(name, ours, theirs):
        if name in PCA_200:  # 200 after PCA: the data must admit 200 components
            return ours >= theirs and ok.loc[name, "n_samples"] > theirs
        return int(ours) == int(theirs)
    checks, text = _table_row(frame, thesis, "dimension", check)
    text += (" (raw feature counts; for 20news, yalefaces, olivetti the table's 200 is the "
             "dimension after PCA to 200, checked as raw dimension >= 200 and more than 200 "
             "inputs)")
    reading = _every(checks, text, frame, "raw dimension")
    return make_claim(NAME, "Table 2.1's input dimensionalities: 784, 200, 16, 617, 200, 4, "
                      "4, 13, 200 (2.1.6)", reading.checks, reading.evidence,
                      register="s2-1-6-table-2-1-dimensions")


def inputs(frame, thesis) -> dict:
    """s2-1-6-table-2-1-inputs (line 791): data set sizes; train + test = inputs."""
    checks, text = _table_row(frame, thesis, "n_inputs")
    size = _every(checks, text, frame, "data set size")
    sums = {name: thesis["n_training"][name] + thesis["n_testing"][name] for name in COLUMNS}
    arithmetic = Reading(
        "train plus test",
        [sums[n] == thesis["n_inputs"][n] for n in COLUMNS],
        "the thesis' # training + # testing against # inputs: " + ", ".join(
            f"{n} {_n(thesis['n_training'][n])} + {_n(thesis['n_testing'][n])} = "
            f"{_n(sums[n])} vs {_n(thesis['n_inputs'][n])}" for n in COLUMNS))
    return readings_claim(NAME, "Table 2.1's numbers of inputs: 70000, 18827, 20000, 7797, "
                          "2414, 128, 535, 152, 400 (2.1.6)", [size, arithmetic],
                          register="s2-1-6-table-2-1-inputs")


def _split_row(frame, thesis, quantity: str, share: float, part: int, register: str,
               claim: str) -> dict:
    """s2-1-6-table-2-1-training / -testing: the table's count within one example of
    ``share`` of its # inputs (the pre-defined split for MNIST, isolet) -- arithmetic,
    every column -- and of our loader's split of the data (measured columns)."""
    ok, column = _ok(frame), QUANTITIES[quantity]
    checks, parts = {}, []
    for name in COLUMNS:
        theirs = thesis[quantity][name]
        expected = (PREDEFINED[name][part] if name in PREDEFINED
                    else share * thesis["n_inputs"][name])
        arithmetic = within(theirs, expected, 1)
        text = f"{name} {_n(theirs)} (from the table {expected:g}"
        if name in ok.index:
            ours = ok.loc[name, column]
            checks[name] = arithmetic and within(theirs, ours, 1)
            text += f", ours {_n(ours)})"
        else:
            if not arithmetic:
                checks[name] = False
            text += ")"
        parts.append(text)
    evidence = (f"the thesis' {quantity} against {share:.0%} of its # inputs (MNIST, "
                f"isolet: their pre-defined split) and our loader's split, within one "
                f"example: " + ", ".join(parts))
    reading = _every(checks, evidence, frame, "counts")
    return make_claim(NAME, claim, reading.checks, reading.evidence, register=register)


def training(frame, thesis) -> dict:
    """s2-1-6-table-2-1-training (line 792)."""
    return _split_row(frame, thesis, "n_training", 0.7, 0, "s2-1-6-table-2-1-training",
                      "Table 2.1's training sets: 60000, 13179, 14000, 6238, 1690, 90, 375, "
                      "106, 280 examples, 70 % of # inputs except MNIST and isolet (2.1.6)")


def testing(frame, thesis) -> dict:
    """s2-1-6-table-2-1-testing (line 793)."""
    return _split_row(frame, thesis, "n_testing", 0.3, 1, "s2-1-6-table-2-1-testing",
                      "Table 2.1's test sets: 10000, 5648, 6000, 1559, 724, 38, 161, 46, "
                      "120 examples (2.1.6)")


def classes(frame, thesis) -> dict:
    """s2-1-6-table-2-1-classes (line 794)."""
    checks, text = _table_row(frame, thesis, "n_classes")
    reading = _every(checks, text, frame, "counts")
    return make_claim(NAME, "Table 2.1's numbers of classes: 10, 20, 26, 26, 38, 3, 3, 3, "
                      "40 (2.1.6)", reading.checks, reading.evidence,
                      register="s2-1-6-table-2-1-classes")


def small_sets(frame) -> dict:
    """s2-1-6-small-sets-size-classes (line 754): < 500 training examples under a 70/30
    split, exactly 3 classes."""
    ok, named = _ok(frame), ("wine", "iris", "bal")
    checks, parts = {}, []
    for name in named:
        if name in ok.index:
            train = round(0.7 * ok.loc[name, "n_samples"])
            k = int(ok.loc[name, "n_classes"])
            checks[name] = train < 500 and k == 3
            parts.append(f"{name} {train} training examples of {_n(ok.loc[name, 'n_samples'])}"
                         f", {k} classes")
    reading = _every(checks, "under a 70/30 split: " + ", ".join(parts)
                     + " (below 500 and 3 needed)", frame, "sizes and classes", named)
    return make_claim(NAME, "The wine, iris, and bal data sets are of small size, with less "
                      "than 500 training examples and just three classes (2.1.6)",
                      reading.checks, reading.evidence,
                      register="s2-1-6-small-sets-size-classes")


def _single(frame, name: str, what: str, check, register: str, claim: str) -> dict:
    """A claim about one column: ``check(row) -> (checks, evidence)`` when measured."""
    ok = _ok(frame)
    if name not in ok.index:
        return make_claim(NAME, claim, [], what + _missing(frame, [name]), register=register)
    checks, evidence = check(ok.loc[name])
    return make_claim(NAME, claim, checks, evidence, register=register)


def yale_stats(frame) -> dict:
    """s2-1-6-yale-stats (line 764): 2414 images of 38 subjects."""
    return _single(frame, "yalefaces", "Yale B's images and subjects", lambda r: (
        [int(r.n_samples) == 2414 and int(r.n_classes) == 38],
        f"Yale B (cropped): {_n(r.n_samples)} images of {_n(r.n_classes)} subjects (2414 and "
        f"38 needed)"), "s2-1-6-yale-stats",
        "The (extended) Yale face data set contains n = 2414 frontal images of 38 "
        "individuals (2.1.6)")


def yale_64(frame) -> dict:
    """s2-1-6-yale-64-images (line 764): at most 64 per subject, at most 5 with fewer."""
    return _single(frame, "yalefaces", "Yale B's images per subject", lambda r: (
        [int(r.class_max) == 64 and int(r.n_classes_below_max) <= 5],
        f"images per subject {_n(r.class_min)} to {_n(r.class_max)}, "
        f"{_n(r.n_classes_below_max)} subjects below the largest (64 at most and at most 5 "
        f"below needed)"), "s2-1-6-yale-64-images",
        "Of each person there are 64 images (a few subjects are represented with fewer "
        "images) (2.1.6)")


def yale_split(frame, thesis) -> dict:
    """s2-1-6-yale-balanced-split (line 764): 45 x 38 and 19 x 38 against the table's
    1690 and 724 (arithmetic, always); with the data, the per-subject rule's split."""
    train, test = YALE_TRAIN * YALE_SUBJECTS, YALE_TEST * YALE_SUBJECTS
    t_train, t_test = thesis["n_training"]["yalefaces"], thesis["n_testing"]["yalefaces"]
    evidence = (f"{YALE_TRAIN} x {YALE_SUBJECTS} = {train} training vs the table's "
                f"{_n(t_train)}, {YALE_TEST} x {YALE_SUBJECTS} = {test} test vs {_n(t_test)} "
                f"(a per-subject rule keeps at most {test} test images whatever the data)")
    ok = _ok(frame)
    if "yalefaces" in ok.index:
        r = ok.loc["yalefaces"]
        evidence += (f"; on the data the rule yields {_n(r.rule_train)} training and "
                     f"{_n(r.rule_test)} test images")
    else:
        evidence += "; the rule on the data" + _missing(frame, ["yalefaces"])
    return make_claim(NAME, "We balanced the data set by keeping 45 randomly chosen images "
                      "of each subject in the training set and 19 in the test set, as Table "
                      "2.1's 1690 and 724 (2.1.6)", [train == t_train, test == t_test],
                      evidence, register="s2-1-6-yale-balanced-split")


def isolet_stats(frame) -> dict:
    """s2-1-6-isolet-stats (line 775): 6238 examples and 26 classes."""
    ok, claim = _ok(frame), ("The Isolet data set from UCI Machine Learning Repository has "
                             "6238 examples and 26 classes (2.1.6)")
    if "isolet" not in ok.index:
        gone = "isolet's counts" + _missing(frame, ["isolet"])
        return readings_claim(NAME, claim, [Reading("training part", [], gone),
                                            Reading("whole set", [], gone)],
                              register="s2-1-6-isolet-stats")
    r = ok.loc["isolet"]
    return readings_claim(NAME, claim, [
        Reading("training part", [int(r.n_train) == 6238 and int(r.n_classes) == 26],
                f"isolet1-4: {_n(r.n_train)} examples, {_n(r.n_classes)} classes"),
        Reading("whole set", [int(r.n_samples) == 6238],
                f"all of isolet: {_n(r.n_samples)} examples (6238 needed)")],
        register="s2-1-6-isolet-stats")


def letters(frame) -> dict:
    """s2-1-6-letters-16-attributes (line 785): 16 features, 26 classes, 20000."""
    return _single(frame, "letters", "letter's counts", lambda r: (
        [int(r.n_features) == 16 and int(r.n_classes) == 26 and int(r.n_samples) == 20000],
        f"letter: {_n(r.n_features)} features, {_n(r.n_classes)} classes, {_n(r.n_samples)} "
        f"examples (16, 26, 20000 needed)"), "s2-1-6-letters-16-attributes",
        "The features [of the letter recognition data set] consist of 16 attributes (2.1.6)")


def newsgroups(frame) -> dict:
    """s2-1-6-20news-1000-per-group (line 834): each group 900-1100 articles."""
    return _single(frame, "20news", "articles per newsgroup", lambda r: (
        [int(r.class_min) >= 900 and int(r.class_max) <= 1100],
        f"20 newsgroups (18828): {_n(r.class_min)} to {_n(r.class_max)} articles per group "
        f"over {_n(r.n_classes)} groups (900-1100 needed)"), "s2-1-6-20news-1000-per-group",
        "The 20-newsgroups data set consists of posted articles from 20 newsgroups, with "
        "roughly 1000 articles per newsgroup (2.1.6)")


def _pcs_reading(ok, column: str, name: str, field: str, what: str, target: int,
                 frame) -> Reading:
    low, high = math.ceil(0.9 * target), math.floor(1.1 * target)
    if column not in ok.index or pd.isna(ok.loc[column].get(field, math.nan)):
        return Reading(name, [], what + _missing(frame, [column]))
    pcs = int(ok.loc[column, field])
    share = ok.loc[column].get(field.replace("pcs_", "share_at_target_"), math.nan)
    return Reading(name, [low <= pcs <= high],
                   f"{what}: {pcs} principal components reach "
                   f"{ok.loc[column, 'variance_fraction']:.0%} of the variance ({low}-{high} "
                   f"needed; {target} components hold {share:.4f})")


def mnist_pcs(frame) -> dict:
    """s2-1-6-mnist-164-pcs (line 840): deskewed and raw training images."""
    ok = _ok(frame)
    return readings_claim(NAME, "Retaining only the first 164 principal components of "
                          "deskewed MNIST (enough to capture 95 % of the data's overall "
                          "variance) (2.1.6)", [
                              _pcs_reading(ok, "mnist", "deskewed", "pcs_deskewed",
                                           "deskewed training images", 164, frame),
                              _pcs_reading(ok, "mnist", "raw", "pcs_raw",
                                           "raw training images", 164, frame)],
                          register="s2-1-6-mnist-164-pcs")


def isolet_pcs(frame) -> dict:
    """s2-1-6-isolet-172-pcs (line 775): the training part and the whole set."""
    ok = _ok(frame)
    return readings_claim(NAME, "Projecting isolet onto its leading 172 principal "
                          "components, enough to account for 95 % of its total variance "
                          "(2.1.6)", [
                              _pcs_reading(ok, "isolet", "training set", "pcs_training",
                                           "isolet1-4 (training part)", 172, frame),
                              _pcs_reading(ok, "isolet", "whole set", "pcs_whole",
                                           "all of isolet", 172, frame)],
                          register="s2-1-6-isolet-172-pcs")


def derived_rows(frame: pd.DataFrame, thesis: dict) -> list[dict]:
    """The numbers the claims derive (rows of the CSV, so that every number of the
    evidence is one): the thesis' training + testing per column, the training size of
    a 70/30 split of the loaded small sets, Yale B's per-subject arithmetic, the
    tolerance bands of the principal-component counts."""
    ok = _ok(frame)
    rows = [{"quantity": "thesis training + testing", "column": n,
             "thesis": thesis["n_training"][n] + thesis["n_testing"][n]} for n in COLUMNS]
    rows += [{"quantity": "training under a 70/30 split", "column": n,
              "ours": round(0.7 * ok.loc[n, "n_samples"])} for n in ("wine", "iris", "bal")
             if n in ok.index]
    rows += [{"quantity": "Yale B: images per subject", "column": "yalefaces", "thesis": 64},
             {"quantity": "Yale B: 45 x 38 training", "column": "yalefaces",
              "thesis": YALE_TRAIN * YALE_SUBJECTS},
             {"quantity": "Yale B: 19 x 38 test", "column": "yalefaces",
              "thesis": YALE_TEST * YALE_SUBJECTS}]
    for column, target in (("mnist", 164), ("isolet", 172)):
        rows += [{"quantity": "principal components: lowest within 10 %", "column": column,
                  "thesis": math.ceil(0.9 * target)},
                 {"quantity": "principal components: highest within 10 %", "column": column,
                  "thesis": math.floor(1.1 * target)}]
    return rows


def register_claims(frame: pd.DataFrame, thesis: dict) -> list[dict]:
    """Every register entry this result decides, from ``frame`` (one row per thesis
    column) and ``thesis`` (quantity -> column -> the thesis' number)."""
    return [dimensions(frame, thesis), inputs(frame, thesis), training(frame, thesis),
            testing(frame, thesis), classes(frame, thesis), small_sets(frame),
            yale_stats(frame), yale_64(frame), yale_split(frame, thesis),
            isolet_stats(frame), letters(frame), newsgroups(frame), mnist_pcs(frame),
            isolet_pcs(frame)]
