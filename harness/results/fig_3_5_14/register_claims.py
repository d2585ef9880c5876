"""The claims-register entries Figs. 3.5 and 3.14's records decide (issue 55; thesis
3.1.5, line 1404 and 1530; 3.1.6, lines 1562 and 1600-1611), each under the entry's
readings (``harness/claims_register/chapter_3.yaml``).

Only certified solves count (``certified``: the point ran and the harness' certificate
says ``optimal``); an uncertified one is named in the evidence and left out. The
spectra are the rows' normalised eigenvalues ``ev1..ev20`` (eigenvalues over their
sum), the input's normalised PCA spectrum ``input_ev1..``; the slack points' n is
``slack_n_samples`` (the dense backends' cap), which the evidence names beside the
thesis' n = 800.

Where a register tolerance is a band around a threshold or a difference ("0.5
percentage points around the threshold is undecided", "> 0.01"), a value inside it is
:data:`harness.claims.WITHIN_NOISE`; a bare threshold ("< 0.01") is a hard one. CPU
time ratios get the harness' timing band
(:func:`harness.results.solver_table.register_claims.timing_ratio_check`).
"""

from __future__ import annotations


import pandas as pd

from harness.claims import (
    WITHIN_NOISE, Reading, about_most, beyond_noise, make_claim, readings_claim,
)
from harness.results.solver_table.register_claims import TIMING_BAND, timing_ratio_check

from . import NAME

__all__ = ["register_claims", "count_above", "THESIS_N", "BAR_THRESHOLD", "BAR_BAND",
           "LOCK", "UNFOLDED", "NAMED_DATA"]

THESIS_N = 800
#: s3-1-5-fig-3-5-bar-diagram-before-after: 5 %, undecided within 0.5 percentage points
BAR_THRESHOLD, BAR_BAND = 0.05, 0.005
#: Fig. 3.14's "locked" (third normalised eigenvalue, s3-1-6-fig-3-14-strict-locks-up)
LOCK = 0.05
#: "unfolded": top-2 share (s3-1-6-fig-3-14-slack-unfolds)
UNFOLDED = 0.95
#: the data sets of the register's "most data sets" entries; the roll is ours
NAMED_DATA = ["swiss_roll", "teapot", "digits", "frey"]


def count_above(values, threshold: float, band: float = 0.0):
    """How many of ``values`` exceed ``threshold``, and whether one lies within
    ``band`` of it (then the count is not decided)."""
    values = [float(v) for v in values if v == v]
    return sum(v > threshold for v in values), any(abs(v - threshold) <= band for v in values)


def _certified(frame: pd.DataFrame, **match) -> pd.DataFrame:
    rows = frame
    for column, value in match.items():
        rows = rows[rows[column] == value]
    return rows[rows["certified"].fillna(False).astype(bool)]


def _left_out(frame: pd.DataFrame, **match) -> str:
    rows = frame
    for column, value in match.items():
        rows = rows[rows[column] == value]
    out = rows[~rows["certified"].fillna(False).astype(bool)]
    return "".join(f"; {r['key']} ({r['variant']}) not counted: {r['status']} "
                   f"{r['solve_status'] or ''}".rstrip() for _, r in out.iterrows())


def _ev(row, i: int) -> float:
    return float(row[f"ev{i}"])


def _evs(row, prefix: str = "ev") -> list[float]:
    return [float(row[c]) for c in row.index
            if c.startswith(prefix) and c[len(prefix):].isdigit() and row[c] == row[c]]


def _fig_3_5(config: dict, frame: pd.DataFrame) -> pd.DataFrame:
    return _certified(frame, data="noisy", variant="strict",
                      n_samples=config["results"][NAME]["n_samples"])


def _no_point(config, frame, data, variant, n) -> str:
    return (f"no certified {data} {variant} point at n = {n}"
            + _left_out(frame, data=data, variant=variant, n_samples=n))


