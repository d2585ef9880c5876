"""The claims-register entries Figs. 3.8 and 3.15 decide (issue 55; thesis 3.1.5
lines 1533-1535, 3.1.7 lines 1615-1622), each under its entry's readings
(``harness/claims_register/chapter_3.yaml``), from :func:`.write.build`'s frame.

A row counts when its job is measured and, for MVU, its SDP solve is certified optimal
(:func:`harness.results.common.write.certified.certified`); a row that does not count is
named in the evidence and left out. "Dimensions of non-zero variance" are the
normalised eigenvalues above the register's 1 % (MVU: of the learned kernel, divided
by their sum; Isomap: of -1/2 J G^2 J, divided by the sum of its positive ones). The
comb's claims check one comb per tooth count of the profile (the thesis prints none):
a claim about the comb (six dimensions, strings apart, output equal to the input) must
hold on each, a claim that an example exists ("not guaranteed", the caption) on one.
Chapter 4's restatement (s4-mvu-can-increase-dimensionality, line 2208) has its own
thresholds: eigenvalues above 1e-3 of the largest (counted among the leading ten the
records keep: ten or more reads as ten) and the trace outside the top two.
"""

from __future__ import annotations

import pandas as pd

from harness.claims import Reading, make_claim, readings_claim
from harness.results.common.write.certified import certified, not_counted

__all__ = ["register_claims", "counted", "spectrum_beyond_two", "THRESHOLDS"]

NAME = "fig_3_8_15"
#: the register's thresholds (chapter_3.yaml; fixed before any number was computed)
THRESHOLDS = {"mvu_dims": 6, "isomap_dims": 8, "input_dims": 2, "strings_cos": 0.3,
              "procrustes": 0.01, "top_two": 0.95, "tail": 0.01, "quality": 0.9,
              "spearman": 0.9, "radius_cv": 0.3, "circular": 0.9,
              # s4-mvu-can-increase-dimensionality (chapter_4.yaml)
              "relative_to_largest": 1e-3, "beyond_two": 0.05}
LEADING = 10  # the normalised eigenvalues a record keeps (ev1 .. ev10)


def counted(frame: pd.DataFrame) -> pd.DataFrame:
    """The measured rows whose MVU solve (if any) is certified optimal."""
    ok = frame[frame["status"] == "ok"]
    # a boolean Series, not a list: an empty list would select no *columns*
    return ok.loc[ok["solve_status"].map(certified).astype(bool)]


def _left_out(frame: pd.DataFrame, part: str, kinds) -> str:
    rows = frame[(frame["part"] == part) & frame["kind"].isin(list(kinds))]
    out = []
    for r in rows.itertuples():
        if r.status != "ok":
            out.append(f"{r.key}: {r.status} ({r.reason})")
        elif not certified(r.solve_status):
            out.append(not_counted(r.key, r.solve_status, f"gap {r.gap:.1e}"))
    return ("; not counted: " + "; ".join(out)) if out else ""


def _comb(frame: pd.DataFrame, kind: str) -> pd.DataFrame:
    rows = counted(frame)
    return rows[(rows["part"] == "comb") & (rows["kind"] == kind)].sort_values("teeth")


def _per_tooth(rows: pd.DataFrame, column: str, fmt: str = "d") -> str:
    return ", ".join(f"T = {int(r.teeth)}: {getattr(r, column):{fmt}}" for r in rows.itertuples())


