"""The claims-register entries of Fig. 3.37's data (issue 51), each decided from this
result's frame (:func:`harness.results.fig_3_37.write.build`) under the entry's
readings, as the register writes them.

The data sets are this result's (the teapot and the USPS twos and threes; the Swiss
roll where an entry names it is not in this result's profile and is named, not
measured). Real data only counts; the stand-ins are shown in the evidence. Per (data
set, method) the frame holds the ``n_eigenvalues`` eigenvalues of largest magnitude,
``negative_ratio`` (most negative / largest) and ``positive_share`` (an eigenvalue over
the sum of the positive ones: "normalised" where a register reading says so for
Isomap's indefinite matrix, the most literal share of its "positive spectrum").

MVU's kernel is K = F F^T, positive semidefinite by construction: a check of its
eigenvalues' signs cannot fail and is no evidence (issue 51). The entries that are
only that check (s3-1-4-eigenvalues-nonnegative, s3-2-2-mvu-kernel-psd) are "not
measured" with that reason and the measured ratios shown; where MVU's sign is one part
of a reading with Isomap's (s3-2-2-isomap-can-have-negative), it is kept as the
register writes it, and Isomap's part is what can fail.

Entries left to others: s3-2-1-isomap-eigenvalues-estimate-dim and
s3-2-1-lle-lap-spectra-unreliable are decided by :mod:`harness.results.spectral_3_2_1`
(the Swiss rolls and the four methods' spectra side by side); still not built here:
s3-2-1-isomap-teapot-different (the Isomap and MVU embeddings, not recorded),
s4-mvu-local-guarantees-convex (per-edge distance residuals and several backends: the
solver table's).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.claims import (
    WITHIN_NOISE, Reading, about_every, about_some, make_claim, readings_claim,
)
from harness.results.fig_3_32_35.register_claims import about_most
from harness.results.fig_3_37 import NAME

__all__ = ["spectra", "count_to", "largest_gap_position", "register_claims"]


def spectra(frame: pd.DataFrame) -> dict:
    """Per measured (data set, method): ``thesis`` (its thesis column), ``stand_in``,
    ``ratio`` (most negative / largest) and ``positive`` (the kept positive eigenvalues
    over the positive sum, largest first)."""
    out = {}
    if not {"rank", "positive_share", "negative_ratio"} <= set(frame.columns):
        return out  # no job measured a spectrum (every one a gap)
    ok = frame[(frame["status"] == "ok") & frame["rank"].notna()]
    for (dataset, method), part in ok.groupby(["dataset", "method"], sort=False):
        part = part.sort_values("rank")
        shares = part["positive_share"].to_numpy(float)
        out[(dataset, method)] = {"thesis": part["thesis_dataset"].iloc[0],
                                  "stand_in": bool(part["stand_in"].iloc[0]),
                                  "ratio": float(part["negative_ratio"].iloc[0]),
                                  "positive": np.sort(shares[shares > 0])[::-1]}
    return out


def count_to(positive: np.ndarray, level: float = 0.95):
    """The fewest leading positive eigenvalues whose share reaches ``level``; None when
    the kept ones do not reach it (more than kept)."""
    reached = np.flatnonzero(np.cumsum(positive) >= level - 1e-12)
    return int(reached[0]) + 1 if reached.size else None


def largest_gap_position(positive: np.ndarray, top: int = 10) -> int:
    """The i (1-based) of the largest lambda_i / lambda_{i+1} among the top ``top``."""
    values = positive[:top + 1]
    return int(np.argmax(values[:-1] / values[1:])) + 1


def _over(spec_over: str, passed: dict, named: list) -> tuple[list, str]:
    if spec_over == "every":
        return about_every(list(passed.values()), named, passed)
    if spec_over == "most":
        return about_most(passed, named)
    return about_some(passed, named)


def _reading(name: str, spec: dict, over: str, named: list, check) -> Reading:
    """One reading over the data sets ``named`` (thesis columns): ``check(dataset)``
    -> ``(check, text)`` on a data set's (Isomap, MVU) spectra, or None when the data
    set lacks one."""
    passed, texts = {}, []
    for dataset in dict.fromkeys(d for d, _ in spec if spec[(d, _)]["thesis"] in named):
        got = check(spec, dataset)
        if got is None:
            continue
        result, text = got
        stand = spec[next(k for k in spec if k[0] == dataset)]["stand_in"]
        texts.append(f"{dataset}{' (stand-in, not counted)' if stand else ''}: {text}")
        if not stand:
            passed[spec[next(k for k in spec if k[0] == dataset)]["thesis"]] = result
    checks, note = _over(over, passed, named)
    missing = [d for d in named if d not in passed]
    text = "; ".join(texts) or "no data set measured"
    text += (f"; not measured: {', '.join(missing)}" if missing else "") + (
        f" ({note})" if note else "")
    return Reading(name, checks, text, "some" if over == "some" else "every")


def _get(spec, dataset, method):
    return spec.get((dataset, method))


def _negative(limit):
    def check(spec, dataset):
        iso = _get(spec, dataset, "isomap")
        if iso is None:
            return None
        return iso["ratio"] < -limit, f"Isomap most negative / largest {iso['ratio']:+.3g}"
    return check


def _with_mvu_psd(spec, dataset):
    iso, mvu = _get(spec, dataset, "isomap"), _get(spec, dataset, "mvu")
    if iso is None or mvu is None:
        return None
    return (iso["ratio"] < -1e-3 and mvu["ratio"] >= -1e-6,
            f"most negative / largest Isomap {iso['ratio']:+.3g}, MVU {mvu['ratio']:+.3g}")


def _same_dimension(spec, dataset):
    iso, mvu = _get(spec, dataset, "isomap"), _get(spec, dataset, "mvu")
    if iso is None or mvu is None:
        return None
    a, b = count_to(iso["positive"]), count_to(mvu["positive"])
    check = WITHIN_NOISE if a is None and b is None else a == b
    shown = [f"{len(x['positive'])}+" if c is None else str(c)
             for c, x in ((a, iso), (b, mvu))]
    return check, f"eigenvalues for 95 % of the positive spectrum Isomap {shown[0]}, MVU {shown[1]}"


def _third(level):
    def check(spec, dataset):
        iso, mvu = _get(spec, dataset, "isomap"), _get(spec, dataset, "mvu")
        if iso is None or mvu is None:
            return None
        a, b = (x["positive"][2] if len(x["positive"]) > 2 else 0.0 for x in (iso, mvu))
        return (a >= level and b < 0.01,
                f"third eigenvalue's share of the positive spectrum Isomap {a:.3g}, MVU {b:.3g}")
    return check


def _iso_count(spec, dataset):
    iso = _get(spec, dataset, "isomap")
    if iso is None:
        return None
    count = int((iso["positive"] >= 0.05).sum())
    return count == 2, f"Isomap eigenvalues >= 0.05 of the positive spectrum: {count}"


def _iso_gap(spec, dataset):
    iso = _get(spec, dataset, "isomap")
    if iso is None:
        return None
    position = largest_gap_position(iso["positive"])
    return position == 2, f"Isomap's largest lambda_i / lambda_(i+1) at i = {position}"


THESIS = ["teapot", "usps"]


def _claim(spec, entry: str, claim: str, over: str, named: list, readings, note: str = ""):
    built = [_reading(name, spec, over, named, check) for name, check in readings]
    note = f"; {note}" if note else ""
    if len(built) == 1:
        r = built[0]
        return make_claim(NAME, claim, r.checks, f"{r.name}: {r.evidence}{note}.",
                          quantifier=r.quantifier, register=entry)
    out = readings_claim(NAME, claim, built, register=entry)
    out["evidence"] += f"{note}."
    return out


def _psd_claim(spec, entry: str, claim: str) -> dict:
    """An entry that is only MVU's eigenvalue signs: no counted check (PSD by
    construction), the measured ratios shown."""
    shown = "; ".join(f"{d}{' (stand-in)' if v['stand_in'] else ''} {v['ratio']:+.3g}"
                      for (d, m), v in spec.items() if m == "mvu") or "none measured"
    return make_claim(NAME, claim, [],
                      "not measured: this result's MVU kernel is K = F F^T, positive "
                      "semidefinite by construction, so its eigenvalues' signs are a check "
                      "that cannot fail (no evidence); MVU's most negative / largest "
                      f"eigenvalue, shown: {shown}; the teapot and USPS are not reachable "
                      "offline here.", register=entry)


def register_claims(frame: pd.DataFrame) -> list[dict]:
    """Every register entry this result decides (see the module docstring)."""
    spec = spectra(frame)
    return [
        _claim(spec, "s3-2-1-isomap-negative-eigenvalues",
               "Isomap's -1/2 H D H is generally not a Euclidean squared distance matrix: "
               "some of its eigenvalues are negative (3.2.1)", "most", THESIS,
               [("negative", _negative(1e-6))]),
        _claim(spec, "s3-2-1-isomap-mvu-similar",
               "On many problems Isomap and MVU return generally similar results (3.2.1)",
               "most", THESIS,
               [("scores", lambda s, d: None), ("dimension", _same_dimension)],
               "reading scores: Table 3.2's metrics are not computed by this result (not "
               "measured here)"),
        _claim(spec, "s3-2-1-isomap-teapot-more-than-two",
               "Isomap has more than two appreciable eigenvalues on the teapot, MVU two "
               "(3.2.1, Fig. 3.31)", "every", ["teapot"],
               [("5 %", _third(0.05)), ("1 %", _third(0.01))]),
        _claim(spec, "s3-2-2-isomap-can-have-negative",
               "Unlike MVU's, Isomap's similarity matrix from finite data can have negative "
               "eigenvalues (3.2.2)", "some", THESIS, [("example", _with_mvu_psd)],
               "MVU's side is PSD by construction (K = F F^T); Isomap's side can fail"),
        _psd_claim(spec, "s3-1-4-eigenvalues-nonnegative",
                   "The eigenvalues of MVU's K are nonnegative (3.1.4)"),
        _psd_claim(spec, "s3-2-2-mvu-kernel-psd",
                   "The kernel matrix computed by MVU is positive semidefinite (3.2.2)"),
        _claim(spec, "lec-isomap-eigenvalues-estimate-dimension",
               "The number of significant eigenvalues of Isomap's Gram matrix estimates the "
               "dimensionality", "every", ["swiss_roll", "teapot"],
               [("threshold count", _iso_count), ("largest gap", _iso_gap)],
               "the Swiss roll is not in this result's profile; normalised = over the sum "
               "of the positive eigenvalues"),
        _claim(spec, "lec-isomap-gram-not-psd",
               "Isomap's matrix is not guaranteed to be positive semidefinite", "some",
               THESIS + ["swiss_roll"], [("negative eigenvalues", _negative(1e-3))],
               "the Swiss roll is not in this result's profile"),
    ]