# ---- Fig. 3.5 -----------------------------------------------------------------------
def _bar_diagram(config: dict, frame: pd.DataFrame) -> dict:
    rows, n = _fig_3_5(config, frame), config["results"][NAME]["n_samples"]
    text = ("Fig. 3.5's bar diagram: three normalised input eigenvalues above 5 % before, "
            "two after unfolding (3.1.5)")
    if rows.empty:
        return make_claim(NAME, text, [], _no_point(config, frame, "noisy", "strict", n),
                          register="s3-1-5-fig-3-5-bar-diagram-before-after")
    r = rows.iloc[0]
    checks, parts = [], []
    for what, values, want in (("before (input PCA)", _evs(r, "input_ev"), 3),
                               ("after (MVU)", _evs(r), 2)):
        count, near = count_above(values, BAR_THRESHOLD, BAR_BAND)
        checks.append(WITHIN_NOISE if near else count == want)
        parts.append(f"{what}: {count} above {BAR_THRESHOLD:g} (want {want}; "
                     f"{', '.join(f'{v:.4f}' for v in values[:4])}"
                     + (f"; one within {BAR_BAND:g} of the threshold" if near else "") + ")")
    return make_claim(NAME, text, checks, f"n = {int(r['n_samples'])}, k = "
                      f"{config['results'][NAME]['n_neighbors']}: " + "; ".join(parts),
                      register="s3-1-5-fig-3-5-bar-diagram-before-after")


def _length_width(config: dict, frame: pd.DataFrame) -> dict:
    rows, n = _fig_3_5(config, frame), config["results"][NAME]["n_samples"]
    text = "The unwrapped Swiss roll is much longer than it is wide (3.1.5, Fig. 3.5)"
    register = "s3-1-5-fig-3-5-length-much-larger-than-width"
    if rows.empty:
        none = _no_point(config, frame, "noisy", "strict", n)
        return readings_claim(NAME, text, [Reading("effect size", [], none),
                                           Reading("ground truth", [], none)], register)
    r = rows.iloc[0]
    ratio, truth = float(r["lambda1_over_lambda2"]), float(r["unrolled_variance_ratio"])
    factor = float(r["ratio_over_truth"])
    return readings_claim(NAME, text, [
        Reading("effect size", [ratio >= 2.0],
                f"lambda_1 / lambda_2 = {ratio:.3g} (much: >= 2), n = {int(r['n_samples'])}"),
        Reading("ground truth", [1 / 1.5 <= factor <= 1.5],
                f"lambda_1 / lambda_2 = {ratio:.3g} against the unrolled coordinates' "
                f"variance ratio {truth:.3g}: factor {factor:.3g} (within 1.5 wanted)"),
    ], register)


def _near_zero(config: dict, frame: pd.DataFrame) -> dict:
    rows, n = _fig_3_5(config, frame), config["results"][NAME]["n_samples"]
    text = ("The other MVU eigenvalues are nearly zero: the correct dimensionality d = 2 "
            "(3.1.5, Fig. 3.5)")
    register = "s3-1-5-fig-3-5-other-eigenvalues-near-zero"
    if rows.empty:
        none = _no_point(config, frame, "noisy", "strict", n)
        return readings_claim(NAME, text, [Reading("each small", [], none),
                                           Reading("tail small", [], none)], register)
    r = rows.iloc[0]
    tail = float(r["tail_share"])
    return readings_claim(NAME, text, [
        Reading("each small", [_ev(r, 3) < 0.01],
                f"largest from the third on: lambda_3 = {_ev(r, 3):.3g} (< 0.01 wanted)"),
        Reading("tail small", [tail < 0.05],
                f"sum from the third on {tail:.3g} (< 0.05 wanted), n = {int(r['n_samples'])}"),
    ], register)


# ---- Fig. 3.14 and 3.1.6 ------------------------------------------------------------
def _slack_and_strict(config: dict, frame: pd.DataFrame, omega: float):
    """Fig. 3.14's pair at the slack points' n: the noise-free slack point at ``omega``
    and the strict point beside it, each certified, or None and why not."""
    ns = config["results"][NAME]["slack_n_samples"]
    slack = _certified(frame, data="noise_free", variant="slack", n_samples=ns)
    slack = slack[(slack["omega"] - omega).abs() < 1e-12]
    strict = _certified(frame, data="noise_free", variant="strict", n_samples=ns)
    if slack.empty or strict.empty:
        why = (_no_point(config, frame, "noise_free", f"slack (omega {omega:g})", ns)
               if slack.empty else _no_point(config, frame, "noise_free", "strict", ns))
        return None, None, why
    return slack.iloc[0], strict.iloc[0], ""