def _comb_claims(frame: pd.DataFrame) -> list[dict]:
    t = THRESHOLDS
    mvu, iso = _comb(frame, "mvu"), _comb(frame, "isomap")
    large = counted(frame)
    large = large[(large["part"] == "comb") & large["kind"].str.startswith("large")]
    mvu_counts = f"MVU (k = 3) dimensions above 1 %: {_per_tooth(mvu, 'count') or 'none counted'}"
    iso_counts = f"Isomap (k = 5): {_per_tooth(iso, 'count') or 'none counted'}"
    left_mvu = _left_out(frame, "comb", ["mvu"])
    both = mvu.merge(iso, on="teeth", suffixes=("_mvu", "_iso"))
    pairs = ", ".join(f"T = {int(r.teeth)}: {int(r.count_iso)} vs {int(r.count_mvu)}"
                      for r in both.itertuples())
    large_text = "; ".join(f"T = {int(r.teeth)}, k = {int(r.k)}: {int(r.count)} dimensions, "
                           f"Procrustes residual {r.procrustes:.2e}" for r in large.itertuples())
    return [
        make_claim(NAME, "MVU's embedding is not guaranteed to be of lower dimensionality "
                   "than the input: on the comb it has more than two dimensions (3.1.7)",
                   [c > t["input_dims"] for c in mvu["count"]], mvu_counts + left_mvu,
                   register="s3-1-7-lower-dimensionality-not-guaranteed"),
        readings_claim(NAME, "MVU embeds the two-dimensional comb in six dimensions of "
                       "non-zero variance (3.1.7, Fig. 3.15)",
                       [Reading("exact", [c == t["mvu_dims"] for c in mvu["count"]],
                                f"{mvu_counts}; six on every comb{left_mvu}"),
                        Reading("increase", [c > t["input_dims"] for c in mvu["count"]],
                                "more than two on every comb")],
                       register="s3-1-7-comb-mvu-six-dimensions"),
        readings_claim(NAME, "Isomap embeds the comb in eight dimensions of non-zero "
                       "variance (3.1.7, Fig. 3.15)",
                       [Reading("exact", [c == t["isomap_dims"] for c in iso["count"]],
                                f"{iso_counts}; eight on every comb"),
                        Reading("more than MVU", [r.count_iso > r.count_mvu
                                                  for r in both.itertuples()],
                                f"Isomap's count above MVU's on every comb ({pairs or 'none'})"
                                + left_mvu)],
                       register="s3-1-7-comb-isomap-eight-dimensions"),
        make_claim(NAME, "MVU and Isomap both increase the dimensionality of the comb "
                   "(3.1.7, Fig. 3.15 caption)",
                   [r.count_mvu > t["input_dims"] and r.count_iso > t["input_dims"]
                    for r in both.itertuples()],
                   f"Isomap vs MVU dimensions above 1 %: {pairs or 'none counted'}; both "
                   f"above two on some comb" + left_mvu,
                   register="s3-1-7-fig-3-15-both-increase-dimensionality"),
        make_claim(NAME, "In MVU's output the comb's strings point away from each other in "
                   "different directions (3.1.7, Fig. 3.15)",
                   [c < t["strings_cos"] for c in mvu["median_cos"]],
                   f"median |cos| between the principal directions of different teeth: "
                   f"{_per_tooth(mvu, 'median_cos', '.3f') or 'none counted'}; below "
                   f"{t['strings_cos']:g} on every comb{left_mvu}",
                   register="s3-1-7-comb-strings-point-apart"),
        readings_claim(NAME, "With k large enough to span neighbourhoods across strings "
                       "the output becomes identical to the input (3.1.7)",
                       [Reading("two dims", [c == t["input_dims"] for c in large["count"]],
                                f"{large_text or 'none counted'}; two dimensions above 1 % "
                                f"on every comb and k"
                                + _left_out(frame, "comb", set(frame["kind"]) - {"mvu", "isomap"})),
                        Reading("identical", [p < t["procrustes"] for p in large["procrustes"]],
                                f"Procrustes residual (rotation, no scaling) / input "
                                f"variance below {t['procrustes']:g}")],
                       register="s3-1-7-comb-large-k-output-equals-input"),
    ]


def spectrum_beyond_two(shares) -> dict:
    """The chapter-4 entry's two measures of a kernel's normalised eigenvalues (the
    leading ten a record keeps): ``above_1e-3_of_largest``, the count above 1e-3 of the
    largest (ten or more reads as ten), and ``trace_beyond_two``, 1 - the top two."""
    shares = [x for x in shares if x == x]
    if len(shares) < 2:
        return {"above_1e-3_of_largest": float("nan"), "trace_beyond_two": float("nan")}
    return {"above_1e-3_of_largest": sum(
                x > THRESHOLDS["relative_to_largest"] * shares[0] for x in shares),
            "trace_beyond_two": 1 - shares[0] - shares[1]}


def increases_dimensionality(frame: pd.DataFrame) -> dict:
    """s4-mvu-can-increase-dimensionality (chapter 4, line 2208): on some comb, MVU's
    (k = 3) kernel has more than two eigenvalues above 1e-3 of its largest, and more than
    5 % of its trace outside the top two (two readings; :func:`spectrum_beyond_two`)."""
    t = THRESHOLDS
    mvu = _comb(frame, "mvu")
    counts, beyond = list(mvu["above_1e-3_of_largest"]), list(mvu["trace_beyond_two"])
    left = _left_out(frame, "comb", ["mvu"])
    per = list(zip(mvu["teeth"], counts, beyond))
    return readings_claim(
        NAME, "On a pathological example MVU increases the dimensionality: on the comb "
              "(k = 3) its kernel has more than two dimensions (chapter 4)",
        [Reading("more than two dimensions", [c > t["input_dims"] for c in counts],
                 "eigenvalues above 1e-3 of the largest (of the leading ten): "
                 + (", ".join(f"T = {int(T)}: {int(c)}" for T, c, _ in per) or "none counted")
                 + f"; more than {t['input_dims']} on some comb{left}"),
         Reading("variance beyond two", [b > t["beyond_two"] for b in beyond],
                 "trace outside the top two: "
                 + (", ".join(f"T = {int(T)}: {b:.3g}" for T, _, b in per) or "none counted")
                 + f"; above {t['beyond_two']:g} on some comb")],
        register="s4-mvu-can-increase-dimensionality")


