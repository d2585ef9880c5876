"""Fig. 3.18 (3.1.8): the work's measures on small synthetic inputs whose answers are
known by construction (ink along the first principal component, separable and mixed
embeddings, scaled and collapsed edges), the LLE job's variational MVU against Table
3.2's plugins, the gaps (no data, a disconnected graph), and the verdicts on hand-made
records (a holding, a failing and an unmeasured case each)."""

from __future__ import annotations

import numpy as np
import pytest

from harness import registry
from harness.problems.mvu_problem import clique_edges
from harness.results.fig_3_18 import register_claims as rc
from harness.results.fig_3_18 import work
from harness.results.fig_3_18.work import (cluster_purity, edge_loss, ink_correlation,
                                          one_nn_accuracy, purity, subsample)


def test_the_first_score_follows_ink_when_ink_varies_most():
    rng = np.random.default_rng(0)
    ink = rng.uniform(0.5, 2.0, 300)
    X = ink[:, None] * np.full(40, 0.5) + 0.01 * rng.standard_normal((300, 40))
    Y = registry.get_method("pca")(n_components=2).fit_transform(X)
    assert abs(ink_correlation(X, Y[:, 0])) > 0.99
    # ink constant, the variance elsewhere: the first score knows nothing of ink
    shape = rng.standard_normal((300, 1)) * np.r_[np.ones(20), -np.ones(20)]
    flat = 1.0 + shape + 0.01 * rng.standard_normal((300, 40))
    Yf = registry.get_method("pca")(n_components=2).fit_transform(flat)
    assert abs(ink_correlation(flat, Yf[:, 0])) < 0.3


def test_purity_and_1nn_of_separable_and_mixed_embeddings():
    assert cluster_purity(np.array([0, 0, 1, 1]), np.array([2, 2, 3, 2])) == 0.75
    rng = np.random.default_rng(1)
    y = np.repeat([2, 3], 100)
    Y = rng.standard_normal((200, 2)) + np.where(y == 2, -10.0, 10.0)[:, None]
    assert purity(Y, y, seed=0, n_init=5) == 1.0 and one_nn_accuracy(Y, y) == 1.0
    mixed = rng.permutation(y)
    assert purity(Y, mixed, 0, 5) < 0.65 and one_nn_accuracy(Y, mixed) < 0.65


def test_edge_loss_is_zero_up_to_scale_and_one_when_collapsed():
    X = np.random.default_rng(2).standard_normal((120, 3))
    edges, b = clique_edges(X, 5)
    assert edge_loss(3.0 * X, edges, b) == pytest.approx(0.0, abs=1e-12)
    assert edge_loss(np.zeros((120, 2)), edges, b) == 1.0
    assert 0.0 < edge_loss(X[:, :2], edges, b) < 1.0


def test_the_subset_is_seeded_sorted_and_stratified():
    y = np.repeat([2, 3], [600, 400])
    a, b = subsample(y, 100, 0), subsample(y, 100, 0)
    assert np.array_equal(a, b) and np.all(np.diff(a) > 0)
    assert (y[a] == 2).sum() == 60 and (y[a] == 3).sum() == 40
    assert np.array_equal(subsample(y, None, 0), np.arange(1000))


def _params(**more) -> dict:
    return {"dataset": "mnist", "dataset_params": {"deskew": False, "n_components": None,
                                                   "n_test": 0},
            "digits": [2, 3], "seed": 0, "n_samples": None, "kmeans_init": 3,
            "eval_neighbors": 10, **more}


def _roll(n=300):
    data = registry.get_dataset("swiss_roll")().load(n_samples=n, seed=0)
    return data.X, np.where(data.y < np.median(data.y), 2, 3)


def test_the_lle_job_runs_table_3_2s_variational_mvu(monkeypatch):
    X, y = _roll()
    monkeypatch.setattr(work, "load_digits", lambda params: (X, y, 1000))
    params = _params(kind="lle", n_neighbors=8, n_basis=10, omega=0.9, cg_maxiter=100)
    out = work.lle(params)
    assert out["status"] == "ok" and out["n"] == 300 and out["k"] == 8 and out["m"] == 10
    plain = registry.get_method("var_mvu_lle")(n_neighbors=8, random_state=0).fit_transform(X)
    cg = registry.get_method("var_mvu_cg_lle")(n_neighbors=8, random_state=0).fit_transform(X)
    edges, b = clique_edges(X, 8)
    assert out["n_edges"] == len(edges)
    assert out["variational"]["edge_loss"] == pytest.approx(edge_loss(plain, edges, b), rel=1e-6)
    assert out["variational_cg"]["edge_loss"] == pytest.approx(edge_loss(cg, edges, b), rel=1e-6)
    assert out["variational"]["sdp_status"].startswith("optimal")  # Clarabel's, recorded
    assert all(0 <= out[e][m] <= 1 for e in ("lle", "variational", "variational_cg")
               for m in ("purity", "one_nn_accuracy", "continuity", "edge_loss"))


