"""The outputs of fig_2_9_12 from its records: the CSV, the Markdown, the sidecar (and the
figure, for a figure) and the verdicts on the thesis' statements (:func:`claims`).
"""

from __future__ import annotations

import pandas as pd

from harness.claims import WITHIN_NOISE, about_every, make_claim
from harness.jobs import Job, read_job_record
from harness.results.fig_2_9_12.ratios import (
    BETTER, HIGHER_UNSURE, LOWER_UNSURE, SAME, classify, error_ratio, format_ratio,
    paired_difference, run_values,
)
from harness.results.fig_2_9_12.outputs import CLASS_MARKS, plot, ratio_table
from harness.results.fig_2_9_12.register_claims import add_tests, register_claims
from harness.results.common.write.figure_files import (
    claim_lines, dataset_notes, gap_mark, write_figure_files,
)
from harness.results.common.write.tables import Footnotes, build_table
from harness.results import table_2_1
from harness.results.table_2_1.write import LARGE
from harness.results.fig_2_9_12 import NAME, TABLE, TITLE

__all__ = ["BASE", "FIGURES", "MEASURE_LABELS", "LITTLE_IMPACT", "COLUMNS", "build",
           "claims", "write"]

BASE = "PCA-LMNN"
#: figure -> (Table 2.1 row over BASE, the measures it shows)
FIGURES = {
    "2.9": ("MUL-LMNN", ("test_knn_error", "test_energy_error")),
    "2.12": ("MM-LMNN", ("train_knn_loo_error", "test_knn_error", "test_energy_error")),
}
MEASURE_LABELS = {"train_knn_loo_error": "kNN training", "test_knn_error": "kNN testing",
                  "test_energy_error": "energy"}
LITTLE_IMPACT = ("20news", "yalefaces")
#: the columns of the figure's CSV, one row per (figure, data set, measure)
COLUMNS = ["figure", "dataset", "thesis_dataset", "stand_in", "measure", "method", "base",
           "thesis_numerator", "thesis_denominator", "thesis_ratio", "thesis_note",
           "thesis_class", "ours_numerator", "ours_denominator", "ours_ratio", "ours_note",
           "diff_mean", "diff_se", "n_paired", "ours_class", "status", "reason",
           "ours_ratio_se", "p_lower", "p_higher"]


def _conf(config: dict) -> dict:
    return config["results"][NAME]


# ---- the ratios ----------------------------------------------------------------------
def _long_table(config: dict) -> pd.DataFrame:
    """Table 2.1's long table (ours and the thesis' values per measure, method, data
    set; the thesis' data sets outside the profile as gap rows), by label."""
    frame = build_table(config, table_2_1.SPEC)
    frame = frame[frame["dataset"] != "average"]
    return frame.drop_duplicates(["measure", "thesis_label", "dataset"])


def _runs(config: dict, row) -> dict[int, float]:
    record = read_job_record(config, Job(TABLE, f"{row['dataset']}/{row['method']}"))
    return run_values(record, row["measure"])


def _ours(config: dict, num, den, label: str) -> dict:
    """Our ratio, the paired spread and the status of one (data set, measure)."""
    for who, row in ((label, num), (BASE, den)):
        if row is None:
            return {"status": "missing",
                    "reason": f"{who} is not a method of results.{TABLE} in this profile; "
                              f"list it under results.{TABLE}.methods"}
        if row["status"] != "ok":
            job = f"{TABLE}/{row['dataset']}/{row['method']}"
            listed = row["dataset"] in config["results"][TABLE]["datasets"]
            prefix = f"{job}: " if listed and job not in row["reason"] else ""
            return {"status": row["status"], "reason": prefix + row["reason"]}
    ratio, note = error_ratio(num["ours"], den["ours"])
    diff, se, n = paired_difference(_runs(config, num), _runs(config, den))
    if pd.isna(ratio) or n == 0:
        return {"status": "incomplete",
                "reason": f"{TABLE}/{num['dataset']}: {label} or {BASE} has no "
                          f"{num['measure']} on the same runs (seeds); rerun both cells"}
    return {"status": "ok", "reason": "", "ours_numerator": num["ours"],
            "ours_denominator": den["ours"], "ours_ratio": ratio, "ours_note": note,
            "diff_mean": diff, "diff_se": se, "n_paired": n}