def _trefoil_claims(frame: pd.DataFrame) -> list[dict]:
    t = THRESHOLDS
    rows = counted(frame)
    rows = rows[rows["part"] == "trefoil"]
    left = _left_out(frame, "trefoil", ["mvu"])
    say = (lambda f: "; ".join(f(r) for r in rows.itertuples()) or "not counted") \
        if len(rows) else (lambda f: "not counted")
    head = say(lambda r: f"n = {int(r.n_samples)}, k = {int(r.k)}") + left
    return [
        readings_claim(NAME, "MVU's eigenvalue spectrum of the trefoil knot reveals two "
                       "dominant eigenvalues; the rest are essentially zero (3.1.5, Fig. 3.8)",
                       [Reading("share", [r.top_two >= t["top_two"] for r in rows.itertuples()],
                                f"{head}; top two normalised eigenvalues sum to "
                                + say(lambda r: f"{r.top_two:.4f}") + f" (>= {t['top_two']:g})"),
                        Reading("tail", [r.max_tail < t["tail"] for r in rows.itertuples()],
                                "the largest from the third on is "
                                + say(lambda r: f"{r.max_tail:.2e}") + f" (< {t['tail']:g})")],
                       register="s3-1-5-fig-3-8-trefoil-two-eigenvalues"),
        readings_claim(NAME, "The colour coding of the trefoil's MVU embedding reveals that "
                       "local neighbourhoods have been preserved (3.1.5, Fig. 3.8)",
                       [Reading("trust and continuity",
                                [v >= t["quality"] for r in rows.itertuples()
                                 for v in (r.local_continuity, r.local_trust)],
                                f"{head}; local continuity and trust (l = 15) of the 2-D "
                                f"embedding " + say(lambda r: f"{r.local_continuity:.4f} and "
                                                             f"{r.local_trust:.4f}")
                                + f" (>= {t['quality']:g})"),
                        _spearman_reading(rows, say)],
                       register="s3-1-5-fig-3-8-neighbourhoods-preserved"),
        make_claim(NAME, "The trefoil's MVU embedding is an annulus (3.1.5, Fig. 3.8)",
                   [c for r in rows.itertuples() for c in
                    (r.radius_cv < t["radius_cv"], abs(r.circular_corr) > t["circular"])],
                   f"{head}; coefficient of variation of the distance to the centroid "
                   + say(lambda r: f"{r.radius_cv:.4f}") + f" (< {t['radius_cv']:g}), |circular "
                   "correlation| of output angle and knot parameter "
                   + say(lambda r: f"{abs(r.circular_corr):.4f}") + f" (> {t['circular']:g})",
                   register="s3-1-5-fig-3-8-trefoil-annulus"),
    ]


def _spearman_reading(rows: pd.DataFrame, say) -> Reading:
    """Spearman >= 0.9 where it can be reached: a row whose ceiling (the correlation of a
    perfect output, capped by tied parameter distances) is below the threshold makes no
    check -- it could not pass whatever the embedding -- and says so."""
    t = THRESHOLDS["spearman"]
    reachable = [r for r in rows.itertuples() if r.spearman_ceiling >= t]
    text = ("Spearman correlation of knot-parameter and output distance among k nearest "
            "neighbours " + say(lambda r: f"{r.spearman:.4f} (the most any output reaches "
                                          f"on these pairs: {r.spearman_ceiling:.4f})")
            + f"; >= {t:g}")
    if len(reachable) < len(rows):
        text += (f"; not decided where the ceiling is below {t:g}: evenly spaced knot "
                 f"parameters tie, which caps the correlation")
    return Reading("parameter continuity", [r.spearman >= t for r in reachable], text)


def register_claims(frame: pd.DataFrame) -> list[dict]:
    """The ten register entries' claims (one per entry) from the result's frame."""
    return [*_trefoil_claims(frame), *_comb_claims(frame), increases_dimensionality(frame)]
