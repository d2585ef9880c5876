"""The claims-register entries the MVE fidelity table decides (issue 51): the lecture's
fidelity table row by row (``lec-mve-table-*``, lecture line 640-644), its slides on
SDE and MVE (lines 424-529, 617-624) and the thesis' conclusion on MVU's low-rank
kernels (thesis line 2208, Chapter 4).

Each entry is decided on the long frame of :func:`harness.results.mve_fidelity.table.build`
under the register's readings (``harness/claims_register/lectures.yaml``,
``chapter_4.yaml``), one claim per entry, table-driven where entries share a shape:

- :data:`DIFFERENCES`: one column, one method's fidelity against another's beyond the
  entry's tolerance in points (:func:`harness.claims.beyond_noise`: inside the
  tolerance decides nothing);
- :data:`EVERY_COLUMN`: the same difference on every one of the lecture's five data
  sets, read as "every" (:func:`harness.claims.about_every`) and as "most"
  (:func:`most_of`);
- :data:`EIGENGAPS`: MVE's normalised eigengap (lambda_2 - lambda_3) / trace at least
  SDE's, ties within 1e-3 counting as not smaller, on every data set;
- :data:`ROWS`: the lecture's table rows, per method within 5 points of the lecture
  (``delta_pct``) and the row's ordering of the three fidelities;
- :data:`FIDELITIES`: the two F(K) values of the "Minimum Volume Embedding" slide;
- :func:`low_rank_claim`: thesis line 2208 on SDE's (= MVU's) kernels.

A value counts only where it is real data (not a stand-in), measured and, for SDE and
MVE, certified optimal (:func:`harness.results.common.write.certified.certified`). A column
whose real data is not measured but whose stand-in is reads "not measured (stand-in)"
with the stand-in's numbers (:func:`harness.claims.stand_in_claim`); a column with
neither reads "not measured" with the record's reason. The lecture's five data sets
are its columns (:data:`harness.results.mve_fidelity.table.COLUMNS`): the network's is
not reachable (a small-world graph stands in), so a claim about every data set can
fail here but never hold.

Literal readings where the text leaves room (also in each claim's evidence): "star"
(spokes) is our generated star; the ordering readings compare our three numbers with
no tolerance (the register gives none); "within 5 points" is ``|ours - lecture| <= 5``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

import pandas as pd

from harness.claims import (Reading, WITHIN_NOISE, about_every, beyond_noise, make_claim,
                            readings_claim, stand_in_claim)
from harness.results.common.write.certified import certified
from harness.results.mve_fidelity.work import METHODS

__all__ = ["DIFFERENCES", "EVERY_COLUMN", "EIGENGAPS", "ROWS", "FIDELITIES", "Column",
           "columns", "most_of", "register_claims", "low_rank_claim"]

KPCA, SDE, MVE = METHODS["kpca"], METHODS["sde"], METHODS["mve"]
#: the lecture's five data sets, the columns of its table
LECTURE_COLUMNS = ("star", "swiss_roll", "twos", "faces", "network")
#: the lecture's "star" (spokes) is its first column
STAR = "star"
#: "within 5 points" of the lecture's table rows
ROW_TOLERANCE = 5.0
#: the ties of the eigengap readings
EIGENGAP_TIE = 1e-3


@dataclasses.dataclass(frozen=True)
class Column:
    """What the claims may use of one of the lecture's columns.

    ``key`` is the real data's entry (``""`` when the column has none in the profile),
    ``rows`` its rows by method label, holding only the measured and certified ones;
    ``why`` says why a method of it is missing (unavailable data, an uncertified
    solve); ``stand_ins`` the measured rows of its stand-in entries, by key."""

    name: str
    key: str
    rows: dict
    why: str
    stand_ins: dict

    def has(self, *methods: str) -> bool:
        """Whether every one of ``methods`` is counted on the real data."""
        return all(m in self.rows for m in methods)

    def value(self, method: str, column: str = "ours_pct") -> float:
        return float(self.rows[method][column])

    def size(self) -> str:
        """`` (n = 161)`` from the rows' ``n_samples``."""
        n = (float(next(iter(self.rows.values()))["n_samples"]) if self.rows
             else math.nan)
        return f" (n = {n:.0f})" if n == n else ""


def _usable(row: pd.Series) -> bool:
    return row["status"] == "ok" and certified(row["sdp_status"])


