"""The claims-register entries of thesis 3.1.11's Figs. 3.25-3.27 and their text
(issue 55; lines 1949-1962), decided on :func:`harness.results.fig_3_25_27.write.build`'s
frame: one row per data set of Fig. 3.24 with both points' spectrum and embedding
quantities (:mod:`.spectra`; prefix ``max_`` / ``min_``).

Counted: real data whose two solves are certified optimal (``certified``); a stand-in
(the teapot's, in the quick profile) is shown in the evidence and never counted
(:func:`harness.claims.stand_in_claim` where it is all there is); a data set not
reachable is not measured. A tolerance of the register is the band inside which a
difference decides nothing (:func:`harness.claims.beyond_noise`). A claim about the
four data sets of Fig. 3.24 (Swiss roll, teapot, MNIST fives, Frey) is about every one
(:func:`harness.claims.about_every`) or most (:func:`harness.claims.about_most`, at
least 3 of 4) as its entry says; "some" holds on one counted pass.
"""

from __future__ import annotations

import pandas as pd

from harness.claims import (
    Reading, about_every, about_most, beyond_noise, make_claim, readings_claim, stand_in_claim,
)

__all__ = ["FIG_3_24_DATASETS", "MUCH_LOAD", "register_claims"]

NAME = "fig_3_25_27"
FIG_3_24_DATASETS = ("swiss_roll", "teapot", "mnist_fives", "frey")
TOL = 0.01           # the register's 0.01 (loads, losses, trust, intersection)
MUCH_LOAD = 1.25     # "much higher" load: a ratio of at least 1.25
MUCH_LOSS = 2.0      # "much higher error": at least 2x
MATCH = 0.05         # Swiss roll: Procrustes residual and spectrum within 0.05
GAP = 2.0            # MNIST "no clear cutoff": no lambda_r / lambda_{r+1} above 2
TAIL = 0.2           # MNIST "very high error": more than 20 % outside the top 10
VIOLATION = 1e-3     # MNIST: local distances preserved within 1e-3
ONE_D = 0.9          # teapot "almost one dimensional": lambda_1 / trace >= 0.9
ONE_D_GAP = (0.8, 5.0)


def _flag(value) -> bool:
    return str(value).strip().lower() == "true"


def _counted(frame: pd.DataFrame) -> pd.DataFrame:
    ok = frame[(frame["status"] == "ok") & ~frame["stand_in"].map(_flag)]
    return ok[ok["certified"].map(_flag)]


