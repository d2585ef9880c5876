"""Tests of the synthetic teapot stand-in (``harness/datasets/teapot_standin.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from harness.datasets.teapot_standin import TeapotStandIn
from harness.plugin import DatasetPlugin


@pytest.fixture(scope="module")
def full():
    """The default data set (400 frames of 76 x 101 x 3), rendered once."""
    return TeapotStandIn().load()


@pytest.fixture(scope="module")
def distances(full):
    """Euclidean distances between all frames, in pixel space."""
    return cdist(full.X, full.X)


def test_plugin_attributes():
    assert issubclass(TeapotStandIn, DatasetPlugin)
    assert TeapotStandIn.name == "teapot_standin"
    assert TeapotStandIn.thesis_name == "teapot"
    assert TeapotStandIn.stand_in_for == "teapot"
    assert TeapotStandIn.tasks == ("embedding",)
    assert TeapotStandIn.params == {"n_frames": 400, "height": 76, "width": 101,
                                    "seed": 0}
    assert "stand-in" in TeapotStandIn.description


def test_shape_dtype_range(full):
    assert full.X.shape == (400, 76 * 101 * 3) == (400, 23028)
    assert full.X.dtype == np.float64
    assert np.isfinite(full.X).all()
    assert full.X.min() >= 0.0 and full.X.max() <= 1.0
    assert full.X.std() > 0.05  # not a blank image
    assert full.n_samples == 400


def test_meta(full):
    meta = full.meta
    assert meta["source"] == "generated"
    assert meta["stand_in_for"] == "teapot"
    assert meta["thesis_name"] == "teapot"
    assert meta["image_shape"] == [76, 101, 3]
    assert meta["angles"] == "evenly spaced over [0, 2pi)"
    assert meta["description"]


def test_layout_is_row_major_height_width_channel(full):
    """Corners are background; the object sits in the middle of the image."""
    frame = full.X[0].reshape(76, 101, 3)
    corners = frame[[0, 0, -1, -1], [0, -1, 0, -1]]
    assert np.allclose(corners, corners[0])
    assert not np.allclose(frame[38, 50], corners[0])


def test_deterministic(full):
    again = TeapotStandIn().load()
    assert np.array_equal(full.X, again.X)
    assert np.array_equal(full.y, again.y)


def test_seed_changes_only_the_texture():
    a = TeapotStandIn().load(n_frames=8, height=30, width=40, seed=0)
    b = TeapotStandIn().load(n_frames=8, height=30, width=40, seed=1)
    assert not np.array_equal(a.X, b.X)
    assert np.array_equal(a.y, b.y)


def test_angles_evenly_spaced(full):
    y = full.y
    assert y.shape == (400,)
    assert y[0] == 0.0
    np.testing.assert_allclose(np.diff(y), 2 * np.pi / 400)
    assert y[-1] < 2 * np.pi
    np.testing.assert_allclose(2 * np.pi - y[-1], 2 * np.pi / 400)


def test_frames_differ(distances):
    off = distances[~np.eye(len(distances), dtype=bool)]
    assert off.min() > 0.0


def test_loop_closes(distances):
    assert distances[0, 399] < 0.2 * distances[0, 200]
    consecutive = distances[np.arange(400), (np.arange(400) + 1) % 400]
    assert distances[0, 399] < 2 * consecutive.mean()


def test_distance_grows_away_from_frame_zero(distances):
    d0 = distances[0]
    # Near frame 0 the distance grows monotonically with the angle ...
    assert np.all(np.diff(d0[:11]) > 0)
    assert np.all(np.diff(d0[-11:]) < 0)
    # ... and frames far round the loop are all farther than the near ones.
    assert d0[50:351].min() > d0[1:11].max()


def test_nearest_neighbour_is_an_angular_neighbour(distances):
    n = len(distances)
    d = distances + np.diag(np.full(n, np.inf))
    nearest = d.argmin(axis=1)
    i = np.arange(n)
    assert np.all((nearest == (i + 1) % n) | (nearest == (i - 1) % n))


def test_no_half_turn_symmetry(distances):
    n = len(distances)
    consecutive = distances[np.arange(n), (np.arange(n) + 1) % n].mean()
    assert distances[0, 200] > 5 * consecutive
    # No frame looks like the one half a turn away.
    half = distances[np.arange(n), (np.arange(n) + n // 2) % n]
    assert half.min() > 3 * consecutive


def test_smaller_sizes():
    data = TeapotStandIn().load(n_frames=40, height=20, width=30)
    assert data.X.shape == (40, 20 * 30 * 3)
    assert data.X.dtype == np.float64
    assert 0.0 <= data.X.min() and data.X.max() <= 1.0
    assert data.meta["image_shape"] == [20, 30, 3]
    np.testing.assert_allclose(data.y, 2 * np.pi * np.arange(40) / 40)
    d = cdist(data.X, data.X)
    assert d[0, 20] > d[0, 1] > 0.0


def test_minimum_frames():
    data = TeapotStandIn().load(n_frames=3, height=4, width=5)
    assert data.X.shape == (3, 60)


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"n_frames": 2}, "n_frames"),
        ({"n_frames": 0}, "n_frames"),
        ({"n_frames": 10.0}, "n_frames"),
        ({"n_frames": True}, "n_frames"),
        ({"height": 0}, "height"),
        ({"height": -3}, "height"),
        ({"height": "76"}, "height"),
        ({"width": 0}, "width"),
        ({"width": 1.5}, "width"),
        ({"seed": -1}, "seed"),
        ({"seed": None}, "seed"),
    ],
)
def test_bad_arguments(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        TeapotStandIn().load(**kwargs)