def _why(key: str, group: pd.DataFrame) -> str:
    """Why the real entry's methods are not all counted: its records' reasons, each
    once with the methods it concerns."""
    parts: dict[str, list[str]] = {}
    for row in group.itertuples():
        if row.status != "ok":
            reason = str(row.reason or row.status).split(": file ")[0]
            parts.setdefault(f"{row.status} ({reason})", []).append(row.method)
        elif not certified(row.sdp_status):
            parts.setdefault(f"SDPs not certified optimal ({row.sdp_status}), not "
                             f"counted", []).append(row.method)
    return "; ".join(f"{key}: {', '.join(methods)} {what}" for what, methods in parts.items())


def columns(frame: pd.DataFrame) -> dict[str, Column]:
    """One :class:`Column` per lecture column (:data:`LECTURE_COLUMNS`)."""
    out = {}
    for name in LECTURE_COLUMNS:
        part = frame[frame["column"] == name]
        stand = part["stand_in_for"].fillna("") != ""
        real = part[~stand]
        key = str(real["key"].iloc[0]) if len(real) else ""
        rows = {r["method"]: r for _, r in real.iterrows() if _usable(r)}
        why = _why(key, real) if len(real) else f"{name}: no real data in the profile"
        stand_ins = {k: {r["method"]: r for _, r in g.iterrows() if _usable(r)}
                     for k, g in part[stand].groupby("key", sort=False)}
        out[name] = Column(name, key, rows, why or "", {k: v for k, v in stand_ins.items()
                                                         if v})
    return out


def most_of(checks: dict[str, object], named: Sequence[str]) -> tuple[list, str]:
    """The checks of a claim about *most* (more than half) of the data sets ``named``,
    of which ``checks`` holds those measured (a check each: True, False or
    WITHIN_NOISE).

    The checks decide when the passes are more than half of ``named`` (holds) or when
    the passes, the cases inside the noise and the unmeasured together cannot be (does
    not hold); else no checks (``not measured``) and the sentence saying why.

    Examples
    --------
    >>> most_of({"a": True, "b": False}, ["a", "b", "c", "d", "e"])[1]
    'no verdict: the claim is about most of a, b, c, d, e, 2 of 5 measured'
    >>> most_of({"a": False, "b": False, "c": False}, ["a", "b", "c", "d", "e"])[0]
    [False, False, False]
    """
    named = list(dict.fromkeys(named))
    values = [checks[n] for n in named if n in checks]
    passes = sum(c is True for c in values)
    open_ = sum(c is WITHIN_NOISE for c in values) + len(named) - len(values)
    if 2 * passes > len(named) or 2 * (passes + open_) <= len(named):
        return values, ""
    return [], (f"no verdict: the claim is about most of {', '.join(named)}, "
                f"{len(values)} of {len(named)} measured")


# ---- one column, one difference ----------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Difference:
    """An entry about one column: ``higher``'s fidelity above ``lower``'s by more than
    ``points`` (inside +-``points`` decides nothing)."""

    entry: str
    column: str
    higher: str
    lower: str
    points: float
    text: str


DIFFERENCES = (
    Difference("lec-sde-improves-visualization-here", "swiss_roll", SDE, KPCA, 5.0,
               "SDE's stretching of the graph improves the visualization of the Swiss "
               "roll: SDE's top-two energy above kPCA's by more than 5 points (lecture, "
               "'SDE Results')"),
    Difference("lec-sde-could-worsen-visualization", STAR, KPCA, SDE, 5.0,
               "SDE's stretching could worsen the visualization: on the star (spokes) "
               "SDE's top-two energy below kPCA's by more than 5 points (lecture, 'SDE "
               "Problems -> MVE')"),
    Difference("lec-mve-better-knn-faces", "faces", MVE, SDE, 0.1,
               "MVE does better than SDE with kNN connectivity on the face images: its "
               "top-two energy above SDE's by more than 0.1 points (lecture, 'kNN "
               "Embedding with MVE')"),
    Difference("lec-mve-better-knn-digits", "twos", MVE, SDE, 0.1,
               "MVE does better than SDE with kNN on the digit images (twos): its top-two "
               "energy above SDE's by more than 0.1 points (lecture, 'kNN Embedding with "
               "MVE')"),
)


def _pair_text(key: str, rows: dict, higher: str, lower: str, size: str = "") -> str:
    return (f"{key}: {higher} {rows[higher]['ours_pct']:.1f}% against {lower} "
            f"{rows[lower]['ours_pct']:.1f}%{size}")


