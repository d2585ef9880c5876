"""The peer plugins (metric-learn's LMNN, pylmnn, scikit-learn's NCA; harness/methods/shared/peer.py).

Each peer either runs and predicts, or is reported as not runnable with a reason
starting "peer not runnable:"; which of the two must happen is decided here from
what is installed, independently of the plugin, so the test cannot pass silently.
A missing package is simulated by making the import fail; an exception inside a
peer becomes PeerNotRunnable with the original message; input errors stay
ValueErrors raised before the peer runs; NCA's L is scikit-learn's.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.neighbors import NeighborhoodComponentsAnalysis

from harness.results.common.work.grid import work
from harness.tasks.classification import run_classification
from harness.methods.shared import peer as _peer
from harness.methods.shared.metric_knn import KNN_MEASURES
from harness.methods.shared.peer import PREFIX, PeerMetricKNN, PeerNotRunnable
from harness.methods.nca_knn import NCAKNN
from harness.methods.peer_metric_learn_lmnn import MetricLearnLMNN
from harness.methods.peer_pylmnn import PyLMNN

PEERS = {"metric_learn_lmnn": MetricLearnLMNN, "pylmnn": PyLMNN, "nca_knn": NCAKNN}


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module.split(".")[0]) is not None


@pytest.fixture(scope="module")
def iris_split():
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    rng = np.random.default_rng(0)
    test = np.zeros(len(y), bool)
    for c in range(3):  # 15 test points per class
        test[rng.choice(np.flatnonzero(y == c), 15, replace=False)] = True
    return X[~test], labels[~test], X[test], labels[test]


def test_plugins_are_registered_peers():
    from harness import registry

    found = registry.methods("classification")
    for name, cls in PEERS.items():
        assert found[name] is cls and issubclass(cls, PeerMetricKNN)
        assert "n_active" not in cls.measures
        assert set(cls.measures) == set(KNN_MEASURES) - {"n_active"}
    assert {c.thesis_label for c in PEERS.values()} == {"metric-learn LMNN", "pylmnn LMNN",
                                                         "NCA"}


# --------------------------------------------------------------------------- #
# runs or is reported, according to what is installed
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("name", sorted(PEERS))
def test_peer_runs_or_is_reported(name, iris_split):
    cls = PEERS[name]
    X, y, X_test, y_test = iris_split
    skip, why = cls.skip(None, None)
    if not _installed(cls.peer_module):
        assert skip and why == (f"peer not runnable: {cls.peer_dist} not installed "
                                f"(pip install '{cls.peer_dist}')")
        with pytest.raises(PeerNotRunnable, match="^peer not runnable: .* not installed"):
            cls().fit(X, y)
        return
    # installed: with the shims of harness.methods.shared.peer every peer runs on this stack
    assert (skip, why) == (False, "")
    est = cls(n_neighbors=3, random_state=0).fit(X, y)
    L = est.components_
    assert L.shape == (4, 4) and np.isfinite(L).all() and np.abs(L).max() > 0
    assert est.n_iter_ >= 1 and est.peer_version_[0].isdigit()
    pred = est.predict(X_test)
    assert pred.dtype == y_test.dtype
    assert np.mean(pred != y_test) <= 0.1  # 3-NN on iris: a few errors at most
    assert np.mean(est.predict_loo() != y) <= 0.1
    assert np.mean(est.predict_energy(X_test) != y_test) <= 0.15
    np.testing.assert_allclose(est.transform(X_test), X_test @ L.T)
    assert not hasattr(est, "n_active_")


def test_stand_ins_do_not_outlive_the_import():
    if not _installed("pylmnn"):
        pytest.skip("pylmnn not installed")
    module, why = _peer.import_peer("pylmnn", "pylmnn")
    assert module is not None, why
    assert callable(module.LargeMarginNearestNeighbor)
    for name in ("six", "GPyOpt", "GPyOpt.methods"):
        if not _installed(name):
            assert name not in sys.modules, f"the stand-in {name} stayed in sys.modules"


def test_call_shims_are_undone(iris_split):
    X, y = iris_split[:2]
    if _installed("metric_learn"):
        util = importlib.import_module("metric_learn._util")
        before = (util.check_array, util.check_X_y)
        MetricLearnLMNN(max_iter=60).fit(X, y)
        assert (util.check_array, util.check_X_y) == before
    if _installed("pylmnn"):
        _peer.import_peer("pylmnn", "pylmnn")
        lmnn = importlib.import_module("pylmnn.lmnn")
        before = lmnn.minimize
        with pytest.warns(Warning):  # stops at max_iter=2 (ConvergenceWarning)
            PyLMNN(max_iter=2).fit(X, y)
        assert lmnn.minimize is before


def test_metric_learn_without_its_shim_is_not_runnable(iris_split, monkeypatch):
    """Why the shim exists (metric-learn 0.7 on scikit-learn >= 1.8), and that the
    failure it prevents would be a clean PeerNotRunnable with metric-learn's error."""
    if not _installed("metric_learn"):
        pytest.skip("metric-learn not installed")
    from sklearn.utils.validation import check_array

    if "force_all_finite" in inspect.signature(check_array).parameters:
        pytest.skip("this scikit-learn still takes force_all_finite: no shim needed")
    monkeypatch.delitem(_peer._CALL_SHIMS, "metric_learn")
    X, y = iris_split[:2]
    with pytest.raises(PeerNotRunnable) as info:
        MetricLearnLMNN().fit(X, y)
    message = str(info.value)
    assert message.startswith("peer not runnable: metric-learn ")
    assert "TypeError: " in message and "force_all_finite" in message
    assert isinstance(info.value.__cause__, TypeError)
    assert info.value.status == "failed"


