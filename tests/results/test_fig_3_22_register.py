"""Fig. 3.22's register entries (harness.results.fig_3_22.register_claims) on synthetic
MVU spectra of the two faces data sets."""

import numpy as np
import pandas as pd

from harness.results.fig_3_22.register_claims import register_claims


def _rows(dataset, eigenvalues, dim=560, status="optimal"):
    ev = np.asarray(eigenvalues, float)
    total = ev.sum() * 1.0001  # the kernel's other (tiny) eigenvalues
    return [{"dataset": dataset, "r": r + 1, "eigenvalue": v, "normalised_eigenvalue": v / total,
             "status": "ok", "counted": True, "stand_in": False,
             "certified": status == "optimal", "solve_status": status, "n_features": dim}
            for r, v in enumerate(ev)]


def _claims(frey, olivetti, **kw):
    frame = pd.DataFrame(_rows("frey", frey, **kw) + _rows("olivetti", olivetti))
    return {c["register"]: c for c in register_claims(frame)}


MANY = [30.0, 20.0, 10.0, 8.0, 6.0, 4.0, 3.0, 2.0, 1.0, 0.5] + [1e-5] * 10
THREE = [50.0, 30.0, 20.0] + [1e-6] * 17


def test_more_than_three_eigenvalues_holds_and_fails():
    assert _claims(MANY, MANY)["s3-1-9-faces-more-than-three-eigenvalues"]["verdict"] == "holds"
    assert _claims(MANY, THREE)["s3-1-9-faces-more-than-three-eigenvalues"]["verdict"] == (
        "does not hold")


def test_low_rank_holds_and_fails():
    assert _claims(MANY, THREE)["s4-mvu-kernel-generally-low-rank"]["verdict"] == "holds"
    flat = [1.0] * 20
    claim = _claims(flat, flat)["s4-mvu-kernel-generally-low-rank"]
    assert claim["verdict"] == "does not hold"
    assert "numerical rank at least 20" in claim["evidence"]


def test_an_uncertified_solve_is_left_out():
    claim = _claims(MANY, MANY, status="inaccurate")["s3-1-9-faces-more-than-three-eigenvalues"]
    assert claim["verdict"] == "not measured"
    assert "frey: the MVU solve is inaccurate, not certified optimal" in claim["evidence"]
