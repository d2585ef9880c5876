"""USPS handwritten digits (thesis 3.1.5, Fig. 3.11: MVU of the twos; 3.1.9: SVMs on
MVU kernels), the libsvm copy of the 7291 training and 2007 test images."""

from __future__ import annotations

import numpy as np

from harness.datasets._remote import RemoteDataset, RemoteFile

LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/"
N_PIXELS = 256
PARTS = ("train", "test", "both")


def read_libsvm_digits(path) -> tuple[np.ndarray, np.ndarray]:
    """Dense ``(n, 256)`` pixels and digit labels 0-9 of one libsvm USPS file
    (``.bz2`` is decompressed by scikit-learn's reader)."""
    from sklearn.datasets import load_svmlight_file

    X, labels = load_svmlight_file(str(path), n_features=N_PIXELS, dtype=np.float64)
    labels = labels.astype(np.int64)
    if labels.min() < 1 or labels.max() > 10:
        raise ValueError(f"{path}: labels {labels.min()}..{labels.max()}, expected 1..10")
    return X.toarray(), labels - 1


class USPS(RemoteDataset):
    """USPS digits: 16 x 16 grey images (p = 256), 7291 training + 2007 test.

    Files: libsvm's ``usps.bz2`` and ``usps.t.bz2`` (``../shared/DATA.md``), checked
    against the sha256 sums torchvision's prototype USPS builder publishes for them
    (its older loader pins md5 ``ec16c51d...`` and ``8ea070ee...``). The test file is
    also on GitHub (kpriors, at a fixed commit), tried after libsvm's URL.
    Each row is ``label index:value ...`` with labels 1-10 = digits 0-9 (torchvision's
    reading; the libsvm page does not say) and pixel values in [-1, 1], kept as they
    are.

    Thesis use: Fig. 3.11 unfolds "a subset of n = 953 handwritten TWOS" and 3.1.9
    trains SVMs on MVU kernels of 810 + 90 examples. This copy has 731 + 198 = 929
    twos; the thesis does not say where its 953 come from (another USPS release has
    1100 per digit), so ``digits=[2], part="both"`` is the nearest reading and the
    record says how many points it has.

    Parameters (``datasets: usps:``)
    ----------
    digits : list of int or None, default None
        Keep only these digits (None = all ten).
    part : {"train", "test", "both"}, default "both"
        Which file(s). With ``"both"`` the training rows come first and the split is
        the pre-defined one.
    """

    name = "usps"
    thesis_name = "usps"
    tasks = ("classification", "embedding")
    description = "USPS digits, 7291 + 2007 images of 16 x 16 pixels (downloaded, libsvm copy)"
    url = LIBSVM + "usps.bz2"
    filename = "usps.bz2"
    known_hash = "sha256:3771e9dd6ba685185f89867b6e249233dd74652389f263963b3b741e994b034f"
    extra_files = (RemoteFile(
        LIBSVM + "usps.t.bz2", "usps.t.bz2",
        "sha256:a9c0164e797d60142a50604917f0baa604f326e9a689698763793fa5d12ffc4e",
        mirrors=("https://raw.githubusercontent.com/team-approx-bayes/kpriors/"
                 "7113fe83a025bc6eba02b4d9fa8c9f10e04c6366/data/usps.t.bz2",)),)
    params = {"digits": None, "part": "both"}
    table_note = ("usps: libsvm's copy (7291 training + 2007 test images, sha256-checked); "
                  "digit labels 0-9 = file labels 1-10.")

    def parse(self, path, digits: list[int] | None = None, part: str = "both"):
        if part not in PARTS:
            raise ValueError(f"usps: part={part!r}; use one of {PARTS}")
        if digits is not None and not set(digits) <= set(range(10)):
            raise ValueError(f"usps: digits={digits!r}; use digits between 0 and 9")
        chosen = {"train": [path], "test": [self.file_path("usps.t.bz2")],
                  "both": [path, self.file_path("usps.t.bz2")]}[part]
        parts = [read_libsvm_digits(p) for p in chosen]
        if digits is not None:
            parts = [(X[np.isin(y, digits)], y[np.isin(y, digits)]) for X, y in parts]
        X = np.vstack([X for X, _ in parts])
        y = np.concatenate([y for _, y in parts])
        extra = {"image_shape": [16, 16], "part": part,
                 "digits": None if digits is None else sorted(digits),
                 "n_points": int(len(y))}
        if part == "both":
            n_train = len(parts[0][1])
            extra["split_protocol"] = {"predefined_n_train": n_train, "n_train": n_train,
                                       "n_test": len(y) - n_train}
        return X, y, extra
