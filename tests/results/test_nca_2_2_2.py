"""Section 2.2.2's NCA speed checks: the gradient as written against the matrix form and
finite differences, the diagonal gradient, the fits, and the verdicts on hand-made
records (holding, failing, undecided, unmeasured)."""

from __future__ import annotations

import numpy as np
import pytest

from harness.results.nca_2_2_2 import register_claims as rc
from harness.results.nca_2_2_2.work import diagonal_gradient, fit_nca, gradient_as_written
from harness.results.nca_local_minima.objectives import nca_gradient, nca_objective


def _data(n=30, d=4, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.integers(0, 3, n), rng


def test_the_gradient_as_written_is_the_matrix_form_and_the_objectives_derivative():
    X, y, rng = _data()
    A = np.eye(4) + 0.2 * rng.standard_normal((4, 4))
    G = gradient_as_written(A, X, y)
    np.testing.assert_allclose(G, nca_gradient(A, X, y), rtol=1e-10, atol=1e-12)
    h, E = 1e-6, np.zeros((4, 4))
    E[1, 2] = h
    fd = (nca_objective(A + E, X, y) - nca_objective(A - E, X, y)) / (2 * h)
    assert G[1, 2] == pytest.approx(fd, rel=1e-5)


def test_the_diagonal_gradient_against_finite_differences():
    X, y, rng = _data(seed=1)
    a = 1.0 + 0.3 * rng.standard_normal(4)
    g = diagonal_gradient(a, X, y)
    for k in range(4):
        e = np.zeros(4)
        e[k] = 1e-6
        fd = (nca_objective(np.diag(a + e), X, y) - nca_objective(np.diag(a - e), X, y)) / 2e-6
        assert g[k] == pytest.approx(fd, rel=1e-5, abs=1e-9)


def test_fits_improve_the_objective_from_the_identity():
    X, y, _ = _data(n=40, seed=2)
    start = nca_objective(np.eye(4), X, y)
    for diagonal in (False, True):
        fit = fit_nca(X, y, diagonal, max_iter=50, tol=1e-5)
        assert fit["objective"] >= start and fit["iterations"] >= 1


def _gradient_record(power_n=2.0, power_d=2.0):
    cases = [{"axis": "n", "n": n, "d": 40, "as_written_seconds": 1e-6 * n ** power_n,
              "matrix_form_seconds": 1e-7 * n ** 2, "max_relative_difference": 1e-15}
             for n in (100, 200, 400, 800)]
    cases += [{"axis": "d", "n": 400, "d": d, "as_written_seconds": 1e-5 * d ** power_d,
               "matrix_form_seconds": 1e-4 * d ** 0.3, "max_relative_difference": 1e-15}
              for d in (10, 20, 40, 80)]
    return {"gradient": {"status": "ok", "cases": cases, "repeats": 3}}


def test_the_gradient_reading():
    assert rc.gradient(_gradient_record())["verdict"] == "holds"
    assert rc.gradient(_gradient_record(power_d=1.0))["verdict"] == "partly holds"
    assert rc.gradient({})["verdict"] == "not measured"


def _diagonal(wine_ratio, isolet_ratio=None):
    cases = [{"dataset": "wine", "n": 178, "d": 13,
              "full": {"seconds": wine_ratio, "iterations": 10},
              "diagonal": {"seconds": 1.0, "iterations": 10}}]
    unavailable = {"isolet": "fetch it"}
    if isolet_ratio is not None:
        cases.append({"dataset": "isolet", "n": 500, "d": 617,
                      "full": {"seconds": isolet_ratio, "iterations": 10},
                      "diagonal": {"seconds": 1.0, "iterations": 10}})
        unavailable = {}
    return {"diagonal": {"status": "ok", "cases": cases, "unavailable": unavailable, "repeats": 3}}


def test_the_diagonal_reading_is_existential_and_judged_against_the_band():
    assert rc.diagonal(_diagonal(5.0))["verdict"] == "holds"
    assert rc.diagonal(_diagonal(0.7))["verdict"] == "not measured"  # isolet could pass
    assert rc.diagonal(_diagonal(0.7, 0.8))["verdict"] == "does not hold"
    assert rc.diagonal(_diagonal(0.7, 2.5))["verdict"] == "undecided (within noise)"


def test_the_rectangular_reading():
    rec = {"status": "ok", "n_train": 2000, "n_test": 1000, "d": 784, "r": 10, "k": 3,
           "input_seconds": 0.08, "projected_seconds": 0.008}
    assert rc.rectangular({"rectangular": rec})["verdict"] == "holds"
    slow = {**rec, "projected_seconds": 0.07}
    assert rc.rectangular({"rectangular": slow})["verdict"] == "does not hold"
    gone = {"status": "unavailable", "reason": "run `harness fetch mnist`"}
    assert rc.rectangular({"rectangular": gone})["verdict"] == "not measured"