def _stand_in_text(column: Column, methods: Sequence[str]) -> str:
    parts = []
    for key, rows in column.stand_ins.items():
        if all(m in rows for m in methods):
            parts.append(f"{key} (a stand-in for {rows[methods[0]]['stand_in_for']}): "
                         + ", ".join(f"{m} {rows[m]['ours_pct']:.1f}%" for m in methods))
    return "; ".join(parts)


def _unmeasured(name: str, text: str, column: Column, methods: Sequence[str],
                entry: str) -> dict:
    """The claim of an entry about one column whose real data is not counted: the
    stand-in's numbers when it has one (never counted), else not measured."""
    shown = _stand_in_text(column, methods)
    why = column.why or f"{column.name}: not measured"
    if shown:
        return stand_in_claim(name, text, list(column.stand_ins), f"{shown}; {why}",
                              register=entry)
    return make_claim(name, text, [], why, register=entry)


def difference_claim(name: str, cols: dict[str, Column], spec: Difference) -> dict:
    """The claim of one :class:`Difference` entry."""
    column = cols[spec.column]
    if not column.has(spec.higher, spec.lower):
        return _unmeasured(name, spec.text, column, (spec.higher, spec.lower), spec.entry)
    diff = column.value(spec.higher) - column.value(spec.lower)
    check = beyond_noise(diff, spec.points)
    said = {True: f"above by more than {spec.points:g} points",
            False: f"below by more than {spec.points:g} points"}.get(
        check, f"within {spec.points:g} points, which decides nothing")
    return make_claim(name, spec.text, [check],
                      f"{_pair_text(column.key, column.rows, spec.higher, spec.lower, column.size())}: "
                      f"{spec.higher} {said}.", register=spec.entry)


# ---- one difference on every data set ----------------------------------------------

@dataclasses.dataclass(frozen=True)
class EveryColumn:
    """An entry about every one (and, its second reading, most) of the lecture's data
    sets: ``higher``'s fidelity above ``lower``'s by more than ``points``."""

    entry: str
    higher: str
    lower: str
    points: float
    readings: tuple[str, str]
    text: str


EVERY_COLUMN = (
    EveryColumn("lec-sde-stretching-improves-visualization", SDE, KPCA, 0.1,
                ("fidelity every set", "fidelity most sets"),
                "SDE's stretching of the graph improves the visualization: SDE's top-two "
                "energy above kPCA's by more than 0.1 points on the lecture's data sets "
                "(lecture, 'Semidefinite Embedding')"),
    EveryColumn("lec-sde-more-energy-than-pca", SDE, KPCA, 0.1,
                ("top-2 every set", "top-2 most sets"),
                "SDE gets more energy out of the top eigenvectors than PCA: its top-two "
                "energy above kPCA's (linear kernel: PCA) by more than 0.1 points on the "
                "lecture's data sets (lecture, 'SDE Results')"),
)


def _per_column(cols: dict[str, Column], methods: Sequence[str],
                check: Callable[[Column], object], show: Callable[[Column], str]
                ) -> tuple[dict, list[str], list[str]]:
    """Per lecture column whose real data counts ``methods``: its check and text; and
    the reasons of the columns that do not count."""
    checks, shown, missing = {}, [], []
    for name, column in cols.items():
        if column.has(*methods):
            checks[name] = check(column)
            shown.append(show(column))
        else:
            stand = _stand_in_text(column, methods)
            missing.append((column.why or f"{name}: not measured")
                           + (f" (stand-in, not counted: {stand})" if stand else ""))
    return checks, shown, missing


def _evidence(shown: list[str], missing: list[str], why: str) -> str:
    text = "; ".join(shown) or "no data set counted"
    text += f". Not counted: {'; '.join(missing)}" if missing else ""
    return text + (f" ({why})" if why else "")


def every_column_claim(name: str, cols: dict[str, Column], spec: EveryColumn) -> dict:
    """The claim of one :class:`EveryColumn` entry: its "every" and "most" readings."""
    checks, shown, missing = _per_column(
        cols, (spec.higher, spec.lower),
        lambda c: beyond_noise(c.value(spec.higher) - c.value(spec.lower), spec.points),
        lambda c: _pair_text(c.key, c.rows, spec.higher, spec.lower, c.size()))
    every, why_every = about_every(list(checks.values()), LECTURE_COLUMNS, checks)
    most, why_most = most_of(checks, LECTURE_COLUMNS)
    return readings_claim(name, spec.text, [
        Reading(spec.readings[0], every, _evidence(shown, missing, why_every)),
        Reading(spec.readings[1], most, f"more than half of the {len(LECTURE_COLUMNS)} "
                f"data sets" + (f" ({why_most})" if why_most else ""), "most")],
        register=spec.entry)


