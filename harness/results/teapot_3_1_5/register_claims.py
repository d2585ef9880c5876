"""The claims-register entries of the teapot (thesis 3.1.5 lines 1537-1544; 3.2.1 line
2026, Fig. 3.31), decided under the entries' readings
(``harness/claims_register/chapter_3.yaml``) from this result's records, passed as
``{dataset: record}``. Only the teapot counts; its stand-in is shown with "(stand-in,
not counted)", and without the teapot every entry is not measured, naming the fetch.

Choices where a reading leaves room: the 180-degree subset is the frames with angle
below pi (the first 200 of the 400); "perfect order" is |Spearman rho| = 1 to within
1e-12; only certified MVU solves count; the Procrustes residual allows a rotation and
one scale (Isomap's coordinates aligned on MVU's).
"""

from __future__ import annotations

from harness.claims import Reading, make_claim, readings_claim
from harness.results.common.write.certified import certified
from harness.results.teapot_3_1_5 import NAME

__all__ = ["TEAPOT", "register_claims"]

TEAPOT = "teapot"
DIMENSION = 23028
TOP_SHARE, SECOND_OVER_FIRST = 0.95, 0.05
NEAR_ORDER = 0.99
DIFFERENT = 0.2


def _shown(records, what) -> str:
    """The stand-ins' numbers, shown."""
    out = []
    for d, r in records.items():
        if d != TEAPOT and r.get("status") == "ok":
            try:
                out.append(f"{d} (stand-in, not counted): {what(r)}")
            except (KeyError, TypeError):
                out.append(f"{d} (stand-in, not counted): not solved")
    return ("; " + "; ".join(out)) if out else ""


def _teapot(records):
    r = records.get(TEAPOT)
    return r if r is not None and r.get("status") == "ok" else None


def _missing(records) -> str:
    r = records.get(TEAPOT)
    status = "no record" if r is None else f"{r.get('status')}: {r.get('reason', '')[:160]}"
    return f"the teapot is not measured ({status}; `harness fetch teapot`, then `harness job {NAME}/{TEAPOT}`)"


def _decide(records, entry, claim, checks_of, text_of, readings=None) -> dict:
    r = _teapot(records)
    shown = _shown(records, text_of)
    if r is None:
        return make_claim(NAME, claim, [], _missing(records) + shown, register=entry)
    if readings:
        return readings_claim(NAME, claim, readings(r, shown), register=entry)
    checks = checks_of(r)
    return make_claim(NAME, claim, checks, text_of(r) + shown, register=entry)


def _half(r) -> dict:
    return r["half_turn"]


def _half_counted(r) -> bool:
    return certified(_half(r).get("status")) and "top_share" in _half(r)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{dataset: record}``."""
    def connected_text(r):
        return f"n = {r['n_samples']}, k = {r['k']}: {r['components']} component(s)"

    def dimension_text(r):
        return f"{r['n_features']} features per image"

    def spectrum_text(r):
        h = _half(r)
        return (f"MVU (k = {r['k']}) on the {h['n_frames']} frames of the first half turn: "
                f"{h['status']}, top normalised eigenvalue {h['top_share']:.4g}, lambda_2 / "
                f"lambda_1 {h['second_over_first']:.3g}")

    def order_text(r):
        h = _half(r)
        return (f"MVU's 1-D embedding of the {h['n_frames']} frames: |Spearman rho| with the "
                f"angle {h['abs_spearman_angle']:.6g}")

    def procrustes_text(r):
        m = r["isomap_vs_mvu"]
        return (f"Isomap against MVU (k = {r['k']}, 3-D, MVU {m['mvu']['status']}): relative "
                f"Procrustes residual {m['procrustes_residual']:.3g}")

    def spectrum_readings(r, shown):
        if not _half_counted(r):
            return [Reading(n, [], f"MVU {_half(r).get('status')}: not counted" + shown)
                    for n in ("one dominant", "gap")]
        h = _half(r)
        return [Reading("one dominant", [h["top_share"] >= TOP_SHARE],
                        spectrum_text(r) + f" (at least {TOP_SHARE:g})" + shown),
                Reading("gap", [h["second_over_first"] < SECOND_OVER_FIRST],
                        f"below {SECOND_OVER_FIRST:g} needed")]

    def order_readings(r, shown):
        if not _half_counted(r):
            return [Reading(n, [], f"MVU {_half(r).get('status')}: not counted" + shown)
                    for n in ("perfect order", "near order")]
        rho = _half(r)["abs_spearman_angle"]
        return [Reading("perfect order", [rho >= 1 - 1e-12], order_text(r) + shown),
                Reading("near order", [rho >= NEAR_ORDER], f"at least {NEAR_ORDER:g}")]

    def different(r):
        m = r["isomap_vs_mvu"]
        if not certified(m["mvu"].get("status")) or "procrustes_residual" not in m:
            return []
        return [m["procrustes_residual"] > DIFFERENT]

    return [
        _decide(records, "s3-1-5-teapot-k4-graph-connected",
                "k = 4 nearest neighbours give a connected graph of the teapot (3.1.5)",
                lambda r: [r["components"] == 1], connected_text),
        _decide(records, "s3-1-5-teapot-dimension-23028",
                "The teapot images have p = 23028 dimensions (3.1.5)",
                lambda r: [r["n_features"] == DIMENSION], dimension_text),
        _decide(records, "s3-1-5-teapot-180-one-dimensional",
                "On half a turn of rotation MVU's spectrum detects one dimension (3.1.5, "
                "Fig. 3.10)", None, spectrum_text, spectrum_readings),
        _decide(records, "s3-1-5-teapot-180-ordered-by-angle",
                "MVU's one-dimensional embedding orders the images by their angle (3.1.5, "
                "Fig. 3.10)", None, order_text, order_readings),
        _decide(records, "s3-2-1-isomap-teapot-different",
                "Isomap and MVU return quite different results on the teapot (3.2.1, Fig. "
                "3.31)", different, lambda r: procrustes_text(r)
                + f" (above {DIFFERENT:g} for 'quite different')"),
    ]
