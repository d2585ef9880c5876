"""The rotating teapot (Table 3.2: 400 colour images of 76 x 101 pixels)."""

from __future__ import annotations

import numpy as np
from scipy.io import loadmat

from datasets._remote import RemoteDataset

N_FRAMES, HEIGHT, WIDTH = 400, 76, 101


class Teapot(RemoteDataset):
    """Weinberger's teapot images: 400 frames of a teapot rotating through 360 degrees,
    76 x 101 x 3 = 23028 dimensions.

    The public copy (``calebralphs/maximum-variance-unfolding``, ``Teapots.mat``) has
    no published sha256; it is verified by its git blob SHA-1
    (``../shared/DATA.md``). Beware: many course repositories ship a different 38 x 50
    grey ``teapots.mat``; the hash check rejects it. The parser takes the one numeric
    array with 400 * 23028 entries, frames on the axis of length 400. ``y`` is the
    frame angle 2 pi i / 400.
    """

    name = "teapot"
    thesis_name = "teapot"
    description = "rotating teapot, 400 colour images of 76 x 101 pixels (downloaded)"
    url = ("https://github.com/calebralphs/maximum-variance-unfolding/raw/master/"
           "Teapots.mat")
    filename = "Teapots.mat"
    known_hash = "gitblob:650e11dd9912c51b3e6275f0d25c84f2db09bc9c"

    def parse(self, path, **params):
        size = N_FRAMES * HEIGHT * WIDTH * 3
        arrays = [v for k, v in loadmat(path).items()
                  if not k.startswith("__") and isinstance(v, np.ndarray) and v.size == size]
        if len(arrays) != 1:
            raise ValueError(f"{path}: expected one array of {size} entries, found {len(arrays)}")
        A = arrays[0]
        axis = A.shape.index(N_FRAMES)
        X = np.moveaxis(A, axis, 0).reshape(N_FRAMES, -1).astype(np.float64)
        if X.max() > 1.0:
            X /= 255.0
        y = 2 * np.pi * np.arange(N_FRAMES) / N_FRAMES
        return X, y, {"image_shape": [HEIGHT, WIDTH, 3], "source_shape": list(A.shape)}
