"""kNN after relevant component analysis (RCA, thesis 2.2.1, eqs. 2.23-2.24; Shental
et al. 2002 [76]): PCA, then whitening with the averaged within-chunklet covariance."""

from __future__ import annotations

import math
import numbers

import numpy as np

from harness.methods.shared.metric_knn import MetricKNNClassifier, check_positive_int
from harness.methods.pca_knn import pca_map

__all__ = ["RCAKNN", "make_chunklets", "within_chunklet_covariance", "rca_map",
           "check_rca_params"]

#: Principal components whose variance is at most this fraction of the largest are
#: degenerate (numerically zero) and dropped when ``n_components`` is None.
DEGENERATE = 1e-10


def check_rca_params(n_components, chunklet_fraction, chunklet_size, regularization) -> None:
    """Raise ValueError naming a bad RCA parameter and what it must be."""
    if n_components is not None:
        real = isinstance(n_components, numbers.Real) and not isinstance(n_components, bool)
        if not real or not (isinstance(n_components, numbers.Integral) and n_components >= 1
                            or 0.0 < n_components < 1.0):
            raise ValueError(f"n_components={n_components!r} must be None (every "
                             f"non-degenerate principal component), an integer >= 1 or a "
                             f"variance fraction in (0, 1)")
    if (isinstance(chunklet_fraction, bool) or not isinstance(chunklet_fraction, numbers.Real)
            or not 0.0 < chunklet_fraction <= 1.0):
        raise ValueError(f"chunklet_fraction={chunklet_fraction!r} must lie in (0, 1] "
                         f"(the fraction of each class put into chunklets)")
    if chunklet_size is not None:
        check_positive_int("chunklet_size", chunklet_size, " (or None: one chunklet per class)")
        if chunklet_size < 2:
            raise ValueError(f"chunklet_size={chunklet_size!r} must be at least 2 (a chunklet "
                             f"of one point has no within-chunklet variance) or None")
    if (isinstance(regularization, bool) or not isinstance(regularization, numbers.Real)
            or not regularization >= 0.0 or not math.isfinite(regularization)):
        raise ValueError(f"regularization={regularization!r} must be a finite real >= 0")


def make_chunklets(codes, fraction: float = 1.0, size: int | None = None,
                   random_state=None) -> np.ndarray:
    """Chunklets from class labels: the chunklet id of each point, -1 for none.

    From each class ``round(fraction * n_class)`` points are drawn at random (all of
    them when ``fraction`` is 1) and split into ``ceil(m / size)`` chunklets of nearly
    equal size (at most ``size`` points, never one point alone unless the class gives
    only one); ``size`` None makes one chunklet of them. Thesis Fig. 2.20: fraction
    0.1, size 10. A class that gives fewer than two points has no chunklet.
    """
    codes = np.asarray(codes).ravel()
    rng = np.random.default_rng(random_state)
    chunks = np.full(len(codes), -1, dtype=np.int64)
    next_id = 0
    for c in np.unique(codes):
        members = np.flatnonzero(codes == c)
        m = int(math.floor(fraction * len(members) + 0.5))
        if m < 2:
            continue
        chosen = members if m == len(members) and size is None else rng.permutation(members)[:m]
        parts = 1 if size is None else math.ceil(m / size)
        for part in np.array_split(chosen, parts):
            chunks[part] = next_id
            next_id += 1
    return chunks


def within_chunklet_covariance(X, chunks) -> np.ndarray:
    """Eq. (2.23): ``C_w = 1/n sum_l sum_{i in C_l} (x_i - mu_l)(x_i - mu_l)^T`` over the
    chunklets (``chunks >= 0``), ``n`` the number of points in chunklets (Shental et
    al.; the thesis' ``n`` is not defined further)."""
    X, chunks = np.asarray(X, dtype=np.float64), np.asarray(chunks)
    inside = chunks >= 0
    if not inside.any():
        raise ValueError("no point is in a chunklet: every chunks[i] is -1")
    Xc, ids = X[inside], chunks[inside]
    _, inverse, counts = np.unique(ids, return_inverse=True, return_counts=True)
    means = np.zeros((len(counts), X.shape[1]))
    np.add.at(means, inverse, Xc)
    D = Xc - means[inverse] / counts[inverse, None]
    return D.T @ D / len(Xc)


def _principal_components(X, n_components) -> np.ndarray:
    """A_pca (rows): PCA on every point; None keeps the non-degenerate components."""
    components, variances = pca_map(X, n_components)
    if n_components is None:
        keep = variances > DEGENERATE * max(float(variances.max(initial=0.0)), 0.0)
        if not keep.any():
            raise ValueError("X has no variance: every principal component is degenerate")
        components = components[keep]
    return components


