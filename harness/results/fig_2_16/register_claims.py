"""The claims-register entries Fig. 2.16's records decide (issue 51), one function per
entry, each implementing the entry's readings as the register writes them (thesis 2.1.9,
lines 989, 1025 and 1030).

The conventions are Fig. 2.13's (:mod:`harness.results.fig_2_13.register_claims`): a
CPU-time comparison is decided beyond the timing band (``results.fig_2_16.timing_band``),
inside it :data:`harness.claims.WITHIN_NOISE`; coordinate operations (the record's
``tree_work``, ``blocked_work``) are exact counts without a band; how large a speed-up
is, is judged only on the thesis' 60000 training digits
(:func:`~harness.results.common.write.balltree_figure.size_gate`); a trend in the input scale
is decided at any size.
"""

from __future__ import annotations

import pandas as pd

from harness.claims import Reading, make_claim, readings_claim
from harness.results.common.write import balltree_figure as common
from harness.results.fig_2_16 import NAME

__all__ = ["register_claims"]

#: "significantly" of line 1025 (register s2-1-9-ball-trees-speed-up-hinge-1025)
SIGNIFICANT_HINGE = 1.5
#: "strictly fewer [nodes] at each larger scale, by more than 10 %" (line 1030)
FEWER_BY = 0.10


def _smallest(ok: pd.DataFrame) -> pd.DataFrame:
    """The rows of the smallest r at the smallest input scale (the thesis' input)."""
    if ok.empty:
        return ok
    first = ok[ok["scale"] == ok["scale"].min()]
    return first[first["r"] == first["r"].min()]


def _training(ok, band, gate) -> dict:
    """s2-1-9-ball-trees-speed-up-lmnn-training (line 989): the hinge search's speed-up
    above 1 beyond the band at the smallest r; end-to-end training is not timed here."""
    row = _smallest(ok)
    checks = [common.clearly_below(1.0, s, band) for s in row["speedup"]]
    said = (f"r = {row['r'].iloc[0]}, scale {row['scale'].iloc[0]:g}: ball trees "
            f"{row['speedup'].iloc[0]:.3g}x over the blocked search" if len(row)
            else "not measured")
    return readings_claim(
        NAME, "Ball trees can be used to speed up LMNN training: the ball-tree search of "
              "active hinge losses is faster than the blocked search at the smallest r "
              f"(beyond the {100 * band:g} % timing band), and LMNN training as a whole "
              "(2.1.9, Fig. 2.16)",
        [Reading("hinge search", *((([], f"{said}; {gate}")) if gate else (checks, said))),
         Reading("end-to-end", [], "not measured: fig_2_16 times the hinge search only, not "
                                   "whole LMNN trainings with and without ball trees")],
        register="s2-1-9-ball-trees-speed-up-lmnn-training")


def _hinge_significant(ok, band, gate) -> dict:
    """s2-1-9-ball-trees-speed-up-hinge-1025 (line 1025): at the smallest r the hinge
    search's speed-up at least 1.5x, beyond the band in CPU time, and in coordinate
    operations."""
    row = _smallest(ok)
    checks = [common.both(common.at_least(s, SIGNIFICANT_HINGE, band),
                          *([common.at_least(w, SIGNIFICANT_HINGE, 0.0)] if w == w else []))
              for s, w in zip(row["speedup"], row["work_speedup"])]
    said = (f"r = {row['r'].iloc[0]}, scale {row['scale'].iloc[0]:g}: "
            f"{row['speedup'].iloc[0]:.3g}x CPU, {row['work_speedup'].iloc[0]:.3g}x "
            "coordinate ops" if len(row) else "not measured")
    return make_claim(
        NAME, "Ball trees can speed up the search for violated hinge losses significantly: "
              f"at the smallest r at least {SIGNIFICANT_HINGE:g}x over the blocked search, in "
              f"CPU time (beyond the {100 * band:g} % timing band) and in coordinate "
              "operations (2.1.9, Fig. 2.16)",
        *(([], f"{said}; {gate}") if gate else (checks, said)),
        register="s2-1-9-ball-trees-speed-up-hinge-1025")


def _margin_inflates(ok) -> dict:
    """s2-1-9-margin-inflates-hij (line 1030): the ball trees' distance evaluations
    (points and node centroids, BallTree.get_n_calls(), the record's ``tree_work / r``;
    their ratio is that of the nodes visited per (i, j) query, the queries being the
    same at every scale) strictly fewer at each larger input scale by more than 10 %,
    at every r. The scales are the profile's (``results.fig_2_16.scales``)."""
    checks, said = [], []
    for r, part in ok.dropna(subset=["tree_work"]).groupby("r", sort=True):
        part = part.sort_values("scale")
        work = list(part["tree_work"])
        for (s0, w0), (s1, w1) in zip(zip(part["scale"], work), zip(part["scale"][1:], work[1:])):
            checks.append(bool(w1 < (1.0 - FEWER_BY) * w0))
            said.append(f"r = {r}: {int(w0)} at scale {s0:g}, {int(w1)} at scale {s1:g}")
    return make_claim(
        NAME, "The constant margin inflates h_ij, which causes many sub-trees to be "
              "traversed: the ball trees' distance evaluations of the hinge search fall by "
              "more than 10 % at each larger input scale, at every r (2.1.9, Fig. 2.16)",
        checks, ("the ball trees' coordinate operations (their distance evaluations of "
                 "points and node centroids x r): " + "; ".join(said))
        if said else "fewer than two input scales measured",
        register="s2-1-9-margin-inflates-hij")


def register_claims(conf: dict, frame: pd.DataFrame) -> list[dict]:
    """The register entries Fig. 2.16 decides, beyond its own claims."""
    ok = frame[frame["status"] == "ok"]
    band = conf["timing_band"]
    gate = common.size_gate(ok["n_train"]) if len(ok) else ""
    return [_training(ok, band, gate), _hinge_significant(ok, band, gate), _margin_inflates(ok)]
