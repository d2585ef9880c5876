"""The claims-register entries the ARE table can decide (issue 51; statwiki STAT 841
F14, lecture 7, lines 820-822): ARE "captures the trajectory of the robot", on the
table's long CSV (``alignment_error``: Procrustes disparity with the true positions).

Readings (``harness/claims_register/lectures.yaml``), literal: "small error" is ARE's
disparity at most 0.1, "better than sde" MVU's (= SDE's) disparity minus ARE's above
0.01; a difference inside the larger of that tolerance and two standard errors over the
runs decides nothing. The register fixes both entries on the moving-window data (a 2-D
random walk of up/down/left/right actions): the lecture's first experiment (40 steps
forward, 20 back) is not generated here, which the evidence says.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.claims import Reading, beyond_noise, make_claim, readings_claim

__all__ = ["register_claims"]

DATASET = "moving_window"
SMALL, BETTER = 0.1, 0.01


def _cell(frame: pd.DataFrame, label: str):
    """``(mean, standard error)`` of a method's alignment error on the moving window,
    or None when it is not measured or its SDP is not certified."""
    hit = frame[(frame["measure"] == "alignment_error") & (frame["thesis_label"] == label)
                & (frame["dataset"] == DATASET) & (frame["status"] == "ok")]
    hit = hit[hit["certified"].astype(str) != "False"] if "certified" in hit else hit
    if hit.empty:
        return None
    row = hit.iloc[0]
    runs = float(row["n_runs"])
    se = float(row["ours_std"]) / math.sqrt(runs) if runs > 1 else 0.0
    return float(row["ours"]), se


def register_claims(name: str, frame: pd.DataFrame | None) -> list[dict]:
    """lec-are-captures-trajectory (small error; better than SDE) and
    lec-are-captures-complicated-trajectory (small error), both "some"."""
    are = _cell(frame, "ARE") if frame is not None else None
    mvu = _cell(frame, "MVU") if frame is not None else None
    first = ("ARE captures the trajectory of the robot: its embedding aligns with the true "
             "positions (disparity <= 0.1) and better than SDE's (lecture 7, ARE)")
    second = ("ARE captures the trajectory on a sequence of several action types "
              "(disparity <= 0.1; lecture 7, ARE)")
    data = (f"{DATASET} (a random walk of up, down, left and right; the lecture's 40 "
            f"steps forward and 20 back are not generated here)")
    if are is None:
        why = "ARE's alignment error is not measured (or its SDP not certified)"
        return [make_claim(name, first, [], why, register="lec-are-captures-trajectory"),
                make_claim(name, second, [], why,
                           register="lec-are-captures-complicated-trajectory")]
    small = beyond_noise(SMALL - are[0], 2 * are[1])
    said = f"{data}: ARE's disparity {are[0]:.3f}"
    readings = [Reading("small error", [small], f"{said} (at most {SMALL:g})")]
    if mvu is None:
        readings.append(Reading("better than sde", [], "MVU's alignment error not measured"))
    else:
        noise = max(BETTER, 2 * math.hypot(are[1], mvu[1]))
        readings.append(Reading("better than sde", [beyond_noise(mvu[0] - are[0], noise)],
                                f"MVU's (= SDE's) {mvu[0]:.3f} against ARE's {are[0]:.3f} "
                                f"(ARE below by more than {BETTER:g} decides)"))
    return [readings_claim(name, first, readings, register="lec-are-captures-trajectory"),
            make_claim(name, second, [small], f"{said} (at most {SMALL:g})",
                       register="lec-are-captures-complicated-trajectory")]
