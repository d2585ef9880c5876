"""The classification task (Table 2.1): seeded stratified splits, errors in percent
that agree with the metric functions computed directly on the same split."""

import numpy as np
import pytest

from harness.datasets.iris import Iris
from harness.metrics.knn_error import knn_loo_error, knn_test_error
from harness.plugin import Dataset
from harness.tasks.classification import (
    ClassificationInputError,
    VALIDATION_FRACTION,
    dataset_split,
    run_classification,
    select_n_neighbors,
    split_indices,
)
from harness.methods.pca_knn import PCAKNN
from harness.methods.svm import SVM


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


def _predefined(iris, n_train):
    meta = {**iris.meta, "split_protocol": {"predefined_n_train": n_train}}
    return Dataset(iris.X, iris.y, meta)


def test_predefined_split_takes_the_first_rows_for_training_in_every_run(iris):
    data = _predefined(iris, 100)
    for seed in (0, 7):
        train, test, how = dataset_split(data, 0.3, seed)
        assert how == "predefined"
        assert np.array_equal(train, np.arange(100)) and np.array_equal(test, np.arange(100, 150))
    train, test, how = dataset_split(iris, 0.7, 5)  # no predefined split: random
    assert how == "random" and np.array_equal(train, split_indices(iris.y, 0.7, 5)[0])
    result = run_classification(PCAKNN, data, {"method_params": {"n_neighbors": 3},
                                               "train_fraction": 0.7}, seed=1)
    assert result["info"]["n_train"] == 100 and result["info"]["split"] == "predefined"
    # the test rows 100..149 are all from the third class: the error is that of kNN
    # trained on 50 setosa + 50 versicolor, i.e. every virginica test point is wrong
    assert result["measures"]["test_knn_error"] == pytest.approx(100.0)


@pytest.mark.parametrize("n_train", [0, 150, 200])
def test_predefined_split_that_empties_a_side_is_a_marked_failure(iris, n_train):
    with pytest.raises(ClassificationInputError, match="empty on one side"):
        dataset_split(_predefined(iris, n_train), 0.7, 0)


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


def test_k_chosen_on_a_validation_split_of_the_training_part(iris):
    X, y = iris.X, iris.y
    train, test = split_indices(y, 0.7, seed=2)
    k, errors = select_n_neighbors(PCAKNN, {}, X[train], y[train], [1, 3, 5, 40], seed=2)
    # 40 does not fit: a class has 24-25 members in the inner training part
    assert set(errors) == {1, 3, 5}
    inner, valid = split_indices(y[train], 1 - VALIDATION_FRACTION, seed=2)
    assert len(valid) == len(train) - round((1 - VALIDATION_FRACTION) * len(train))
    for c, e in errors.items():  # each error is that of a fit on the inner part
        Xi, yi = X[train][inner], y[train][inner]
        L = PCAKNN(n_neighbors=c).fit(Xi, yi).components_
        assert e == pytest.approx(100 * knn_test_error(Xi, yi, X[train][valid],
                                                       y[train][valid], c, transform=L))
    assert k == min(c for c in errors if errors[c] == min(errors.values()))
    # the task uses it: the chosen k is recorded and the final fit uses it
    params = {"method_params": {"n_neighbors": "validation"}, "train_fraction": 0.7,
              "n_neighbors_candidates": [1, 3, 5, 40]}
    result = run_classification(PCAKNN, iris, params, seed=2)
    assert result["info"]["n_neighbors"] == k
    assert result["info"]["validation_errors"] == {str(c): e for c, e in errors.items()}
    L = PCAKNN(n_neighbors=k).fit(X[train], y[train]).components_
    assert result["measures"]["test_knn_error"] == pytest.approx(
        100 * knn_test_error(X[train], y[train], X[test], y[test], k, transform=L))


def test_no_usable_candidate_k_is_a_marked_failure(iris):
    train, _ = split_indices(iris.y, 0.7, seed=0)
    with pytest.raises(ClassificationInputError, match="no candidate k in \\[40, 60\\]"):
        select_n_neighbors(PCAKNN, {}, iris.X[train], iris.y[train], [60, 40], seed=0)


def test_a_failure_of_every_candidate_says_why_each_was_rejected():
    """Unshrunk LDA on fewer points than dimensions fails for every k: the error
    carries the method's own reason (and its fix), not a guess about the candidates."""
    from harness.methods.lda_knn_unshrunk import LDAKNNUnshrunk

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 50)), np.repeat(np.arange(4), 15)
    with pytest.raises(ClassificationInputError) as err:
        select_n_neighbors(LDAKNNUnshrunk, {}, X, y, [1, 3], seed=0)
    message = str(err.value)
    assert message.startswith("no candidate k in [1, 3] fits the validation split of 42 "
                              "points (k = 1, 3: unshrunk LDA (shrinkage=None) needs a "
                              "non-singular within-class covariance")
    assert "Use shrinkage='auto'" in message


def test_svm_with_one_candidate_fits_it_without_cross_validation(iris, monkeypatch):
    import sklearn.model_selection

    grid = [{"svc__kernel": ["poly"], "svc__degree": [4], "svc__coef0": [1.0]}]
    monkeypatch.setattr(sklearn.model_selection.GridSearchCV, "fit", None)  # must not run
    est = SVM(param_grid=grid).fit(iris.X, iris.y)
    assert est.best_params_ == {"svc__coef0": 1.0, "svc__degree": 4, "svc__kernel": "poly"}
    svc = est.model_.named_steps["svc"]
    assert (svc.kernel, svc.degree, svc.coef0) == ("poly", 4, 1.0)
    assert (est.predict(iris.X) == iris.y).mean() > 0.95