def build(config: dict) -> pd.DataFrame:
    """One row per (figure, data set, measure): the thesis' and our errors of the
    row and of PCA-LMNN, their ratios, zero-denominator notes, our paired difference
    (mean, standard error, runs) and each ratio's class; a gap has a status other
    than ``ok`` and its reason."""
    conf = _conf(config)
    long = _long_table(config).set_index(["measure", "thesis_label", "dataset"], drop=False)
    datasets = list(dict.fromkeys(long.index.get_level_values("dataset")))

    def row(measure, label, dataset):
        key = (measure, label, dataset)
        return long.loc[key] if key in long.index else None

    rows = []
    for figure, (label, measures) in FIGURES.items():
        for dataset in datasets:
            info = long.xs(dataset, level="dataset").iloc[0]
            for measure in measures:
                num, den = row(measure, label, dataset), row(measure, BASE, dataset)
                t_num = None if num is None else num["thesis"]
                t_den = None if den is None else den["thesis"]
                t_ratio, t_note = error_ratio(t_num, t_den)
                out = {"figure": figure, "dataset": dataset,
                       "thesis_dataset": info["thesis_dataset"],
                       "stand_in": bool(info["stand_in"]), "measure": measure,
                       "method": label, "base": BASE, "thesis_numerator": t_num,
                       "thesis_denominator": t_den, "thesis_ratio": t_ratio,
                       "thesis_note": t_note,
                       "thesis_class": classify(t_ratio, (t_num or 0) - (t_den or 0), 0.0,
                                                conf["ratio_tolerance"], 0.0)}
                out.update(_ours(config, num, den, label))
                out["ours_class"] = classify(out.get("ours_ratio", float("nan")),
                                             out.get("diff_mean", float("nan")),
                                             out.get("diff_se", float("nan")),
                                             conf["ratio_tolerance"], conf["spread_factor"])
                rows.append(out)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["n_paired"] = frame["n_paired"].astype("Int64")
    return add_tests(frame)


# ---- claims --------------------------------------------------------------------------
def _cases(frame: pd.DataFrame, figure: str, measures, datasets=None) -> pd.DataFrame:
    part = frame[(frame["figure"] == figure) & frame["measure"].isin(measures)]
    return part if datasets is None else part[part["thesis_dataset"].isin(datasets)]


def _listing(part: pd.DataFrame, column: str) -> str:
    """'data set measure ratio (class)'; ours adds the paired runs it rests on."""
    def runs(r):
        return f", {int(r.n_paired)} runs" if column == "ours_ratio" else ""

    return "; ".join(f"{r.dataset} {MEASURE_LABELS[r.measure]} {format_ratio(getattr(r, column))}"
                     f" ({getattr(r, column.replace('ratio', 'class'))}{runs(r)})"
                     for r in part.itertuples()) or "none"


def _split(part: pd.DataFrame):
    """Real data measured, stand-ins measured, and a 'not measured: ...' suffix."""
    ok = part[part["status"] == "ok"]
    real, stand = ok[~ok["stand_in"]], ok[ok["stand_in"]]
    gaps = part[part["status"] != "ok"].drop_duplicates("dataset")
    missing = ("; not measured: " + ", ".join(f"{r.dataset} ({gap_mark(r.status)})"
                                              for r in gaps.itertuples())) if len(gaps) else ""
    if len(stand):
        missing += f"; stand-ins, not counted: {_listing(stand, 'ours_ratio')}"
    return real, missing


def _about_every(part: pd.DataFrame, real: pd.DataFrame, checks: list[bool]
                 ) -> tuple[list[bool], str]:
    """:func:`harness.claims.about_every` over the real data sets of ``part`` (a
    stand-in does not count), its sentence in brackets."""
    checks, why = about_every(checks, part.loc[~part["stand_in"], "dataset"], real["dataset"])
    return checks, f" ({why})" if why else ""


def _check(ratio_class: str, passing: tuple[str, ...]):
    """A case's check: a pass when its class is one of ``passing``, inside the noise
    (:data:`harness.claims.WITHIN_NOISE`) when the change is within the runs' spread
    (:data:`LOWER_UNSURE`, :data:`HIGHER_UNSURE`: neither shown nor refuted), else a
    counterexample."""
    if ratio_class in passing:
        return True
    return WITHIN_NOISE if ratio_class in (LOWER_UNSURE, HIGHER_UNSURE) else False


def _thesis_part(part: pd.DataFrame) -> pd.DataFrame:
    return part[part["thesis_ratio"].notna()].drop_duplicates(["dataset", "measure"])


