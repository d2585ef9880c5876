"""SVM's ``standardize``: with it the SVC sees unit-variance features, without it the
inputs as they are (the same predictions as a bare SVC with the same parameters)."""

import numpy as np
from sklearn.svm import SVC

from harness.methods.svm import SVM

GRID = [{"svc__kernel": ["poly"], "svc__degree": [2], "svc__coef0": [1.0]}]


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3)) * [1.0, 1.0, 300.0]  # one feature on another scale
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X, y


def test_without_standardising_the_svc_sees_the_inputs_as_they_are():
    X, y = _data()
    raw = SVM(param_grid=GRID, standardize=False).fit(X, y)
    assert raw.model_.named_steps["scale"] == "passthrough"
    bare = SVC(kernel="poly", degree=2, coef0=1.0).fit(X, y)
    np.testing.assert_array_equal(raw.predict(X), bare.predict(X))
    np.testing.assert_array_equal(raw.model_.named_steps["svc"].dual_coef_, bare.dual_coef_)


def test_standardising_is_the_default_and_changes_what_the_svc_sees():
    X, y = _data()
    scaled = SVM(param_grid=GRID).fit(X, y)
    inner = scaled.model_.named_steps["scale"].transform(X)
    np.testing.assert_allclose(inner.std(axis=0), 1.0, rtol=1e-12)
    raw = SVM(param_grid=GRID, standardize=False).fit(X, y)
    # the large feature dominates the unscaled kernel: the two fits differ
    assert (scaled.predict(X) != raw.predict(X)).any() or not np.array_equal(
        scaled.model_.named_steps["svc"].support_, raw.model_.named_steps["svc"].support_)


def test_the_raw_input_row_is_the_svm_without_standardising():
    """harness.methods.svm_raw: Table 2.1's second SVM row, the same fit as
    SVM(standardize=False) -- identical dual coefficients, not merely similar."""
    from harness import registry
    from harness.methods.svm_raw import SVMRawInputs

    X, y = _data()
    row = SVMRawInputs(param_grid=GRID).fit(X, y)
    assert row.get_params()["standardize"] is False
    assert row.model_.named_steps["scale"] == "passthrough"
    bare = SVC(kernel="poly", degree=2, coef0=1.0).fit(X, y)
    np.testing.assert_array_equal(row.model_.named_steps["svc"].dual_coef_, bare.dual_coef_)
    assert (SVMRawInputs.name, SVMRawInputs.thesis_label) == ("svm_raw", "SVM (raw inputs)")
    assert registry.methods("classification")["svm_raw"] is SVMRawInputs
