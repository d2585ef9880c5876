"""Frey faces (Table 3.2: n = 1965 facial expressions of one person)."""

from __future__ import annotations

import io
import uuid
import warnings
from pathlib import Path

import numpy as np
from scipy.io import loadmat, savemat

from harness.datasets._remote import RemoteDataset
from harness.data_cache import data_dir

N_PIXELS, N_IMAGES = 560, 1965
GITHUB = "https://raw.githubusercontent.com/"


def _as_pixels(values, what: str) -> np.ndarray:
    """``values`` (560 x 1965, one image per column) as uint8, or a ValueError."""
    values = np.asarray(values)
    if values.shape != (N_PIXELS, N_IMAGES):
        raise ValueError(f"{what} has shape {values.shape}, expected ({N_PIXELS}, {N_IMAGES})")
    if values.dtype != np.uint8:
        numbers = values.astype(np.float64)
        if not np.array_equal(numbers, np.round(numbers)) or numbers.min() < 0 \
                or numbers.max() > 255:
            raise ValueError(f"{what} holds values that are not bytes 0..255")
        values = numbers.astype(np.uint8)
    return values


def read_mat_pixels(path) -> np.ndarray:
    """The (560, 1965) uint8 pixels ``ff`` of Roweis' ``frey_rawface.mat``."""
    variables = loadmat(path)
    if "ff" not in variables:
        found = sorted(k for k in variables if not k.startswith("__"))
        raise ValueError(f"{path}: no variable 'ff' (Roweis' frey_rawface.mat has one); "
                         f"found {found}")
    return _as_pixels(variables["ff"], f"{path}: variable ff")


def read_rda_pixels(path) -> np.ndarray:
    """The same pixels from R data (``frey``: a data frame of 560 rows, one image per
    column, as in the R package loon.data), read with ``rdata`` (no R needed)."""
    import rdata

    with warnings.catch_warnings():  # "Unknown encoding. Assumed ASCII."
        warnings.simplefilter("ignore", UserWarning)
        objects = rdata.read_rda(io.BytesIO(Path(path).read_bytes()))
    if len(objects) != 1:
        raise ValueError(f"{path}: R data with objects {sorted(objects)}, expected one (frey)")
    (name, frame), = objects.items()
    return _as_pixels(np.asarray(frame), f"{path}: R object {name!r}")


class Frey(RemoteDataset):
    """Brendan Frey's face images: 1965 grey images of 20 x 28 = 560 pixels.

    Source: Roweis' ``frey_rawface.mat``, variable ``ff`` (560 x 1965, uint8). The
    thesis' Table 3.2 says input dim 650; 20 x 28 = 560, so 650 looks like a typo
    (``../shared/DATA.md``). X holds pixel values / 255, one image per row (row-major
    28 x 20).

    Verification: no hash was ever published and the canonical host may go; the data
    set is pinned by its *content*, the sha256 of the pixels as one uint8 array
    (1965, 560) (``ff`` transposed: one image per row), computed from the R copy in
    ``../shared/data/real/frey.rda``. The same pixels are public as R data
    (``loon.data``'s ``frey.rda``, the mirror, at a fixed commit): an ``.rda``, from
    the mirror or given with ``harness fetch frey --file frey.rda``, is converted to
    the ``.mat`` form (``ff``) the loader reads, and verified by the same hash.
    """

    name = "frey"
    thesis_name = "frey"
    description = "Frey faces, 1965 images of 20 x 28 pixels (downloaded)"
    url = "https://cs.nyu.edu/~roweis/data/frey_rawface.mat"
    mirrors = (GITHUB + "great-northern-diver/loon.data/"
                        "6d13760cae569175b562bfd16f35f1421b04c4b5/data/frey.rda",)
    filename = "frey_rawface.mat"
    known_hash = "content-sha256:2438ba4f0d2a6bd8bac43de756141eaa33c8d248dd613d464bdb1210d9b7af78"

    def content(self, path) -> np.ndarray:
        return np.ascontiguousarray(read_mat_pixels(path).T)

    def cache_form(self, src: Path) -> Path:
        """A MATLAB file as it is; R data converted to a ``.mat`` holding ``ff``."""
        with open(src, "rb") as fh:
            if fh.read(6) == b"MATLAB":
                return src
        try:
            pixels = read_rda_pixels(src)
        except ValueError:
            raise
        except Exception as exc:  # rdata's errors for a file that is not R data vary
            raise ValueError(f"{src} is neither a MATLAB file (Roweis' frey_rawface.mat) "
                             f"nor R data (frey.rda): {type(exc).__name__}: {exc}") from None
        folder = data_dir() / ".downloads"
        folder.mkdir(parents=True, exist_ok=True)
        converted = folder / f"frey_rawface.{uuid.uuid4().hex}.mat"
        savemat(converted, {"ff": pixels})
        return converted

    def parse(self, path, **params):
        X = self.content(path).astype(np.float64) / 255.0
        return X, None, {"image_shape": [28, 20]}
