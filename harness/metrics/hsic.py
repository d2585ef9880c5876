r"""The Hilbert-Schmidt independence criterion (HSIC) of two samples, from their kernels.

Given n paired observations ``(x_i, y_i)``, a kernel matrix ``K`` of the x's
(``K_ij = k(x_i, x_j)``) and one ``L`` of the y's, HSIC estimates the squared
Hilbert-Schmidt norm of the cross-covariance operator of the two feature maps; with
characteristic kernels (the Gaussian) it is zero exactly when x and y are independent.
It is the dependence measure that supervised PCA maximises (lecture notes
``statwiki_stat841f14`` lectures 9-10; :mod:`harness.methods.shared.spca`).

Two estimators:

* **biased** (Gretton, Bousquet, Smola & Schölkopf, "Measuring statistical dependence
  with Hilbert-Schmidt norms", ALT 2005, Definition 2 / Theorem 1; the lectures'
  ``HSIC = tr(KHBH) / (n - 1)^2``):

  .. math:: \mathrm{HSIC}_b = \frac{1}{(n-1)^2} \operatorname{tr}(K H L H),
     \qquad H = I - \tfrac{1}{n} \mathbf{1}\mathbf{1}^T .

  Its expectation under independence is O(1/n), not 0 (it is a V-statistic).
* **unbiased** (Song, Smola, Gretton, Bedo & Borgwardt, "Feature selection via
  dependence maximization", JMLR 13, 2012, eq. 5): with :math:`\tilde K`,
  :math:`\tilde L` the kernels with their diagonals set to zero,

  .. math:: \mathrm{HSIC}_u = \frac{1}{n(n-3)} \Big[ \operatorname{tr}(\tilde K \tilde L)
     + \frac{\mathbf{1}^T \tilde K \mathbf{1} \; \mathbf{1}^T \tilde L \mathbf{1}}{(n-1)(n-2)}
     - \frac{2}{n-2} \mathbf{1}^T \tilde K \tilde L \mathbf{1} \Big],

  the U-statistic of the same population quantity (needs n >= 4); its expectation is
  0 under independence, so it can be negative.

Kernels are passed as matrices; :func:`linear_kernel` (``Z Z^T``) and
:func:`delta_kernel` (``[y_i = y_j]``, the label kernel of classification) build the
usual ones, :func:`label_kernel` picks one by name. Both estimators cost O(n^2).
:func:`hsic_permutation_test` compares an estimate with its values under random
re-pairings of the sample (the null of independence).
"""

from __future__ import annotations

import dataclasses
import numbers

import numpy as np

__all__ = ["ESTIMATORS", "LABEL_KERNELS", "HSICTest", "delta_kernel", "hsic",
           "hsic_biased", "hsic_permutation_test", "hsic_unbiased", "label_kernel",
           "linear_kernel"]

ESTIMATORS = ("biased", "unbiased")
LABEL_KERNELS = ("delta", "linear")


# --------------------------------------------------------------------------- #
# kernels
# --------------------------------------------------------------------------- #
def linear_kernel(Z) -> np.ndarray:
    """``Z Z^T`` of the rows of ``Z``; a 1-d ``Z`` is one real feature per sample
    (``L_ij = z_i z_j``, the linear kernel of a regression target)."""
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim == 1:
        Z = Z[:, None]
    if Z.ndim != 2:
        raise ValueError(f"linear_kernel needs a 1-d or 2-d array; got shape {Z.shape}")
    return Z @ Z.T


