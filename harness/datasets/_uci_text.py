"""Shared core of the small UCI classification data sets rebuilt offline, byte for byte.

Iris, Wine and Balance scale are tiny text files of the UCI repository. Nothing has
to be downloaded: each plugin rebuilds the exact bytes of the UCI file (from a copy
bundled with an installed package, or from the rule that generated the file) and
:class:`UCITextDataset` checks them against the sha256 published for the UCI file
(``../shared/DATA.md``) *before* parsing them. Bytes that do not match are never
used: :meth:`UCITextDataset.load` raises :class:`ReconstructionMismatchError`, which
the workflow records as a gap (it is a :class:`harness.plugin.DataUnavailableError`;
e.g. a future package release changed its bundled copy).

The thesis' Table 2.1 lists fewer inputs for these sets than the UCI files hold
(iris 128 of 150, wine 152 of 178, balance 535 of 625) and does not say why. We use
the full files and keep the thesis' proportion of training inputs; the plugin's
``thesis_split`` holds the thesis' numbers, ``meta["split_protocol"]`` the derived
protocol and ``table_note`` one sentence stating the difference.
"""

from __future__ import annotations

import abc
import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from harness.plugin import Dataset, DatasetPlugin, DataUnavailableError

__all__ = [
    "ReconstructionMismatchError",
    "UCITextDataset",
    "check_sha256",
    "join_lines",
    "parse_uci_text",
    "sha256_hex",
    "split_protocol",
    "uci_number",
]

UCI_BASE_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases/"


class ReconstructionMismatchError(DataUnavailableError):
    """Rebuilt bytes differ from the published file: the data is not used."""


