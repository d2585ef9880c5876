"""NMF plugin: scikit-learn's NMF inside the harness' embedding task, and a clear
refusal of negative inputs."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import NMF as SkNMF

from harness.plugin import Dataset
from harness.results.common.work.grid import work
from harness.tasks.embedding import BadInputError, run_embedding
from harness.methods.nmf import NMF


def nonnegative(n=80, d=30, seed=0):
    """Products of random nonnegative factors (rank 4) plus a little noise, >= 0."""
    rng = np.random.default_rng(seed)
    return rng.random((n, 4)) @ rng.random((4, d)) + 0.01 * rng.random((n, d))


def dataset(X):
    return Dataset(X=X, y=None, meta={"thesis_name": "random"})


# scikit-learn's default max_iter = 200 stops some of these fits early (a
# ConvergenceWarning); the comparisons use the same defaults on both sides
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

PARAMS = {"method_params": {"n_components": 2}, "eval_neighbors": 5}


@pytest.mark.parametrize("init", [None, "random", "nndsvd"])
@pytest.mark.parametrize("seed", [0, 3])
def test_embedding_task_matches_scikit_learn_with_the_same_seed(init, seed):
    X = nonnegative()
    params = {**PARAMS, "method_params": {"n_components": 2, "init": init}}
    result = run_embedding(NMF, dataset(X), params, seed=seed, keep_embedding=True)
    reference = SkNMF(n_components=2, init=init, random_state=seed)
    W = reference.fit_transform(X)
    np.testing.assert_array_equal(result["embedding"], W)
    assert result["info"]["reconstruction_error"] == reference.reconstruction_err_
    assert set(result["measures"]) == {"local_continuity", "local_trust",
                                       "neighborhood_intersection"}
    assert all(0 <= v <= 1 for v in result["measures"].values())


def test_fitted_factors_are_scikit_learns():
    X, X_new = nonnegative(seed=1), nonnegative(n=5, seed=2)
    ours = NMF(n_components=3, random_state=0).fit(X)
    theirs = SkNMF(n_components=3, random_state=0).fit(X)
    np.testing.assert_array_equal(ours.components_, theirs.components_)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_array_equal(ours.transform(X_new), theirs.transform(X_new))
    assert (ours.embedding_ >= 0).all() and (ours.components_ >= 0).all()
    # the factorisation reconstructs the data to its reported error
    err = np.linalg.norm(X - ours.embedding_ @ ours.components_)
    assert err == pytest.approx(ours.reconstruction_error_, rel=1e-6)


def test_negative_input_names_the_entries_and_the_fix():
    X = nonnegative()
    X[7, 3] = -0.5
    with pytest.raises(ValueError) as info:
        NMF().fit(X)
    msg = str(info.value)
    assert msg.startswith("Negative values in data passed to NMF (input X)"), msg
    assert "1 entries are < 0" in msg and "row 7, column 3: -0.5" in msg, msg
    assert "X - X.min(axis=0)" in msg and "'pca'" in msg, msg
    # in the embedding task: a marked cell, not a crash
    with pytest.raises(BadInputError, match="nmf rejected the input: Negative values"):
        run_embedding(NMF, dataset(X), PARAMS, seed=0)
    # and transform refuses negative new points alike
    est = NMF().fit(nonnegative())
    with pytest.raises(ValueError, match=r"Negative values in data passed to NMF \(input X\)"):
        est.transform(-nonnegative(n=3))


def test_signed_data_sets_are_skipped_with_the_reason():
    signed = dataset(nonnegative() - 0.5)
    skip, why = NMF.skip(signed, None)
    assert skip and "NMF needs nonnegative inputs" in why and "shift or rescale" in why
    assert NMF.skip(dataset(nonnegative()), None) == (False, "")
    assert NMF.skip(None, None) == (False, "")


def test_the_swiss_roll_cell_is_a_marked_skip():
    params = {"table": "table_3_2", "dataset": "swiss_roll", "method": "nmf", "seed": 0,
              "n_runs": 1, "blas_threads": 1, "eval_neighbors": 15,
              "dataset_params": {"n_samples": 200, "noise": 0.0, "seed": 0},
              "method_params": {"n_components": 2}}
    body = work(params)
    assert body["status"] == "skipped" and "nonnegative" in body["reason"], body
