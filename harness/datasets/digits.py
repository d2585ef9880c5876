"""scikit-learn's 8x8 digits: the LMNN peers comparison (not a thesis data set)."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import load_digits

from harness.plugin import Dataset, DatasetPlugin


class Digits(DatasetPlugin):
    """The 1797 8x8 handwritten digits bundled with scikit-learn (UCI optdigits test
    set), 64 features of 0-16, 10 classes.

    Not one of the thesis' data sets (its USPS and MNIST are larger); the issue's
    speed and accuracy targets for LMNN against metric-learn and pylmnn are set on it
    (k = 3, stratified 70/30 splits). It is also a clustering data set (ten clusters
    scored against the digit labels; spectral clustering, statwiki STAT 841 F14
    lectures 7-8).
    """

    name = "digits"
    thesis_name = "digits"
    tasks = ("classification", "clustering")
    description = "scikit-learn load_digits (1797 x 64, 10 classes; bundled)"

    def load(self) -> Dataset:
        bunch = load_digits()
        meta = {"source": "package", "stand_in_for": None, "thesis_name": self.thesis_name,
                "description": self.description,
                "split_protocol": {"n_train_fraction": 0.7}}
        return Dataset(np.asarray(bunch.data, dtype=np.float64), bunch.target, meta)
