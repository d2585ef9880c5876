"""The claims-register entries the mu sweep decides (``harness/claims_register/
chapter_2.yaml``), from the result's frame (:func:`harness.results.lmnn_mu_sweep.write.build`:
one ``row == "dataset"`` row per swept data set with its spreads and gaps over the
runs, :mod:`.stats`; one ``row == "collapse"`` row per mu = 0 fit).

- ``s2-1-3-mu-not-sensitive`` (2.1.3): on each swept data set the kNN test error
  varies by at most 1 point (or within 2 SE) over mu in {0.25, 0.5, 0.75} (reading
  "middle range") and over {0.1, 0.3, 0.5, 0.7, 0.9} ("wide range"); "each data set"
  is each of the profile's swept data sets (the sentence names none), so a swept data
  set without a record leaves the claim unmeasured unless another fails.
- ``s2-1-6-mu-surprisingly-insensitive`` (2.1.6): the same over the wide grid for the
  kNN and for the energy classifier, about the thesis' nine Table 2.1 data sets
  (:data:`harness.results.table_2_1.runs.NINE`): a failing one decides, passes decide
  once all nine are measured.
- ``s2-1-3-mu-half-works-well`` (2.1.3, "most"): on more than half of the nine the kNN
  test error at mu = 0.5 is within 2 SE (or 0.5 points) of the best over the wide grid
  (:func:`~harness.results.table_2_1.runs.over_most` over all nine).
- ``s2-1-3-pull-alone-collapses`` (2.1.3): LMNN with mu = 0 ends with ``||M||_F``
  below 1e-6 of its start, on every collapse data set.

The check of "at most X points (or within 2 SE)" is :func:`.stats.at_most`: a pass at
or below X or within 2 SE, a counterexample above X + 2 SE, inside the noise between.
The MNIST and letter columns are filled by subsets (their sizes in each case's text).
"""

from __future__ import annotations


import pandas as pd

from harness.claims import make_claim, readings_claim
from harness.results.lmnn_mu_sweep import HALF, MIDDLE, NAME, WIDE
from harness.results.lmnn_mu_sweep.stats import at_most
from harness.results.table_2_1.runs import NINE, Case, over_every, over_most, reading

__all__ = ["VARIES", "NEAR_BEST", "COLLAPSED", "register_claims"]

#: "varies by at most 1 point"
VARIES = 1.0
#: "within 2 SE (or 0.5 points) of the best"
NEAR_BEST = 0.5
#: "final norm below 1e-6 of the initial norm"
COLLAPSED = 1e-6
LABEL = {"knn": "kNN", "energy": "energy"}


def _grid_text(grid) -> str:
    return "{" + ", ".join(f"{m:g}" for m in grid) + "}"


def _size(row) -> str:
    return f"{row.n_runs:.0f} runs of {row.n_train:.0f}/{row.n_test:.0f} points"


def _datasets(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["row"] == "dataset"] if "row" in frame else frame.iloc[0:0]


def _spread_cases(frame: pd.DataFrame, measure: str, grid_name: str, grid) -> list[Case]:
    """One case per swept data set: the range of its mean test errors over ``grid``."""
    cases = []
    for row in _datasets(frame).itertuples():
        if row.status != "ok":
            cases.append(Case(row.thesis_name, None, f"{row.thesis_name} ({row.reason})"))
            continue
        value = getattr(row, f"{measure}_range_{grid_name}")
        se = getattr(row, f"{measure}_range_{grid_name}_se")
        high = getattr(row, f"{measure}_range_{grid_name}_mu_high")
        low = getattr(row, f"{measure}_range_{grid_name}_mu_low")
        cases.append(Case(row.thesis_name, at_most(value, VARIES, se),
                          f"{row.thesis_name}: range {value:.2f} points (mu {high:g} "
                          f"highest, {low:g} lowest), SE {se:.2f}, {_size(row)}"))
    return cases