# ---- eigengaps ---------------------------------------------------------------------

#: the two slides "Effectively maximizes Eigengap between d'th and d+1'th lambda"
EIGENGAPS = (("lec-mve-maximizes-eigengap", "first slide"),
             ("lec-mve-maximizes-eigengap-2", "the repeated slide"))


def eigengap_claim(name: str, cols: dict[str, Column], entry: str, where: str) -> dict:
    """MVE's normalised eigengap (lambda_2 - lambda_3) / trace (the frame's
    ``eigengap``) at least SDE's, a difference within :data:`EIGENGAP_TIE` counting as
    not smaller, on every one of the lecture's data sets."""
    checks, shown, missing = _per_column(
        cols, (MVE, SDE),
        lambda c: c.value(MVE, "eigengap") - c.value(SDE, "eigengap") >= -EIGENGAP_TIE,
        lambda c: (f"{c.key}: eigengap MVE {c.value(MVE, 'eigengap'):.4f}, SDE "
                   f"{c.value(SDE, 'eigengap'):.4f}"))
    every, why = about_every(list(checks.values()), LECTURE_COLUMNS, checks)
    return make_claim(name, "MVE effectively maximizes the eigengap between the 2nd and "
                            "3rd eigenvalue: its normalised eigengap at least SDE's (ties "
                            f"within {EIGENGAP_TIE:g}) on every data set (lecture, 'Minimum "
                            f"Volume Embedding', {where})", checks=every,
                      evidence=_evidence(shown, missing, why) + ".", register=entry)


# ---- the table's rows --------------------------------------------------------------

def _star_order(v: dict) -> bool:
    return v[MVE] >= v[KPCA] > v[SDE]


def _roll_order(v: dict) -> bool:
    return abs(v[SDE] - v[MVE]) <= 0.5 and min(v[SDE], v[MVE]) > v[KPCA]


def _mve_sde_kpca(v: dict) -> bool:
    return v[MVE] > v[SDE] > v[KPCA]


#: the lecture's rows: column -> (entry, its ordering reading and how it reads, or None)
ROWS = {
    "star": ("lec-mve-table-star", _star_order, "MVE >= kPCA > SDE"),
    "swiss_roll": ("lec-mve-table-swiss-roll", _roll_order,
                   "SDE and MVE within 0.5 points of each other, both above kPCA"),
    "twos": ("lec-mve-table-twos", _mve_sde_kpca, "MVE > SDE > kPCA"),
    "faces": ("lec-mve-table-faces", _mve_sde_kpca, "MVE > SDE > kPCA"),
    "network": ("lec-mve-table-network", None, ""),
}


def row_claim(name: str, cols: dict[str, Column], column_name: str) -> dict:
    """The claim of one row of the lecture's table: per method, ours within
    :data:`ROW_TOLERANCE` points of the lecture's (``|delta_pct| <= 5``); and, where the
    entry has it, the order of the three fidelities (no tolerance)."""
    entry, order, order_text = ROWS[column_name]
    column = cols[column_name]
    methods = (KPCA, SDE, MVE)
    text = (f"The lecture's fidelity table, row {column_name}: kPCA, SDE and MVE within "
            f"{ROW_TOLERANCE:g} points of the lecture's % energy in the top two dimensions"
            + (f", in the order {order_text}" if order else "")
            + " (lecture, 'MVE Results')")
    if not column.has(*methods):
        return _unmeasured(name, text, column, methods, entry)
    values = {m: column.value(m) for m in methods}
    per_method = [abs(column.value(m, "delta_pct")) <= ROW_TOLERANCE for m in methods]
    shown = "; ".join(f"{m} {values[m]:.1f}% (lecture {column.value(m, 'lecture_pct'):.1f}%, "
                      f"delta {column.value(m, 'delta_pct'):+.3f})" for m in methods)
    first = Reading("per method", per_method,
                    f"{column.key}{column.size()}: {shown}; within {ROW_TOLERANCE:g} points "
                    f"read as |ours - lecture| <= {ROW_TOLERANCE:g}")
    if order is None:
        return make_claim(name, text, first.checks, first.evidence, register=entry)
    held = order(values)
    return readings_claim(name, text, [first, Reading(
        "ordering", [held], f"ours {'in' if held else 'not in'} the order {order_text} "
                            f"(our numbers compared as they are, no tolerance)")],
        register=entry)


