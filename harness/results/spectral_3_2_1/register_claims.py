"""The claims-register entries of section 3.2.1 (lines 1994-2094) and 3.2.2's LLE remark
(line 2196) that this result decides, under the entries' readings
(``harness/claims_register/chapter_3.yaml``), from ``{job key: record}``.

The Swiss roll is read two ways, as Table 3.2 does: the 3-D roll without noise
(``swiss_roll``, n = 1000) and the roll of section 3.1.5 (``swiss_roll_3_1_5``, n = 800
with five low-variance noise dimensions, Fig. 3.5's); each reading of an entry is
decided once per roll and the claim is "partly holds" where they disagree. The teapot
is the thesis' 360 images (dimension 2: "the global dimensionality (d = 2) of the
underlying circle", 3.1.5); its stand-in is shown, never counted. MVU's numbers count
only from a certified solve.

LLE's M = (I - W)^T (I - W) and the Laplacian D - W are positive semidefinite, and M
maps the constant vector to zero (W's rows sum to one), by construction: those two
entries are shown, not counted.
"""

from __future__ import annotations

from harness.claims import Reading, about_most, beyond_noise, make_claim, readings_claim
from harness.results.common.write.certified import certified
from harness.results.spectral_3_2_1 import NAME

__all__ = ["ROLLS", "register_claims"]

#: the two readings of "the Swiss roll": job key -> label
ROLLS = {"swiss_roll": "3-D roll", "swiss_roll_3_1_5": "3.1.5 roll"}
TEAPOT = "teapot"
GAP = 2.0
SHARE = 0.9
ISOMAP_SHARE, SHARE_NOISE = 0.95, 0.01
SAME = 0.1


def _ok(r) -> bool:
    return r is not None and r.get("status") == "ok"


def _mvu_ok(r) -> bool:
    return _ok(r) and certified((r.get("mvu") or {}).get("status"))


def _real(records) -> dict:
    return {k: r for k, r in records.items() if _ok(r) and not r.get("stand_in_for")}


def _shown(records) -> str:
    """The stand-ins' and unmeasured jobs' status, for the evidence."""
    out = [f"{k}: stand-in, not counted (LLE gap {r['lle']['gap_at_dimension']:.3g}, Lap gap "
           f"{r['laplacian']['gap_at_dimension']:.3g}, Isomap top-d share "
           f"{r['isomap']['top_share']:.3g})" for k, r in records.items()
           if _ok(r) and r.get("stand_in_for")]
    out += [f"{k}: {r.get('status', 'no record')}" for k, r in records.items() if not _ok(r)]
    return ("; " + "; ".join(out)) if out else ""


def _by_roll(records, claim: str, entry: str, parts) -> dict:
    """``parts``: ``[(name, per_dataset(record) -> (check or None, text))]``; each part
    decided on each roll reading with the teapot (most of the two data sets)."""
    readings = []
    real = _real(records)
    for part, per_dataset in parts:
        for roll, label in ROLLS.items():
            passed, said = {}, []
            for key in (roll, TEAPOT):
                if key not in real:
                    continue
                check, text = per_dataset(real[key])
                said.append(f"{key}: {text}")
                if check is not None:
                    passed["swiss_roll" if key == roll else key] = check
            checks, note = about_most(passed, ["swiss_roll", TEAPOT])
            readings.append(Reading(f"{part}, {label}", checks,
                                    "; ".join(said + ([note] if note else []))
                                    + _shown({k: v for k, v in records.items()
                                              if k not in ROLLS or k == roll})))
    return readings_claim(NAME, claim, readings, register=entry)


def _lle_no_gap(r):
    g = r["lle"]["gap_at_dimension"]
    return g < GAP, f"LLE mu_{r['dimension'] + 1} / mu_{r['dimension']} = {g:.3g} (below {GAP:g} needed)"


def lle_no_dimension(records) -> dict:
    """s3-2-2-lle-eigenvalues-no-dimension (line 2196)."""
    return _by_roll(records, "LLE's eigenvalues cannot be used to estimate the intrinsic "
                    "dimensionality of the manifold (3.2.2)",
                    "s3-2-2-lle-eigenvalues-no-dimension", [("no gap", _lle_no_gap)])


def _gap(r):
    d = r["dimension"]
    text = (f"gaps at d = {d}: LLE {r['lle']['gap_at_dimension']:.3g}, Lap "
            f"{r['laplacian']['gap_at_dimension']:.3g} (below {GAP:g} needed); top-{d} "
            f"shares Isomap {r['isomap']['top_share']:.3g}")
    if not certified(r["mvu"].get("status")):
        return None, text + f", MVU {r['mvu'].get('status')} (not certified: no check)"
    text += f", MVU {r['mvu']['top_share']:.3g} (at least {SHARE:g} needed)"
    return (r["lle"]["gap_at_dimension"] < GAP and r["laplacian"]["gap_at_dimension"] < GAP
            and r["isomap"]["top_share"] >= SHARE and r["mvu"]["top_share"] >= SHARE), text


