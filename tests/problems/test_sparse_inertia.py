"""Eigenvalue bounds proved by Sylvester inertia, checked against dense eigh."""

import numpy as np
import pytest
import scipy.sparse as sp

from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import clique_edges
from harness.problems.sparse_inertia import certified_bottom, certified_top, negative_pivots


def _laplacian(n=80, seed=0, negative_share=0.3):
    """A weighted graph Laplacian with some negative weights (as MVU duals have)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    edges, _ = clique_edges(X, 4)
    w = rng.uniform(0.2, 2.0, len(edges))
    w[rng.random(len(edges)) < negative_share] *= -0.2
    return mc.weighted_laplacian(n, edges, w)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_negative_pivots_is_the_inertia(seed):
    L = _laplacian(seed=seed)
    ev = np.linalg.eigvalsh(L.toarray())
    for t in (-0.5, 0.1, 0.7, 1.3, float(np.median(ev))):
        shifted = L - t * sp.identity(L.shape[0])
        assert negative_pivots(shifted) == int((ev < t).sum())


def test_singular_matrix_gives_none():
    A = sp.csc_matrix(np.array([[1.0, 1.0], [1.0, 1.0]]))
    assert negative_pivots(A) is None


@pytest.mark.parametrize("seed", [0, 1])
def test_certified_bounds_bracket_the_centred_spectrum(seed):
    L = _laplacian(seed=seed)
    ev = np.linalg.eigvalsh(L.toarray() + 1e3 * np.ones(L.shape) / L.shape[0])
    ev_centred = np.sort(np.linalg.eigvalsh(L.toarray()))
    mu = min(ev)  # the ones vector lifted out of the way
    nu = ev_centred[-1]
    lower = certified_bottom(L, mu)
    upper = certified_top(L, nu)
    assert lower <= mu and mu - lower <= 1e-4 * max(1, abs(mu))
    assert upper >= nu and upper - nu <= 1e-4 * max(1, abs(nu))


def test_a_too_optimistic_estimate_is_corrected():
    """An unconverged Ritz value above the true minimum must not be returned."""
    L = _laplacian(seed=3)
    ev = np.linalg.eigvalsh(L.toarray() + 1e3 * np.ones(L.shape) / L.shape[0])
    mu = ev.min()
    lower = certified_bottom(L, mu + 0.5)
    assert lower <= mu
    assert lower >= mu - 1.0  # the doubling search stays close


def test_certificate_above_dense_size_is_a_proven_bound(monkeypatch):
    L = _laplacian(n=120, seed=4)
    exact = mc.centred_extreme_eigenvalue(L)
    monkeypatch.setattr(mc, "DENSE_MAX", 10)
    proven = mc.centred_extreme_eigenvalue(L, tol=1e-2)  # loose LOBPCG on purpose
    assert proven <= exact
    assert proven == pytest.approx(exact, abs=0.05 * max(1, abs(exact)))