# --------------------------------------------------------------------------- #
# a missing or broken package
# --------------------------------------------------------------------------- #
def _failing_import(blocked: str, exc_factory):
    real = _peer._import_module

    def fake(name, *args, **kwargs):
        if name.split(".")[0] == blocked:
            raise exc_factory(name)
        return real(name, *args, **kwargs)

    return fake


@pytest.mark.parametrize("name", sorted(PEERS))
def test_missing_package_is_skipped_with_the_pip_command(name, monkeypatch, iris_split):
    cls = PEERS[name]
    top = cls.peer_module.split(".")[0]
    monkeypatch.setattr(_peer, "_import_module", _failing_import(
        top, lambda n: ModuleNotFoundError(f"No module named {top!r}", name=top)))
    expected = f"peer not runnable: {cls.peer_dist} not installed (pip install '{cls.peer_dist}')"
    assert cls.skip(None, None) == (True, expected)
    est = cls()  # the class and its instances work without the package
    assert est.get_params()["n_neighbors"] == 3
    with pytest.raises(PeerNotRunnable) as info:
        est.fit(*iris_split[:2])
    assert str(info.value) == expected


def test_missing_package_via_sys_modules(monkeypatch):
    # what Python itself raises when the package is absent (name == "pylmnn")
    monkeypatch.setitem(sys.modules, "pylmnn", None)
    assert PyLMNN.skip(None, None) == (
        True, "peer not runnable: pylmnn not installed (pip install 'pylmnn')")


def test_broken_import_names_the_error_and_the_stack(monkeypatch):
    monkeypatch.setattr(_peer, "_import_module", _failing_import(
        "metric_learn", lambda n: ImportError("cannot import name 'stable_cumsum'")))
    skip, why = MetricLearnLMNN.skip(None, None)
    assert skip and why.startswith("peer not runnable: metric-learn ")
    assert "cannot be imported with scikit-learn " in why
    assert why.endswith("ImportError: cannot import name 'stable_cumsum'")
    # a missing *dependency* of the peer is not "peer not installed"
    monkeypatch.setattr(_peer, "_import_module", _failing_import(
        "pylmnn", lambda n: ModuleNotFoundError("No module named 'GPyOpt'", name="GPyOpt")))
    skip, why = PyLMNN.skip(None, None)
    assert skip and "cannot be imported" in why and "GPyOpt" in why


def test_runner_writes_a_skipped_record(monkeypatch):
    monkeypatch.setattr(_peer, "_import_module", _failing_import(
        "pylmnn", lambda n: ModuleNotFoundError("No module named 'pylmnn'", name="pylmnn")))
    params = {"dataset": "iris", "method": "pylmnn", "blas_threads": 1,
              "dataset_params": {}, "n_runs": 2, "seed": 0, "method_params": {},
              "train_fraction": 0.7}
    body = work(params)  # a table cell's work (harness.results.common.work.grid, job table_2_1/...)
    assert body["status"] == "skipped" and body["runs"] == []
    assert body["reason"] == "peer not runnable: pylmnn not installed (pip install 'pylmnn')"