def _estimate(r):
    d = r["dimension"]
    text = (f"largest-gap estimates (d = {d}): LLE {r['lle']['estimate']}, Lap "
            f"{r['laplacian']['estimate']}, Isomap {r['isomap']['estimate']}")
    if not certified(r["mvu"].get("status")):
        return None, text + f", MVU {r['mvu'].get('status')} (not certified: no check)"
    text += f", MVU {r['mvu']['estimate']} (LLE and Lap wrong, Isomap and MVU right needed)"
    return (r["lle"]["estimate"] != d and r["laplacian"]["estimate"] != d
            and r["isomap"]["estimate"] == d and r["mvu"]["estimate"] == d), text


def spectra_unreliable(records) -> dict:
    """s3-2-1-lle-lap-spectra-unreliable (line 2094): two readings."""
    return _by_roll(records, "LLE's and Laplacian eigenmaps' spectra do not reliably reveal "
                    "the dimensionality of sampled manifolds, as Isomap's and MVU's do (3.2.1)",
                    "s3-2-1-lle-lap-spectra-unreliable", [("gap", _gap), ("estimate", _estimate)])


def _roll_only(records, claim: str, entry: str, parts) -> dict:
    """Entries about the Swiss roll alone (one data set): each part on each roll."""
    readings = []
    for part, check in parts:
        for roll, label in ROLLS.items():
            r = records.get(roll)
            if not _ok(r):
                readings.append(Reading(f"{part}, {label}", [], f"{roll}: "
                                        f"{(r or {}).get('status', 'no record')}"))
            elif not _mvu_ok(r):
                readings.append(Reading(f"{part}, {label}", [], f"{roll}: MVU "
                                        f"{r['mvu'].get('status')} (not certified: no check)"))
            else:
                found, text = check(r)
                readings.append(Reading(f"{part}, {label}", [found], f"{roll}: {text}"))
    return readings_claim(NAME, claim, readings, register=entry)


def isomap_dimension(records) -> dict:
    """s3-2-1-isomap-eigenvalues-estimate-dim (line 2013)."""
    def check(r):
        low = min(r["isomap"]["top_two_share"], r["mvu"]["top_two_share"])
        return beyond_noise(low - ISOMAP_SHARE, SHARE_NOISE), (
            f"top-two shares of the positive spectrum: Isomap {r['isomap']['top_two_share']:.4g}, "
            f"MVU {r['mvu']['top_two_share']:.4g} (both at least {ISOMAP_SHARE:g} needed, "
            f"within {SHARE_NOISE:g} undecided)")
    return _roll_only(records, "Isomap's eigenvalues estimate the underlying dimensionality "
                      "in the same way as MVU's (3.2.1)",
                      "s3-2-1-isomap-eigenvalues-estimate-dim", [("Swiss roll", check)])


def same_solution(records) -> dict:
    """s3-2-1-mvu-isomap-same-solution (line 1994): rotation, and rotation and scale."""
    def part(key, what):
        def check(r):
            v = r["mvu"][key]
            return v < SAME, (f"relative Procrustes residual ({what}) of Isomap's 2-D embedding "
                              f"against MVU's {v:.3g} (below {SAME:g} needed)")
        return check
    return _roll_only(records, "Isomap and MVU seek the same solution, up to a global "
                      "rotation (3.2.1)", "s3-2-1-mvu-isomap-same-solution",
                      [("rotation", part("procrustes_rotation", "rotation")),
                       ("rotation and scale", part("procrustes_similarity", "rotation and scale"))])


def _by_construction(records, entry: str, claim: str, what) -> dict:
    shown = "; ".join(f"{k}{' (stand-in)' if r.get('stand_in_for') else ''}: {what(r)}"
                      for k, r in records.items() if _ok(r))
    return make_claim(NAME, claim, [], (shown or "no job measured") + "; true by construction "
                      "(shown, not counted)", register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [
        _by_construction(
            records, "s3-2-1-lle-m-bottom-constant-psd",
            "LLE's bottom eigenvector is the constant vector with eigenvalue zero (3.2.1)",
            lambda r: (f"smallest eigenvalue of M {r['lle']['min_over_max']:.2g} of the largest, "
                       f"its eigenvector off the constant by {r['lle']['constant_deviation']:.2g}")),
        _by_construction(
            records, "s3-2-1-laplacian-psd", "The graph Laplacian L is positive semidefinite (3.2.1)",
            lambda r: f"smallest eigenvalue of L {r['laplacian']['min_over_max']:.2g} of the largest"),
        lle_no_dimension(records), spectra_unreliable(records), isomap_dimension(records),
        same_solution(records)]
