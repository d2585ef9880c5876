"""Bad inputs and parameters give errors that name the problem and the fix.

Covers every method plugin in the registry: non-finite inputs, too few samples, a
neighbourhood larger than the data, a disconnected k-nearest-neighbour graph (thesis
3.2.1: the graph must be connected; :class:`harness.plugin.DisconnectedGraphError`),
Hessian LLE's lower bound on ``n_neighbors``, and Laplacian eigenmaps' weighting.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from harness.methods.mvu import SolverFailedError

from harness import registry
from harness.plugin import DisconnectedGraphError, ExpectedFailure
from harness.methods.hlle import HessianLLE
from harness.methods.laplacian_eigenmaps import LaplacianEigenmaps
from tests.methods.naive_spectral import swiss_roll

PLUGINS = {  # the embedding plugins; classifiers: tests/methods/test_classifier_input.py
    n: c for n, c in registry.methods("embedding").items()
    if not c.__module__.rsplit(".", 1)[-1].endswith("_test")  # conftest's temporary plugins
}
GRAPH_PLUGINS = sorted(
    n for n, c in PLUGINS.items() if c.uses_neighbors and getattr(c, "requires_connected_graph", False)
)


def make(name, **params):
    est = PLUGINS[name]()
    valid = est.get_params()
    if "solver" in valid:  # bad-input paths, not solvers: the dense backend is enough
        est.set_params(solver="clarabel")
    est.set_params(**{k: v for k, v in params.items() if k in valid})
    return est


@pytest.fixture(scope="module")
def X():
    return swiss_roll(n=60, noise=0.05, seed=2)[0]


def test_graph_plugins_are_the_spectral_methods():
    assert {"isomap", "lle", "hlle", "laplacian_eigenmaps"} <= set(GRAPH_PLUGINS)
    assert "pca" not in GRAPH_PLUGINS


# --------------------------------------------------------------------------- #
# non-finite inputs
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_non_finite_input_names_X_and_the_rows(name, bad, X):
    Xbad = X.copy()
    Xbad[5, 1] = bad
    Xbad[17, 0] = bad
    est = make(name, n_neighbors=8)
    with pytest.raises(ValueError) as info:
        est.fit(Xbad)
    msg = str(info.value)
    assert re.search(r"\bX\b", msg), msg
    assert "NaN" in msg and "infinity" in msg, msg
    assert "2 of 60 rows" in msg and "row 5" in msg, msg  # how many, and where
    assert not hasattr(est, "embedding_")


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_non_finite_input_as_nested_list(name, X):
    rows = X.tolist()
    rows[3][2] = float("nan")
    with pytest.raises(ValueError, match=r"X contains NaN or infinity in 1 of 60 rows \(first: row 3\)"):
        make(name, n_neighbors=8).fit(rows)


# --------------------------------------------------------------------------- #
# too few samples; neighbourhoods too large
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_one_sample_is_a_clear_error(name):
    with pytest.raises(ValueError, match=r"1 sample\(s\).*minimum of 2 is required"):
        make(name).fit(np.ones((1, 3)))


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_empty_input_is_a_clear_error(name):
    with pytest.raises(ValueError, match=r"0 sample\(s\)"):
        make(name).fit(np.ones((0, 3)))


@pytest.mark.parametrize("n_neighbors", [20, 21, 50])
@pytest.mark.parametrize("name", GRAPH_PLUGINS)
def test_n_neighbors_not_below_n_samples_names_n_neighbors(name, n_neighbors, X):
    with pytest.raises(ValueError) as info:
        make(name, n_neighbors=n_neighbors).fit(X[:20])
    msg = str(info.value)
    assert f"n_neighbors={n_neighbors}" in msg and "n_samples=20" in msg, msg
    assert "lower n_neighbors" in msg, msg


@pytest.mark.parametrize("name", GRAPH_PLUGINS)
def test_default_n_neighbors_fails_on_ten_samples_but_small_k_works(name, X):
    # the default k (15 for the spectral rows of Table 3.2, 5 for MVU) cannot be
    # used on that few points; k = 6 on 40 points can
    k = make(name).n_neighbors
    with pytest.raises(ValueError, match=rf"n_neighbors={k} must satisfy .* n_samples={k}"):
        make(name).fit(X[:k])
    Y = make(name, n_neighbors=6).fit_transform(X[:40])
    assert Y.shape == (40, 2) and np.isfinite(Y).all()


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_n_components_not_below_n_samples(name, X):
    if name == "hlle":  # its n_neighbors bound (> 20 for 5 components) is hit first
        with pytest.raises(ValueError, match=r"n_components \* \(n_components \+ 3\) / 2 = 20"):
            make(name, n_components=5, n_neighbors=3).fit(X[:5])
        return
    with pytest.raises(ValueError, match=r"n_components=5 must satisfy 1 <= n_components < n_samples=5"):
        make(name, n_components=5, n_neighbors=3).fit(X[:5])


# --------------------------------------------------------------------------- #
# disconnected neighbourhood graphs
# --------------------------------------------------------------------------- #
def clusters(sizes, seed=0):
    """Gaussian blobs of the given sizes, 1000 apart along the first axis."""
    rng = np.random.default_rng(seed)
    return np.vstack([rng.standard_normal((m, 3)) + [1000.0 * i, 0, 0]
                      for i, m in enumerate(sizes)])


@pytest.mark.parametrize("name", GRAPH_PLUGINS)
def test_two_far_apart_clusters_raise_disconnected_graph_error(name):
    X = clusters([25, 45])
    est = make(name, n_neighbors=8)
    with pytest.raises(DisconnectedGraphError) as info:
        est.fit(X)
    msg = str(info.value)
    assert "2 connected components" in msg, msg
    assert "(sizes 45, 25)" in msg, msg  # largest first
    assert "k=8" in msg and "70 inputs" in msg and "increase n_neighbors" in msg, msg
    # an ExpectedFailure (the workflow records it) and a ValueError (sklearn style)
    assert isinstance(info.value, ExpectedFailure) and isinstance(info.value, ValueError)
    assert info.value.status == "failed"
    assert not hasattr(est, "embedding_")


@pytest.mark.parametrize("name", GRAPH_PLUGINS)
def test_many_components_are_counted_and_sizes_abbreviated(name):
    X = clusters([12, 9, 14, 11, 10, 13, 9, 15, 10, 12])  # ten components
    with pytest.raises(DisconnectedGraphError,
                       match=r"has 10 connected components \(sizes 15, 14, 13, 12, 12, 11, 10, 10, \.\.\.\)"):
        make(name, n_neighbors=8).fit(X)


@pytest.mark.parametrize("name", GRAPH_PLUGINS)
def test_same_clusters_connect_with_a_large_enough_k(name):
    # negative control: 25 + 45 points with k = 30 (> 25) must be connected and fit
    X = clusters([25, 45])
    est = make(name, n_neighbors=30)
    try:
        Y = est.fit_transform(X)
    except SolverFailedError as exc:
        # the graph check passed; the dense SDP of two clusters 1000 apart is badly
        # scaled for Clarabel, which the harness records as a solver failure
        assert "solver" in est.get_params() and exc.status == "failed"
        return
    assert Y.shape == (70, 2) and np.isfinite(Y).all()


def test_pca_does_not_need_a_graph():
    Y = make("pca").fit_transform(clusters([25, 45]))
    assert Y.shape == (70, 2)
    assert np.abs(Y[:, 0]).max() > 100  # the separation is the first component


# --------------------------------------------------------------------------- #
# method-specific parameters
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("n_components", "bound"), [(1, 2), (2, 5), (3, 9)])
def test_hlle_too_few_neighbours_names_the_bound(n_components, bound, X):
    with pytest.raises(ValueError) as info:
        HessianLLE(n_neighbors=bound, n_components=n_components).fit(X)
    msg = str(info.value)
    assert "n_components * (n_components + 3) / 2" in msg, msg
    assert f"= {bound}" in msg and f"n_neighbors={bound}" in msg, msg
    # one more neighbour is enough
    Y = HessianLLE(n_neighbors=bound + 1, n_components=n_components).fit_transform(X)
    assert Y.shape == (60, n_components) and np.isfinite(Y).all()


@pytest.mark.parametrize("weights", ["bogus", "Binary", "", None])
def test_laplacian_eigenmaps_unknown_weights(weights, X):
    with pytest.raises(ValueError) as info:
        LaplacianEigenmaps(n_neighbors=8, weights=weights).fit(X)
    msg = str(info.value)
    assert "weights" in msg and "'binary'" in msg and "'heat'" in msg, msg
    assert repr(weights) in msg, msg


@pytest.mark.parametrize("sigma", [0.0, -1.0, float("nan")])
def test_laplacian_eigenmaps_heat_kernel_needs_positive_sigma(sigma, X):
    with pytest.raises(ValueError, match="sigma must be positive"):
        LaplacianEigenmaps(n_neighbors=8, weights="heat", sigma=sigma).fit(X)
