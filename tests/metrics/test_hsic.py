"""HSIC estimators (harness.metrics.hsic) against loop references written here, and
the permutation test on independent and dependent samples."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from harness.kernels import gaussian_kernel
from harness.metrics.hsic import (
    delta_kernel,
    hsic,
    hsic_biased,
    hsic_permutation_test,
    hsic_unbiased,
    label_kernel,
    linear_kernel,
)


# --------------------------------------------------------------------------- #
# naive references
# --------------------------------------------------------------------------- #
def naive_biased(K, L):
    """Gretton et al. (2005), Theorem 1, as loops over the entries: the V-statistic
    (1/n^2) sum k_ij l_ij + (1/n^4) sum k_ij sum l_qr - (2/n^3) sum k_ij l_iq, which is
    tr(KHLH)/n^2; rescaled to the (n - 1)^-2 normalisation of Definition 2."""
    n = len(K)
    first = second_k = second_l = third = 0.0
    for i in range(n):
        for j in range(n):
            first += K[i, j] * L[i, j]
            second_k += K[i, j]
            second_l += L[i, j]
    row_l = [sum(L[i, q] for q in range(n)) for i in range(n)]
    for i in range(n):
        for j in range(n):
            third += K[i, j] * row_l[i]
    v = first / n**2 + second_k * second_l / n**4 - 2.0 * third / n**3
    return v * n**2 / (n - 1) ** 2


def naive_unbiased(K, L):
    """Song et al. (2012), Theorem 3: the U-statistic over all ordered 4-tuples of
    distinct indices, h = k_ij l_ij + k_ij l_qr - 2 k_ij l_iq (summing over every
    ordering makes the symmetrisation of h redundant)."""
    n = len(K)
    total, count = 0.0, 0
    for i, j, q, r in itertools.permutations(range(n), 4):
        total += K[i, j] * L[i, j] + K[i, j] * L[q, r] - 2.0 * K[i, j] * L[i, q]
        count += 1
    return total / count


def random_kernels(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = rng.integers(0, 3, n)
    return gaussian_kernel(X, sigma=1.3), delta_kernel(y), X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_biased_matches_the_loop_reference(seed):
    K, L, X, _ = random_kernels(11, seed)
    assert hsic_biased(K, L) == pytest.approx(naive_biased(K, L), rel=1e-12)
    # and the matrix form with an explicit centring matrix H
    n = len(K)
    H = np.eye(n) - np.ones((n, n)) / n
    assert hsic_biased(K, L) == pytest.approx(np.trace(K @ H @ L @ H) / (n - 1) ** 2,
                                              rel=1e-12)
    # a linear kernel against a Gaussian one, not only the delta kernel
    Lx = linear_kernel(X[:, 0])
    assert hsic_biased(K, Lx) == pytest.approx(naive_biased(K, Lx), rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_unbiased_matches_the_u_statistic(seed):
    K, L, X, _ = random_kernels(9, seed)
    assert hsic_unbiased(K, L) == pytest.approx(naive_unbiased(K, L), rel=1e-10, abs=1e-14)
    Lx = linear_kernel(X[:, :2])
    assert hsic_unbiased(K, Lx) == pytest.approx(naive_unbiased(K, Lx), rel=1e-10,
                                                 abs=1e-14)


def test_estimators_by_name_and_symmetry():
    K, L, _, _ = random_kernels(20, 5)
    assert hsic(K, L) == hsic_biased(K, L)
    assert hsic(K, L, estimator="unbiased") == hsic_unbiased(K, L)
    assert hsic_biased(K, L) == pytest.approx(hsic_biased(L, K), rel=1e-12)
    assert hsic_unbiased(K, L) == pytest.approx(hsic_unbiased(L, K), rel=1e-12)
    with pytest.raises(ValueError, match=r"estimator='v' must be one of \('biased', 'unbiased'\)"):
        hsic(K, L, estimator="v")


def test_label_kernels():
    y = np.array(["a", "b", "a", "c"])
    L = delta_kernel(y)
    assert L.dtype == np.float64
    np.testing.assert_array_equal(L, [[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(label_kernel(y), L)
    t = np.array([1.0, -2.0, 0.5])
    np.testing.assert_array_equal(label_kernel(t, "linear"), np.outer(t, t))
    with pytest.raises(ValueError, match=r"label kernel 'rbf' must be one of \('delta', 'linear'\)"):
        label_kernel(t, "rbf")
    with pytest.raises(ValueError, match=r"one label per sample"):
        delta_kernel(np.zeros((3, 2)))


def test_bad_kernels_are_named():
    K, L, _, _ = random_kernels(6, 0)
    with pytest.raises(ValueError, match=r"K must be a square n x n kernel matrix; got shape \(6, 3\)"):
        hsic_biased(K[:, :3], L)
    with pytest.raises(ValueError, match=r"K is 6 x 6 but L is 5 x 5"):
        hsic_biased(K, L[:5, :5])
    bad = L.copy()
    bad[0, 1] = 7.0
    with pytest.raises(ValueError, match="L is not symmetric"):
        hsic_unbiased(K, bad)
    bad[0, 1] = np.nan
    with pytest.raises(ValueError, match="L contains NaN or infinity"):
        hsic_biased(K, bad)
    with pytest.raises(ValueError, match="unbiased HSIC needs at least 4 observations; got n = 3"):
        hsic_unbiased(K[:3, :3], L[:3, :3])


# --------------------------------------------------------------------------- #
# permutation test
# --------------------------------------------------------------------------- #
N_PERM = 300


def _gaussian(Z):
    Z = np.asarray(Z, dtype=float).reshape(len(Z), -1)
    d2 = ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(-1)
    return gaussian_kernel(Z, sigma=float(np.sqrt(np.median(d2[d2 > 0]) / 2.0)))


def test_independent_samples_null_is_centred_and_observed_is_not_in_the_tail():
    rng = np.random.default_rng(10)
    n = 80
    x = rng.standard_normal((n, 2))
    y = rng.standard_normal(n)  # independent of x
    K, L = _gaussian(x), _gaussian(y)
    test = hsic_permutation_test(K, L, n_permutations=N_PERM, random_state=0)
    assert test.estimator == "unbiased" and test.null.shape == (N_PERM,)
    sd = test.null.std(ddof=1)
    # the unbiased estimate is 0 in expectation over re-pairings
    assert abs(test.null.mean()) < 4.0 * sd / np.sqrt(N_PERM), (test.null.mean(), sd)
    # the biased one is not: its null sits well above 0
    biased = hsic_permutation_test(K, L, estimator="biased", n_permutations=N_PERM,
                                   random_state=0)
    assert biased.null.mean() > 10.0 * biased.null.std(ddof=1) / np.sqrt(N_PERM)
    # the observed value is an ordinary draw of the null
    assert test.p_value > 0.05, test.p_value
    assert abs(test.statistic - test.null.mean()) < 3.0 * sd


def test_dependent_samples_are_far_in_the_tail():
    rng = np.random.default_rng(11)
    n = 80
    x = rng.uniform(-2, 2, n)
    y = x**2 + 0.3 * rng.standard_normal(n)  # dependent, but uncorrelated with x
    assert abs(np.corrcoef(x, y)[0, 1]) < 0.3
    test = hsic_permutation_test(_gaussian(x), _gaussian(y), n_permutations=N_PERM,
                                 random_state=0)
    assert test.statistic > test.null.max()
    assert test.p_value == pytest.approx(1.0 / (N_PERM + 1))
    z = (test.statistic - test.null.mean()) / test.null.std(ddof=1)
    assert z > 10.0, z


def test_permutation_test_is_seeded_and_checks_its_arguments():
    K, L, _, _ = random_kernels(30, 3)
    a = hsic_permutation_test(K, L, n_permutations=20, random_state=4)
    b = hsic_permutation_test(K, L, n_permutations=20, random_state=4)
    np.testing.assert_array_equal(a.null, b.null)
    with pytest.raises(ValueError, match=r"n_permutations=0 must be a positive integer"):
        hsic_permutation_test(K, L, n_permutations=0)
    with pytest.raises(ValueError, match=r"estimator='x'"):
        hsic_permutation_test(K, L, estimator="x")
