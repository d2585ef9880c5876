"""LLE-family fits fall back to the dense eigensolver when ARPACK fails on the null
space (as hLLE once did on Frey's faces: "Factor is exactly singular"), and say so."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.manifold._locally_linear as sk_lle
from sklearn.datasets import make_swiss_roll

from harness.methods.lle import LLE


def _singular(*args, **kwargs):
    raise RuntimeError("Factor is exactly singular")  # what SuperLU says on frey


@pytest.fixture
def roll():
    # n > 200 and 3 eigenvectors: scikit-learn's "auto" picks ARPACK
    return make_swiss_roll(n_samples=260, random_state=0)[0]


def test_arpack_failure_refits_dense_and_says_so(roll, monkeypatch):
    dense = LLE(n_neighbors=12, eigen_solver="dense").fit(roll)
    monkeypatch.setattr(sk_lle, "eigsh", _singular)
    fallback = LLE(n_neighbors=12, random_state=0).fit(roll)
    assert fallback.eigen_solver_used_ == "dense" and dense.eigen_solver_used_ == "dense"
    np.testing.assert_allclose(fallback.embedding_, dense.embedding_, atol=1e-10)
    assert fallback.reconstruction_error_ == pytest.approx(dense.reconstruction_error_)
    assert "Factor is exactly singular" in fallback.fit_note_
    assert "dense eigensolver" in fallback.fit_note_ and dense.fit_note_ is None


def test_arpack_success_keeps_arpack_and_other_errors_propagate(roll, monkeypatch):
    fitted = LLE(n_neighbors=12, eigen_solver="arpack", random_state=0).fit(roll)
    assert fitted.eigen_solver_used_ == "arpack" and fitted.fit_note_ is None

    def other(*args, **kwargs):
        raise ValueError("something else")

    monkeypatch.setattr(sk_lle, "eigsh", other)
    with pytest.raises(ValueError, match="something else"):
        LLE(n_neighbors=12, random_state=0).fit(roll)
