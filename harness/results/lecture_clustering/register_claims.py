"""The claims-register entries the spectral clustering table can decide (issue 51;
statwiki STAT 841 F14, lectures 7-8, lines 1041 and 1048), on the table's long CSV
(``adjusted_rand_index`` against the generating labels).


Readings (``harness/claims_register/lectures.yaml``), literal: an ARI "at least 0.9" is
checked against two standard errors over the runs (inside decides nothing); both
implementations (ours, NJW, and scikit-learn's) are spectral clustering, each a case of
these "some" entries. "Beats k-means" is not measured: k-means is not a row of the
table. The multiclass entry's "k well-separated clusters" are the blobs
(:data:`MULTICLASS`, three centres in the profiles); digits (ten classes that overlap)
are not well separated. lec-fiedler-sign-splits-classes needs the sign partition of the
Fiedler vector and L's spectrum, which the table does not keep.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.claims import Reading, beyond_noise, make_claim, readings_claim

__all__ = ["register_claims", "SHAPES", "MULTICLASS"]

#: the lecture's toy shapes (line 1041) and the data sets of k >= 3 separated clusters
SHAPES, MULTICLASS = ("two_moons", "circles"), ("blobs",)
ARI = 0.9


def _cases(frame: pd.DataFrame | None, datasets) -> tuple[list, list[str]]:
    """Per (data set, method) measured: ARI >= 0.9 beyond two standard errors; text."""
    if frame is None:
        return [], []
    hit = frame[(frame["measure"] == "adjusted_rand_index") & frame["dataset"].isin(datasets)
                & (frame["status"] == "ok")]
    checks, shown = [], []
    for row in hit.itertuples():
        se = row.ours_std / math.sqrt(row.n_runs) if row.n_runs > 1 else 0.0
        checks.append(beyond_noise(row.ours - ARI, 2 * se))
        shown.append(f"{row.dataset} {row.thesis_label}: ARI {row.ours:.3f}")
    return checks, shown


def register_claims(name: str, frame: pd.DataFrame | None) -> list[dict]:
    """lec-spectral-clustering-groups-like-person and lec-multiclass-spectral-clustering."""
    checks, shown = _cases(frame, SHAPES)
    person = readings_claim(
        name, "Spectral clustering groups the points as a person may: on two moons and "
              "concentric circles it matches the generating labels (lectures 7-8)",
        [Reading("matches generating labels", checks,
                 "; ".join(shown) or "two moons and circles not measured"),
         Reading("beats k-means", [], "k-means is not a row of this table")],
        register="lec-spectral-clustering-groups-like-person")
    checks, shown = _cases(frame, MULTICLASS)
    multi = make_claim(name, "Spectral clustering recovers k >= 3 well-separated clusters "
                             "from the bottom eigenvectors then k-means (lectures 7-8)",
                       checks, "; ".join(shown) or "blobs not measured",
                       register="lec-multiclass-spectral-clustering")
    return [person, multi]