# --------------------------------------------------------------------------- #
# exceptions inside the peer; input errors before it
# --------------------------------------------------------------------------- #
def _raise_inside(self, X, y):
    raise RuntimeError("numerical trouble deep inside the peer")


def test_exception_inside_the_peer_is_not_runnable(monkeypatch, iris_split):
    monkeypatch.setattr(NeighborhoodComponentsAnalysis, "fit", _raise_inside)
    with pytest.raises(PeerNotRunnable) as info:
        NCAKNN().fit(*iris_split[:2])
    message = str(info.value)
    assert message.startswith("peer not runnable: scikit-learn ")
    assert message.endswith("RuntimeError: numerical trouble deep inside the peer")
    assert isinstance(info.value.__cause__, RuntimeError)
    # the classification task passes it through (not "rejected the input"), and the
    # runner makes it a marked record, not a crash
    from harness.plugin import Dataset

    X, y = load_iris(return_X_y=True)
    with pytest.raises(PeerNotRunnable):
        run_classification(NCAKNN, Dataset(X, y, {}), {"method_params": {},
                                                       "train_fraction": 0.7}, 0)
    body = work({"dataset": "iris", "method": "nca_knn", "blas_threads": 1,
                 "dataset_params": {}, "n_runs": 1, "seed": 0, "method_params": {},
                 "train_fraction": 0.7})
    assert body["status"] == "failed" and body["error_type"] == "PeerNotRunnable"
    assert body["reason"].startswith("peer not runnable: ")


@pytest.mark.parametrize("name", sorted(PEERS))
def test_input_errors_are_value_errors_before_the_peer(name, monkeypatch, iris_split):
    def must_not_run(*args, **kwargs):
        raise AssertionError("the peer was imported although the input is invalid")

    monkeypatch.setattr(_peer, "import_peer", must_not_run)
    cls = PEERS[name]
    X, y = iris_split[:2]
    bad = X.copy()
    bad[5, 2] = np.nan
    with pytest.raises(ValueError, match=r"NaN or infinity in 1 of \d+ rows \(first: row 5\)"):
        cls().fit(bad, y)
    with pytest.raises(ValueError, match="single class 'one'"):
        cls().fit(X, np.full(len(X), "one"))
    with pytest.raises(ValueError, match="mu=2.0 must lie in"):
        cls(mu=2.0).fit(X, y)
    assert not isinstance(ValueError(), PeerNotRunnable)


def test_peer_not_runnable_message():
    assert str(PeerNotRunnable("x")) == PREFIX + "x"
    assert str(PeerNotRunnable(PREFIX + "x")) == PREFIX + "x"


# --------------------------------------------------------------------------- #
# NCA is scikit-learn's NCA
# --------------------------------------------------------------------------- #
def test_nca_components_are_sklearns(iris_split):
    X, y = iris_split[:2]
    for kwargs in ({}, {"n_components": 2, "init": "pca", "max_iter": 30}):
        ours = NCAKNN(random_state=0, **kwargs).fit(X, y)
        ref = NeighborhoodComponentsAnalysis(random_state=0, **kwargs).fit(X, y)
        np.testing.assert_allclose(ours.components_, ref.components_, rtol=1e-10, atol=1e-12)
        assert ours.n_iter_ == ref.n_iter_


def test_peer_parameters_reach_the_peer(iris_split):
    """mu maps onto each package's own name (metric-learn: pull weight 1 - mu)."""
    if _installed("metric_learn"):
        module, _ = _peer.import_peer("metric_learn", "metric-learn")
        peer = MetricLearnLMNN(n_neighbors=4, mu=0.3, max_iter=7)._make_peer(module)
        assert (peer.n_neighbors, peer.max_iter) == (4, 7)
        assert peer.regularization == pytest.approx(0.7)
    if _installed("pylmnn"):
        module, _ = _peer.import_peer("pylmnn", "pylmnn")
        peer = PyLMNN(n_neighbors=np.int64(4), mu=0.3)._make_peer(module)
        assert (peer.n_neighbors, peer.weight_push_loss) == (4, 0.3)
        assert type(peer.n_neighbors) is int  # pylmnn checks isinstance(x, int)
