"""The lecture entries the ARE and spectral clustering tables can decide
(harness.results.lecture_{are,clustering}.register_claims; not wired into the results'
claims(), whose report part states none): real verdicts on hand-made long frames."""

from __future__ import annotations

import pandas as pd

from harness.results.lecture_are.register_claims import register_claims as are_claims
from harness.results.lecture_clustering.register_claims import (
    register_claims as clustering_claims)


def _are(are, mvu, std=0.0, runs=1):
    return pd.DataFrame([
        {"measure": "alignment_error", "thesis_label": label, "dataset": "moving_window",
         "status": "ok", "certified": True, "ours": value, "ours_std": std, "n_runs": runs}
        for label, value in (("ARE", are), ("MVU", mvu))])


def _verdicts(claims):
    return {c["register"]: c["verdict"] for c in claims}


def test_are_trajectory_holds_and_fails():
    assert _verdicts(are_claims("lecture_are", _are(0.03, 0.13))) == {
        "lec-are-captures-trajectory": "holds",
        "lec-are-captures-complicated-trajectory": "holds"}
    # ARE aligned but no better than MVU: the readings disagree
    assert _verdicts(are_claims("lecture_are", _are(0.03, 0.035)))[
        "lec-are-captures-trajectory"] == "partly holds"
    assert _verdicts(are_claims("lecture_are", _are(0.3, 0.1))) == {
        "lec-are-captures-trajectory": "does not hold",
        "lec-are-captures-complicated-trajectory": "does not hold"}
    assert set(_verdicts(are_claims("lecture_are", None)).values()) == {"not measured"}


def _clusters(ari, std=0.0):
    return pd.DataFrame([
        {"measure": "adjusted_rand_index", "dataset": d, "thesis_label": m, "status": "ok",
         "ours": ari[d], "ours_std": std, "n_runs": 3}
        for d in ("two_moons", "circles", "blobs") for m in ("NJW", "sklearn")])


def test_spectral_clustering_holds_and_fails():
    good = _verdicts(clustering_claims("c", _clusters(
        {"two_moons": 1.0, "circles": 1.0, "blobs": 1.0})))
    assert good == {"lec-spectral-clustering-groups-like-person": "holds",
                    "lec-multiclass-spectral-clustering": "holds"}
    bad = _verdicts(clustering_claims("c", _clusters(
        {"two_moons": 0.3, "circles": 0.0, "blobs": 0.5})))
    assert set(bad.values()) == {"does not hold"}
    # an ARI of 0.92 with a standard deviation of 0.1 over 3 runs: inside the noise
    noisy = _verdicts(clustering_claims("c", _clusters(
        {"two_moons": 0.92, "circles": 0.92, "blobs": 0.92}, std=0.1)))
    assert set(noisy.values()) == {"undecided (within noise)"}