# ---- the F(K) slide ----------------------------------------------------------------

#: entry -> (the slide's F(K), its readings: (reading name, method))
FIDELITIES = {
    "lec-mve-fidelity-098": (0.98, (("mve on star", MVE), ("kpca on star", KPCA))),
    "lec-mve-fidelity-029": (0.29, (("sde on star", SDE),)),
}
FIDELITY_TOLERANCE = 0.03


def fidelity_claim(name: str, cols: dict[str, Column], entry: str) -> dict:
    """The slide's F(K) value: the fidelity of the named method on the star within
    :data:`FIDELITY_TOLERANCE` of it (each reading a method the register names)."""
    target, readings = FIDELITIES[entry]
    column = cols[STAR]
    text = (f"The star's embedding has fidelity F(K) = {target:.2f} (lecture, 'Minimum "
            f"Volume Embedding'; the figure is not in the text)")
    methods = [m for _, m in readings]
    if not column.has(*methods):
        return _unmeasured(name, text, column, methods, entry)
    made = [Reading(reading, [abs(column.value(m) / 100 - target) <= FIDELITY_TOLERANCE],
                    f"{column.key}{column.size()}: {m} {column.value(m):.1f}% "
                    f"({'within' if abs(column.value(m) / 100 - target) <= FIDELITY_TOLERANCE else 'not within'} "
                    f"{FIDELITY_TOLERANCE:g} of {target:.2f})") for reading, m in readings]
    if len(made) == 1:
        return make_claim(name, text, made[0].checks, made[0].evidence, register=entry)
    return readings_claim(name, text, made, register=entry)


# ---- thesis line 2208 --------------------------------------------------------------

LOW_RANK_ENTRY = "s4-mvu-kernel-generally-low-rank"
#: the thesis' data sets of the entry and the columns of this table holding them
LOW_RANK_SETS = {"Swiss roll": "swiss_roll", "teapot": None, "digits": "twos",
                 "faces": "faces"}
#: the data's intrinsic dimensionality where the entry fixes it
LOW_RANK_D = {"swiss_roll": 2}
ENERGY, RANK_LIMIT = 90.0, 10


def _energy_check(column: Column):
    """Top-d energy of SDE's kernel >= 90 %: d = 2 on the Swiss roll; where the entry's
    d is "the thesis' d, at most 10" (digits, faces) a top-two energy >= 90 % passes
    for every such d, a top-ten energy below 90 % fails for every one, between decides
    nothing (no check)."""
    top2, top10 = column.value(SDE), column.value(SDE, "top10_pct")
    if column.name in LOW_RANK_D or top2 >= ENERGY:
        return top2 >= ENERGY
    return False if top10 < ENERGY else None


def _rank_check(column: Column):
    """Numerical rank (eigenvalues above 1e-3 of the largest; the record keeps the top
    10, so 10 reads "10 or more") at most 10 and below the input dimensionality."""
    rank, dim = column.value(SDE, "numerical_rank"), column.value(SDE, "n_features")
    if rank >= RANK_LIMIT:
        return False if dim == dim and dim <= RANK_LIMIT else None
    return rank < dim if dim == dim else None


