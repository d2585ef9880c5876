"""The MVE plugin (harness/methods/mve.py): its embedding is kernel PCA of the final kernel,
the native and the dense solver agree, bad parameters are named."""

import numpy as np
import pytest

from harness.solvers.mve_solver import fidelity
from harness.methods.mve import MVE
from harness.methods.mvu import MVU
from tests.problems.mvu_data import noisy_roll


@pytest.fixture(scope="module")
def X():
    return noisy_roll(60, 5)


def test_embedding_is_kernel_pca_of_the_final_kernel(X):
    est = MVE(connectivity="knn", n_neighbors=5, max_iter=8).fit(X)
    F = est.kernel_factor_
    lam, V = np.linalg.eigh(F @ F.T)
    Y = V[:, ::-1][:, :2] * np.sqrt(lam[::-1][:2])
    np.testing.assert_allclose(np.abs(est.embedding_), np.abs(Y), atol=1e-8 * np.abs(Y).max())
    np.testing.assert_allclose(est.eigenvalues_[:3], lam[::-1][:3], rtol=1e-10)
    assert est.n_iter_ == len(est.history_) - 1 and est.status_ in ("converged", "max_iter")
    assert est.solve_info_["all_certified"] and est.solve_info_["status"] == "optimal"
    # more energy in two dimensions than MVU on the same neighbourhoods
    mvu = MVU(n_neighbors=5).fit(X)
    assert fidelity(est.eigenvalues_) >= fidelity(mvu.eigenvalues_) - 1e-6


def test_native_and_clarabel_give_the_same_kernel(X):
    Xs = X[:30]
    # three SDPs each from the same start (each B follows from the previous answer)
    native = MVE(n_neighbors=4, eps=1e-12, max_iter=3).fit(Xs)
    dense = MVE(n_neighbors=4, eps=1e-12, max_iter=3, solver="clarabel", tol_gap=1e-5).fit(Xs)
    assert native.n_iter_ == dense.n_iter_ == 3
    assert native.history_[-1]["objective"] == pytest.approx(
        dense.history_[-1]["objective"], rel=1e-4)
    np.testing.assert_allclose(native.eigenvalues_[:2], dense.eigenvalues_[:2], rtol=1e-3)


@pytest.mark.parametrize("param, value, match", [
    ("kernel", "poly", r"kernel must be one of \('linear', 'rbf'\), got 'poly'"),
    ("init", "zeros", r"init must be one of .*got 'zeros'"),
    ("solver", "native_lowrank", r"solver must be one of .*got 'native_lowrank'"),
    ("connectivity", "star", r"connectivity must be one of \('clique', 'knn'\), got 'star'"),
])
def test_bad_parameters_are_named(X, param, value, match):
    with pytest.raises(ValueError, match=match):
        MVE(**{param: value}).fit(X)


def test_duplicate_points_are_named(X):
    Xd = np.vstack([X, X[:1]])
    with pytest.raises(ValueError, match="distance 0 .* remove duplicates"):
        MVE().fit(Xd)


def test_dense_solvers_are_skipped_on_large_data():
    from harness.plugin import Dataset

    big = Dataset(np.zeros((500, 3)), None, {})
    skip, why = MVE.skip(big, "clarabel")
    assert skip and "up to n = 150" in why
    assert MVE.skip(big, "native") == (False, "")


def test_a_fallback_of_the_mvu_start_is_recorded(X, monkeypatch):
    # before: init="mvu" silently started from K = A when MVU's solve failed
    import harness.solvers.mve_solver as solver_module
    from harness.solvers.mvu_sdp.result import SolveResult

    real = solver_module.solve_mvu

    def solve(problem, solver, **kw):
        if kw.get("cost") is None:  # the MVU start
            return SolveResult("failed", "made to fail by the test", solver)
        return real(problem, solver, **kw)

    monkeypatch.setattr(solver_module, "solve_mvu", solve)
    est = MVE(connectivity="knn", n_neighbors=5, max_iter=3, init="mvu").fit(X)
    assert est.init_used_ == "affinity" and "made to fail" in est.init_fallback_reason_
    assert est.solve_info_["init_used"] == "affinity"
    assert est.solve_info_["init_solve"]["status"] == "failed"
    assert est.solve_info_["sdps_attempted"] == est.n_iter_
    assert est.solve_info_["failed_sdps"] == []
    plain = MVE(connectivity="knn", n_neighbors=5, max_iter=2).fit(X)
    assert plain.init_used_ == "affinity" and plain.init_fallback_reason_ == ""
