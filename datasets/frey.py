"""Frey faces (Table 3.2: n = 1965 facial expressions of one person)."""

from __future__ import annotations

import numpy as np
from scipy.io import loadmat

from datasets._remote import RemoteDataset


class Frey(RemoteDataset):
    """Brendan Frey's face images: 1965 grey images of 20 x 28 = 560 pixels.

    Source: Roweis' ``frey_rawface.mat``, variable ``ff`` (560 x 1965, uint8). The
    thesis' Table 3.2 says input dim 650; 20 x 28 = 560, so 650 looks like a typo
    (``../shared/DATA.md``). No hash was ever published: the first download pins one.
    X holds pixel values / 255, one image per row (row-major 28 x 20).
    """

    name = "frey"
    thesis_name = "frey"
    description = "Frey faces, 1965 images of 20 x 28 pixels (downloaded)"
    url = "https://cs.nyu.edu/~roweis/data/frey_rawface.mat"
    filename = "frey_rawface.mat"
    known_hash = None

    def parse(self, path, **params):
        ff = loadmat(path)["ff"]
        if ff.shape != (560, 1965):
            raise ValueError(f"{path}: variable ff has shape {ff.shape}, expected (560, 1965)")
        X = ff.T.astype(np.float64) / 255.0
        return X, None, {"image_shape": [28, 20]}
