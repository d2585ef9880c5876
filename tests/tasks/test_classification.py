"""The classification task (Table 2.1): seeded stratified splits, errors in percent
that agree with the metric functions computed directly on the same split."""

import numpy as np
import pytest

from datasets.iris import Iris
from harness.metrics.knn_error import knn_loo_error, knn_test_error
from harness.plugin import Dataset
from harness.tasks.classification import (
    ClassificationInputError,
    run_classification,
    split_indices,
)
from methods.pca_knn import PCAKNN
from methods.svm import SVM


@pytest.fixture(scope="module")
def iris():
    return Iris().load()


def test_split_is_stratified_seeded_and_a_partition(iris):
    y = iris.y
    train, test = split_indices(y, 90 / 128, seed=3)
    assert len(train) == 105 and len(test) == 45
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(150))
    for label in np.unique(y):  # 35 / 15 of every class of 50
        assert (y[train] == label).sum() == 35 and (y[test] == label).sum() == 15
    again, _ = split_indices(y, 90 / 128, seed=3)
    other, _ = split_indices(y, 90 / 128, seed=4)
    assert np.array_equal(train, again) and not np.array_equal(train, other)


@pytest.mark.parametrize("fraction", [0.0, 1.0, 1.5])
def test_split_rejects_a_bad_fraction(iris, fraction):
    with pytest.raises(ClassificationInputError, match="train_fraction"):
        split_indices(iris.y, fraction, seed=0)


def test_knn_run_matches_the_metrics_on_the_same_split(iris):
    params = {"method_params": {"n_neighbors": 3}, "train_fraction": 0.7}
    result = run_classification(PCAKNN, iris, params, seed=5)
    m = result["measures"]
    train, test = split_indices(iris.y, 0.7, seed=5)
    X, y = iris.X, iris.y
    # the same map (PCA's rotation: iris' one-decimal values have many equidistant
    # neighbours, whose order rounding after a rotation can change)
    L = PCAKNN(n_neighbors=3).fit(X[train], y[train]).components_
    assert m["test_knn_error"] == pytest.approx(
        100 * knn_test_error(X[train], y[train], X[test], y[test], 3, transform=L))
    assert m["train_knn_loo_error"] == pytest.approx(
        100 * knn_loo_error(X[train], y[train], 3, transform=L))
    assert 0 <= m["test_energy_error"] <= 100 and m["fit_cpu_seconds"] >= 0
    assert "test_svm_error" not in m
    assert result["info"]["n_train"] == 105


def test_svm_run_reports_svm_measures(iris):
    params = {"method_params": {"cv": 3}, "train_fraction": 0.7}
    m = run_classification(SVM, iris, params, seed=0)["measures"]
    assert set(m) == {"test_svm_error", "train_svm_loo_error", "fit_cpu_seconds"}
    assert m["test_svm_error"] < 10 and m["train_svm_loo_error"] < 10  # iris is easy


def test_unlabelled_data_is_a_marked_failure():
    data = Dataset(np.random.default_rng(0).standard_normal((20, 3)), None, {})
    with pytest.raises(ClassificationInputError, match="no labels"):
        run_classification(PCAKNN, data, {"method_params": {}, "train_fraction": 0.7}, 0)


def test_bad_input_becomes_a_marked_failure(iris):
    params = {"method_params": {"n_neighbors": 40}, "train_fraction": 0.7}
    with pytest.raises(ClassificationInputError, match="n_neighbors=40"):
        run_classification(PCAKNN, iris, params, seed=0)
