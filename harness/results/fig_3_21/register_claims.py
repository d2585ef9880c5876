"""The claims-register entry of Fig. 3.21 (thesis 3.1.8, line 1749) that its two own
statements do not cover: ``s3-1-8-sweet-spot-m10``, "there is a 'sweet spot' around m
~ 10 that best manages this tradeoff", read (register) as the knee of the loss-vs-m
curve lying in [5, 20] at the grid's resolution, on the US cities.

The register names two knee rules joined by "or"; both are computed and stated, and
the check needs both in [5, 20] (the most literal sense of a knee "around 10" that does
not hang on the rule chosen): :func:`kneedle_knee` (Kneedle: the largest distance of
the min-max normalised decreasing curve below the chord) and :func:`rate_knee` (the
first m where the loss reduction per extra eigenvector falls below 10 % of the first
step's). Only m whose SDP solve is certified optimal count (the loss claim's rule).
The cities are not reachable: on the stand-in the claim is shown, never counted
(:func:`harness.claims.stand_in_claim`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.claims import make_claim, stand_in_claim
from harness.results.common.write.certified import certified
from harness.results.fig_3_21 import NAME

__all__ = ["KNEE_RANGE", "RATE_FRACTION", "kneedle_knee", "rate_knee", "register_claims"]

#: "around m ~ 10": the knee in [5, 20]
KNEE_RANGE = (5, 20)
#: the rate rule's threshold, a fraction of the first step's loss reduction per eigenvector
RATE_FRACTION = 0.1


def kneedle_knee(m, loss) -> float:
    """Kneedle's knee of a decreasing convex curve: with m and the loss scaled to [0, 1],
    the m whose point lies farthest below the chord from the first to the last point
    (NaN for fewer than three points or a flat curve)."""
    m, loss = np.asarray(m, dtype=float), np.asarray(loss, dtype=float)
    if len(m) < 3 or np.ptp(loss) == 0:
        return float("nan")
    x = (m - m.min()) / np.ptp(m)
    y = (loss - loss.min()) / np.ptp(loss)
    return float(m[np.argmax((1 - x) - y)])


def rate_knee(m, loss, fraction: float = RATE_FRACTION) -> float:
    """The first m whose step to the next m reduces the loss per extra eigenvector by
    less than ``fraction`` of the first step's reduction per eigenvector (NaN when no
    step does, or for fewer than three points)."""
    m, loss = np.asarray(m, dtype=float), np.asarray(loss, dtype=float)
    if len(m) < 3:
        return float("nan")
    rates = -np.diff(loss) / np.diff(m)
    below = np.nonzero(rates < fraction * rates[0])[0]
    return float(m[below[0]]) if len(below) else float("nan")


def knee_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Both knees of the certified m's loss (3.26) as columns (one value, every row)."""
    ok = frame[(frame["status"] == "ok") & frame["sdp_status"].map(certified).astype(bool)]
    ok = ok.sort_values("m")
    frame = frame.copy()
    frame["knee_kneedle"] = kneedle_knee(ok["m"], ok["loss_326"])
    frame["knee_rate"] = rate_knee(ok["m"], ok["loss_326"])
    return frame


def register_claims(frame: pd.DataFrame, dataset: str) -> list[dict]:
    """The sweet-spot claim from the figure's frame (with :func:`knee_columns`)."""
    low, high = KNEE_RANGE
    text = ("There is a sweet spot around m = 10 that best manages the trade-off of loss "
            "against time: the knee of the loss-vs-m curve lies in "
            f"[{low}, {high}] (3.1.8, Fig. 3.21)")
    grid = ", ".join(str(int(m)) for m in sorted(frame.loc[frame["status"] == "ok", "m"]))
    knees = {"Kneedle": frame["knee_kneedle"].iloc[0], "rate below 10 % of the first step's":
             frame["knee_rate"].iloc[0]} if len(frame) else {}
    found = {k: v for k, v in knees.items() if v == v}
    checks = [low <= v <= high for v in found.values()] if len(found) == 2 else []
    evidence = (f"knee of the loss (3.26) against m on the grid {grid or 'not measured'}: "
                + "; ".join(f"{k} m = {v:g}" if v == v else f"{k}: none on the grid"
                            for k, v in knees.items())
                + " (both rules must place it in the range)")
    if (frame["status"] == "ok").any() and bool(frame["stand_in"].iloc[0]):
        return [stand_in_claim(NAME, text, [dataset], evidence,
                               register="s3-1-8-sweet-spot-m10")]
    return [make_claim(NAME, text, checks, evidence, register="s3-1-8-sweet-spot-m10")]