def _claim_2_9(frame: pd.DataFrame, conf: dict) -> dict:
    label, measures = FIGURES["2.9"]
    part = _cases(frame, "2.9", measures)
    real, missing = _split(part)
    thesis = _thesis_part(part[~part["stand_in"]])
    worse_thesis = thesis[~thesis["thesis_class"].isin([BETTER, SAME])]
    checks, undecided = _about_every(part, real, [_check(c, (BETTER, SAME))
                                                  for c in real["ours_class"]])
    return make_claim(
        NAME, f"Applying LMNN several times (MUL-LMNN) significantly improves the kNN and "
              f"energy test errors or leaves them almost identical on every data set: "
              f"the ratio to PCA-LMNN's is within 1 +- {conf['ratio_tolerance']:g} "
              f"(almost identical), or below it with the decrease beyond "
              f"{conf['spread_factor']:g} standard errors of the paired runs (2.1.8, "
              f"Fig. 2.9)",
        checks,
        f"ours: {_listing(real, 'ours_ratio')}{missing}{undecided}. The thesis' own Table "
        f"2.1 rows: {len(thesis) - len(worse_thesis)} of {len(thesis)} no worse"
        + (f"; worse: {_listing(worse_thesis, 'thesis_ratio')} (the figure may show a "
           f"subset of the data sets, not listed in the text)" if len(worse_thesis) else "")
        + ".",
        register="s2-1-8-mul-lmnn-improve-or-identical-all")


def _claim_2_12_several(frame: pd.DataFrame, conf: dict) -> dict:
    measure, several = conf["mm_claim_measure"], conf["several"]
    part = _cases(frame, "2.12", [measure], LARGE)
    real, missing = _split(part)
    better = real[real["ours_class"] == BETTER]
    thesis = _thesis_part(part[~part["stand_in"]])
    n_thesis = int((thesis["thesis_class"] == BETTER).sum())
    # "on several": decided once `several` improve, or once too few are left unmeasured
    # for `several` to improve; a subset where fewer improve says nothing of the rest
    open_sets = len(set(LARGE) - set(real["thesis_dataset"]))
    decided = len(better) >= several or len(better) + open_sets < several
    return make_claim(
        NAME, f"Multiple metrics (MM-LMNN) improve the kNN classification results on several "
              f"of the large data sets: the {MEASURE_LABELS[measure]} error ratio to "
              f"PCA-LMNN's is below 1 - {conf['ratio_tolerance']:g} (beyond the runs' "
              f"spread) on at least {several} of mnist, 20news, letters, isolet, "
              f"yalefaces (2.1.8, Fig. 2.12)",
        [len(better) >= several] if decided else [],
        f"ours: {len(better)} of {len(real)} large data sets improve: "
        f"{_listing(real, 'ours_ratio')}{missing}"
        + ("" if decided else f" (no verdict: {len(better)} improve and {open_sets} of "
           f"the {len(LARGE)} are not measured; at least {several} must improve)")
        + f". The thesis' own Table 2.1 rows: {n_thesis} of {len(thesis)} improve: "
          f"{_listing(thesis, 'thesis_ratio')}.",
        register="s2-1-8-mm-improves-several-large")


def _claim_2_12_little(frame: pd.DataFrame, conf: dict) -> dict:
    measure = conf["mm_claim_measure"]
    part = _cases(frame, "2.12", [measure], LITTLE_IMPACT)
    real, missing = _split(part)
    thesis = _thesis_part(part[~part["stand_in"]])
    checks, undecided = _about_every(part, real, [_check(c, (SAME,))
                                                  for c in real["ours_class"]])
    return make_claim(
        NAME, f"On 20 newsgroups and yalefaces multiple metrics had only little impact on "
              f"the classification errors: MM-LMNN's {MEASURE_LABELS[measure]} error ratio "
              f"to PCA-LMNN's is within 1 +- {conf['ratio_tolerance']:g} (a change outside "
              f"the band but within the runs' spread is undecided) (2.1.8, Fig. 2.12)",
        checks,
        f"ours: {_listing(real, 'ours_ratio')}{missing}{undecided}. The thesis' own Table "
        f"2.1 rows: {_listing(thesis, 'thesis_ratio')}.",
        register="s2-1-8-mm-20news-yalefaces-little-impact")


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The text's three statements (interface :mod:`harness.claims`), on real data;
    the thesis' own ratios (from its Table 2.1) are given in the evidence."""
    conf = _conf(config)
    frame = build(config) if frame is None else frame
    return [_claim_2_9(frame, conf), _claim_2_12_several(frame, conf),
            _claim_2_12_little(frame, conf)] + register_claims(conf, frame)


