"""Energy-based classification, thesis eq. (2.12), against a loop implementation."""

from __future__ import annotations

import numpy as np
import pytest

import harness.metrics.energy as energy
from harness.metrics.energy import class_energies, energy_predict, energy_test_error
from harness.metrics.knn_error import same_class_neighbors
from tests.methods.naive_lmnn import naive_energies, naive_targets


def _data(seed, n_train=36, n_test=14, d=3, n_classes=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n_train) % n_classes
    Xtr = rng.normal(size=(n_train, d)) + 0.8 * y[:, None]
    Xte = rng.normal(size=(n_test, d)) + 0.8 * (np.arange(n_test) % n_classes)[:, None]
    L = rng.normal(size=(d, d)) * 0.7
    return Xtr, y, Xte, L


def _energies(Xtr, ytr, Xte, L, k, mu, T):
    Ztr, Zte = Xtr @ L.T, Xte @ L.T
    D = ((Zte[:, None, :] - Ztr[None]) ** 2).sum(-1)
    groups = [np.flatnonzero(ytr == c) for c in range(ytr.max() + 1)]
    diff = Ztr[T] - Ztr[:, None, :]
    return class_energies(D, ytr, groups, 1.0 + (diff**2).sum(-1), k, mu)


@pytest.mark.parametrize(("seed", "k", "mu"), [(0, 1, 0.5), (1, 2, 0.5), (2, 3, 0.5), (3, 3, 0.2), (4, 2, 1.0)])
def test_energies_and_predictions_match_naive_loops(seed, k, mu):
    Xtr, ytr, Xte, L = _data(seed)
    T = naive_targets(Xtr, ytr, k)
    E_naive, classes = naive_energies(Xtr, ytr, Xte, L, k, mu, T)
    np.testing.assert_allclose(_energies(Xtr, ytr, Xte, L, k, mu, T), E_naive, rtol=1e-10, atol=1e-9)
    # all three terms contribute on this overlapping data
    assert E_naive.min() > 0 and np.ptp(E_naive, axis=1).min() > 0
    pred = energy_predict(Xtr, ytr, Xte, L, k, mu, target_neighbors=T)
    np.testing.assert_array_equal(pred, classes[E_naive.argmin(axis=1)])


def test_default_target_neighbors_are_euclidean_same_class():
    Xtr, ytr, Xte, L = _data(7)
    T = same_class_neighbors(Xtr, ytr, 3)
    np.testing.assert_array_equal(energy_predict(Xtr, ytr, Xte, L, 3),
                                  energy_predict(Xtr, ytr, Xte, L, 3, target_neighbors=T))


def test_blocking_over_test_points_does_not_change_the_answer(monkeypatch):
    Xtr, ytr, Xte, L = _data(8, n_test=40)
    full = energy_predict(Xtr, ytr, Xte, L, 2)
    monkeypatch.setattr(energy, "BLOCK_ELEMENTS", 3 * len(Xtr))  # 3 test rows a block
    np.testing.assert_array_equal(energy_predict(Xtr, ytr, Xte, L, 2), full)


def test_separated_clusters_string_labels_and_error_value():
    rng = np.random.default_rng(0)
    centres = {"cat": 0.0, "dog": 10.0, "eel": 20.0}
    ytr = np.repeat(list(centres), 6)
    Xtr = np.array([[centres[c]] for c in ytr]) + rng.normal(scale=0.3, size=(18, 1))
    Xte = np.array([[0.2], [9.7], [20.4], [10.1]])
    yte = np.array(["cat", "dog", "eel", "eel"])  # the last one is mislabelled
    pred = energy_predict(Xtr, ytr, Xte, None, 3)
    assert pred.tolist() == ["cat", "dog", "eel", "dog"]
    assert energy_test_error(Xtr, ytr, Xte, yte, None, 3) == pytest.approx(0.25)


def test_too_small_class_is_an_error():
    Xtr, ytr, Xte, L = _data(9, n_train=7)  # classes of 3, 2, 2
    with pytest.raises(ValueError, match="n_neighbors=3"):
        energy_predict(Xtr, ytr, Xte, L, 3)
    with pytest.raises(ValueError, match="target_neighbors must be"):
        energy_predict(Xtr, ytr, Xte, L, 1, target_neighbors=np.zeros((7, 2), int))
