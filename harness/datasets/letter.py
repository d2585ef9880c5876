"""Letter recognition (Table 2.1: 20000 inputs, 16 features, 26 classes)."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

from harness.datasets._package_rebuild import PackageRebuiltDataset, deb_member
from harness.datasets._uci_text import join_lines, parse_uci_text, split_protocol

RDA_MEMBER = "./usr/lib/R/site-library/mlbench/data/LetterRecognition.rda"


class Letter(PackageRebuiltDataset):
    """The UCI letter-recognition file: 20000 letters, 16 integer features, 26 classes.

    Offline source: Debian's ``r-cran-mlbench`` (bookworm 2.1-3-1) carries the data
    as ``LetterRecognition.rda``; it is read with the ``rdata`` package (no R needed),
    written back as UCI text (``T,2,8,3,...``, one row per line, final newline) and
    kept only if the bytes hash to the UCI file's published sha256
    (``../shared/DATA.md``). Otherwise the UCI URL is tried.

    Split protocol: Table 2.1 uses all 20000 inputs, 14000 training / 6000 testing,
    10 runs of random splits and no validation split (``pct_validation`` 0); with a
    random split per run we keep that fraction (0.7). ``y`` holds the letters.
    """

    name = "letter"
    thesis_name = "letters"
    tasks = ("classification",)
    description = ("UCI letter recognition (20000 x 16, 26 classes; rebuilt from Debian "
                   "r-cran-mlbench)")
    url = ("https://archive.ics.uci.edu/ml/machine-learning-databases/letter-recognition/"
           "letter-recognition.data")
    filename = "letter-recognition.data"
    known_hash = "sha256:2b89f3602cf768d3c8355267d2f13f2417809e101fc2b5ceee10db19a60de6e2"
    package_client, package_spec = "apt", "r-cran-mlbench:amd64=2.1-3-1"
    package_url = ("http://deb.debian.org/debian/pool/main/r/r-cran-mlbench/"
                   "r-cran-mlbench_2.1-3-1_amd64.deb")
    package_sha256 = "2f1127f7b5e7d08703b13b52ef1976a0c355a7660d6ac575e29b87b13921bc06"
    package_name = "Debian r-cran-mlbench 2.1-3-1 (LetterRecognition.rda)"
    table_note = ("letters: 10 random stratified 70/30 splits of the 20000 letters "
                  "(14000 / 6000, the thesis' sizes).")
    thesis_split = {"n_inputs": 20000, "n_training": 14000, "n_testing": 6000,
                    "pct_validation": 0, "n_runs": 10}

    def rebuild(self, package: Path) -> dict[str, bytes]:
        import rdata

        with warnings.catch_warnings():  # "Unknown encoding. Assumed ASCII." (it is)
            warnings.simplefilter("ignore", UserWarning)
            frame = rdata.read_rda(io.BytesIO(deb_member(package, RDA_MEMBER)))["LetterRecognition"]
        rows = [[str(row[0])] + [str(int(v)) for v in row[1:]]
                for row in frame.itertuples(index=False)]
        return {self.filename: join_lines(rows)}

    def parse(self, path, **params):
        X, y = parse_uci_text(Path(path).read_bytes(), label_column=0)
        return X, y, {"split_protocol": split_protocol(self.thesis_split, len(X))}
