"""The teapot parser on a synthetic ``Teapots.mat`` with the real file's structure:
a MATLAB struct ``Input`` whose first field is the (23028, 400) pixel matrix, one
column per frame, three colour planes one after another, each column-major."""

import hashlib

import numpy as np
import pytest
from scipy.io import loadmat, savemat

from harness.datasets.teapot import HEIGHT, N_FRAMES, N_VALUES, WIDTH, Teapot, frames_from_columns

H, W = HEIGHT, WIDTH


def _pixel(r, c, p, j):
    """The synthetic value of pixel (row r, column c) of plane p in frame j."""
    return (r + 7 * c + 50 * p + 3 * j) % 256


def _matrix():
    """The (23028, 400) matrix laid out as the authors' file: entry p*H*W + c*H + r of
    column j is pixel (r, c) of plane p in frame j."""
    p, c, r = np.meshgrid(np.arange(3), np.arange(W), np.arange(H), indexing="ij")
    j = np.arange(N_FRAMES)
    column = (r.ravel()[:, None] + 7 * c.ravel()[:, None] + 50 * p.ravel()[:, None]
              + 3 * j[None, :]) % 256
    return column.astype(np.uint8)


@pytest.fixture
def teapot_file(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    path = tmp_path / "Teapots.mat"
    # a struct: a dict becomes a MATLAB struct, its first field the pixel matrix
    savemat(path, {"Input": {"X": _matrix(), "note": "synthetic"}})
    monkeypatch.setattr(Teapot, "known_hash",
                        "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest())
    return path


def test_the_fixture_has_the_real_files_structure(teapot_file):
    struct = loadmat(teapot_file)["Input"]
    assert struct.shape == (1, 1) and struct.dtype.names[0] == "X"
    assert struct[0][0][0].shape == (N_VALUES, N_FRAMES) == (23028, 400)


def test_frames_are_rebuilt_from_planes_in_column_major_order(teapot_file):
    data = Teapot().load()
    assert data.X.shape == (400, 23028) and data.meta["image_shape"] == [76, 101, 3]
    images = np.rint(data.X * 255).astype(int).reshape(400, H, W, 3)
    for j, r, c, p in [(0, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1),
                       (5, 75, 100, 2), (399, 40, 3, 1)]:
        assert images[j, r, c, p] == _pixel(r, c, p, j), (j, r, c, p)
    # known positions of the stored column: down a column first, then across, then planes
    column = _matrix()[:, 7]
    assert images[7, 1, 0, 0] == column[1] and images[7, 0, 1, 0] == column[H]
    assert images[7, 0, 0, 1] == column[H * W] and images[7, 2, 3, 2] == column[2 * H * W + 3 * H + 2]
    assert data.X.min() == 0.0 and data.X.max() == 1.0
    np.testing.assert_allclose(data.y[[0, 100, 200]], [0, np.pi / 2, np.pi])


def test_frames_from_columns_on_a_tiny_image():
    # one frame of 2 x 3 pixels: plane 0 column-major = [[0, 2, 4], [1, 3, 5]]
    column = np.arange(18)[:, None]
    image = frames_from_columns(column, height=2, width=3)[0]
    np.testing.assert_array_equal(image[:, :, 0], [[0, 2, 4], [1, 3, 5]])
    np.testing.assert_array_equal(image[:, :, 2], [[12, 14, 16], [13, 15, 17]])


def test_a_file_without_the_struct_names_what_it_found(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    path = tmp_path / "Teapots.mat"
    savemat(path, {"teapots": np.zeros((1900, 400), np.uint8)})  # the grey 38 x 50 trap
    with pytest.raises(ValueError, match=r"no MATLAB struct 'Input'.*\['teapots'\]"):
        Teapot().parse(path)
    savemat(path, {"Input": {"X": np.zeros((1900, 400), np.uint8)}})
    with pytest.raises(ValueError, match=r"shape \(1900, 400\), expected \(23028, 400\)"):
        Teapot().parse(path)