def _size_note(n: int) -> str:
    return f"n = {n}" + ("" if n == THESIS_N else f" (the thesis: n = {THESIS_N})")


def _off_size(n: int) -> str:
    """Why a slack point at ``n`` decides nothing: the register's tests name the
    thesis' n = 800, and a verdict on another instance is not one on Fig. 3.14's."""
    return (f"; not a verdict at this size: measured at n = {n}, not the register's "
            f"n = {THESIS_N} (no solver here has the slack variant at n = {THESIS_N}: "
            f"the dense cvxpy backends stop at n = 150)") if n != THESIS_N else ""


def _unfolded_reading(slack, strict, why) -> Reading:
    if slack is None:
        return Reading("unfolded", [], why)
    off = _off_size(int(slack["n_samples"]))
    locked = _ev(strict, 3) >= LOCK
    evidence = (f"slack top-2 share {float(slack['top2']):.4f} (>= {UNFOLDED:g} wanted), "
                f"omega {float(slack['omega']):g}, {_size_note(int(slack['n_samples']))}; "
                f"strict beside it: third eigenvalue {_ev(strict, 3):.3g}")
    if not locked:
        return Reading("unfolded", [], evidence + f" < {LOCK:g}: strict is not locked up at "
                       f"this n, not Fig. 3.14's situation; no verdict")
    if off:
        return Reading("unfolded", [], evidence + " (locked)" + off)
    return Reading("unfolded", [float(slack["top2"]) >= UNFOLDED], evidence + " (locked)")


def _slack_unfolds(config: dict, frame: pd.DataFrame) -> list[dict]:
    omega = float(config["results"][NAME]["fig_3_14_omega"])
    slack, strict, why = _slack_and_strict(config, frame, omega)
    unfolded = _unfolded_reading(slack, strict, why)
    if slack is None or not unfolded.checks:
        better = Reading("better than strict", [], unfolded.evidence)
    else:
        diff = float(slack["top2_minus_strict"])
        better = Reading("better than strict", [beyond_noise(diff, 0.01)],
                         f"top-2 share slack {float(slack['top2']):.4f} - strict "
                         f"{float(strict['top2']):.4f} = {diff:.4f} (> 0.01 wanted)")
    return [
        readings_claim(NAME, "With slack, MVU of the noise-free roll gives the expected "
                       "(unfolded) result (3.1.6, Fig. 3.14)", [unfolded, better],
                       "s3-1-6-fig-3-14-slack-unfolds"),
        make_claim(NAME, "Fig. 3.14's caption: allowing slack leads to the desired solution "
                   "(3.1.6)", unfolded.checks, unfolded.evidence,
                   register="s3-1-6-fig-3-14-caption-slack-desired"),
    ]


def _noise_less_rigid(config: dict, frame: pd.DataFrame) -> dict:
    n = config["results"][NAME]["n_samples"]
    text = ("The noise dimensions make the problem less rigid: strict MVU concentrates "
            "more in two dimensions with them (3.1.6)")
    noisy = _certified(frame, data="noisy", variant="strict", n_samples=n)
    free = _certified(frame, data="noise_free", variant="strict", n_samples=n)
    if noisy.empty or free.empty:
        return make_claim(NAME, text, [], _no_point(config, frame, "noisy" if noisy.empty
                                                    else "noise_free", "strict", n),
                          register="s3-1-6-noise-makes-less-rigid")
    a, b = float(noisy.iloc[0]["top2"]), float(free.iloc[0]["top2"])
    diff = float(noisy.iloc[0]["top2_minus_noise_free"])
    return make_claim(NAME, text, [beyond_noise(diff, 0.01)],
                      f"strict top-2 share with noise dimensions {a:.4f}, without {b:.4f} "
                      f"(difference {diff:.4f}, > 0.01 wanted), same roll samples, n = {n}",
                      register="s3-1-6-noise-makes-less-rigid")


