"""The moving-window data of action respecting embedding: views of a fixed smooth
picture, the actions that moved the window, and its true positions, consistent with
one another and seeded."""

import numpy as np
import pytest

from harness.datasets.moving_window import (ACTION_NAMES, MOVES, ActionSequenceData, MovingWindow,
                                    random_walk, smooth_image)
from harness import registry


@pytest.fixture(scope="module")
def clean():
    return MovingWindow().load(n_samples=120, noise=0.0, seed=4)


def test_shapes_and_registry(clean):
    assert isinstance(clean, ActionSequenceData)
    assert clean.X.shape == (120, 400) and clean.X.dtype == np.float64
    assert clean.actions.shape == (119,) and clean.positions.shape == (120, 2)
    np.testing.assert_array_equal(clean.y, np.arange(120))
    assert clean.meta["action_names"] == list(ACTION_NAMES)
    assert registry.get_dataset("moving_window") is MovingWindow
    assert "moving_window" in registry.datasets("embedding")


def test_actions_move_the_window_by_one_step_inside_the_picture(clean):
    moves = np.diff(clean.positions, axis=0)
    np.testing.assert_array_equal(moves, 3 * MOVES[clean.actions])
    assert clean.positions.min() >= 0 and clean.positions.max() <= 60 - 20
    assert (clean.positions % 3 == 0).all()
    np.testing.assert_array_equal(clean.positions[0], [21, 21])  # the grid's centre cell
    assert set(clean.actions) == {0, 1, 2, 3}


def test_rows_are_the_window_pixels(clean):
    image = smooth_image(60, 8.0, np.random.default_rng(4))  # the plugin's first draw
    assert image.min() == 0.0 and image.max() == 1.0
    for t in (0, 17, 119):
        r, c = clean.positions[t].astype(int)
        np.testing.assert_array_equal(clean.X[t], image[r:r + 20, c:c + 20].ravel())
    # a revisited position gives the same view (without noise)
    first = {}
    for t, p in enumerate(map(tuple, clean.positions)):
        if p in first:
            np.testing.assert_array_equal(clean.X[t], clean.X[first[p]])
        first.setdefault(p, t)
    assert len(first) == clean.meta["n_positions_visited"] < 120


def test_noise_seed_and_fit_params():
    a, b = MovingWindow().load(n_samples=50), MovingWindow().load(n_samples=50)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.actions, b.actions)
    c = MovingWindow().load(n_samples=50, seed=1)
    assert not np.array_equal(a.actions, c.actions)
    clean = MovingWindow().load(n_samples=50, noise=0.0)
    assert 0 < np.abs(a.X - clean.X).std() < 0.02
    assert a.fit_params().keys() == {"actions"} and a.fit_params()["actions"] is a.actions


def test_random_walk_stays_on_the_grid():
    cells, actions = random_walk(500, 3, np.random.default_rng(0))
    assert cells.min() == 0 and cells.max() == 2
    np.testing.assert_array_equal(np.diff(cells, axis=0), MOVES[actions])


@pytest.mark.parametrize(("params", "message"), [
    ({"n_samples": 1}, "n_samples must be at least 2"),
    ({"window": 70}, "need 1 <= window <= image_size"),
    ({"window": 59, "step": 3}, "cannot move by 3 px"),
])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        MovingWindow().load(**params)
