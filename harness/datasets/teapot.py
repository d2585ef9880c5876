"""The rotating teapot (Table 3.2: 400 colour images of 76 x 101 pixels)."""

from __future__ import annotations

import numpy as np
from scipy.io import loadmat

from harness.datasets._remote import RemoteDataset

N_FRAMES, HEIGHT, WIDTH, PLANES = 400, 76, 101, 3
N_VALUES = HEIGHT * WIDTH * PLANES  # 23028


def read_teapot_pixels(path) -> np.ndarray:
    """The pixel matrix of the authors' ``Teapots.mat``.

    The file holds a MATLAB struct ``Input``; scipy reads it as a (1, 1) object
    array and its first field, ``loadmat(path)["Input"][0][0][0]``, is the
    (23028, 400) pixel matrix: one column per frame.

    Parameters
    ----------
    path : str or Path
        The ``.mat`` file.

    Returns
    -------
    numpy.ndarray
        The (23028, 400) matrix as stored.

    Raises
    ------
    ValueError
        If the file has no struct ``Input`` or its first field is not (23028, 400):
        e.g. the 38 x 50 grey ``teapots.mat`` of many course repositories.
    """
    variables = loadmat(path)
    if "Input" not in variables:
        found = sorted(k for k in variables if not k.startswith("__"))
        raise ValueError(f"{path}: no MATLAB struct 'Input' (the MVU authors' Teapots.mat "
                         f"has one); found variables {found}")
    struct = variables["Input"]
    if struct.dtype.names is None or struct.size == 0:
        raise ValueError(f"{path}: 'Input' is a {struct.dtype} array of shape {struct.shape}, "
                         f"expected a MATLAB struct")
    pixels = np.asarray(struct[0][0][0])
    if pixels.shape != (N_VALUES, N_FRAMES):
        raise ValueError(f"{path}: the first field of 'Input' ({struct.dtype.names[0]!r}) has "
                         f"shape {pixels.shape}, expected ({N_VALUES}, {N_FRAMES}): 400 "
                         f"colour frames of {HEIGHT} x {WIDTH} x {PLANES}")
    return pixels


def frames_from_columns(pixels: np.ndarray, height: int = HEIGHT,
                        width: int = WIDTH) -> np.ndarray:
    """Images ``(n, height, width, 3)`` from the columns of the authors' matrix.

    Each column holds three colour planes one after the other, each plane stored
    column-major (MATLAB's order): entry ``p * h * w + c * h + r`` of column ``j`` is
    pixel (row ``r``, column ``c``) of plane ``p`` in frame ``j``.
    """
    n = pixels.shape[1]
    return pixels.T.reshape(n, PLANES, width, height).transpose(0, 3, 2, 1)


class Teapot(RemoteDataset):
    """Weinberger's teapot images: 400 frames of a teapot rotating through 360 degrees,
    76 x 101 x 3 = 23028 dimensions.

    The public copy (``calebralphs/maximum-variance-unfolding``, ``Teapots.mat``) has
    no published sha256; it is verified by its git blob SHA-1
    (``../shared/DATA.md``). Beware: many course repositories ship a different 38 x 50
    grey ``teapots.mat``; the hash check rejects it. The pixels are the first field of
    the struct ``Input`` (:func:`read_teapot_pixels`); each row of ``X`` is one frame
    as a row-major 76 x 101 x 3 image (:func:`frames_from_columns`), values / 255.
    ``y`` is the frame angle 2 pi i / 400.
    """

    name = "teapot"
    thesis_name = "teapot"
    description = "rotating teapot, 400 colour images of 76 x 101 pixels (downloaded)"
    url = ("https://github.com/calebralphs/maximum-variance-unfolding/raw/master/"
           "Teapots.mat")
    filename = "Teapots.mat"
    known_hash = "gitblob:650e11dd9912c51b3e6275f0d25c84f2db09bc9c"

    def parse(self, path, **params):
        pixels = read_teapot_pixels(path)
        low, high = float(pixels.min()), float(pixels.max())
        if low < 0 or high > 255:
            raise ValueError(f"{path}: pixel values {low}..{high}, expected 0..255")
        images = frames_from_columns(pixels)
        X = images.reshape(N_FRAMES, -1).astype(np.float64) / 255.0
        y = 2 * np.pi * np.arange(N_FRAMES) / N_FRAMES
        return X, y, {"image_shape": [HEIGHT, WIDTH, PLANES],
                      "source_shape": list(pixels.shape)}