# ---- outputs ---------------------------------------------------------------------
def _choices(config: dict) -> list[str]:
    conf = _conf(config)
    tol, spread = conf["ratio_tolerance"], conf["spread_factor"]
    return [
        f"The single run of LMNN 'as described in Section 2.1.6' (Fig. 2.9) and the single "
        f"metric (Fig. 2.12) are Table 2.1's {BASE} row (LMNN after PCA; MUL-LMNN and "
        f"MM-LMNN also start from PCA). The thesis chose k and MUL-LMNN's number of runs on "
        f"a validation split; here each row follows results.{TABLE} (k per run by "
        f"validation where it says so; MUL-LMNN's number of rounds, 1 to 3, by the kNN "
        f"error on a 30% validation split per run, as the thesis chose it).",
        "The thesis' ratios are those of its Table 2.1 rows: Figs. 2.9 and 2.12 print no "
        "numbers. Ours: the ratio of the mean errors over the runs (Table 2.1 prints "
        "means); every row of a data set runs on the same seeded splits, so the spread is "
        "the standard error of the paired per-run difference (points).",
        f"Classes (results.{NAME}.ratio_tolerance = {tol:g}, spread_factor = {spread:g}): "
        f"'almost identical' / 'little impact' (≈) = the ratio within the band 1 +- "
        f"{tol:g} (bounds included), required whatever the runs' spread: a change our "
        f"runs cannot tell from noise is not an equivalence; 'worse' = ratio above "
        f"1 + {tol:g} and an increase beyond {spread:g} standard errors of the paired "
        f"per-run difference; 'better' = ratio below 1 - {tol:g} and a decrease beyond "
        f"them; outside the band with the change within that spread: 'lower' / 'higher, "
        f"within the spread' (n.s.): inside the noise, neither a pass nor a "
        f"counterexample (a claim with one and no counterexample is 'undecided (within "
        f"noise)'). Every ratio of ours names its number of paired runs. The thesis' "
        f"numbers have no spread: the ratio alone decides.",
        "Zero denominators: 0 % over 0 % is 1 (no change: almost identical), x % over "
        "0 % is infinite (shown clipped, marked inf; never almost identical, so 0 % -> "
        "1 % is not 'identical' however few runs); both are footnoted where they occur.",
        f"Fig. 2.9 shows kNN and energy *test* errors over every data set of Table 2.1 (the "
        f"text does not list the figure's data sets). Fig. 2.12 shows kNN training "
        f"(leave-one-out), kNN testing and energy errors; its claims read "
        f"{MEASURE_LABELS[conf['mm_claim_measure']]} (results.{NAME}.mm_claim_measure); "
        f"'several' = at least {conf['several']} of the five large data sets "
        f"(results.{NAME}.several).",
    ]


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_9_12.{csv,png,md,json}`` from Table
    2.1's records; return the paths."""
    frame = build(config)
    notes = Footnotes()
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`: no jobs of its own; the "
          f"records of results.{TABLE}. Cells: thesis ratio / our ratio (our paired "
          f"difference of the errors in points ± its standard error, runs) class "
          f"({CLASS_MARKS[SAME]}: ratio within 1 ± {_conf(config)['ratio_tolerance']:g}, "
          f"almost identical; n.s.: outside that band, the change within the runs' "
          f"spread).", ""]
    md += claim_lines(claims(config, frame))
    for figure, (label, _) in FIGURES.items():
        md += [f"## Fig. {figure}: {label} over {BASE}", "",
               ratio_table(frame[frame["figure"] == figure], MEASURE_LABELS, notes), ""]
    md += [f"![Figs. 2.9 and 2.12]({NAME}.png)", "",
           "## Choices where the thesis is ambiguous", ""]
    md += [f"- {line}" for line in _choices(config)]
    md += [f"- {line}" for line in dataset_notes(config["results"][TABLE]["datasets"])]
    records = [read_job_record(config, Job(TABLE, key)) for key in table_2_1.keys(config)
               if key.split("/")[1] in ("pca_lmnn", "mul_lmnn", "mm_lmnn")]
    return write_figure_files(config, NAME, [], frame, md, notes.texts,
                              lambda f, c, path: plot(f, FIGURES, MEASURE_LABELS, TITLE, path),
                              records=records)
