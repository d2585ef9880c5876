"""Bad input to every classification plugin gets a clear error naming the problem.

Thesis 2.1.2 needs ``k`` target neighbours of each point's own class, so a class
with ``k`` or fewer members cannot be used; one class only, NaN, ``k >= n`` and a
missing ``y`` are errors that name the fix. String labels work (the classifier
returns the same strings).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from harness import registry

CLASSIFIERS = {n: c for n, c in registry.methods("classification").items()
               if not n.endswith("_test")}
WITH_K = sorted(n for n, c in CLASSIFIERS.items() if "n_neighbors" in c().get_params())


@pytest.fixture(scope="module")
def data():
    X, y = make_blobs(n_samples=40, centers=2, n_features=3, random_state=0)
    return X, np.array(["left", "right"])[y]


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_nan_names_the_rows(name, data):
    X, y = data
    X = X.copy()
    X[[4, 9], 1] = np.nan
    with pytest.raises(ValueError, match=r"NaN or infinity in 2 of 40 rows \(first: row 4\)"):
        CLASSIFIERS[name]().fit(X, y)


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_one_class_only(name, data):
    X, _ = data
    with pytest.raises(ValueError, match="single class 'only'.*at least 2 classes"):
        CLASSIFIERS[name]().fit(X, np.full(len(X), "only"))


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_missing_y(name, data):
    X, _ = data
    with pytest.raises(ValueError, match="requires y to be passed"):
        CLASSIFIERS[name]().fit(X, None)


@pytest.mark.parametrize("name", WITH_K)
def test_class_not_larger_than_k(name, data):
    X, y = data
    y = y.copy()
    y[:3] = "rare"
    with pytest.raises(ValueError, match="class 'rare' has 3 members.*lower n_neighbors below 3"):
        CLASSIFIERS[name](n_neighbors=3).fit(X, y)


@pytest.mark.parametrize("name", WITH_K)
@pytest.mark.parametrize("k", [40, 41, 0])
def test_k_out_of_range(name, k, data):
    X, y = data
    with pytest.raises(ValueError, match=rf"n_neighbors={k} must be an integer with "
                                         rf"1 <= n_neighbors < n_samples=40"):
        CLASSIFIERS[name](n_neighbors=k).fit(X, y)


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_string_labels_come_back(name, data):
    skip, why = CLASSIFIERS[name].skip(None, None)  # a peer whose package is missing
    if skip:
        pytest.skip(why)
    X, y = data
    pred = CLASSIFIERS[name]().fit(X, y).predict(X[:10] + 0.01)
    assert pred.dtype == y.dtype and set(pred) <= {"left", "right"}
    np.testing.assert_array_equal(pred, y[:10])  # two well separated blobs