def _not_sensitive(frame: pd.DataFrame, swept: list[str]) -> dict:
    readings = []
    for name, grid_name, grid in (("middle range", "middle", MIDDLE),
                                  ("wide range", "wide", WIDE)):
        cases = _spread_cases(frame, "knn", grid_name, grid)
        readings.append(reading(name, cases, over_every(cases, swept)))
    return readings_claim(
        NAME, "The loss function (2.8) is not very sensitive with respect to mu: the kNN "
              "test error varies by at most 1 point (or within 2 SE) over mu in "
              f"{_grid_text(MIDDLE)} and in {_grid_text(WIDE)} (2.1.3)",
        readings, register="s2-1-3-mu-not-sensitive")


def _insensitive(frame: pd.DataFrame) -> dict:
    readings = []
    for name, measure in (("knn classifier", "knn"), ("energy classifier", "energy")):
        cases = _spread_cases(frame, measure, "wide", WIDE)
        readings.append(reading(name, cases, over_every(cases, NINE)))
    return readings_claim(
        NAME, "The LMNN classifier proved to be surprisingly insensitive to the exact value "
              f"of mu: kNN and energy test errors vary by at most 1 point (or within 2 SE) "
              f"over mu in {_grid_text(WIDE)} on the Table 2.1 data sets (2.1.6)",
        readings, register="s2-1-6-mu-surprisingly-insensitive")


def _half_works(frame: pd.DataFrame) -> dict:
    cases = []
    for row in _datasets(frame).itertuples():
        if row.status != "ok":
            cases.append(Case(row.thesis_name, None, f"{row.thesis_name} ({row.reason})"))
            continue
        cases.append(Case(
            row.thesis_name, at_most(row.knn_gap_half, NEAR_BEST, row.knn_gap_half_se),
            f"{row.thesis_name}: mu = {HALF:g} {row.knn_gap_half:.2f} points above the best "
            f"mu {row.knn_gap_half_mu_best:g}, SE {row.knn_gap_half_se:.2f}, "
            f"{_size(row)}"))
    checks, note = over_most(cases, NINE)
    shown = "; ".join(c.text for c in cases if c.check is not None)
    absent = ", ".join(c.text for c in cases if c.check is None)
    evidence = "; ".join(p for p in (shown, note, absent and f"not measured: {absent}") if p)
    return make_claim(
        NAME, f"mu = {HALF:g} seems to work well on most data sets: its kNN test error is "
              f"within 2 SE (or {NEAR_BEST:g} points) of the best over mu in "
              f"{_grid_text(WIDE)} on more than half of the Table 2.1 data sets (2.1.3)",
        checks, evidence, register="s2-1-3-mu-half-works-well")


def _collapses(frame: pd.DataFrame) -> dict:
    rows = frame[frame["row"] == "collapse"] if "row" in frame else frame.iloc[0:0]
    checks, texts = [], []
    for row in rows.itertuples():
        if row.status != "ok":
            texts.append(f"{row.dataset}: not measured ({row.reason})")
            continue
        checks.append(bool(row.norm_ratio < COLLAPSED))
        texts.append(f"{row.dataset}: ||M||_F {row.norm_initial:.3g} at the start, "
                     f"{row.norm_final:.3g} at the end (ratio {row.norm_ratio:.3g}, below "
                     f"{COLLAPSED:g} needed) after {row.n_iter:.0f} L-BFGS iterations; with "
                     f"mu = {HALF:g} the same fit ends at {row.norm_final_mu_half:.3g}")
    return make_claim(
        NAME, "Without any counter term, the pull term (2.5) could be minimised by setting "
              "L to the all-zero matrix: LMNN with mu = 0 drives ||M||_F below 1e-6 of its "
              "start (2.1.3)", checks, "; ".join(texts) or "no mu = 0 fit run",
        register="s2-1-3-pull-alone-collapses")


def register_claims(frame: pd.DataFrame, swept: list[str]) -> list[dict]:
    """The four entries' claims; ``swept``: the thesis names of the profile's swept
    data sets (what "each data set" of s2-1-3-mu-not-sensitive is about)."""
    return [_not_sensitive(frame, swept), _half_works(frame), _insensitive(frame),
            _collapses(frame)]
