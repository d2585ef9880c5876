"""Fig. 3.28's claims-register entries on hand-made frames, both ways."""

from __future__ import annotations

import pandas as pd

from harness.results.fig_3_28.register_claims import register_claims

CONFIG = {"results": {"fig_3_28": {"readings": {"noise_free": {"dataset_params": {"noise": 0.0}}}}}}
PCA = (0.41, 0.32, 0.27)


def _frame(spectra: dict) -> pd.DataFrame:
    rows = []
    for k, ev in spectra.items():
        rows.append({"reading": "noise_free", "k": k, "status": "ok", "counted": True,
                     "n_samples": 1000, "ev1": ev[0], "ev2": ev[1], "ev3": ev[2],
                     **{f"input_pca_ev{i + 1}": PCA[i] for i in range(3)}})
    return pd.DataFrame(rows)


def _verdicts(frame):
    return {c["register"]: c["verdict"] for c in register_claims(CONFIG, frame)}


UNFOLDED, LOCKED = (0.9, 0.099, 0.001), PCA


def test_thesis_shape_holds():
    v = _verdicts(_frame({4: (0.995, 0.004, 0.001), 5: UNFOLDED, 6: LOCKED, 7: LOCKED,
                          8: LOCKED, 9: LOCKED, 10: LOCKED}))
    for entry in ("s3-1-6-fig-3-14-strict-locks-up", "s3-1-6-fig-3-14-caption-lock-up",
                  "s3-1-12-too-many-links-lock-up", "s3-1-12-lock-up-output-identical",
                  "s3-1-12-too-large-k-locking", "s3-1-12-lockup-spectrum-differs",
                  "s3-1-12-k-ge-7-three-dims", "s3-1-12-same-as-pca-spectrum",
                  "s3-1-12-caption-did-not-unfold", "s3-1-12-k-4-two-dims"):
        assert v[entry] == "holds", entry


def test_never_locking_fails():
    v = _verdicts(_frame({k: (0.6, 0.33, 0.04) for k in range(3, 11)}))
    for entry in ("s3-1-6-fig-3-14-strict-locks-up", "s3-1-6-fig-3-14-caption-lock-up",
                  "s3-1-12-too-many-links-lock-up", "s3-1-12-too-large-k-locking",
                  "s3-1-12-k-ge-7-three-dims", "s3-1-12-same-as-pca-spectrum",
                  "s3-1-12-caption-did-not-unfold", "s3-1-12-k-4-two-dims"):
        assert v[entry] == "does not hold", entry


def test_unlocking_again_and_small_differences_fail():
    v = _verdicts(_frame({3: (0.9, 0.05, 0.05), 4: (0.9, 0.05, 0.05), 5: (0.5, 0.38, 0.12),
                          6: (0.9, 0.07, 0.03)}))
    assert v["s3-1-12-too-many-links-lock-up"] == "does not hold"
    assert v["s3-1-12-lockup-spectrum-differs"] == "does not hold"
    assert v["s3-1-12-lock-up-output-identical"] == "does not hold"
