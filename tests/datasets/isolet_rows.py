"""Deterministic rows in the UCI isolet format (617 features, then the class 1-26 as
``c.``), the text behind the LZW fixtures ``fixtures/isolet*.data.Z``."""

import numpy as np


def isolet_values(n: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Features (``n`` x 617, 4 decimals in [-1, 1)) and labels 1-26 of the rows."""
    i, j = np.meshgrid(np.arange(n) + offset, np.arange(617), indexing="ij")
    X = ((i * 31 + j * 17) % 2000 - 1000) / 1000
    return X, (np.arange(n) + offset) % 26 + 1


def isolet_text(n: int, offset: int) -> bytes:
    """The rows as UCI writes them: ``v1, v2, ..., v617, c.`` one per line."""
    X, labels = isolet_values(n, offset)
    return "".join(", ".join(f"{v:.4f}" for v in x) + f", {c}.\n"
                   for x, c in zip(X, labels)).encode()