def rca_map(X, chunks, n_components=None, regularization: float = 0.0
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eq. (2.24): ``A_rca = C_w_hat^{-1/2} A_pca`` with ``C_w_hat = A_pca C_w A_pca^T``.

    ``C_w_hat^{-1/2}`` comes from its eigen-decomposition (only the eigenvalues are
    raised to the power -1/2, as the thesis suggests). With ``regularization`` = t > 0,
    ``C_w_hat + t trace(C_w_hat) / r I`` is whitened instead.

    Returns
    -------
    A_rca : (r, n_features), A_pca : (r, n_features), eigenvalues of the (regularised)
    C_w_hat, ascending.

    Raises
    ------
    ValueError
        ``C_w_hat`` is singular: the chunklets do not vary along some principal
        direction (the message names the fixes).
    """
    A_pca = _principal_components(X, n_components)
    C_hat = A_pca @ within_chunklet_covariance(X, chunks) @ A_pca.T
    r = len(C_hat)
    if regularization > 0:
        C_hat = C_hat + regularization * np.trace(C_hat) / r * np.eye(r)
    w, V = np.linalg.eigh(C_hat)
    if not w[-1] > 0 or w[0] <= DEGENERATE * w[-1]:
        raise ValueError(
            f"the within-chunklet covariance on the {r} principal components is singular "
            f"(eigenvalues {w[0]:.3g} to {w[-1]:.3g}): the chunklets do not vary along some "
            f"principal direction; keep fewer components (n_components), put more points "
            f"in chunklets (chunklet_fraction, chunklet_size) or set regularization > 0")
    return (V / np.sqrt(w)) @ V.T @ A_pca, A_pca, w


class RCAKNN(MetricKNNClassifier):
    """k-nearest-neighbour classification after relevant component analysis (RCA).

    Thesis 2.2.1: "First PCA is used to filter out the low-variance noise. Then the
    within-chunklet variance is amplified by modified whitening": ``A_rca =
    C_w_hat^{-1/2} A_pca`` (eq. 2.24), ``C_w_hat`` the averaged within-chunklet
    covariance (2.23) on the principal components. kNN (tie rule of 2.1.6) and the
    energy rule (2.12) then use the Euclidean distance after ``A_rca``. Not a row of
    the thesis' Table 2.1 (the thesis cites RCA's results from [35]).

    Choices where the thesis is silent: chunklets come from the training labels;
    by default every labelled point is used and each class is one chunklet
    (``chunklet_fraction=1``, ``chunklet_size=None``), so that ``C_w`` is the
    within-class covariance; Fig. 2.20 uses 10 % of the points in chunklets of 10.
    PCA keeps every non-degenerate component by default (variance above 1e-10 of the
    largest), so that RCA is then ``C_w^{-1/2}`` up to a rotation (the metric of
    metric-learn's RCA); the thesis warns that whitening also amplifies low-variance
    noise: choose ``n_components`` for noisy data. A singular ``C_w_hat`` raises
    ValueError unless ``regularization`` > 0.

    Parameters
    ----------
    n_neighbors : int, default=3
        k of the kNN rule and of the energy rule's target neighbours.
    n_components : int, float or None, default=None
        PCA step: the number of components, a variance fraction in (0, 1), or None
        for every non-degenerate component.
    chunklet_fraction : float, default=1.0
        Fraction of each class' training points put into chunklets, in (0, 1].
    chunklet_size : int or None, default=None
        Points per chunklet (at least 2); None: one chunklet per class.
    regularization : float, default=0.0
        ``t`` >= 0: whiten ``C_w_hat + t trace(C_w_hat) / r I``.
    mu : float, default=0.5
        Weight of the energy rule's impostor terms (2.12).
    random_state : int or None, default=None
        Seed of the chunklet draw (unused with the defaults).

    Attributes
    ----------
    components_ : ndarray of shape (r, n_features)
        ``A_rca``, the map applied before kNN.
    pca_components_ : ndarray of shape (r, n_features)
        ``A_pca``.
    within_eigenvalues_ : ndarray of shape (r,)
        Eigenvalues of (the regularised) ``C_w_hat``, ascending.
    chunklets_ : ndarray of shape (n_samples,)
        Chunklet id of each training point, -1 outside the chunklets.
    """

    name = "rca_knn"
    thesis_label = "RCA"
    references = ("thesis 2.2.1, eqs. 2.23-2.24",
                  "Shental, Hertz, Weinshall, Pavel, Adjustment learning and relevant "
                  "component analysis, ECCV 2002")
    table_note = ("kNN and energy rule after RCA (thesis 2.2.1): every non-degenerate "
                  "principal component, then whitening with the within-class covariance "
                  "(each class one chunklet, all training labels).")

    def __init__(self, *, n_neighbors=3, n_components=None, chunklet_fraction=1.0,
                 chunklet_size=None, regularization=0.0, mu=0.5, random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.chunklet_fraction = chunklet_fraction
        self.chunklet_size = chunklet_size
        self.regularization = regularization
        self.mu = mu
        self.random_state = random_state

    def _fit_map(self, X, codes):
        check_rca_params(self.n_components, self.chunklet_fraction, self.chunklet_size,
                         self.regularization)
        self.chunklets_ = make_chunklets(codes, self.chunklet_fraction, self.chunklet_size,
                                         self.random_state)
        A, self.pca_components_, self.within_eigenvalues_ = rca_map(
            X, self.chunklets_, self.n_components, self.regularization)
        return A