def _omega_works(config: dict, frame: pd.DataFrame) -> dict:
    """Per roll and omega: near 1 (>= 0.99) passes when the relative RMS violation is
    below 5 % and the top-2 share at least 0.9; small omega (<= 0.5) passes when not
    both ("most" of the cases)."""
    conf = config["results"][NAME]
    text = "Choosing omega very close to 1 works well for slack MVU (3.1.6)"
    checks, parts, missing = [], [], ""
    for data in ("noise_free", "noisy"):
        for omega in conf["omegas"]:
            if 0.5 < omega < 0.99:
                continue  # neither near 1 nor small in the register's reading
            rows = _certified(frame, data=data, variant="slack",
                              n_samples=conf["slack_n_samples"])
            rows = rows[(rows["omega"] - omega).abs() < 1e-12]
            if rows.empty:
                every = frame[(frame["data"] == data) & (frame["variant"] == "slack")
                              & ((frame["omega"] - omega).abs() < 1e-12)]
                why = ("not run" if every.empty else
                       f"{every.iloc[0]['status']}: {every.iloc[0]['reason']}".rstrip(": "))
                missing += f"; {data} omega {omega:g} not counted (uncertified; {why})"
                continue
            r = rows.iloc[0]
            good = float(r["relative_rms_violation"]) < 0.05 and float(r["top2"]) >= 0.9
            checks.append(good if omega >= 0.99 else not good)
            parts.append(f"{data} omega {omega:g}: violation {float(r['relative_rms_violation']):.3g}, "
                         f"top-2 {float(r['top2']):.3f}")
    off = _off_size(int(conf["slack_n_samples"]))
    return make_claim(NAME, text, [] if off else checks,
                      f"n = {conf['slack_n_samples']} (the register: n = {THESIS_N}){off}; "
                      + ("; ".join(parts) or "no certified slack point") + missing
                      + "; near 1 wants violation < 0.05 and top-2 >= 0.9, small omega not both",
                      register="s3-1-6-omega-close-to-one-works")


def _relaxed_fewer(config: dict, frame: pd.DataFrame) -> dict:
    """Slack (omega of Fig. 3.14) against strict at the slack points' n, per roll; the
    roll counts as one of the register's data sets (a pass when every roll passes)."""
    conf = config["results"][NAME]
    omega, ns = float(conf["fig_3_14_omega"]), conf["slack_n_samples"]
    counts, shares, parts = [], [], []
    for data in ("noise_free", "noisy"):
        slack = _certified(frame, data=data, variant="slack", n_samples=ns)
        slack = slack[(slack["omega"] - omega).abs() < 1e-12]
        strict = _certified(frame, data=data, variant="strict", n_samples=ns)
        if slack.empty or strict.empty:
            parts.append(f"{data}: no certified pair at n = {ns}")
            continue
        s, t = slack.iloc[0], strict.iloc[0]
        counts.append(int(s["count_above_1pct"]) <= int(t["count_above_1pct"]))
        shares.append(beyond_noise(float(s["top2_minus_strict"]), 0.005))
        parts.append(f"{data}: eigenvalues above 1 % slack {int(s['count_above_1pct'])} vs "
                     f"strict {int(t['count_above_1pct'])}, top-2 share {float(s['top2']):.4f} "
                     f"vs {float(t['top2']):.4f}")
    readings = []
    for name, checks in (("count", counts), ("concentration", shares)):
        roll = (None if not checks else False if False in checks
                else WITHIN_NOISE if WITHIN_NOISE in checks else True)
        passed = {} if roll is None else {"swiss_roll": roll}
        decided, why = about_most(passed, NAMED_DATA)
        readings.append(Reading(name, decided, "; ".join(parts) + f", omega {omega:g}, "
                                f"{_size_note(ns)}" + (f"; {why}" if why else "")))
    return readings_claim(NAME, "Relaxed MVU (slack) has fewer appreciable eigenvalues than "
                          "strict MVU (3.1.6)", readings,
                          "s3-1-6-relaxed-fewer-appreciable-eigenvalues")


# ---- the k-NN-only relaxation -------------------------------------------------------
def _fewer_constraints(config: dict, frame: pd.DataFrame) -> dict:
    rows = frame[(frame["variant"] == "graph_counts") & frame["k"].notna()]
    checks = [float(r["edge_ratio"]) >= 2.0 for _, r in rows.iterrows()]
    listing = ", ".join(f"{r['data']} k = {int(r['k'])}: {int(r['clique_edges'])} / "
                        f"{int(r['knn_edges'])} = {float(r['edge_ratio']):.3g}"
                        for _, r in rows.iterrows())
    n = "" if rows.empty else f" at n = {int(rows['n_samples'].iloc[0])}"
    return make_claim(NAME, "Preserving only k-NN distances needs many fewer constraints "
                      "than the clique graph (3.1.6)", checks,
                      f"clique / k-NN edges{n}: {listing or 'not measured'} (>= 2 wanted)",
                      register="s3-1-6-knn-only-many-fewer-constraints")


