"""Isolet (Table 2.1: 6238 training + 1559 test utterances of 26 letters, 617
features, 172 principal components)."""

from __future__ import annotations

import io
import zipfile

import numpy as np

from harness.datasets._preprocess import pca_project
from harness.datasets._remote import RemoteDataset

PARTS = ("isolet1+2+3+4.data", "isolet5.data")


def _member_text(archive: zipfile.ZipFile, stem: str) -> bytes:
    """The bytes of ``stem`` in the archive, plain or unix-compressed (``.Z``)."""
    names = {name.rsplit("/", 1)[-1]: name for name in archive.namelist()}
    if stem in names:
        return archive.read(names[stem])
    if stem + ".Z" in names:
        try:
            import unlzw3
        except ImportError as exc:
            raise ImportError(f"{stem}.Z is unix-compressed: pip install unlzw3") from exc
        return unlzw3.unlzw(archive.read(names[stem + ".Z"]))
    raise ValueError(f"the archive has no {stem} (members: {sorted(names)[:6]} ...)")


class Isolet(RemoteDataset):
    """UCI isolet: spoken letters, 617 acoustic features, 26 classes.

    File: UCI's ``isolet.zip`` (``isolet1+2+3+4.data`` = the 6238 training
    utterances of speakers 1-120 and ``isolet5.data`` = the 1559 test utterances of
    speakers 121-150; plain or ``.Z`` members). No hash was ever published: the first
    download pins one. Each row is 617 comma-separated features and the class
    number 1-26 (``1.`` = A).

    Pre-processing (thesis 2.1.6): "We reduced the input dimensionality (originally
    at 617) by projecting the data onto its leading 172 principal components --
    enough to account for 95 % of its total variance"; the components are fitted on
    the training part (the thesis does not say) and ``meta["pca_variance_captured"]``
    reports the fraction kept. Split: the pre-defined one (training rows first).

    Parameters (``datasets: isolet:``)
    ----------
    n_components : int or None, default 172
    """

    name = "isolet"
    thesis_name = "isolet"
    tasks = ("classification",)
    description = "UCI isolet, 6238 + 1559 utterances, 617 features, 172 PCs (downloaded)"
    url = "https://archive.ics.uci.edu/static/public/54/isolet.zip"
    filename = "isolet.zip"
    known_hash = None
    params = {"n_components": 172}
    table_note = ("isolet: the pre-defined 6238 / 1559 split (one run, as the thesis), 172 "
                  "principal components fitted on the training part.")

    def parse(self, path, n_components: int | None = 172):
        with zipfile.ZipFile(path) as archive:
            parts = [np.loadtxt(io.BytesIO(_member_text(archive, stem)), delimiter=",", ndmin=2)
                     for stem in PARTS]
        n_train = len(parts[0])
        data = np.vstack(parts)
        X, y = data[:, :-1], data[:, -1].astype(np.int64)
        extra = {"split_protocol": {"predefined_n_train": n_train, "n_train": n_train,
                                    "n_test": len(y) - n_train}}
        if n_components is not None:
            X, extra["pca_variance_captured"] = pca_project(X, n_components, fit_rows=n_train)
            extra["pca_components"] = int(n_components)
        return X, y, extra