def sha256_hex(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def check_sha256(data: bytes, expected: str, what: str) -> str:
    """Return the sha256 of ``data``; raise :class:`ReconstructionMismatchError` unless
    it is ``expected``. ``what`` names the file in the message."""
    actual = sha256_hex(data)
    if actual != expected.lower():
        raise ReconstructionMismatchError(
            f"{what}: the rebuilt bytes are not the published file (sha256 {actual}, "
            f"expected {expected}); the data was not used. The package copy it is "
            f"rebuilt from may have changed; compare with the UCI file by hand."
        )
    return actual


def uci_number(value: float) -> str:
    """A number as the UCI files write it: shortest round-trip decimal, integers
    without a fraction, no leading zero (``0.28 -> ".28"``, ``127.0 -> "127"``)."""
    text = repr(float(value))
    if "e" in text or "n" in text:  # exponent, nan, inf: not in these files
        raise ValueError(f"{value!r} has no plain UCI spelling")
    if text.endswith(".0"):
        text = text[:-2]
    if text.startswith("0."):
        text = text[1:]
    elif text.startswith("-0."):
        text = "-" + text[2:]
    return text


def join_lines(rows: Iterable[Sequence[str]], trailing: str = "\n") -> bytes:
    """Comma-joined rows, one per line (``\\n``), followed by ``trailing``.

    The last line of a UCI file ends with ``\\n``; some files add a blank line
    (``trailing="\\n\\n"``).
    """
    return ("\n".join(",".join(row) for row in rows) + trailing).encode("ascii")


def parse_uci_text(data: bytes, label_column: int,
                   label_type: Callable[[str], Any] = str) -> tuple[np.ndarray, np.ndarray]:
    """Comma-separated UCI text to ``(X, y)``: X float64 from every column but
    ``label_column`` (0 or -1), y the labels converted by ``label_type``. Blank lines
    are skipped; rows of unequal length are an error."""
    rows = [line.split(",") for line in data.decode("ascii").splitlines() if line.strip()]
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ValueError(f"rows of different lengths {sorted(widths)} in UCI text")
    labels = [row.pop(label_column) for row in rows]
    X = np.array(rows, dtype=np.float64)
    y = np.array([label_type(label.strip()) for label in labels])
    return X, y


def split_protocol(thesis: dict[str, int], n_samples: int) -> dict[str, Any]:
    """The thesis' train/test proportion applied to the full file.

    ``thesis`` holds Table 2.1's ``n_inputs``, ``n_training``, ``n_testing``,
    ``pct_validation`` and ``n_runs``. The training fraction is
    ``n_training / n_inputs``; ``n_train`` / ``n_test`` are that fraction of the
    ``n_samples`` inputs of the full file, rounded.
    """
    fraction = thesis["n_training"] / thesis["n_inputs"]
    n_train = int(round(fraction * n_samples))
    return {
        "n_train_fraction": fraction,
        "n_samples": n_samples,
        "n_train": n_train,
        "n_test": n_samples - n_train,
        **{f"thesis_{key}": value for key, value in thesis.items()},
    }


class UCITextDataset(DatasetPlugin):
    """Base of the UCI text files rebuilt offline and checked against a published hash.

    Subclasses implement :meth:`reconstruct` (the file's bytes, unchecked) and set:

    Class attributes
    ----------------
    uci_path : str
        Path of the file under the UCI repository (``iris/iris.data``).
    sha256 : str
        Published sha256 of the UCI file.
    source : str
        ``"package"`` (rebuilt from an installed package's copy) or ``"generated"``.
    rebuilt_from : str
        One line: what the bytes are rebuilt from.
    label_column : int
        Column of the class label in the file (0 or -1).
    label_type : callable
        Converts the label text (``str`` or ``int``).
    n_samples : int
        Rows of the UCI file.
    thesis_split : dict
        Table 2.1's ``n_inputs``, ``n_training``, ``n_testing``, ``pct_validation``,
        ``n_runs`` for this data set.
    table_note : str
        One sentence for the notes under a table this data set appears in.
    """

    tasks = ("classification",)
    uci_path: ClassVar[str] = ""
    sha256: ClassVar[str] = ""
    source: ClassVar[str] = "package"
    rebuilt_from: ClassVar[str] = ""
    label_column: ClassVar[int] = -1
    label_type: ClassVar[Callable[[str], Any]] = str
    n_samples: ClassVar[int] = 0
    thesis_split: ClassVar[dict[str, int]] = {}
    table_note: ClassVar[str] = ""

    @classmethod
    def url(cls) -> str:
        return UCI_BASE_URL + cls.uci_path

    @abc.abstractmethod
    def reconstruct(self) -> bytes:
        """The bytes of the UCI file as rebuilt here, not yet checked."""

    def uci_bytes(self) -> bytes:
        """The rebuilt bytes, checked against :attr:`sha256` (raises on mismatch)."""
        data = self.reconstruct()
        check_sha256(data, self.sha256, f"{self.name} ({self.url()})")
        return data

    def available(self) -> tuple[bool, str]:
        try:
            self.uci_bytes()
        except ImportError as exc:
            return False, f"{self.name}: cannot rebuild {self.uci_path}: {exc}"
        except DataUnavailableError as exc:
            return False, str(exc)
        return True, ""

    def fetch(self) -> str:
        self.uci_bytes()
        return (f"{self.name}: nothing to fetch; {self.uci_path} rebuilt from "
                f"{self.rebuilt_from}, sha256 {self.sha256} verified")

    def load(self) -> Dataset:
        data = self.uci_bytes()
        X, y = parse_uci_text(data, self.label_column, self.label_type)
        if X.shape[0] != self.n_samples:  # the hash makes this impossible; cheap guard
            raise ValueError(f"{self.name}: parsed {X.shape[0]} rows, expected {self.n_samples}")
        meta = {
            "source": self.source,
            "rebuilt_from": self.rebuilt_from,
            "url": self.url(),
            "sha256": sha256_hex(data),
            "hash_checked": f"sha256:{self.sha256}",
            "stand_in_for": None,
            "thesis_name": self.thesis_name,
            "description": self.description,
            "split_protocol": split_protocol(self.thesis_split, X.shape[0]),
            "table_note": self.table_note,
        }
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), y, meta)