def _knn_pairs(frame: pd.DataFrame):
    """(key, knn row, clique row) of every k-NN-only point whose two solves are certified,
    and the evidence for those left out."""
    pairs, left = [], ""
    for key in dict.fromkeys(frame.loc[frame["variant"] == "knn", "key"]):
        knn = frame[(frame["key"] == key) & (frame["variant"] == "knn")].iloc[0]
        clique = frame[(frame["key"] == key) & (frame["variant"] == "clique_beside_knn")].iloc[0]
        if bool(knn["certified"]) and bool(clique["certified"]):
            pairs.append((key, knn, clique))
        else:
            left += (f"; {key} not counted: k-NN {knn['status']} {knn['solve_status'] or ''}, "
                     f"clique {clique['status']} {clique['solve_status'] or ''}")
    return pairs, left


def _knn_larger(config: dict, frame: pd.DataFrame) -> dict:
    pairs, left = _knn_pairs(frame)
    checks, parts = [], []
    for key, knn, clique in pairs:
        ratio = float(knn["knn_over_clique_cpu"])
        checks.append(timing_ratio_check(ratio, 0.0, 0.67))
        parts.append(f"{key}: {float(knn['cpu_seconds']):.1f} / {float(clique['cpu_seconds']):.1f}"
                     f" CPU-s = {ratio:.3g}")
    time_reading = Reading("time", checks, "k-NN / clique CPU time, side by side: "
                           + ("; ".join(parts) or "no certified pair") + left
                           + f" (< 0.67 wanted, {100 * TIMING_BAND:g} % timing band)")
    size_reading = Reading("size", [], "not measured: the largest n solved within a fixed "
                           "budget needs a budget sweep over n, which this result does not run")
    return readings_claim(NAME, "Preserving only k-NN distances unfolds larger data sets "
                          "(3.1.6)", [time_reading, size_reading],
                          "s3-1-6-knn-only-unfolds-larger-sets")


def _knn_aggressive(config: dict, frame: pd.DataFrame) -> dict:
    pairs, left = _knn_pairs(frame)
    shares, counts, parts = [], [], []
    for key, knn, clique in pairs:
        shares.append(beyond_noise(float(knn["top2_minus_strict"]), 0.005))
        counts.append((int(knn["count_above_1pct"]), int(clique["count_above_1pct"])))
        parts.append(f"{key}: top-2 k-NN {float(knn['top2']):.4f} vs clique "
                     f"{float(clique['top2']):.4f}, above 1 % {counts[-1][0]} vs {counts[-1][1]}")
    roll_share = (None if not shares else False if False in shares
                  else WITHIN_NOISE if WITHIN_NOISE in shares else True)
    roll_count = (None if not counts else
                  all(a <= b for a, b in counts) and any(a < b for a, b in counts))
    readings = []
    for name, roll in (("concentration", roll_share), ("count", roll_count)):
        decided, why = about_most({} if roll is None else {"swiss_roll": roll}, NAMED_DATA)
        readings.append(Reading(name, decided, ("; ".join(parts) or "no certified pair") + left
                                + (f"; {why}" if why else "")))
    return readings_claim(NAME, "Preserving only k-NN distances leads to more aggressive "
                          "dimensionality reduction (3.1.6)", readings,
                          "s3-1-6-knn-only-more-aggressive")


def register_claims(config: dict, frame: pd.DataFrame) -> list[dict]:
    """One claim per register entry this result decides, from
    :func:`harness.results.fig_3_5_14.write.build`'s frame."""
    return [_bar_diagram(config, frame), _length_width(config, frame),
            _near_zero(config, frame), *_slack_unfolds(config, frame),
            _noise_less_rigid(config, frame), _omega_works(config, frame),
            _relaxed_fewer(config, frame), _fewer_constraints(config, frame),
            _knn_larger(config, frame), _knn_aggressive(config, frame)]
