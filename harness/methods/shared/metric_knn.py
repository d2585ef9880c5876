"""Shared core of the Table 2.1 classifiers that learn a linear map ``L`` and then
classify by k nearest neighbours in the mapped space (PCA, LDA, PCA-LMNN, LDA-LMNN,
MUL-LMNN): the estimator skeleton, kNN prediction with the thesis' tie rule (2.1.6),
leave-one-out training predictions and the energy rule (2.12) with the Euclidean
metric of the mapped space.

Subclasses implement ``_fit_map(X, y_codes) -> L`` (shape ``(r, n_features)``) and
may set ``n_active_`` and other fitted attributes there. A subclass whose map is not
linear (kernel SPCA: ``x -> beta^T k(X_train, x)``) returns None from ``_fit_map``,
keeps what its map needs in fitted attributes, overrides ``_map`` and sets
``linear_map = False``; kNN, leave-one-out and the energy rule are then applied in
its mapped space alike.
"""

from __future__ import annotations

import abc
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_X_y, validate_data

from harness.metrics.energy import energy_predict
from harness.metrics.knn_error import knn_loo_predict, knn_predict, same_class_neighbors
from harness.plugin import MethodPlugin

__all__ = ["MetricKNNClassifier", "check_labelled_input", "check_mu", "check_positive_int",
           "KNN_MEASURES"]

KNN_MEASURES = ("train_knn_loo_error", "test_knn_error", "test_energy_error",
                "fit_cpu_seconds", "n_active")


def check_mu(mu, why: str = "thesis eq. 2.8") -> None:
    """``mu`` (weight of the push term of eq. 2.11) must be a real in [0, 1]."""
    if isinstance(mu, bool) or not isinstance(mu, numbers.Real) or not 0.0 <= mu <= 1.0:
        raise ValueError(f"mu={mu!r} must lie in [0, 1] ({why})")


def check_positive_int(name: str, value, hint: str = "") -> int:
    """``value`` must be an integer >= 1 (not a bool); returns it as ``int``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name}={value!r} must be a positive integer{hint}")
    return int(value)


def check_labelled_input(X, y, n_neighbors: int, estimator=None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a labelled training set; return ``(X float64, classes, codes)``.

    Errors name the problem and the fix: NaN or infinite inputs (with the rows),
    a missing ``y``, fewer than two classes, ``n_neighbors`` not below the number
    of points, or a class with no more than ``n_neighbors`` members (it cannot give
    each of them ``k`` target neighbours of its own class, thesis 2.1.2). String
    labels are fine; a column vector ``y`` is raveled with a warning. With an
    ``estimator``, its ``n_features_in_`` (and feature names) are set as by
    :func:`sklearn.utils.validation.validate_data`.
    """
    if isinstance(X, np.ndarray) and X.ndim == 2 and np.issubdtype(X.dtype, np.floating):
        bad = ~np.isfinite(X).all(axis=1)
        if bad.any():
            raise ValueError(
                f"Input X contains NaN or infinity in {int(bad.sum())} of {len(bad)} rows "
                f"(first: row {int(np.flatnonzero(bad)[0])}); remove or impute them")
    options = dict(dtype=np.float64, ensure_min_samples=2)
    if estimator is None:
        X, y = check_X_y(X, y, **options)
    else:
        X, y = validate_data(estimator, X, y, **options)
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    codes = codes.ravel()
    if len(classes) < 2:
        raise ValueError(f"y has a single class {classes[0].item()!r}; a classifier "
                         f"needs labels of at least 2 classes")
    k = n_neighbors
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k < len(X):
        raise ValueError(f"n_neighbors={k!r} must be an integer with 1 <= n_neighbors < "
                         f"n_samples={len(X)}; lower n_neighbors or use more samples")
    counts = np.bincount(codes)
    small = np.flatnonzero(counts <= k)
    if small.size:
        c = small[0]
        raise ValueError(f"class {classes[c].item()!r} has {counts[c]} members, but each point "
                         f"needs n_neighbors={k} target neighbours of its own class; "
                         f"lower n_neighbors below {counts[c]} or drop the class")
    return X, classes, codes


class MetricKNNClassifier(MethodPlugin, ClassifierMixin, TransformerMixin, BaseEstimator,
                          abc.ABC):
    """Skeleton: learn ``L`` on the training set, classify by kNN under ``|L(x - x')|``.

    Fitted attributes: ``components_`` (``L``), ``classes_``, ``n_features_in_``,
    ``target_neighbors_`` (the k nearest same-class training points by Euclidean
    distance in the input, thesis 2.1.2; used by the energy rule) and the mapped
    training set. Subclasses set ``n_neighbors`` and ``mu`` in ``__init__``.
    """

    task = "classification"
    classifier_kind = "knn"
    uses_neighbors = True
    measures = KNN_MEASURES
    #: Whether the learned map is ``x -> L x`` with ``L = components_`` (False: a
    #: subclass's own ``_map``, and no ``components_``).
    linear_map = True

    @abc.abstractmethod
    def _fit_map(self, X: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Return ``L`` (``(r, n_features)``) learned on ``X`` with integer class
        ``codes``; may set fitted attributes (``n_active_``, ``target_neighbors_``).
        A non-linear map returns None (see the module docstring)."""

    def _map(self, X: np.ndarray) -> np.ndarray:
        """The learned map applied to validated float64 inputs: rows ``L x``."""
        return X @ self.components_.T

    def _input_target_neighbors(self, X, codes):
        """The ``k`` nearest same-class points of each training point by Euclidean
        distance in ``X`` (thesis 2.1.2)."""
        return same_class_neighbors(X, codes, self.n_neighbors, self.classes_)

    def fit(self, X, y):
        """Learn the map on ``(X, y)`` and keep the mapped training set."""
        X, self.classes_, codes = check_labelled_input(X, y, self.n_neighbors, self)
        self.target_neighbors_ = None  # _fit_map may choose them (LMNN: in its input)
        L = self._fit_map(X, codes)
        if self.linear_map:
            self.components_ = np.asarray(L, dtype=np.float64)
        if self.target_neighbors_ is None:
            self.target_neighbors_ = self._input_target_neighbors(X, codes)
        self._fit_Z = self._map(X)
        self._fit_y = self.classes_[codes]
        return self

    def transform(self, X):
        """Map inputs: rows ``L x`` (or the subclass's map)."""
        check_is_fitted(self, "_fit_Z")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self._map(X)

    def predict(self, X):
        """kNN labels with the thesis' tie rule (shrink k until the tie breaks)."""
        check_is_fitted(self, "_fit_Z")
        return knn_predict(self._fit_Z, self._fit_y, self.transform(X), self.n_neighbors)

    def predict_loo(self):
        """Leave-one-out kNN labels of the training points (thesis 2.1.6)."""
        check_is_fitted(self, "_fit_Z")
        return knn_loo_predict(self._fit_Z, self._fit_y, self.n_neighbors)

    def predict_energy(self, X):
        """Energy-based labels (thesis eq. 2.12) with the learned metric and the fitted
        target neighbours; ``mu`` as in training."""
        check_is_fitted(self, "_fit_Z")
        return energy_predict(self._fit_Z, self._fit_y, self.transform(X), L=None,
                              n_neighbors=self.n_neighbors, mu=getattr(self, "mu", 0.5),
                              target_neighbors=self.target_neighbors_)