def _stand_ins(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[(frame["status"] == "ok") & frame["stand_in"].map(_flag)]


def _row(frame: pd.DataFrame, thesis: str):
    rows = _counted(frame)
    rows = rows[rows["thesis_dataset"] == thesis]
    return None if rows.empty else rows.iloc[0]


def _gaps(frame: pd.DataFrame, datasets) -> str:
    """The thesis data sets of ``datasets`` with no counted row, each with why: the real
    data's gap (its status), its solve not certified, or a stand-in only."""
    counted = set(_counted(frame)["thesis_dataset"])
    missing = []
    for d in datasets:
        if d in counted:
            continue
        rows = frame[frame["thesis_dataset"] == d]
        real = rows[~rows["stand_in"].map(_flag)]
        if len(real) and (real["status"] != "ok").all():
            why = str(real["status"].iloc[0])
        elif len(real):
            why = "SDP not certified"
        elif len(rows):
            why = "stand-in only"
        else:
            why = "not listed"
        missing.append(f"{d} ({why})")
    return ("not counted: " + ", ".join(missing)) if missing else ""


def _per_dataset(frame, fn) -> dict:
    """``{thesis data set: fn(row)}`` over the counted rows."""
    return {r.thesis_dataset: fn(r) for r in _counted(frame).itertuples()}


def _listing(frame, text, rows=None) -> str:
    rows = _counted(frame) if rows is None else rows
    return "; ".join(f"{r.dataset}: {text(r)}" for r in rows.itertuples()) or "none counted"


def _with_stand_ins(frame, evidence, text) -> str:
    stand = _stand_ins(frame)
    if len(stand):
        evidence += "; stand-in, not counted: " + _listing(frame, text, stand)
    gaps = _gaps(frame, FIG_3_24_DATASETS)
    return evidence + (f"; {gaps}" if gaps else "")


def _most(frame, name, fn, text, what) -> Reading:
    checks, why = about_most(_per_dataset(frame, fn), FIG_3_24_DATASETS)
    return Reading(name, checks, f"{what}: {_listing(frame, text)}" + (f" ({why})" if why else ""))


def _every(frame, name, fn, text, what) -> Reading:
    per = _per_dataset(frame, fn)
    checks, why = about_every(list(per.values()), FIG_3_24_DATASETS, list(per))
    return Reading(name, checks, f"{what}: {_listing(frame, text)}" + (f" ({why})" if why else ""))


def _load_text(r) -> str:
    return f"lambda_1/trace {r.min_share_1:.3f} min-trace, {r.max_share_1:.3f} max-trace"


def _higher_load(r):
    return beyond_noise(r.min_share_1 - r.max_share_1, TOL)


def _single(frame, thesis, claim, register, readings_of) -> dict:
    """A claim about one thesis data set: its readings on the counted row; a stand-in's
    numbers alone give a stand-in claim; else not measured, saying why."""
    row = _row(frame, thesis)
    if row is not None:
        readings = readings_of(row)
        if len(readings) == 1:
            return make_claim(NAME, claim, readings[0].checks, readings[0].evidence,
                              register=register)
        return readings_claim(NAME, claim, readings, register=register)
    stand = _stand_ins(frame)
    stand = stand[stand["thesis_dataset"] == thesis]
    if len(stand):
        row = stand.iloc[0]
        text = "; ".join(f"{r.name}: {r.evidence}" for r in readings_of(row))
        return stand_in_claim(NAME, claim, [row["dataset"]], text, register=register)
    return make_claim(NAME, claim, [], _gaps(frame, [thesis]) or f"{thesis} not measured",
                      register=register)


# ---- the entries -------------------------------------------------------------------
def _swiss(frame) -> dict:
    def readings(r):
        inputs = [r[f"input_spectrum_{i}"] for i in (1, 2, 3)]
        mins = [r[f"min_spectrum_{i}"] for i in (1, 2, 3)]
        return [Reading("Procrustes", [r.min_procrustes_to_input < MATCH],
                        f"relative Procrustes residual (orthogonal Q) of the min-trace "
                        f"embedding to the centred input {r.min_procrustes_to_input:.2e} "
                        f"(below {MATCH:g})"),
                Reading("spectrum", [abs(a - b) <= MATCH for a, b in zip(mins, inputs)],
                        "first three normalised eigenvalues, min-trace "
                        + ", ".join(f"{v:.4f}" for v in mins) + "; input PCA "
                        + ", ".join(f"{v:.4f}" for v in inputs) + f" (within {MATCH:g})")]
    return _single(frame, "swiss_roll", "Min-trace MVU on a noise-free Swiss roll gives an "
                   "output almost identical to the input (3.1.11)",
                   "s3-1-11-swiss-min-trace-identical-to-input", readings)


def _first_load(frame) -> dict:
    higher = _most(frame, "higher", _higher_load, _load_text,
                   f"lambda_1/trace of min-trace above max-trace's by more than {TOL:g}")
    much = _most(frame, "much higher",
                 lambda r: bool(r.load_ratio >= MUCH_LOAD),
                 lambda r: f"ratio {r.load_ratio:.3f}",
                 f"lambda_1/trace of min-trace at least {MUCH_LOAD:g} x max-trace's")
    claim = readings_claim(NAME, "Minimum-trace embeddings have a much higher relative load "
                           "in their first dimension (3.1.11)", [higher, much],
                           register="s3-1-11-min-trace-first-dimension-load")
    claim["evidence"] = _with_stand_ins(frame, claim["evidence"], _load_text)
    return claim


def _long_tail(frame) -> dict:
    def counts(col):
        return lambda r: (f"{int(getattr(r, 'min_' + col))} min-trace, "
                          f"{int(getattr(r, 'max_' + col))} max-trace")

    def text(r):
        return (f"95 %: {int(r.min_mass95_count)} / {int(r.max_mass95_count)}, above 1 %: "
                f"{int(r.min_share1pct_count)} / {int(r.max_share1pct_count)} (min / max)")

    claim = readings_claim(NAME, "Minimum-trace embeddings tend to have a long tail of small "
                           "eigenvalues (3.1.11)", [
        _most(frame, "95 % dims", lambda r: bool(r.min_mass95_count > r.max_mass95_count),
              counts("mass95_count"),
              "eigenvalues holding 95 % of the trace, more for min-trace"),
        _most(frame, "1 % eigenvalues",
              lambda r: bool(r.min_share1pct_count > r.max_share1pct_count),
              counts("share1pct_count"),
              "eigenvalues above 1 % of the trace, more for min-trace")],
        register="s3-1-11-min-trace-long-tail")
    claim["evidence"] = _with_stand_ins(frame, claim["evidence"], text)
    return claim


def _projection(frame) -> dict:
    def text(r):
        return (f"variance outside the top {int(r.n_components)}: {r.min_loss_r:.4f} "
                f"min-trace, {r.max_loss_r:.4f} max-trace")

    claim = readings_claim(NAME, "The projection onto a small subspace leads to a much "
                           "higher error for min-trace MVU (3.1.11)", [
        _every(frame, "higher error", lambda r: beyond_noise(r.min_loss_r - r.max_loss_r, TOL),
               text, f"min-trace's loss above max-trace's by more than {TOL:g}"),
        _every(frame, "much", lambda r: bool(r.min_loss_r >= MUCH_LOSS * r.max_loss_r), text,
               f"min-trace's loss at least {MUCH_LOSS:g} x max-trace's")],
        register="s3-1-11-projection-higher-error")
    claim["evidence"] = _with_stand_ins(frame, claim["evidence"], text)
    return claim


def _mnist_dimensional(frame) -> dict:
    def readings(r):
        return [Reading("95 % dims", [bool(r.min_mass95_count >= 2 * r.max_mass95_count)],
                        f"eigenvalues for 95 % of the trace: {int(r.min_mass95_count)} "
                        f"min-trace, {int(r.max_mass95_count)} max-trace (at least 2x)"),
                Reading("participation ratio",
                        [bool(r.min_participation_ratio >= 2 * r.max_participation_ratio)],
                        f"participation ratio {r.min_participation_ratio:.2f} min-trace, "
                        f"{r.max_participation_ratio:.2f} max-trace (at least 2x)")]
    return _single(frame, "mnist_fives", "Minimising the trace leads to a much higher "
                   "dimensional output on MNIST fives (3.1.11, Fig. 3.25)",
                   "s3-1-11-mnist-higher-dimensional", readings)


def _mnist_cutoff(frame) -> dict:
    def readings(r):
        return [Reading("no gap", [bool(r.min_largest_gap_10 <= GAP)],
                        f"largest lambda_r/lambda_(r+1), r <= 10, of the min-trace spectrum "
                        f"{r.min_largest_gap_10:.2f} at r = {int(r.min_largest_gap_at)} "
                        f"(none above {GAP:g})"),
                Reading("high error", [bool(r.min_loss_10 > TAIL)],
                        f"trace outside the top 10 dimensions {r.min_loss_10:.3f} "
                        f"(more than {TAIL:g})")]
    return _single(frame, "mnist_fives", "There is no clear cutoff point in the min-trace "
                   "spectrum of MNIST fives (3.1.11, Fig. 3.25)", "s3-1-11-mnist-no-cutoff",
                   readings)


def _mnist_infiltrate(frame) -> dict:
    def readings(r):
        trust = beyond_noise(r.max_local_trust_2d - r.min_local_trust_2d, TOL)
        inter = beyond_noise(r.max_neighborhood_intersection_2d
                             - r.min_neighborhood_intersection_2d, TOL)
        return [Reading("infiltration", [trust, inter, bool(r.min_violation <= VIOLATION)],
                        f"2-D local trust {r.min_local_trust_2d:.3f} min-trace, "
                        f"{r.max_local_trust_2d:.3f} max-trace; intersection "
                        f"{r.min_neighborhood_intersection_2d:.3f} / "
                        f"{r.max_neighborhood_intersection_2d:.3f} (lower by more than "
                        f"{TOL:g}); the min-trace solve's constraint violation "
                        f"{r.min_violation:.1e} (within {VIOLATION:g})")]
    return _single(frame, "mnist_fives", "Min-trace MVU lets neighbourhoods of MNIST fives "
                   "infiltrate each other while preserving local distances (3.1.11)",
                   "s3-1-11-mnist-neighbourhoods-infiltrate", readings)


def _teapot_1d(frame) -> dict:
    def readings(r):
        gap = r.min_gap_12
        return [Reading("90 %", [beyond_noise(r.min_share_1 - ONE_D, TOL)],
                        f"lambda_1/trace of min-trace {r.min_share_1:.3f} (at least {ONE_D:g})"),
                Reading("80 % and gap", [beyond_noise(r.min_share_1 - ONE_D_GAP[0], TOL),
                                         bool(gap >= ONE_D_GAP[1])],
                        f"lambda_1/trace {r.min_share_1:.3f} (at least {ONE_D_GAP[0]:g}), "
                        f"lambda_1/lambda_2 {gap:.2f} (at least {ONE_D_GAP[1]:g})")]
    return _single(frame, "teapot", "Minimum-trace MVU of the teapot is almost one "
                   "dimensional (3.1.11, Fig. 3.26)", "s3-1-11-teapot-almost-one-dimensional",
                   readings)


def _teapot_tail(frame) -> dict:
    def readings(r):
        return [Reading("neighbourhoods", [beyond_noise(
            0.5 * r.min_neighborhood_intersection_kept - r.min_neighborhood_intersection_1d,
            TOL)], f"intersection of the 1-D projection {r.min_neighborhood_intersection_1d:.3f}"
            f", of the min-trace embedding's {int(r.min_kept_dimensions)} kept dimensions "
            f"{r.min_neighborhood_intersection_kept:.3f} (below half by more than {TOL:g})")]
    return _single(frame, "teapot", "Significant information of the teapot's min-trace "
                   "embedding is stored in the tailing eigenvectors (3.1.11, Fig. 3.26)",
                   "s3-1-11-teapot-tail-information", readings)


def _teapot_collapse(frame) -> dict:
    def readings(r):
        half = int(r.n_samples) / 2
        return [Reading("majority in 5 %", [bool(r.min_window_5pct_count > half)],
                        f"{int(r.min_window_5pct_count)} of {int(r.n_samples)} points of the "
                        f"1-D projection within 5 % of its range (more than half)"),
                Reading("majority in 1 %", [bool(r.min_window_1pct_count > half)],
                        f"{int(r.min_window_1pct_count)} of {int(r.n_samples)} within 1 %")]
    return _single(frame, "teapot", "A projection of the teapot's min-trace output onto 1 "
                   "dimension collapses the majority of the inputs into a single point "
                   "(3.1.11)", "s3-1-11-teapot-1d-collapse", readings)


def _frey(frame) -> dict:
    def readings(r):
        ratio = r.mean_distance_ratio_2d
        return [Reading("loading", [_higher_load(r)], _load_text(r) + f" (above by more than "
                                                                    f"{TOL:g})"),
                Reading("clamped", [beyond_noise(1 - ratio, TOL)],
                        f"mean pairwise distance of the 2-D min-trace embedding over the "
                        f"max-trace one's {ratio:.3f} (below 1 by more than {TOL:g})")]
    return _single(frame, "frey", "On Frey faces the min-trace points are more clamped "
                   "together and the first eigenvalue has more relative loading (3.1.11, "
                   "Fig. 3.27)", "s3-1-11-frey-clamped-first-eigenvalue", readings)


def _some_cases(frame) -> dict:
    checks = list(_per_dataset(frame, _higher_load).values())
    evidence = _with_stand_ins(frame, _listing(frame, _load_text), _load_text)
    return make_claim(NAME, "In some cases the leading eigenvalues of min-trace MVU bear "
                      "more load (3.1.11)", checks, evidence,
                      register="s3-1-11-leading-eigenvalues-some-cases")


def _few_large(frame) -> dict:
    def text(r):
        return f"top-3 share {r.min_share_top3:.3f}; " + _load_text(r)

    claim = readings_claim(NAME, "Minimising the trace tends to result in a few large "
                           "eigenvalues (3.1.11)", [
        _most(frame, "top-3 share", lambda r: beyond_noise(r.min_share_top3 - 0.5, TOL),
              lambda r: f"{r.min_share_top3:.3f}",
              "the top three eigenvalues' share of min-trace K's trace, at least 0.5"),
        _most(frame, "more than max-trace", _higher_load, _load_text,
              f"lambda_1/trace of min-trace above max-trace's by more than {TOL:g}")],
        register="s3-1-11-min-trace-few-large-eigenvalues")
    claim["evidence"] = _with_stand_ins(frame, claim["evidence"], text)
    return claim


def register_claims(frame: pd.DataFrame) -> list[dict]:
    """One claim per register entry of Figs. 3.25-3.27 and their text, from the frame."""
    return [_swiss(frame), _first_load(frame), _long_tail(frame), _projection(frame),
            _mnist_dimensional(frame), _mnist_cutoff(frame), _mnist_infiltrate(frame),
            _teapot_1d(frame), _teapot_tail(frame), _teapot_collapse(frame), _frey(frame),
            _some_cases(frame), _few_large(frame)]