def low_rank_claim(name: str, cols: dict[str, Column]) -> dict:
    """Thesis line 2208 (Chapter 4): MVU "learns a kernel matrix with maximum trace that
    is generally low rank", on SDE's (= MVU's maximum-trace) kernels of this table,
    both readings over "more than half" of the thesis' data sets (Swiss roll, teapot,
    digits, faces); the teapot is not a column of this table (not measured here)."""
    text = ("MVU learns a kernel matrix with maximum trace that is generally low rank: "
            "SDE's (= MVU's) kernels on the thesis' data sets (thesis Ch. 4; the lecture's "
            "k-NN SDE of this table)")
    energy, rank, shown, missing = {}, {}, [], []
    for label, name_ in LOW_RANK_SETS.items():
        column = cols.get(name_) if name_ else None
        if column is None or not column.has(SDE):
            missing.append(f"{label}: " + ((column.why or "not measured") if column
                                           else "not a column of this table"))
            continue
        for store, check in ((energy, _energy_check(column)), (rank, _rank_check(column))):
            if check is not None:
                store[label] = check
        shown.append(f"{label} ({column.key}{column.size()}): SDE top-two energy "
                     f"{column.value(SDE):.1f}%, top-ten {column.value(SDE, 'top10_pct'):.1f}%, "
                     f"{column.value(SDE, 'numerical_rank'):.0f} eigenvalues above 1e-3 of "
                     f"the largest, input dimensionality "
                     f"{column.value(SDE, 'n_features'):.0f}")
    named = list(LOW_RANK_SETS)
    e_checks, e_why = most_of(energy, named)
    r_checks, r_why = most_of(rank, named)
    base = _evidence(shown, missing, "")
    return readings_claim(name, text, [
        Reading("energy in few dimensions", e_checks,
                f"{base}; top-d energy >= {ENERGY:g}% (d = 2 on the Swiss roll; on digits "
                f"and faces the thesis' d, at most 10: decided when top-two >= {ENERGY:g}% "
                f"or top-ten < {ENERGY:g}%)" + (f" ({e_why})" if e_why else ""), "most"),
        Reading("numerical rank", r_checks,
                f"rank at most {RANK_LIMIT} and below the input dimensionality (the record "
                f"keeps the top ten eigenvalues)" + (f" ({r_why})" if r_why else ""),
                "most")], register=LOW_RANK_ENTRY)


# ---- kernel PCA does not always reduce dimensions (Sha's lecture) ----------------

KPCA_ENTRY = "lec-kpca-does-not-always-reduce"
#: the entry's data sets (the teapot is not a column of this table) and its threshold
KPCA_SETS = {"Swiss roll": "swiss_roll", "teapot": None}
KPCA_SPREAD = 50.0


def kpca_spread_claim(name: str, cols: dict[str, Column]) -> dict:
    """Sha's lecture (line 644): "Kernel PCA does not always reduce dimensions", read
    as a Gaussian kernel's centred kPCA putting less than half its trace in its top
    two eigenvalues on the Swiss roll or the teapot (some data set). Only a column
    whose kPCA used the Gaussian (``rbf``) kernel is a case; the profile's default is
    the linear kernel (kPCA = PCA), which the reading does not cover."""
    text = ("Kernel PCA does not always reduce dimensions: a Gaussian kernel's kPCA puts "
            "less than half of the trace into the top two eigenvalues on the Swiss roll "
            "or the teapot (lecture, Sha, nonlinear dimensionality reduction)")
    checks, shown, missing = [], [], []
    for label, name_ in KPCA_SETS.items():
        column = cols.get(name_) if name_ else None
        if column is None or not column.has(KPCA):
            missing.append(f"{label}: " + ((column.why or "not measured") if column
                                           else "not a column of this table"))
        elif column.rows[KPCA]["kernel"] != "rbf":
            missing.append(f"{label} ({column.key}): kPCA used the "
                           f"{column.rows[KPCA]['kernel']} kernel, not a Gaussian one "
                           f"(results.mve_fidelity.kernel)")
        else:
            checks.append(column.value(KPCA) < KPCA_SPREAD)
            shown.append(f"{label} ({column.key}{column.size()}): Gaussian kPCA top-two "
                         f"energy {column.value(KPCA):.1f}%")
    why = ""
    if missing and not any(checks):
        checks, why = [], "no verdict: no Gaussian kPCA below half on a measured case"
    return make_claim(name, text, checks, _evidence(shown, missing, why) + ".",
                      register=KPCA_ENTRY)


def register_claims(name: str, frame: pd.DataFrame) -> list[dict]:
    """Every register entry this table decides, one claim each, in the order of this
    module's tables."""
    cols = columns(frame)
    return ([difference_claim(name, cols, spec) for spec in DIFFERENCES]
            + [every_column_claim(name, cols, spec) for spec in EVERY_COLUMN]
            + [eigengap_claim(name, cols, entry, where) for entry, where in EIGENGAPS]
            + [row_claim(name, cols, column) for column in ROWS]
            + [fidelity_claim(name, cols, entry) for entry in FIDELITIES]
            + [low_rank_claim(name, cols), kpca_spread_claim(name, cols)])