def delta_kernel(y) -> np.ndarray:
    """The delta (label) kernel ``L_ij = 1 if y_i == y_j else 0`` of class labels
    ``y`` (any hashable values; shape ``(n,)``)."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"delta_kernel needs one label per sample (shape (n,)); got "
                         f"shape {y.shape}")
    codes = np.unique(y, return_inverse=True)[1].ravel()
    return (codes[:, None] == codes[None, :]).astype(np.float64)


def label_kernel(y, kind: str = "delta") -> np.ndarray:
    """The kernel of labels or targets ``y`` by name: ``"delta"`` (classes,
    :func:`delta_kernel`) or ``"linear"`` (real targets, :func:`linear_kernel`)."""
    if kind == "delta":
        return delta_kernel(y)
    if kind == "linear":
        return linear_kernel(y)
    raise ValueError(f"label kernel {kind!r} must be one of {LABEL_KERNELS}")


# --------------------------------------------------------------------------- #
# estimators
# --------------------------------------------------------------------------- #
def _check_kernels(K, L, min_n: int, what: str) -> tuple[np.ndarray, np.ndarray]:
    K = np.asarray(K, dtype=np.float64)
    L = np.asarray(L, dtype=np.float64)
    for name, M in (("K", K), ("L", L)):
        if M.ndim != 2 or M.shape[0] != M.shape[1]:
            raise ValueError(f"{what}: {name} must be a square n x n kernel matrix; got "
                             f"shape {M.shape} (build one with linear_kernel, delta_kernel "
                             f"or label_kernel)")
        if not np.isfinite(M).all():
            raise ValueError(f"{what}: {name} contains NaN or infinity")
        scale = max(float(np.abs(M).max(initial=0.0)), 1.0)
        if np.abs(M - M.T).max(initial=0.0) > 1e-8 * scale:
            raise ValueError(f"{what}: {name} is not symmetric; a kernel matrix is "
                             f"(symmetrise it: (M + M.T) / 2)")
    if K.shape != L.shape:
        raise ValueError(f"{what}: K is {K.shape[0]} x {K.shape[0]} but L is "
                         f"{L.shape[0]} x {L.shape[0]}; both must be kernels of the same "
                         f"n paired observations")
    if K.shape[0] < min_n:
        raise ValueError(f"{what} needs at least {min_n} observations; got n = "
                         f"{K.shape[0]}")
    return K, L


def _centre(K: np.ndarray) -> np.ndarray:
    """H K H without forming H."""
    row = K.mean(axis=1)
    col = K.mean(axis=0)
    return K - row[:, None] - col[None, :] + K.mean()


def _biased(K: np.ndarray, L: np.ndarray) -> float:
    n = K.shape[0]
    # tr(K H L H) = tr((H K H) L) = sum_ij (HKH)_ij L_ij for symmetric L
    return float(np.sum(_centre(K) * L)) / (n - 1) ** 2


def _unbiased(K: np.ndarray, L: np.ndarray) -> float:
    n = K.shape[0]
    Kt = K.copy()
    Lt = L.copy()
    np.fill_diagonal(Kt, 0.0)
    np.fill_diagonal(Lt, 0.0)
    k1, l1 = Kt.sum(axis=1), Lt.sum(axis=1)
    trace = float(np.sum(Kt * Lt))  # tr(Kt Lt), both symmetric
    total = k1.sum() * l1.sum() / ((n - 1) * (n - 2))
    cross = 2.0 / (n - 2) * float(k1 @ l1)  # 1^T Kt Lt 1
    return (trace + total - cross) / (n * (n - 3))


def hsic_biased(K, L) -> float:
    """Gretton et al. (2005)'s biased estimate ``tr(K H L H) / (n - 1)^2``.

    Parameters
    ----------
    K, L : array-like of shape (n, n)
        Symmetric kernel matrices of the two samples, paired by row.

    Returns
    -------
    float
    """
    return _biased(*_check_kernels(K, L, 2, "biased HSIC"))


def hsic_unbiased(K, L) -> float:
    """Song et al. (2012, eq. 5)'s unbiased estimate (0 in expectation under
    independence; can be negative).

    Parameters
    ----------
    K, L : array-like of shape (n, n)
        Symmetric kernel matrices of the two samples, paired by row; n >= 4.

    Returns
    -------
    float
    """
    return _unbiased(*_check_kernels(K, L, 4, "unbiased HSIC"))


def hsic(K, L, estimator: str = "biased") -> float:
    """HSIC of two kernel matrices with the named estimator (``"biased"`` or
    ``"unbiased"``)."""
    if estimator == "biased":
        return hsic_biased(K, L)
    if estimator == "unbiased":
        return hsic_unbiased(K, L)
    raise ValueError(f"estimator={estimator!r} must be one of {ESTIMATORS}")


# --------------------------------------------------------------------------- #
# permutation test
# --------------------------------------------------------------------------- #
@dataclasses.dataclass(frozen=True)
class HSICTest:
    """What :func:`hsic_permutation_test` returns.

    Attributes
    ----------
    statistic : float
        The estimate on the observed pairing.
    null : ndarray of shape (n_permutations,)
        The estimates after re-pairing the sample by random permutations.
    p_value : float
        ``(1 + #{null >= statistic}) / (1 + n_permutations)``: one-sided, as HSIC
        grows with dependence.
    estimator : str
    """

    statistic: float
    null: np.ndarray
    p_value: float
    estimator: str


def hsic_permutation_test(K, L, *, estimator: str = "unbiased", n_permutations: int = 200,
                          random_state=None) -> HSICTest:
    """Test independence by permutation: the estimate against its values when the
    second sample is re-paired at random (``L`` permuted in rows and columns alike).

    Parameters
    ----------
    K, L : array-like of shape (n, n)
        Symmetric kernel matrices of the paired samples.
    estimator : {"unbiased", "biased"}, default="unbiased"
    n_permutations : int, default=200
    random_state : int, numpy Generator or None
        Seed of the permutations.

    Returns
    -------
    HSICTest
    """
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator={estimator!r} must be one of {ESTIMATORS}")
    if (isinstance(n_permutations, bool) or not isinstance(n_permutations, numbers.Integral)
            or n_permutations < 1):
        raise ValueError(f"n_permutations={n_permutations!r} must be a positive integer")
    K, L = _check_kernels(K, L, 4 if estimator == "unbiased" else 2, f"{estimator} HSIC")
    stat = _unbiased if estimator == "unbiased" else _biased
    rng = np.random.default_rng(random_state)
    observed = stat(K, L)
    null = np.empty(int(n_permutations))
    for b in range(int(n_permutations)):
        p = rng.permutation(K.shape[0])
        null[b] = stat(K, L[np.ix_(p, p)])
    p_value = (1.0 + float(np.sum(null >= observed))) / (1.0 + len(null))
    return HSICTest(statistic=observed, null=null, p_value=p_value, estimator=estimator)