def test_no_data_and_a_disconnected_graph_are_gaps(monkeypatch, tmp_path):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    for job in (work.count, work.pca, work.lle):
        out = job(_params(kind="x", n_neighbors=8))
        assert out["status"] == "unavailable" and "mnist" in out["reason"]
    far = np.vstack([np.random.default_rng(3).standard_normal((40, 3)) + s for s in (0, 100)])
    monkeypatch.setattr(work, "load_digits", lambda params: (far, np.repeat([2, 3], 40), 80))
    out = work.lle(_params(kind="lle", n_neighbors=3, n_basis=10, omega=0.9, cg_maxiter=10))
    assert out["status"] == "failed" and out["k"] == 3 and "component" in out["reason"]


def test_the_count_reading():
    def count(n2, n3):
        return {"count": {"status": "ok", "n_train": 60000, "per_digit": {"2": n2, "3": n3},
                          "count": n2 + n3}}
    assert rc.mnist_count(count(5958, 6131))["verdict"] == "holds"
    assert rc.mnist_count(count(5958, 6130))["verdict"] == "does not hold"
    assert rc.mnist_count({})["verdict"] == "not measured"


def _pca(r: float) -> dict:
    return {"pca": {"status": "ok", "n": 2000, "n_digits": 12089, "n_features": 784,
                    "params": {"seed": 0}, "first_score_ink_pearson": r,
                    "second_score_ink_pearson": 0.1, "explained_variance_ratio": [0.2, 0.1]}}


def test_the_ink_reading():
    assert rc.pca_ink(_pca(-0.9))["verdict"] == "holds"
    assert rc.pca_ink(_pca(0.5))["verdict"] == "does not hold"
    assert rc.pca_ink({"pca": {"status": "unavailable", "reason": "no MNIST"}})["verdict"] \
        == "not measured"


def _scores(purity_=0.9, accuracy=0.9, continuity=0.5, loss=0.7) -> dict:
    return {"purity": purity_, "one_nn_accuracy": accuracy, "continuity": continuity,
            "edge_loss": loss}


def _lle(k, lle=None, var=None) -> dict:
    return {f"lle_k{k}": {"status": "ok", "n": 12089, "n_digits": 12089, "k": k, "m": 10,
                          "n_edges": 1000, "eval_neighbors": 15, "params": {"seed": 0},
                          "lle": lle or _scores(), "variational": var or _scores(0.6, 0.7, 0.7, 0.5),
                          "variational_cg": _scores(0.6, 0.7, 0.8, 0.3)}}


def test_the_cluster_readings_need_every_k():
    assert rc.lle_clusters({**_lle(8), **_lle(12)})["verdict"] == "holds"
    one_fails = {**_lle(8), **_lle(12, lle=_scores(purity_=0.6))}
    assert rc.lle_clusters(one_fails)["verdict"] == "partly holds"  # 1-NN holds, purity not
    both_fail = {**_lle(8, lle=_scores(0.6, 0.6)), **_lle(12)}
    assert rc.lle_clusters(both_fail)["verdict"] == "does not hold"
    half = {**_lle(8), "lle_k12": {"status": "timeout", "reason": "over budget"}}
    claim = rc.lle_clusters(half)
    assert claim["verdict"] == "not measured" and "lle_k12" in claim["evidence"]
    assert rc.lle_clusters({})["verdict"] == "not measured"


def test_the_variational_readings():
    assert rc.variational_preserves_more({**_lle(8), **_lle(12)})["verdict"] == "holds"
    worse = _scores(continuity=0.4, loss=0.8)
    assert rc.variational_preserves_more({**_lle(8), **_lle(12, var=worse)})["verdict"] \
        == "does not hold"
    level = _scores(continuity=0.505, loss=0.696)  # +0.005 and +0.6 %: within the bands
    assert rc.variational_preserves_more({**_lle(8, var=level), **_lle(12, var=level)})[
        "verdict"] == "undecided (within noise)"
    gap = {**_lle(8), "lle_k12": {"status": "unavailable", "reason": "no MNIST"}}
    assert rc.variational_preserves_more(gap)["verdict"] == "not measured"
    assert rc.variational_preserves_more({**_lle(8, var=worse), **{
        "lle_k12": {"status": "unavailable", "reason": "no MNIST"}}})["verdict"] == "does not hold"
