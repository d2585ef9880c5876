"""Extended Yale B, cropped (Table 2.1 "yalefaces": 2414 frontal faces of 38 people,
sub-sampled, 200 principal components)."""

from __future__ import annotations

import re
import zipfile

import numpy as np

from datasets._preprocess import pca_project
from datasets._remote import RemoteDataset
from datasets._uci_text import split_protocol

_SUBJECT = re.compile(r"yaleB(\d+)_P00A[+-]\d+E[+-]\d+\.pgm$")


def read_pgm(data: bytes) -> np.ndarray:
    """A binary (P5) 8-bit PGM image as a uint8 array (height x width)."""
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; '#' comments allowed
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P5" or int(fields[3]) > 255:
        raise ValueError(f"not an 8-bit binary PGM (header {fields})")
    width, height = int(fields[1]), int(fields[2])
    pixels = np.frombuffer(data, dtype=np.uint8, count=width * height, offset=pos + 1)
    return pixels.reshape(height, width)


class YaleB(RemoteDataset):
    """Extended Yale face database B, cropped: frontal faces of 38 subjects under 64
    illuminations (192 x 168 pixels).

    File: ``CroppedYale.zip`` (no published hash: the first download pins one). The
    images are ``yaleBxx/yaleBxx_P00A<azimuth>E<elevation>.pgm``; the ``Ambient``
    image of each subject is not one of the 64 illuminations and is left out, which
    gives the thesis' 2414 images. ``y`` is the subject number.

    Pre-processing (thesis 2.1.6): "The input data was sub-sampled and projected
    onto its leading 200 principal components". The thesis does not say by how much;
    we keep every ``subsample``-th pixel in both directions (4: 48 x 42 = 2016
    pixels), scale to [0, 1] and fit PCA on all images.

    Split: the thesis balances the classes, 45 random training and 19 test images
    per subject, 10 runs, 30 % of the training part for validation; our stratified
    70/30 splits (1690 / 724, the thesis' totals) keep each subject's share, which
    for 64 images is 45 / 19 up to rounding.

    Parameters (``datasets: yale_b:``)
    ----------
    subsample : int, default 4
    n_components : int or None, default 200
    """

    name = "yale_b"
    thesis_name = "yalefaces"
    tasks = ("classification",)
    description = "extended Yale B cropped, 2414 faces of 38 people, 200 PCs (downloaded)"
    url = "http://vision.ucsd.edu/extyaleb/CroppedYaleBZip/CroppedYale.zip"
    filename = "CroppedYale.zip"
    known_hash = None
    params = {"subsample": 4, "n_components": 200}
    thesis_split = {"n_inputs": 2414, "n_training": 1690, "n_testing": 724,
                    "pct_validation": 30, "n_runs": 10}
    table_note = ("yalefaces: the 2414 non-ambient cropped images, every 4th pixel "
                  "(48 x 42), 200 principal components; stratified 70/30 splits instead "
                  "of the thesis' 45 / 19 images per subject.")

    def parse(self, path, subsample: int = 4, n_components: int | None = 200):
        images, subjects = [], []
        with zipfile.ZipFile(path) as archive:
            for name in sorted(archive.namelist()):
                match = _SUBJECT.search(name)
                if match is None:  # folders, Ambient images, notes
                    continue
                image = read_pgm(archive.read(name))[::subsample, ::subsample]
                images.append(image.ravel() / 255.0)
                subjects.append(int(match.group(1)))
        if len({im.size for im in images}) != 1:
            raise ValueError(f"{path}: images of different sizes")
        X = np.vstack(images)
        extra = {"image_shape": list(image.shape), "n_subjects": len(set(subjects)),
                 "split_protocol": split_protocol(self.thesis_split, len(X))}
        if n_components is not None:
            X, extra["pca_variance_captured"] = pca_project(X, n_components)
            extra["pca_components"] = int(n_components)
        return X, np.array(subjects), extra
